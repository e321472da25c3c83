import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import { compress, negotiateEncoding } from './compression.js';
import type { ResponseCache } from './response-cache.js';

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
    /** The content coding this GET's body is sent in (`br`, `gzip`), null for identity. */
    encoding: string | null;
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
  app.decorateRequest('encoding', null);

  const cacheKey = (request: FastifyRequest) =>
    `${request.principal?.workspaceId}:${request.etag}:${request.encoding ?? 'identity'}`;

  const checkFreshness: preHandlerHookHandler = (request: FastifyRequest, reply: FastifyReply, done) => {
    const principal = request.principal;
    if (!principal) return done();
    const etag = etagFor(principal.workspaceId, principal.revision, request.url);
    request.etag = etag;
    request.encoding = negotiateEncoding(request.headers['accept-encoding']);
    reply.header('etag', etag);
    reply.header('vary', 'Accept-Encoding');
    if (matches(request.headers['if-none-match'], etag)) {
      reply.code(304).send();
      return;
    }
    const cached = cache.get(cacheKey(request));
    if (cached) {
      request.etag = null; // nothing left for `remember` to do
      if (cached.encoding) reply.header('content-encoding', cached.encoding).header('etag', `W/${etag}`);
      reply.type(cached.contentType).send(cached.body);
      return;
    }
    done();
  };

  /** Compresses (when worth it and accepted) and keeps the bytes, so a repeat costs neither. */
  const remember: onSendHookHandler = (request, reply, payload, done) => {
    if (reply.statusCode >= 400) {
      // An error is no representation of the resource: it carries no validator.
      reply.removeHeader('etag');
      return done(null, payload);
    }
    if (!request.etag || reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) {
      return done(null, payload);
    }
    const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    const compressed = request.encoding ? compress(payload, request.encoding) : null;
    if (compressed) {
      // Bytes differ from the identity form, so the validator becomes weak (as nginx does).
      reply.header('content-encoding', request.encoding).header('etag', `W/${request.etag}`);
      reply.removeHeader('content-length');
    }
    const body = compressed ?? payload;
    cache.set(cacheKey(request), { body, contentType, encoding: compressed ? request.encoding : null });
    done(null, body);
  };

  // Added per route, after the rate limiter's own preHandler, so cached answers still count. These
  // routes encode their own bodies; the general compression hook leaves them alone.
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
