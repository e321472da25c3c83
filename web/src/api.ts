/** The one way the app talks to the server: the public /v2 API, with the session cookie. */

import { ApiError } from './apiErrors';
import type { Role } from './roles';

export interface Session {
  email: string;
  name: string;
  role: Role;
  workspaceId: number;
  csrfToken: string | null;
}

export { ApiError, messageOf, withoutBodyPath } from './apiErrors';

let csrfToken: string | null = null;
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};
/** The session's CSRF token, for a write sent outside `request` (a goodbye as the tab closes). */
export const currentCsrfToken = () => csrfToken;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function request<T>(
  method: Method,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  /** The ETag of the body the caller already has: the same ETag again is answered without parsing. */
  knownEtag: string | null = null,
) {
  const response = await fetch(path.startsWith('/') ? path : `/v2/${path}`, {
    method,
    credentials: 'same-origin',
    // A GET always asks the server, with the ETag it has: a 304 when nothing changed (the list's
    // polling relies on it), never a stale body from the browser's cache.
    ...(method === 'GET' ? { cache: 'no-cache' as const } : {}),
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method !== 'GET' && csrfToken ? { 'x-csrf-token': csrfToken } : {}),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status === 204 || response.status === 304) return { data: null as T, response };
  if (knownEtag !== null && response.ok && response.headers.get('etag') === knownEtag) {
    return { data: null as T, response };
  }
  const type = response.headers.get('content-type') ?? '';
  const data = type.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    const message = typeof data === 'object' && data?.message ? data.message : `HTTP ${response.status}`;
    const sent = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    throw new ApiError(response.status, message, data?.code, sent);
  }
  return { data: data as T, response };
}

/**
 * A GET that answers null when the server's ETag is still `etag`: the browser got a 304 and
 * handed back the body it kept, so there is nothing new to parse or render. Polling uses it.
 */
export async function getIfChanged<T>(
  path: string,
  etag: string | null,
): Promise<{ data: T; etag: string | null } | null> {
  const { data, response } = await request<T>('GET', path, undefined, {}, etag);
  const now = response.headers.get('etag');
  return etag !== null && now === etag ? null : { data, etag: now };
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path).then((r) => r.data),
  post: <T>(path: string, body: unknown) => request<T>('POST', path, body).then((r) => r.data),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body).then((r) => r.data),
  patch: <T>(path: string, body: unknown, headers?: Record<string, string>) =>
    request<T>('PATCH', path, body, headers).then((r) => r.data),
  delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, body).then((r) => r.data),
};

export const withFilter = (path: string, filter: unknown, extra = '') =>
  `${path}?filter=${encodeURIComponent(JSON.stringify(filter))}${extra}`;
