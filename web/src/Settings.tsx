import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api, type Session } from './api';
import type { WorkspaceData } from './useWorkspaceData';

interface Key {
  id: string;
  name: string;
  prefix: string;
  email: string;
  revokedAt: string | null;
}

/** Settings: variants, variables, statuses, people and roles (admins), one's own API keys. */
export function Settings({ session, data }: { session: Session; data: WorkspaceData }) {
  const admin = session.role === 'admin';
  return (
    <main className="page">
      <h1>Settings</h1>
      <section aria-labelledby="variants-heading">
        <h2 id="variants-heading">Variants</h2>
        <ul>
          {data.variants.map((v) => (
            <li key={v.id}>
              {v.name} <code>{v.id}</code> {v.localeCode && <span className="muted">{v.localeCode}</span>}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="variables-heading">
        <h2 id="variables-heading">Variables</h2>
        <ul>
          {data.variables.map((v) => (
            <li key={v.id}>
              <code>{`{{${v.id}}}`}</code> <span className="muted">{v.type}</span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="statuses-heading">
        <h2 id="statuses-heading">Status workflow</h2>
        <ol>
          {data.statuses.map((s) => (
            <li key={s.id}>{s.name}</li>
          ))}
        </ol>
      </section>
      <People admin={admin} data={data} />
      <Keys />
    </main>
  );
}

function People({ admin, data }: { admin: boolean; data: WorkspaceData }) {
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const invite = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      const r = await api.post<{ passwordLink: string }>('users', {
        email: String(form.get('email')),
        role: String(form.get('role')),
      });
      setLink(r.passwordLink);
      setError(null);
      data.reload();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const setRole = async (email: string, role: string) => {
    try {
      await api.patch(`users/${encodeURIComponent(email)}`, { role });
      setError(null);
      data.reload();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section aria-labelledby="people-heading">
      <h2 id="people-heading">People and roles</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
          </tr>
        </thead>
        <tbody>
          {data.users.map((u) => (
            <tr key={u.email}>
              <td>{u.email}</td>
              <td>{u.name}</td>
              <td>
                {admin ? (
                  <select
                    aria-label={`Role of ${u.email}`}
                    value={u.role}
                    onChange={(e) => void setRole(u.email, e.target.value)}
                  >
                    <option value="admin">admin</option>
                    <option value="editor">editor</option>
                    <option value="viewer">viewer</option>
                  </select>
                ) : (
                  u.role
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {admin && (
        <form className="inline" onSubmit={invite}>
          <label>
            Email <input name="email" type="email" required />
          </label>
          <label>
            Role
            <select name="role" defaultValue="editor">
              <option value="admin">admin</option>
              <option value="editor">editor</option>
              <option value="viewer">viewer</option>
            </select>
          </label>
          <button type="submit">Invite</button>
        </form>
      )}
      {link && (
        <p role="status">
          Send this one-time link privately: <code>{link}</code>
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}

function Keys() {
  const [keys, setKeys] = useState<Key[]>([]);
  const [created, setCreated] = useState<string | null>(null);
  const load = useCallback(() => void api.get<Key[]>('keys').then(setKeys), []);
  useEffect(load, [load]);
  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name'));
    const r = await api.post<{ key: string }>('keys', { name });
    setCreated(r.key);
    load();
  };
  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <ul>
        {keys.map((k) => (
          <li key={k.id}>
            {k.name} <code>{k.prefix}…</code> <span className="muted">{k.email}</span>{' '}
            {k.revokedAt ? (
              <span className="muted">revoked</span>
            ) : (
              <button type="button" onClick={() => void api.delete(`keys/${k.id}`).then(load)}>
                Revoke {k.name}
              </button>
            )}
          </li>
        ))}
      </ul>
      <form className="inline" onSubmit={create}>
        <label>
          New key name <input name="name" required />
        </label>
        <button type="submit">Create key</button>
      </form>
      {created && (
        <p role="status">
          Your new key, shown this once: <code>{created}</code>
        </p>
      )}
    </section>
  );
}
