import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api } from '../api';
import type { WorkspaceData } from '../useWorkspaceData';
import { ConfirmDelete, ErrorText, field, Hidden, SettingsSection, useAction } from './common';

type Status = WorkspaceData['statuses'][number];

/** A status's ID from its name when none is given: `In Legal Review` → `IN_LEGAL_REVIEW`. */
const idOf = (name: string) =>
  name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'STATUS';

/**
 * The status workflow, earliest first. Admins add, rename, reorder and delete statuses; each
 * change replaces the whole workflow (`PUT /v2/statuses`), and a deleted status's texts move to
 * the status the admin picks.
 */
export function Statuses({ data, admin }: { data: WorkspaceData; admin: boolean }) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const action = useAction();
  // The workflow as last saved here, until the workspace's data is read again: a second action
  // right after the first must start from the order the first made.
  const [saved, setSaved] = useState<Status[] | null>(null);
  useEffect(() => {
    void data.statuses;
    setSaved(null);
  }, [data.statuses]);
  const statuses = saved ?? data.statuses;
  // After a move, the moved status's button keeps the focus, wherever the list puts it.
  const list = useRef<HTMLOListElement>(null);
  const [refocus, setRefocus] = useState<string | null>(null);
  useEffect(() => {
    void statuses;
    // Only when the move lost it (the browser drops focus from a node the list moved).
    if (!refocus || (document.activeElement && document.activeElement !== document.body)) return;
    list.current?.querySelector<HTMLButtonElement>(`[data-move="${CSS.escape(refocus)}"]:not(:disabled)`)?.focus();
  }, [refocus, statuses]);

  const replace = async (next: Status[], reassign?: Record<string, string>) => {
    const ok = await action.run(() =>
      api.put('statuses', {
        statuses: next.map(({ id, name }) => ({ id, name })),
        ...(reassign && { reassign }),
      }),
    );
    if (ok) {
      setSaved(next);
      data.reload(['statuses']);
    }
    return ok;
  };
  const move = async (index: number, by: number) => {
    if (action.busy) return; // one change at a time: each starts from the order the last one made
    const next = [...statuses];
    const [moved] = next.splice(index, 1);
    if (!moved) return;
    next.splice(index + by, 0, moved);
    setRefocus(null);
    if (await replace(next)) setRefocus(`${moved.id}:${by}`);
  };

  const onAdd = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const name = field(form, 'name');
    if (await replace([...statuses, { id: field(form, 'id') || idOf(name), name }])) formElement.reset();
  };

  return (
    <SettingsSection id="workflow" title="Status workflow">
      {!admin && <p className="muted">Only admins change the workflow.</p>}
      <ol className="records" ref={list}>
        {statuses.map((s, index) => (
          <li key={s.id}>
            {renaming === s.id ? (
              <RenameForm
                status={s}
                onSave={async (name) => {
                  if (await replace(statuses.map((x) => (x.id === s.id ? { ...x, name } : x)))) setRenaming(null);
                }}
                onCancel={() => setRenaming(null)}
              />
            ) : (
              <span>
                {s.name} <code>{s.id}</code>
              </span>
            )}
            {admin && renaming !== s.id && (
              <span className="actions">
                <button
                  type="button"
                  data-move={`${s.id}:-1`}
                  disabled={index === 0}
                  onClick={() => void move(index, -1)}
                >
                  Move<Hidden> {s.name}</Hidden> up
                </button>
                <button
                  type="button"
                  data-move={`${s.id}:1`}
                  disabled={index === statuses.length - 1}
                  onClick={() => void move(index, 1)}
                >
                  Move<Hidden> {s.name}</Hidden> down
                </button>
                <button type="button" onClick={() => setRenaming(s.id)}>
                  Rename<Hidden> {s.name}</Hidden>
                </button>
                {statuses.length > 1 && <DeleteStatus status={s} statuses={statuses} onDelete={replace} />}
              </span>
            )}
          </li>
        ))}
      </ol>
      <ErrorText error={action.error} />
      {admin && (
        <>
          <h3 className="form-title">Add a status</h3>
          <form className="inline" aria-label="New status" onSubmit={onAdd}>
            <label>
              Name <input name="name" required maxLength={200} />
            </label>
            <label>
              ID (optional) <input name="id" placeholder="from the name" />
            </label>
            <button type="submit" disabled={action.busy}>
              Add status
            </button>
          </form>
        </>
      )}
    </SettingsSection>
  );
}

function RenameForm({
  status,
  onSave,
  onCancel,
}: {
  status: Status;
  onSave: (name: string) => Promise<void>;
  onCancel: () => void;
}) {
  return (
    <form
      className="inline"
      aria-label={`Rename status ${status.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        void onSave(field(new FormData(event.currentTarget), 'name'));
      }}
    >
      <label>
        New name <input name="name" defaultValue={status.name} required maxLength={200} />
      </label>
      <button type="submit">Save name</button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

function DeleteStatus({
  status,
  statuses,
  onDelete,
}: {
  status: Status;
  statuses: Status[];
  onDelete: (next: Status[], reassign: Record<string, string>) => Promise<boolean>;
}) {
  const others = statuses.filter((s) => s.id !== status.id);
  const [target, setTarget] = useState(others[0]?.id ?? '');
  return (
    <ConfirmDelete
      what={status.name}
      extra={
        <label className="row-label">
          Its texts move to
          <select value={target} onChange={(e) => setTarget(e.target.value)}>
            {others.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      }
      onConfirm={() => onDelete(others, { [status.id]: target })}
    />
  );
}
