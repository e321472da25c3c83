import type { Editor as TipTap } from '@tiptap/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api } from './api';
import { HistoryList } from './HistoryList';
import { LibraryPanel, type OpenTarget } from './Library';
import { escapeHtml, placeholders, pluralCategories, type Text, type Value } from './model';
import { RichEditor } from './RichEditor';
import type { WorkspaceData } from './useWorkspaceData';

interface Draft {
  html: string;
  plain: string;
  plurals: Record<string, string>;
  status: string;
  assignee: string;
  notes: string;
  characterLimit: string;
  tags: string;
}

const draftOf = (value: Value, tags: string[]): Draft => ({
  html: value.richText,
  plain: value.text,
  plurals: Object.fromEntries(value.plurals.map((p) => [p.form, p.text])),
  status: value.status,
  assignee: value.assignee ?? '',
  notes: value.notes,
  characterLimit: value.characterLimit === null ? '' : String(value.characterLimit),
  tags: tags.join(', '),
});

interface Finding {
  message: string;
  kind: string;
  start: number;
}

/** A text item or component opened beside its list: base text, one variant beside it, history. */
export function Editor({
  text,
  data,
  canEdit,
  onSaved,
  onClose,
  onOpen,
}: {
  text: Text;
  data: WorkspaceData;
  canEdit: boolean;
  onSaved: () => Promise<void>;
  onClose: () => void;
  onOpen?: (where: OpenTarget, developerId: string) => void;
}) {
  const [variantId, setVariantId] = useState<string>('');
  return (
    <section className="editor" aria-label={`Editing ${text.developerId}`}>
      <div className="editor-head">
        <h2>{text.name ?? text.developerId}</h2>
        <button type="button" onClick={onClose} aria-label="Close editor">
          ×
        </button>
      </div>
      <p className="muted">
        Developer ID: <code>{text.developerId}</code>
        {text.blockName && <> · block {text.blockName}</>}
        {text.componentId && <> · instance of {text.componentId}</>}
      </p>
      <label>
        Variant beside the base text{' '}
        <select value={variantId} onChange={(e) => setVariantId(e.target.value)}>
          <option value="">None</option>
          {data.variants.map((v) => (
            <option key={v.id} value={v.id}>
              {v.name}
            </option>
          ))}
        </select>
      </label>
      <div className="side-by-side">
        <ValueForm
          key="base"
          title="Base text"
          text={text}
          variantId={null}
          data={data}
          canEdit={canEdit}
          onSaved={onSaved}
        />
        {variantId && (
          <ValueForm
            key={variantId}
            title={data.variants.find((v) => v.id === variantId)?.name ?? variantId}
            text={text}
            variantId={variantId}
            data={data}
            canEdit={canEdit}
            onSaved={onSaved}
          />
        )}
      </div>
      <LibraryPanel text={text} data={data} canEdit={canEdit} onChanged={onSaved} onOpen={onOpen} />
      <h3>History</h3>
      <HistoryList kind={text.kind} developerId={text.developerId} />
    </section>
  );
}

function ValueForm({
  title,
  text,
  variantId,
  data,
  canEdit,
  onSaved,
}: {
  title: string;
  text: Text;
  variantId: string | null;
  data: WorkspaceData;
  canEdit: boolean;
  onSaved: () => Promise<void>;
}) {
  const value = (variantId ? text.variants.get(variantId) : undefined) ?? text.base;
  const [draft, setDraft] = useState(() => draftOf(value, text.tags));
  const [dirty, setDirty] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [findings, setFindings] = useState<Finding[]>([]);
  const editorRef = useRef<TipTap | null>(null);
  const baseEtag = useRef(text.etag);
  const id = `${text.developerId}-${variantId ?? 'base'}`;
  // An instance's text, plurals and variables are its component's: only its own fields are edited here.
  const canEditText = canEdit && !text.componentId;

  // Another person's change arrives with the list: take it while nothing here is unsaved.
  useEffect(() => {
    if (!dirty) {
      setDraft(draftOf(value, text.tags));
      baseEtag.current = text.etag;
    }
  }, [value, text.tags, text.etag, dirty]);

  const update = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setDirty(true);
    setStatus(null);
  };

  // Style-guide problems as you type, asked for once typing pauses.
  useEffect(() => {
    const limit = Number.parseInt(draft.characterLimit, 10);
    const timer = window.setTimeout(() => {
      api
        .post<{ findings: Finding[] }[]>('styleguides/lint', {
          texts: [
            { text: draft.plain, ...(variantId ? { variantId } : {}), ...(limit > 0 ? { characterLimit: limit } : {}) },
          ],
        })
        .then((result) => setFindings(result.flatMap((r) => r.findings)))
        .catch(() => setFindings([]));
    }, 400);
    return () => window.clearTimeout(timer);
  }, [draft.plain, draft.characterLimit, variantId]);

  const locale = variantId ? data.variants.find((v) => v.id === variantId)?.localeCode : 'en';
  const categories = pluralCategories(locale);
  const hasPlurals = Object.keys(draft.plurals).length > 0;
  const limit = Number.parseInt(draft.characterLimit, 10);
  const count = [...draft.plain].length;

  const save = async (etag: string | null) => {
    const used = placeholders(draft.plain).filter((name) =>
      data.variables.some((v) => v.id === name || v.name === name),
    );
    const [first, ...others] = categories.filter((c) => c in draft.plurals);
    const plurals = hasPlurals
      ? [
          { form: first ?? 'one', text: draft.html },
          ...others.map((form) => ({ form, text: escapeHtml(draft.plurals[form] ?? '') })),
        ]
      : undefined;
    const update = {
      developerId: text.developerId,
      // An instance's text and plurals are its component's: the server refuses them, so they are not sent.
      ...(text.componentId ? {} : { text: draft.html, ...(plurals && { plurals }) }),
      status: draft.status,
      assignee: draft.assignee || null,
      notes: draft.notes,
      characterLimit: limit > 0 ? limit : null,
      ...(variantId
        ? {}
        : {
            tags: draft.tags
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean),
            variables: used,
          }),
    };
    setStatus('Saving…');
    try {
      await api.patch(
        text.kind === 'textItem' ? 'textItems' : 'components',
        { updates: [update], richText: 'html', ...(variantId ? { variantId } : {}) },
        etag ? { 'if-match': etag } : {},
      );
      setDirty(false);
      setConflict(false);
      setStatus('Saved');
      await onSaved();
    } catch (e) {
      if (e instanceof ApiError && e.status === 412) {
        setConflict(true);
        setStatus(null);
        await onSaved();
      } else setStatus(e instanceof Error ? e.message : String(e));
    }
  };

  const insertVariable = (name: string) => {
    if (!name) return;
    editorRef.current?.chain().focus().insertContent(`{{${name}}}`).run();
  };

  const onReady = useCallback((e: TipTap) => {
    editorRef.current = e;
  }, []);

  return (
    <form
      className="value-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        void save(baseEtag.current);
      }}
    >
      <h3>{title}</h3>
      {conflict && (
        <div role="alert" className="conflict">
          <p>Someone else changed this text while you were editing. Their version: “{value.text}”.</p>
          <button type="button" onClick={() => void save(text.etag)}>
            Keep mine
          </button>
          <button
            type="button"
            onClick={() => {
              setDirty(false);
              setConflict(false);
              setDraft(draftOf(value, text.tags));
              baseEtag.current = text.etag;
            }}
          >
            Take theirs
          </button>
        </div>
      )}
      <RichEditor
        label={`${title} text`}
        html={draft.html}
        editable={canEditText}
        onChange={(html, plain) => update({ html, plain })}
        onReady={onReady}
      />
      <p className={`count${limit > 0 && count > limit ? ' over' : ''}`} aria-live="polite">
        {count}
        {limit > 0 ? ` / ${limit}` : ''} characters
      </p>
      {findings.length > 0 && (
        <ul className="findings" aria-label="Style guide problems">
          {findings.map((f) => (
            <li key={`${f.kind}:${f.start}:${f.message}`}>{f.message}</li>
          ))}
        </ul>
      )}
      {canEditText && data.variables.length > 0 && (
        <label>
          Insert variable{' '}
          <select value="" onChange={(e) => insertVariable(e.target.value)}>
            <option value="">Choose…</option>
            {data.variables.map((v) => (
              <option key={v.id} value={v.id}>
                {v.id}
              </option>
            ))}
          </select>
        </label>
      )}
      <fieldset>
        <legend>Plural forms</legend>
        {hasPlurals ? (
          categories.slice(1).map((form) => (
            <label key={form}>
              {form}
              <input
                id={`${id}-plural-${form}`}
                value={draft.plurals[form] ?? ''}
                readOnly={!canEditText}
                onChange={(e) => update({ plurals: { ...draft.plurals, [form]: e.target.value } })}
              />
            </label>
          ))
        ) : (
          <button
            type="button"
            disabled={!canEditText}
            onClick={() =>
              update({ plurals: Object.fromEntries(categories.map((c, i) => [c, i === 0 ? draft.plain : ''])) })
            }
          >
            Add plural forms ({categories.join(', ')})
          </button>
        )}
      </fieldset>
      <div className="grid">
        <label>
          Status
          <select value={draft.status} disabled={!canEdit} onChange={(e) => update({ status: e.target.value })}>
            {data.statuses.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Assignee
          <select value={draft.assignee} disabled={!canEdit} onChange={(e) => update({ assignee: e.target.value })}>
            <option value="">Nobody</option>
            {data.users.map((u) => (
              <option key={u.email} value={u.email}>
                {u.name} ({u.email})
              </option>
            ))}
          </select>
        </label>
        <label>
          Character limit
          <input
            type="number"
            min={1}
            value={draft.characterLimit}
            readOnly={!canEdit}
            onChange={(e) => update({ characterLimit: e.target.value })}
          />
        </label>
        {!variantId && (
          <label>
            Tags (comma-separated)
            <input value={draft.tags} readOnly={!canEdit} onChange={(e) => update({ tags: e.target.value })} />
          </label>
        )}
      </div>
      <label>
        Notes
        <textarea value={draft.notes} readOnly={!canEdit} onChange={(e) => update({ notes: e.target.value })} />
      </label>
      {canEdit ? (
        <button type="submit" disabled={!dirty}>
          Save {title.toLowerCase()}
        </button>
      ) : (
        <p className="muted">You can read this text; a viewer cannot change it.</p>
      )}
      {status && <p role="status">{status}</p>}
    </form>
  );
}
