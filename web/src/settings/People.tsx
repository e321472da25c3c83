import type { FormEvent } from 'react';
import { useState } from 'react';
import { api } from '../api';
import { ROLES } from '../roles';
import type { WorkspaceData } from '../useWorkspaceData';
import { ConfirmDelete, ErrorText, field, SettingsSection, useAction } from './common';

/**
 * People and their roles. Admins invite someone (the answer is a one-time link to pass on),
 * change a role, make a new link for someone who lost theirs, and remove someone else (their
 * sessions and keys end, their texts lose them as assignee); everyone else reads the list.
 */
export function People({ admin, me, data }: { admin: boolean; me: string; data: WorkspaceData }) {
  const [link, setLink] = useState<{
    email: string;
    url: string;
    emailed: 'an invitation' | 'a password link' | null;
  } | null>(null);
  const invite = useAction();
  const change = useAction();

  const onInvite = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const name = field(form, 'name');
    await invite.run(async () => {
      const r = await api.post<{ email: string; passwordLink: string; emailed?: boolean }>('users', {
        email: field(form, 'email'),
        role: field(form, 'role'),
        ...(name && { name }),
      });
      setLink({ email: r.email, url: r.passwordLink, emailed: r.emailed ? 'an invitation' : null });
      formElement.reset();
      data.reload(['users']);
    });
  };
  const setRole = (email: string, role: string) =>
    change.run(async () => {
      await api.patch(`users/${encodeURIComponent(email)}`, { role });
      data.reload(['users']);
    });
  const newLink = (email: string) =>
    change.run(async () => {
      const r = await api.post<{ passwordLink: string; emailed?: boolean }>(
        `users/${encodeURIComponent(email)}/passwordLink`,
        {},
      );
      setLink({ email, url: r.passwordLink, emailed: r.emailed ? 'a password link' : null });
    });

  return (
    <SettingsSection id="people" title="People and roles">
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            {admin && <th scope="col">Password</th>}
            {admin && <th scope="col">Remove</th>}
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
                    className="role-select"
                    aria-label={`Role of ${u.email}`}
                    value={u.role}
                    onChange={(e) => void setRole(u.email, e.target.value)}
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                ) : (
                  u.role
                )}
              </td>
              {admin && (
                <td>
                  <button type="button" onClick={() => void newLink(u.email)}>
                    New link<span className="visually-hidden"> for {u.email}</span>
                  </button>
                </td>
              )}
              {admin && (
                <td>
                  {u.email === me ? (
                    <span className="muted">you</span>
                  ) : (
                    <ConfirmDelete
                      what={u.email}
                      verb="Remove"
                      onConfirm={() =>
                        change.run(async () => {
                          await api.delete(`users/${encodeURIComponent(u.email)}`);
                          data.reload(['users']);
                        })
                      }
                    />
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorText error={change.error} />
      {admin && (
        <>
          <h3 className="form-title">Invite someone</h3>
          <form className="inline" aria-label="Invite someone" onSubmit={onInvite}>
            <label>
              Email <input name="email" type="email" required />
            </label>
            <label>
              Name (optional) <input name="name" maxLength={200} />
            </label>
            <label>
              Role
              <select name="role" defaultValue="editor" className="role-select">
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" disabled={invite.busy}>
              Invite
            </button>
            <ErrorText error={invite.error} />
          </form>
        </>
      )}
      {link && (
        <p role="status">
          {link.emailed
            ? `We emailed ${link.email} ${link.emailed}; you can also share this link privately: `
            : `Send ${link.email} this one-time link privately: `}
          <code>{link.url}</code>
        </p>
      )}
    </SettingsSection>
  );
}
