/**
 * The server a workspace is copied from, read through API v2 only. Any server that speaks the API
 * will do: what it does not offer (an endpoint answering 404) is left out and reported, never
 * guessed.
 */
export interface Source {
  /** `url` as given, normalised to end at the API's version prefix. */
  readonly base: string;
  get<T>(path: string, query?: Record<string, string>): Promise<T>;
  /** Like `get`, but `undefined` when the server does not have the endpoint (404 or 405). */
  optional<T>(path: string, query?: Record<string, string>): Promise<T | undefined>;
}

export class SourceError extends Error {}

export function apiBase(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SourceError(`--from: '${url}' is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new SourceError(`--from: '${url}' is not an http or https URL`);
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  parsed.pathname = path.endsWith('/v2') ? path : `${path}/v2`;
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString();
}

export function createSource(url: string, key: string, fetchImpl: typeof fetch = fetch): Source {
  const base = apiBase(url);

  async function request(path: string, query: Record<string, string> | undefined, allowMissing: boolean) {
    const target = new URL(`${base}/${path}`);
    for (const [name, value] of Object.entries(query ?? {})) target.searchParams.set(name, value);
    let response: Response;
    try {
      response = await fetchImpl(target, { headers: { authorization: key, accept: 'application/json' } });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      throw new SourceError(`GET ${target.pathname}: could not reach ${target.origin}${cause}`);
    }
    if (allowMissing && (response.status === 404 || response.status === 405)) {
      await response.body?.cancel();
      return undefined;
    }
    const text = await response.text();
    if (response.status === 401 || response.status === 403) {
      throw new SourceError(`GET ${target.pathname}: the source refused the key (${response.status})`);
    }
    if (!response.ok) {
      throw new SourceError(`GET ${target.pathname}: the source answered ${response.status} ${text.slice(0, 200)}`);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new SourceError(`GET ${target.pathname}: the source's answer is not JSON`);
    }
  }

  return {
    base,
    get: async <T>(path: string, query?: Record<string, string>) => (await request(path, query, false)) as T,
    optional: async <T>(path: string, query?: Record<string, string>) =>
      (await request(path, query, true)) as T | undefined,
  };
}
