/** The one way the app talks to the server: the public /v2 API, with the session cookie. */

export interface Session {
  email: string;
  name: string;
  role: 'admin' | 'editor' | 'viewer';
  workspaceId: number;
  csrfToken: string | null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function request<T>(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(path.startsWith('/') ? path : `/v2/${path}`, {
    method,
    credentials: 'same-origin',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method !== 'GET' && csrfToken ? { 'x-csrf-token': csrfToken } : {}),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status === 204 || response.status === 304) return { data: null as T, response };
  const type = response.headers.get('content-type') ?? '';
  const data = type.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    const message = typeof data === 'object' && data?.message ? data.message : `HTTP ${response.status}`;
    throw new ApiError(response.status, message, data?.code);
  }
  return { data: data as T, response };
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
