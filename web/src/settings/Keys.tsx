import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api } from '../api';
import { ConfirmDelete, ErrorText, field, messageOf, SettingsSection, useAction } from './common';

interface Key {
  id: string;
  name: string;
  prefix: string;
  email: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/**
 * API keys. Everyone creates and revokes their own (a key acts as its person, with their role);
 * an admin sees and may revoke everyone's. A new key is shown once, right after it is made.
 */
export function Keys({ admin }: { admin: boolean }) {
  const [keys, setKeys] = useState<Key[]>([]);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const create = useAction();
  const revoke = useAction();
  const load = useCallback(
    () =>
      api
        .get<Key[]>('keys')
        .then((k) => {
          setKeys(k);
          setLoadError(null);
        })
        .catch((e) => setLoadError(messageOf(e))),
    [],
  );
  useEffect(() => void load(), [load]);

  const onCreate = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const name = field(new FormData(formElement), 'name');
    await create.run(async () => {
      const r = await api.post<{ key: string }>('keys', { name });
      setCreated({ name, key: r.key });
      formElement.reset();
      await load();
    });
  };

  return (
    <SettingsSection id="keys" title="API keys">
      <p className="muted">
        {admin
          ? 'Every key of the workspace; each acts as its person.'
          : 'Your keys; each acts as you, with your role.'}
      </p>
      <ErrorText error={loadError} />
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Starts with</th>
            {admin && <th scope="col">Person</th>}
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id}>
              <td>{k.name}</td>
              <td>
                <code>{k.prefix}…</code>
              </td>
              {admin && <td>{k.email}</td>}
              <td>{when(k.createdAt)}</td>
              <td>{when(k.lastUsedAt)}</td>
              <td>
                {k.revokedAt ? (
                  <span className="muted">revoked {when(k.revokedAt)}</span>
                ) : (
                  <ConfirmDelete
                    what={`key ${k.name}`}
                    verb="Revoke"
                    onConfirm={async () => {
                      const ok = await revoke.run(() => api.delete(`keys/${encodeURIComponent(k.id)}`));
                      if (ok) await load();
                      return ok;
                    }}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorText error={revoke.error} />
      <h3 className="form-title">Create a key</h3>
      <form className="inline" aria-label="New API key" onSubmit={onCreate}>
        <label>
          New key name <input name="name" required maxLength={200} />
        </label>
        <button type="submit" disabled={create.busy}>
          Create key
        </button>
        <ErrorText error={create.error} />
      </form>
      {created && (
        <div role="status" className="card secret">
          <p>
            Your new key <strong>{created.name}</strong>, shown this once: copy it now.
          </p>
          <code>{created.key}</code>{' '}
          <button type="button" onClick={() => setCreated(null)}>
            I have copied it
          </button>
        </div>
      )}
    </SettingsSection>
  );
}
