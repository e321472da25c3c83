import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';

/**
 * Conditional GETs and the response cache. Every write advances the workspace's content revision
 * in its own transaction, and authentication reads that revision in the same query as the key.
 * A GET's ETag is derived from the workspace, that revision and the normalised request, so it is
 * the same on every server sharing the database and survives restarts; `If-None-Match` is answered
 * with 304 before any handler runs, and rendered bodies are kept in a bounded LRU keyed by ETag.
 */

declare module 'fastify' {
  interface FastifyRequest {
    etag: string | null;
  }
}

interface CachedBody {
  body: string | Buffer;
  contentType: string;
}

export class ResponseCache {
  readonly #entries = new Map<string, CachedBody>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  get(key: string): CachedBody | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CachedBody): void {
    if (this.#entries.has(key)) return;
    const size = Buffer.byteLength(entry.body);
    if (size > this.maxBytes / 4) return;
    this.#entries.set(key, entry);
    this.#bytes += size;
    for (const [oldest, value] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= Buffer.byteLength(value.body);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** Path plus query parameters in a canonical order; a JSON `filter` is re-serialised canonically. */
export function normaliseRequest(url: string): string {
  const [path = '', query = ''] = url.split('?', 2);
  const params = [...new URLSearchParams(query)].map(([name, value]) => [name, canonicalJson(name, value)] as const);
  params.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1));
  return `${path}?${new URLSearchParams(params as [string, string][]).toString()}`;
}

function canonicalJson(name: string, value: string): string {
  if (name !== 'filter') return value;
  try {
    return JSON.stringify(sortKeys(JSON.parse(value)));
  } catch {
    return value;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export function etagFor(workspaceId: number, revision: number, url: string): string {
  const digest = createHash('sha256')
    .update(`${workspaceId}\n${normaliseRequest(url)}`)
    .digest('base64url');
  return `"${revision}-${digest.slice(0, 22)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

export function registerConditionalGets(app: FastifyInstance, cache: ResponseCache): void {
  app.decorateRequest('etag', null);

  const checkFreshness: preHandlerHookHandler = (request: FastifyRequest, reply: FastifyReply, done) => {
    const principal = request.principal;
    if (!principal) return done();
    const etag = etagFor(principal.workspaceId, principal.revision, request.url);
    request.etag = etag;
    reply.header('etag', etag);
    if (matches(request.headers['if-none-match'], etag)) {
      reply.code(304).send();
      return;
    }
    const cached = cache.get(`${principal.workspaceId}:${etag}`);
    if (cached) {
      reply.type(cached.contentType).send(cached.body);
      return;
    }
    done();
  };

  const remember: onSendHookHandler = (request, reply, payload, done) => {
    const principal = request.principal;
    if (
      principal &&
      request.etag &&
      reply.statusCode === 200 &&
      (typeof payload === 'string' || Buffer.isBuffer(payload))
    ) {
      const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
      cache.set(`${principal.workspaceId}:${request.etag}`, { body: payload, contentType });
    }
    done(null, payload);
  };

  // Added per route, after the rate limiter's own preHandler, so cached answers still count.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET') || route.config?.auth !== 'v2') return;
    route.preHandler = [...toArray(route.preHandler), checkFreshness];
    route.onSend = [...toArray(route.onSend), remember];
  });
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
