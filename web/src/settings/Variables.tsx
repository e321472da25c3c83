import { type FormEvent, useState } from 'react';
import { api } from '../api';
import type { WorkspaceData } from '../useWorkspaceData';
import { ConfirmDelete, ErrorText, field, Hidden, SettingsSection, useAction } from './common';

type Variable = WorkspaceData['variables'][number];

/** The types the API knows, each with the fields of its `data`. */
const TYPES = ['string', 'number', 'hyperlink', 'list', 'map'] as const;
type VariableType = (typeof TYPES)[number];

/** A number field's value: a number when it reads as one, else as typed (the API names what is wrong). */
const numeric = (value: string) => (value !== '' && Number.isFinite(Number(value)) ? Number(value) : value);

/** The form's fields as the `data` of a variable of `type`. */
function dataOf(type: VariableType, form: FormData): unknown {
  const raw = (name: string) => String(form.get(name) ?? '');
  const lines = (name: string) =>
    raw(name)
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  switch (type) {
    case 'string':
      return { example: raw('example'), ...(raw('fallback') && { fallback: raw('fallback') }) };
    case 'number':
      return {
        example: numeric(field(form, 'example')),
        ...(field(form, 'fallback') && { fallback: numeric(field(form, 'fallback')) }),
      };
    case 'hyperlink':
      return { text: raw('text'), url: field(form, 'url') };
    case 'list':
      return lines('items');
    case 'map':
      return Object.fromEntries(
        lines('entries').map((line) => {
          const at = line.indexOf('=');
          return at === -1 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
        }),
      );
  }
}

/** A variable's data in a line, for the list. */
function summary(v: Variable): string {
  const d = v.data as Record<string, unknown> | string[];
  if (Array.isArray(d)) return d.join(', ');
  if (v.type === 'hyperlink') return `${d.text} → ${d.url}`;
  if (v.type === 'map')
    return Object.entries(d)
      .map(([k, val]) => `${k} = ${val}`)
      .join(', ');
  return `e.g. ${String(d.example)}${d.fallback !== undefined ? `, fallback ${String(d.fallback)}` : ''}`;
}

/** The inputs of one type's data, filled with `data` when editing. */
function DataFields({ type, data }: { type: VariableType; data?: unknown }) {
  const d = (data ?? {}) as Record<string, unknown>;
  const text = (key: string) => (d[key] === undefined ? '' : String(d[key]));
  switch (type) {
    case 'string':
    case 'number':
      return (
        <>
          <label>
            Example{' '}
            <input
              name="example"
              defaultValue={text('example')}
              inputMode={type === 'number' ? 'decimal' : undefined}
              required
            />
          </label>
          <label>
            Fallback (optional) <input name="fallback" defaultValue={text('fallback')} />
          </label>
        </>
      );
    case 'hyperlink':
      return (
        <>
          <label>
            Link text <input name="text" defaultValue={text('text')} required />
          </label>
          <label>
            URL <input name="url" type="url" defaultValue={text('url')} required />
          </label>
        </>
      );
    case 'list':
      return (
        <label>
          Items, one per line{' '}
          <textarea name="items" rows={3} defaultValue={Array.isArray(data) ? data.join('\n') : ''} required />
        </label>
      );
    case 'map':
      return (
        <label>
          Entries, one <code>key = value</code> per line
          <textarea
            name="entries"
            rows={3}
            defaultValue={Object.entries(d)
              .map(([k, v]) => `${k} = ${String(v)}`)
              .join('\n')}
            required
          />
        </label>
      );
  }
}

/** Variables: editors create one of each type, change its data and delete it. */
export function Variables({ data, canEdit }: { data: WorkspaceData; canEdit: boolean }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [type, setType] = useState<VariableType>('string');
  const create = useAction();
  const remove = useAction();

  const onCreate = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const ok = await create.run(() =>
      api.post('variables', { variables: [{ name: field(form, 'name'), type, data: dataOf(type, form) }] }),
    );
    if (ok) {
      formElement.reset();
      data.reload(['variables']);
    }
  };

  return (
    <SettingsSection id="variables" title="Variables">
      {data.variables.length === 0 && <p className="muted">No variables yet.</p>}
      <ul className="records">
        {data.variables.map((v) =>
          editing === v.id ? (
            <li key={v.id}>
              <VariableForm
                variable={v}
                onDone={() => {
                  setEditing(null);
                  data.reload(['variables']);
                }}
              />
            </li>
          ) : (
            <li key={v.id}>
              <span>
                <code>{`{{${v.id}}}`}</code> <span className="muted">{v.type}</span> {summary(v)}
              </span>
              {canEdit && (
                <span className="actions">
                  <button type="button" onClick={() => setEditing(v.id)}>
                    Edit<Hidden> {v.id}</Hidden>
                  </button>
                  <ConfirmDelete
                    what={v.id}
                    onConfirm={async () => {
                      const ok = await remove.run(() => api.delete('variables', { developerIds: [v.id] }));
                      if (ok) data.reload(['variables']);
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
        <>
          <h3 className="form-title">Add a variable</h3>
          <form className="inline" aria-label="New variable" onSubmit={onCreate}>
            <label>
              Name <input name="name" required pattern="[A-Za-z_][A-Za-z0-9_]*" title="Letters, digits and _" />
            </label>
            <label>
              Type
              <select name="type" value={type} onChange={(e) => setType(e.target.value as VariableType)}>
                {TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
            <DataFields key={type} type={type} />
            <button type="submit" disabled={create.busy}>
              Add variable
            </button>
            <ErrorText error={create.error} />
          </form>
        </>
      )}
    </SettingsSection>
  );
}

function VariableForm({ variable, onDone }: { variable: Variable; onDone: () => void }) {
  const save = useAction();
  const type = variable.type as VariableType;
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const ok = await save.run(() =>
      api.patch('variables', { updates: [{ developerId: variable.id, data: dataOf(type, form) }] }),
    );
    if (ok) onDone();
  };
  return (
    <form className="inline" aria-label={`Edit variable ${variable.id}`} onSubmit={onSubmit}>
      <span>
        <code>{`{{${variable.id}}}`}</code> <span className="muted">{variable.type} (the type never changes)</span>
      </span>
      <DataFields type={type} data={variable.data} />
      <button type="submit" disabled={save.busy}>
        Save variable
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
      <ErrorText error={save.error} />
    </form>
  );
}
