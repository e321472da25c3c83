import { type FormEvent, type ReactNode, useCallback, useEffect, useState } from 'react';
import { api } from '../api';
import type { WorkspaceData } from '../useWorkspaceData';
import { ConfirmDelete, ErrorText, field, Hidden, messageOf, SettingsSection, useAction } from './common';

const CHECK_TYPES = [
  'sentence_case',
  'title_case',
  'no_trailing_period',
  'no_exclamation_mark',
  'no_double_spaces',
  'character_limit',
  'regex',
] as const;

interface Check {
  type: (typeof CHECK_TYPES)[number];
  limit?: number;
  pattern?: string;
  flags?: string;
  replacement?: string;
  message?: string;
}
interface Rule {
  id: string;
  sectionId: string;
  name: string;
  description: string;
  examples: { before: string; after: string }[];
  check: Check | null;
}
interface Term {
  id: string;
  sectionId: string;
  preferred: string;
  replaces: string[];
  caseSensitive: boolean;
  note: string;
}
interface Guide {
  id: string;
  name: string;
  description: string;
  enabledByDefault: boolean;
  variantId: string | null;
  sections: { sectionId: string; kind: 'rules' | 'wordlist'; name: string }[];
  rules: Rule[];
  terms: Term[];
}

const checkLabel = (check: Check | null) => {
  if (!check) return 'no machine check';
  if (check.type === 'character_limit') return `at most ${check.limit} characters`;
  if (check.type === 'regex') return `regex /${check.pattern}/${check.flags ?? ''}`;
  return check.type.replace(/_/g, ' ');
};

/** Style guides: editors create and edit guides, their rules and their wordlist terms. */
export function StyleGuides({ data, canEdit }: { data: WorkspaceData; canEdit: boolean }) {
  const [guides, setGuides] = useState<Guide[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const create = useAction();
  const load = useCallback(
    () =>
      api
        .get<Guide[]>('styleguides')
        .then((g) => {
          setGuides(g);
          setLoadError(null);
        })
        .catch((e) => setLoadError(messageOf(e))),
    [],
  );
  useEffect(() => void load(), [load]);

  const onCreate = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const ok = await create.run(() =>
      api.post('styleguides', {
        styleguides: [
          {
            name: field(form, 'name'),
            description: field(form, 'description'),
            enabledByDefault: form.get('enabledByDefault') === 'on',
            variantId: field(form, 'variantId') || null,
          },
        ],
      }),
    );
    if (ok) {
      formElement.reset();
      void load();
    }
  };

  return (
    <SettingsSection id="styleguides" title="Style guides">
      <ErrorText error={loadError} />
      {guides === null && !loadError && <p aria-busy="true">Loading…</p>}
      {guides?.map((g) => (
        <GuideCard key={g.id} guide={g} data={data} canEdit={canEdit} onChanged={load} />
      ))}
      {canEdit && (
        <>
          <h3 className="form-title">Add a style guide</h3>
          <form className="inline" aria-label="New style guide" onSubmit={onCreate}>
            <label>
              Name <input name="name" required maxLength={200} />
            </label>
            <label>
              Description <input name="description" />
            </label>
            <VariantSelect data={data} value={null} />
            <label className="check">
              <input type="checkbox" name="enabledByDefault" /> Enabled for all texts
            </label>
            <button type="submit" disabled={create.busy}>
              Add style guide
            </button>
            <ErrorText error={create.error} />
          </form>
        </>
      )}
    </SettingsSection>
  );
}

function VariantSelect({ data, value }: { data: WorkspaceData; value: string | null }) {
  return (
    <label>
      Only for variant
      <select name="variantId" defaultValue={value ?? ''}>
        <option value="">Any text</option>
        {data.variants.map((v) => (
          <option key={v.id} value={v.id}>
            {v.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function GuideCard({
  guide,
  data,
  canEdit,
  onChanged,
}: {
  guide: Guide;
  data: WorkspaceData;
  canEdit: boolean;
  onChanged: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const save = useAction();
  const remove = useAction();
  const builtIn = guide.id === 'default';
  const headingId = `guide-${guide.id}`;

  const onSave = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const description = field(form, 'description');
    const ok = await save.run(() =>
      api.patch('styleguides', {
        developerId: guide.id,
        enabledByDefault: form.get('enabledByDefault') === 'on',
        ...(!builtIn && {
          name: field(form, 'name'),
          variantId: field(form, 'variantId') || null,
          ...(description && { description }),
        }),
      }),
    );
    if (ok) {
      setEditing(false);
      onChanged();
    }
  };

  return (
    <article className="card guide" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {guide.name} <code>{guide.id}</code>
      </h3>
      <p className="muted">
        {guide.description && `${guide.description} · `}
        {guide.enabledByDefault ? 'enabled for all texts' : 'not enabled by default'}
        {guide.variantId && ` · variant ${guide.variantId}`}
      </p>
      {canEdit && !editing && (
        <span className="actions">
          <button type="button" onClick={() => setEditing(true)}>
            Edit<Hidden> style guide {guide.name}</Hidden>
          </button>
          {!builtIn && (
            <ConfirmDelete
              what={`style guide ${guide.name}`}
              onConfirm={async () => {
                const ok = await remove.run(() => api.delete('styleguides', { developerIds: [guide.id] }));
                if (ok) onChanged();
                return ok;
              }}
            />
          )}
        </span>
      )}
      <ErrorText error={remove.error} />
      {editing && (
        <form className="inline" aria-label={`Edit style guide ${guide.name}`} onSubmit={onSave}>
          {!builtIn && (
            <>
              <label>
                Name <input name="name" defaultValue={guide.name} required />
              </label>
              <label>
                Description <input name="description" defaultValue={guide.description} />
              </label>
              <VariantSelect data={data} value={guide.variantId} />
            </>
          )}
          <label className="check">
            <input type="checkbox" name="enabledByDefault" defaultChecked={guide.enabledByDefault} /> Enabled for all
            texts
          </label>
          <button type="submit" disabled={save.busy}>
            Save style guide
          </button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
          <ErrorText error={save.error} />
        </form>
      )}
      <Entries kind={RULES} guide={guide} canEdit={canEdit} onChanged={onChanged} />
      <Entries kind={TERMS} guide={guide} canEdit={canEdit} onChanged={onChanged} />
    </article>
  );
}

/** The request body's fields of a rule from its form. */
function ruleOf(form: FormData, guide: Guide) {
  const type = field(form, 'checkType');
  const message = field(form, 'message');
  const check: Check | null = type
    ? {
        type: type as Check['type'],
        ...(type === 'character_limit' && { limit: Number(field(form, 'limit')) }),
        ...(type === 'regex' && {
          pattern: String(form.get('pattern') ?? ''),
          ...(field(form, 'flags') && { flags: field(form, 'flags') }),
          ...(form.get('replacement') && { replacement: String(form.get('replacement')) }),
        }),
        ...(message && { message }),
      }
    : null;
  const sectionId = field(form, 'sectionId') || guide.sections.find((s) => s.kind === 'rules')?.sectionId || 'rules';
  return { sectionId, name: field(form, 'name'), description: field(form, 'description'), check };
}

function SectionSelect({ guide, kind, value }: { guide: Guide; kind: 'rules' | 'wordlist'; value?: string }) {
  const sections = guide.sections.filter((s) => s.kind === kind);
  if (sections.length < 2) return null;
  return (
    <label>
      Section
      <select name="sectionId" defaultValue={value ?? sections[0]?.sectionId}>
        {sections.map((s) => (
          <option key={s.sectionId} value={s.sectionId}>
            {s.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function RuleForm({
  guide,
  rule,
  onSubmit,
  onCancel,
  error,
  busy,
}: {
  guide: Guide;
  rule?: Rule;
  onSubmit: (form: FormData, element: HTMLFormElement) => void;
  onCancel?: () => void;
  error: string | null;
  busy: boolean;
}) {
  const [type, setType] = useState<string>(rule?.check?.type ?? '');
  const label = rule ? `Edit rule ${rule.name}` : `New rule in ${guide.name}`;
  return (
    <form
      className="inline"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(new FormData(event.currentTarget), event.currentTarget);
      }}
    >
      <SectionSelect guide={guide} kind="rules" value={rule?.sectionId} />
      <label>
        Rule <input name="name" defaultValue={rule?.name} required maxLength={200} />
      </label>
      <label>
        Description <input name="description" defaultValue={rule?.description} />
      </label>
      <label>
        Check
        <select name="checkType" value={type} onChange={(e) => setType(e.target.value)}>
          <option value="">None (guidance only)</option>
          {CHECK_TYPES.map((t) => (
            <option key={t} value={t}>
              {t.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
      </label>
      {type === 'character_limit' && (
        <label>
          Limit <input name="limit" type="number" min={1} defaultValue={rule?.check?.limit} required />
        </label>
      )}
      {type === 'regex' && (
        <>
          <label>
            Pattern <input name="pattern" defaultValue={rule?.check?.pattern} required />
          </label>
          <label>
            Flags <input name="flags" defaultValue={rule?.check?.flags} size={4} />
          </label>
          <label>
            Replacement <input name="replacement" defaultValue={rule?.check?.replacement} />
          </label>
        </>
      )}
      {type && (
        <label>
          Message{type === 'regex' ? '' : ' (optional)'}{' '}
          <input name="message" defaultValue={rule?.check?.message} required={type === 'regex'} />
        </label>
      )}
      <button type="submit" disabled={busy}>
        {rule ? 'Save rule' : 'Add rule'}
      </button>
      {onCancel && (
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      )}
      <ErrorText error={error} />
    </form>
  );
}

function termOf(form: FormData, guide: Guide) {
  const sectionId =
    field(form, 'sectionId') || guide.sections.find((s) => s.kind === 'wordlist')?.sectionId || 'wordlist';
  return {
    sectionId,
    preferred: field(form, 'preferred'),
    replaces: field(form, 'replaces')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    caseSensitive: form.get('caseSensitive') === 'on',
    note: field(form, 'note'),
  };
}

function TermForm({
  guide,
  term,
  onSubmit,
  onCancel,
  error,
  busy,
}: {
  guide: Guide;
  term?: Term;
  onSubmit: (form: FormData, element: HTMLFormElement) => void;
  onCancel?: () => void;
  error: string | null;
  busy: boolean;
}) {
  return (
    <form
      className="inline"
      aria-label={term ? `Edit term ${term.preferred}` : `New term in ${guide.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(new FormData(event.currentTarget), event.currentTarget);
      }}
    >
      <SectionSelect guide={guide} kind="wordlist" value={term?.sectionId} />
      <label>
        Preferred term <input name="preferred" defaultValue={term?.preferred} required maxLength={200} />
      </label>
      <label>
        Instead of (comma-separated) <input name="replaces" defaultValue={term?.replaces.join(', ')} />
      </label>
      <label>
        Note <input name="note" defaultValue={term?.note} />
      </label>
      <label className="check">
        <input type="checkbox" name="caseSensitive" defaultChecked={term?.caseSensitive} /> Case-sensitive
      </label>
      <button type="submit" disabled={busy}>
        {term ? 'Save term' : 'Add term'}
      </button>
      {onCancel && (
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      )}
      <ErrorText error={error} />
    </form>
  );
}

/** What the list of a guide's rules or of its wordlist needs to know of its records. */
interface EntryKind<E extends { id: string }> {
  title: string;
  noun: 'rule' | 'term';
  /** The API path under styleguides/, and the key of a create or delete body. */
  path: 'rules' | 'terms';
  entries: (guide: Guide) => E[];
  nameOf: (entry: E) => string;
  summary: (entry: E) => ReactNode;
  valuesOf: (form: FormData, guide: Guide) => object;
  Form: (props: EntryFormProps<E>) => ReactNode;
}

interface EntryFormProps<E> {
  guide: Guide;
  entry?: E;
  onSubmit: (form: FormData, element: HTMLFormElement) => void;
  onCancel?: () => void;
  error: string | null;
  busy: boolean;
}

const RULES: EntryKind<Rule> = {
  title: 'Rules',
  noun: 'rule',
  path: 'rules',
  entries: (guide) => guide.rules,
  nameOf: (r) => r.name,
  summary: (r) => (
    <>
      <strong>{r.name}</strong> <span className="muted">{checkLabel(r.check)}</span>
      {r.description && <span> · {r.description}</span>}
    </>
  ),
  valuesOf: (form, guide) => ruleOf(form, guide),
  Form: ({ entry, ...props }) => <RuleForm {...props} rule={entry} />,
};

const TERMS: EntryKind<Term> = {
  title: 'Wordlist',
  noun: 'term',
  path: 'terms',
  entries: (guide) => guide.terms,
  nameOf: (t) => t.preferred,
  summary: (t) => (
    <>
      <strong>{t.preferred}</strong>
      {t.replaces.length > 0 && <span> instead of {t.replaces.join(', ')}</span>}
      {t.caseSensitive && <span className="muted"> · case-sensitive</span>}
      {t.note && <span className="muted"> · {t.note}</span>}
    </>
  ),
  valuesOf: (form, guide) => termOf(form, guide),
  Form: ({ entry, ...props }) => <TermForm {...props} term={entry} />,
};

/** A guide's rules or wordlist: each entry edited in place or deleted, and a form to add one. */
function Entries<E extends { id: string }>({
  kind,
  guide,
  canEdit,
  onChanged,
}: {
  kind: EntryKind<E>;
  guide: Guide;
  canEdit: boolean;
  onChanged: () => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const create = useAction();
  const save = useAction();
  const remove = useAction();
  const { Form, path, noun } = kind;
  const entries = kind.entries(guide);
  return (
    <>
      <h4>{kind.title}</h4>
      {entries.length === 0 && <p className="muted">No {noun}s.</p>}
      <ul className="records">
        {entries.map((e) =>
          editing === e.id ? (
            <li key={e.id}>
              <Form
                guide={guide}
                entry={e}
                busy={save.busy}
                error={save.error}
                onCancel={() => setEditing(null)}
                onSubmit={async (form) => {
                  const ok = await save.run(() =>
                    api.patch(`styleguides/${path}`, {
                      updates: [{ styleguideId: guide.id, developerId: e.id, ...kind.valuesOf(form, guide) }],
                    }),
                  );
                  if (ok) {
                    setEditing(null);
                    onChanged();
                  }
                }}
              />
            </li>
          ) : (
            <li key={e.id}>
              <span>{kind.summary(e)}</span>
              {canEdit && (
                <span className="actions">
                  <button type="button" onClick={() => setEditing(e.id)}>
                    Edit
                    <Hidden>
                      {' '}
                      {noun} {kind.nameOf(e)}
                    </Hidden>
                  </button>
                  <ConfirmDelete
                    what={`${noun} ${kind.nameOf(e)}`}
                    onConfirm={async () => {
                      const ok = await remove.run(() =>
                        api.delete(`styleguides/${path}`, { [path]: [{ styleguideId: guide.id, developerId: e.id }] }),
                      );
                      if (ok) onChanged();
                      return ok;
                    }}
                  />
                </span>
              )}
            </li>
          ),
        )}
      </ul>
      <ErrorText error={remove.error} />
      {canEdit && (
        <Form
          guide={guide}
          busy={create.busy}
          error={create.error}
          onSubmit={async (form, element) => {
            const ok = await create.run(() =>
              api.post(`styleguides/${path}`, { [path]: [{ styleguideId: guide.id, ...kind.valuesOf(form, guide) }] }),
            );
            if (ok) {
              element.reset();
              onChanged();
            }
          }}
        />
      )}
    </>
  );
}
