import type { Editor as TipTap } from '@tiptap/react';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, api, messageOf, withFilter } from './api';
import { ConflictPanel, shownText } from './ConflictPanel';
import { type Draft, draftFromFields, draftOf, fieldsOf, rebaseDraft, updateOf } from './draft';
import type { LintMark } from './editorMarks';
import { useLint } from './lint';
import {
  type Choice,
  type FieldMerge,
  type Fields,
  type FieldValue,
  fieldsToSend,
  mergeFields,
  resolveMerge,
} from './merge';
import { type ApiRecord, escapeHtml, groupRecords, pluralCategories, type Text, translationState } from './model';
import { RichEditor, replacePlainRange } from './RichEditor';
import type { EditorMode } from './roles';
import { proposalOf } from './suggestions';
import { TranslationHelp } from './TranslationHelp';
import { setUnsaved } from './unsaved';
import type { WorkspaceData } from './useWorkspaceData';

const NO_FINDINGS: ReturnType<typeof useLint> = [];

const STATE_WORDS = { missing: 'Missing', outdated: 'Outdated', upToDate: 'Up to date', translated: 'Translated' };

/** The text as the server has it now (after a 412), with every variant value. */
async function fetchCurrent(text: Text): Promise<Text | null> {
  const variants = [{ id: 'all' }];
  const path =
    text.kind === 'textItem'
      ? withFilter('textItems', { ...(text.projectId ? { projects: [{ id: text.projectId }] } : {}), variants })
      : withFilter('components', { folders: [{ id: text.folderId ?? 'root', excludeNestedFolders: true }], variants });
  const records = await api.get<ApiRecord[]>(`${path}&richText=html&withEtag=true&withTranslationState=true`);
  return groupRecords(records, text.kind).find((t) => t.developerId === text.developerId) ?? null;
}

interface Conflict {
  merges: FieldMerge[];
  theirs: Fields;
  current: Text;
}

/** One pane: the base text or one variant's value, saved on its own. */
export function ValueForm({
  title,
  text,
  variantId,
  data,
  canEdit,
  onSaved,
  register,
  commentMarks,
  mode = canEdit ? 'edit' : null,
  onSuggested,
}: {
  title: string;
  text: Text;
  variantId: string | null;
  data: WorkspaceData;
  canEdit: boolean;
  onSaved: () => Promise<void>;
  /** Lets the editor save every pane at once (Ctrl/Cmd+S). */
  register?: (key: string, save: (() => Promise<boolean>) | null) => void;
  /** The passages of this value's open comment threads, marked in its display text. */
  commentMarks?: readonly LintMark[];
  /**
   * How this pane writes: `edit` saves, `suggest` sends the wording as a suggestion (status,
   * notes and the other fields stay read-only), null reads only.
   */
  mode?: EditorMode | null;
  /** After a suggestion was sent: the suggestions beside the text follow. */
  onSuggested?: () => void;
}) {
  const suggesting = mode === 'suggest';
  const editing = mode === 'edit' && canEdit;
  const isBase = variantId === null;
  const value = variantId ? (text.variants.get(variantId) ?? null) : text.base;
  const defaultStatus = data.statuses[0]?.id ?? 'NONE';
  const [draft, setDraft] = useState<Draft>(() => draftOf(value, text.tags, defaultStatus));
  const [baseline, setBaseline] = useState(() => ({ fields: fieldsOf(draft, isBase), etag: text.etag }));
  const [status, setStatus] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const editors = useRef(new Map<string, TipTap>());
  const id = `${text.developerId}-${variantId ?? 'base'}`;
  // An instance's text, plurals and variables are its component's: only its own fields are edited here.
  const canEditText = (editing || suggesting) && !text.componentId;
  const [note, setNote] = useState('');
  const mine = useMemo(() => fieldsOf(draft, isBase), [draft, isBase]);
  const dirty = fieldsToSend(mine, baseline.fields).length > 0;

  // Another person's change arrives with the list (at once, through the live stream). Only a
  // newer read counts: right after a save the form keeps what it saved until the list has it.
  // With unsaved edits here, their change is taken into the fields this writer did not touch
  // (`rebaseDraft`); a field both changed waits for the save, which asks.
  const synced = useRef({ value, tags: text.tags, etag: text.etag });
  useEffect(() => {
    if (conflict) return;
    const last = synced.current;
    if (last.value === value && last.tags === text.tags && last.etag === text.etag) return;
    const next = draftOf(value, text.tags, defaultStatus);
    if (dirty) {
      const rebased = rebaseDraft(draft, baseline.fields, next, isBase);
      if (!rebased) return;
      synced.current = { value, tags: text.tags, etag: text.etag };
      setDraft(rebased.draft);
      setBaseline({ fields: rebased.baseline, etag: text.etag });
      return;
    }
    synced.current = { value, tags: text.tags, etag: text.etag };
    setDraft(next);
    setBaseline({ fields: fieldsOf(next, isBase), etag: text.etag });
  }, [value, text.tags, text.etag, dirty, conflict, defaultStatus, isBase, draft, baseline.fields]);

  useEffect(() => {
    setUnsaved(`editor:${id}`, dirty);
  }, [id, dirty]);
  useEffect(() => () => setUnsaved(`editor:${id}`, false), [id]);

  const update = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setStatus(null);
  };

  const locale = variantId ? data.variants.find((v) => v.id === variantId)?.localeCode : 'en';
  const categories = pluralCategories(locale);
  const forms = draft.firstForm
    ? [...new Set([draft.firstForm, ...categories.filter((c) => c !== draft.firstForm), ...Object.keys(draft.plurals)])]
    : [];
  const limitNumber = Number.parseInt(draft.characterLimit, 10);
  const limit = limitNumber > 0 ? limitNumber : null;
  const variableNames = useMemo(() => data.variables.map((v) => v.id), [data.variables]);
  const known = useMemo(() => new Set(variableNames), [variableNames]);

  const lintTexts = [
    { field: 'text', text: draft.text.plain },
    ...forms.slice(1).map((form) => ({ field: `plural:${form}`, text: draft.plurals[form]?.plain ?? '' })),
  ];
  const findings = useLint(lintTexts, variantId, limit);
  const marks = useMemo(() => {
    const byField = new Map<string, typeof findings>();
    for (const f of findings) {
      if (f.kind === 'characterLimit') continue;
      byField.set(f.field, [...(byField.get(f.field) ?? []), f]);
    }
    return byField;
  }, [findings]);
  const findingsOf = (field: string) => marks.get(field) ?? NO_FINDINGS;
  const textFindings = marks.get('text');
  const textMarks = useMemo<readonly LintMark[]>(
    () => (commentMarks?.length ? [...(textFindings ?? []), ...commentMarks] : (textFindings ?? NO_FINDINGS)),
    [textFindings, commentMarks],
  );

  const context = (current: Text) => ({
    developerId: text.developerId,
    variantId,
    current,
    variables: known,
    instance: Boolean(text.componentId),
  });

  /** Sends `values` over what the server has (`theirs`, read at `etag`); a 412 merges and asks. */
  const write = async (values: Fields, theirs: Fields, current: Text, etag: string | null, attempt = 0) => {
    const send = fieldsToSend(values, theirs);
    if (send.length === 0) {
      setConflict(null);
      setDraft(draftFromFields(values));
      setBaseline({ fields: values, etag });
      setStatus('Saved');
      return true;
    }
    setStatus('Saving…');
    try {
      await api.patch(
        text.kind === 'textItem' ? 'textItems' : 'components',
        { updates: [updateOf(values, send, context(current))], richText: 'html', ...(variantId ? { variantId } : {}) },
        etag ? { 'if-match': etag } : {},
      );
    } catch (e) {
      if (e instanceof ApiError && e.status === 412 && attempt < 3) return merge(values, attempt + 1);
      setStatus(e instanceof Error ? e.message : String(e));
      return false;
    }
    setConflict(null);
    // The form shows what was saved until the list brings the server's version. A save before
    // then sends the old ETag: its 412 finds only this writer's own change and saves again.
    setBaseline({ fields: values, etag });
    if (conflict) setDraft(draftFromFields(values));
    setStatus('Saved');
    try {
      await onSaved();
    } catch {
      // The list refreshes on its own later.
    }
    return true;
  };

  /** Someone saved first: three-way merge against what this form started from. */
  const merge = async (values: Fields, attempt: number): Promise<boolean> => {
    let current: Text | null;
    try {
      current = await fetchCurrent(text);
    } catch (e) {
      setStatus(e instanceof Error ? e.message : String(e));
      return false;
    }
    if (!current) {
      setStatus('Someone else deleted this text while you were editing.');
      return false;
    }
    const theirValue = variantId ? (current.variants.get(variantId) ?? null) : current.base;
    const theirs = fieldsOf(draftOf(theirValue, current.tags, defaultStatus), isBase);
    const merges = mergeFields(baseline.fields, values, theirs);
    const theirChanges = merges.some(
      (m) => m.outcome === 'theirs' || m.outcome === 'combined' || m.outcome === 'conflict',
    );
    // The text changed elsewhere (another variant, or this writer's other pane): nothing here to reconcile.
    if (!theirChanges) return write(resolveMerge(merges, {}).values, theirs, current, current.etag, attempt);
    setStatus(null);
    setConflict({ merges, theirs, current });
    return false;
  };

  /** The wording as a suggestion for the server's version; the form goes back to that version. */
  const suggest = async () => {
    const proposal = proposalOf(
      mine,
      baseline.fields,
      { kind: text.kind, developerId: text.developerId, variantId },
      note,
    );
    if (!proposal) {
      setStatus('Change the wording first: a suggestion proposes new words for the text.');
      return false;
    }
    setStatus('Sending…');
    try {
      await api.post('suggestions', { suggestions: [proposal] });
    } catch (e) {
      setStatus(messageOf(e));
      return false;
    }
    const server = draftOf(value, text.tags, defaultStatus);
    setDraft(server);
    setBaseline({ fields: fieldsOf(server, isBase), etag: text.etag });
    setNote('');
    setStatus('Suggestion sent: an editor will review it.');
    onSuggested?.();
    return true;
  };

  const save = async () => {
    if (!dirty) return true;
    if (conflict) return false;
    // The server would start a missing value as a copy of the base text: a variant's first save needs its text.
    if (variantId && !value && draft.text.plain.trim() === '') {
      setStatus(`Type the ${title} text first: without it the variant stays missing.`);
      return false;
    }
    if (suggesting) return suggest();
    if (!editing) return false;
    return write(mine, baseline.fields, text, baseline.etag);
  };
  const saveRef = useRef(save);
  saveRef.current = save;
  useEffect(() => {
    if (!register) return;
    register(id, () => saveRef.current());
    return () => register(id, null);
  }, [register, id]);

  const saveMerged = (choices: Record<string, Choice>) => {
    if (!conflict) return;
    const { values, unresolved } = resolveMerge(conflict.merges, choices);
    if (unresolved.length > 0) return;
    void write(values, conflict.theirs, conflict.current, conflict.current.etag);
  };

  const discardMine = () => {
    if (!conflict) return;
    const theirValue = variantId ? (conflict.current.variants.get(variantId) ?? null) : conflict.current.base;
    const next = draftOf(theirValue, conflict.current.tags, defaultStatus);
    setDraft(next);
    setBaseline({ fields: fieldsOf(next, isBase), etag: conflict.current.etag });
    setConflict(null);
    setStatus(null);
  };

  const describe = (field: string, v: FieldValue): { label: string; shown: string } => {
    if (field === 'text') return { label: 'Text', shown: shownText(v) };
    if (field.startsWith('plural:')) return { label: `Plural form “${field.slice(7)}”`, shown: shownText(v) };
    if (field === 'pluralForms') return { label: 'Plural forms', shown: v === null ? 'none' : 'added' };
    if (field === 'status') return { label: 'Status', shown: data.statuses.find((s) => s.id === v)?.name ?? String(v) };
    if (field === 'assignee') return { label: 'Assignee', shown: v === null ? 'nobody' : String(v) };
    if (field === 'characterLimit') return { label: 'Character limit', shown: v === null ? 'none' : String(v) };
    if (field === 'tags') return { label: 'Tags', shown: Array.isArray(v) && v.length > 0 ? v.join(', ') : 'none' };
    return { label: 'Notes', shown: typeof v === 'string' ? v : '' };
  };

  const onReadyFor = useCallback(
    (field: string) => (e: TipTap) => {
      editors.current.set(field, e);
    },
    [],
  );
  const readyText = useMemo(() => onReadyFor('text'), [onReadyFor]);

  const state = variantId ? translationState(text, variantId) : null;
  const count = (plain: string) => (
    <p className={`count${limit && [...plain].length > limit ? ' over' : ''}`} aria-live="polite">
      {[...plain].length}
      {limit ? ` / ${limit}` : ''} characters
    </p>
  );

  return (
    <form
      className={`value-form${suggesting ? ' suggesting' : ''}`}
      aria-label={title}
      // The comments panel finds a selection's value by this (Comments.tsx).
      data-comment-on={variantId ?? 'base'}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3>
        {title}
        {state && <span className={`state state-${state}`}> {STATE_WORDS[state]}</span>}
      </h3>
      {state === 'missing' && !dirty && (
        <p className="muted">
          No {title} text yet{canEditText ? ': type the translation here.' : '.'}
        </p>
      )}
      {suggesting && canEditText && (
        <p className="suggesting-hint">Suggesting: your change of wording goes to an editor for review.</p>
      )}
      {state === 'outdated' && <p className="muted">The base text changed after this translation was last written.</p>}
      {conflict && (
        <ConflictPanel
          idPrefix={id}
          merges={conflict.merges}
          describe={describe}
          variables={variableNames}
          onSave={saveMerged}
          onDiscard={discardMine}
        />
      )}
      {forms.length > 0 && <p className="form-label">Plural form “{forms[0]}” (the display text)</p>}
      <RichEditor
        label={`${title} text`}
        html={draft.text.html}
        editable={canEditText}
        onChange={(html, plain) => update({ text: { html, plain } })}
        onReady={readyText}
        variables={variableNames}
        picker={canEditText ? variableNames : undefined}
        findings={textMarks}
      />
      {count(draft.text.plain)}
      {variantId && (
        <TranslationHelp
          kind={text.kind}
          developerId={text.developerId}
          variantId={variantId}
          variantName={title}
          baseText={text.base.text}
          variantText={draft.text.plain}
          canUse={canEditText}
          onUse={(plain) => update({ text: { html: escapeHtml(plain), plain } })}
        />
      )}
      {forms.slice(1).map((form) => (
        <PluralForm
          key={form}
          title={title}
          form={form}
          value={draft.plurals[form]?.html ?? ''}
          editable={canEditText}
          variables={variableNames}
          findings={findingsOf(`plural:${form}`)}
          onReady={onReadyFor(`plural:${form}`)}
          onChange={(html, plain) => setDraft((d) => ({ ...d, plurals: { ...d.plurals, [form]: { html, plain } } }))}
          count={count(draft.plurals[form]?.plain ?? '')}
        />
      ))}
      {findings.length > 0 && (
        <ul className="findings" aria-label="Style guide problems">
          {findings.map((f) => (
            <li key={`${f.field}:${f.kind}:${f.start}:${f.message}`}>
              {f.field !== 'text' && <>({f.field.slice(7)}) </>}
              {f.message}
              {canEditText && f.suggestion !== null && f.words && editors.current.get(f.field) && (
                <>
                  {' '}
                  <button
                    type="button"
                    onClick={() => {
                      const editor = editors.current.get(f.field);
                      if (editor) replacePlainRange(editor, f.start, f.end, f.suggestion ?? '');
                    }}
                  >
                    {f.suggestion === '' ? `Remove “${f.words}”` : `Replace “${f.words}” with “${f.suggestion}”`}
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="plural-actions">
        {forms.length === 0 ? (
          <button
            type="button"
            disabled={!canEditText}
            onClick={() =>
              update({
                firstForm: categories[0] ?? 'other',
                plurals: Object.fromEntries(categories.slice(1).map((c) => [c, { html: '', plain: '' }])),
              })
            }
          >
            Add plural forms ({categories.join(', ')})
          </button>
        ) : (
          canEditText && (
            <button type="button" onClick={() => update({ firstForm: null, plurals: {} })}>
              Remove plural forms
            </button>
          )
        )}
      </div>
      <div className="grid">
        <label>
          Status
          <select value={draft.status} disabled={!editing} onChange={(e) => update({ status: e.target.value })}>
            {data.statuses.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Assignee
          <select value={draft.assignee} disabled={!editing} onChange={(e) => update({ assignee: e.target.value })}>
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
            readOnly={!editing}
            onChange={(e) => update({ characterLimit: e.target.value })}
          />
        </label>
        {isBase && (
          <label>
            Tags (comma-separated)
            <input value={draft.tags} readOnly={!editing} onChange={(e) => update({ tags: e.target.value })} />
          </label>
        )}
      </div>
      <label>
        Notes
        <textarea value={draft.notes} readOnly={!editing} onChange={(e) => update({ notes: e.target.value })} />
      </label>
      {editing ? (
        <button type="submit" disabled={!dirty || conflict !== null}>
          Save {title.toLowerCase()}
        </button>
      ) : suggesting && !text.componentId ? (
        <div className="suggest-send">
          <label>
            Note for the reviewer (optional)
            <textarea value={note} rows={2} onChange={(e) => setNote(e.target.value)} />
          </label>
          <button type="submit" disabled={!dirty}>
            Suggest change to {title.toLowerCase()}
          </button>
        </div>
      ) : suggesting ? (
        <p className="muted">An instance's wording is its component's: suggest the change on the component.</p>
      ) : (
        <p className="muted">You can read this text but not change it.</p>
      )}
      {status && <p role="status">{status}</p>}
    </form>
  );
}

function PluralForm({
  title,
  form,
  value,
  editable,
  variables,
  findings,
  onReady,
  onChange,
  count,
}: {
  title: string;
  form: string;
  value: string;
  editable: boolean;
  variables: readonly string[];
  findings: ReturnType<typeof useLint>;
  onReady: (e: TipTap) => void;
  onChange: (html: string, plain: string) => void;
  count: ReactNode;
}) {
  const ready = useRef(onReady);
  const stableReady = useCallback((e: TipTap) => ready.current(e), []);
  return (
    <div className="plural-form">
      <p className="form-label">Plural form “{form}”</p>
      <RichEditor
        label={`${title} plural ${form}`}
        html={value}
        editable={editable}
        onChange={onChange}
        onReady={stableReady}
        variables={variables}
        picker={editable ? variables : undefined}
        findings={findings}
      />
      {count}
    </div>
  );
}
