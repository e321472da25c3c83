import { expect } from 'vitest';
import type { App } from '../../../src/app.js';
import type { Workspace } from '../../helpers/app.js';

/** A browser's view of the API: the session cookie it was given and the CSRF token it read. */
export interface Browser {
  cookie: string;
  csrfToken: string;
  call: (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
}

export function cookieOf(setCookie: unknown): string {
  const header = Array.isArray(setCookie) ? setCookie[0] : String(setCookie ?? '');
  return String(header).split(';')[0] ?? '';
}

export function browserFor(app: App, cookie: string, csrfToken: string): Browser {
  return {
    cookie,
    csrfToken,
    async call(method, url, body, headers = {}) {
      const res = await app.inject({
        method,
        url: url.startsWith('/') ? url : `/v2/${url}`,
        headers: { cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': csrfToken }), ...headers },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      const json = String(res.headers['content-type'] ?? '').includes('json') && res.body ? res.json() : res.body;
      return { status: res.statusCode, body: json, headers: res.headers };
    },
  };
}

let counter = 0;

/** Adds a user with `role` through the API (as the workspace's admin key), sets a password, signs in. */
export async function signedIn(
  app: App,
  ws: Workspace,
  role: 'admin' | 'editor' | 'commenter' | 'viewer',
): Promise<Browser> {
  counter += 1;
  const email = `${role}${counter}-${ws.id}@example.com`;
  const invited = await ws.api.post('users', { email, role });
  expect(invited.status).toBe(201);
  const token = new URL(invited.body.passwordLink).hash.replace('#token=', '');
  const res = await app.inject({
    method: 'POST',
    url: '/v2/session/password',
    payload: { token, password: 'correct horse battery' },
  });
  expect(res.statusCode).toBe(200);
  return browserFor(app, cookieOf(res.headers['set-cookie']), res.json().csrfToken);
}
