import type { Workspace } from './harness.js';

/**
 * A user of the scenario's workspace with a password: made by the workspace's admin key through
 * the API (`POST /v2/users` answers a one-time link, whose token sets the password).
 */
export async function userWithPassword(base: string, ws: Workspace, email: string, password: string): Promise<void> {
  const headers = { authorization: ws.key, 'content-type': 'application/json' };
  const made = await fetch(`${base}/v2/users`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, role: 'editor' }),
  });
  if (made.status !== 201) throw new Error(`POST /v2/users: ${made.status} ${await made.text()}`);
  const { passwordLink } = (await made.json()) as { passwordLink: string };
  const token = new URL(passwordLink).hash.replace(/^#token=/, '');
  const set = await fetch(`${base}/v2/session/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password }),
  });
  if (set.status !== 200) throw new Error(`POST /v2/session/password: ${set.status} ${await set.text()}`);
}
