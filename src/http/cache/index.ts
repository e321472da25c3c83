/**
 * The HTTP cache, all of it in one file, read top-down: which routes it wraps (a GET whose route
 * says `config: { cache: true }`, or any GET with `auth`), the plugin that wraps their handlers
 * (304, kept bytes, one rendering per burst, keeping and compressing what is sent), then the
 * pieces it uses in the order a request meets them: the response's ETag, the body a handler
 * answers (`bodyOf`: bytes when small, else a stream; the lists, exports and other long answers
 * are written through it), the bounded store of rendered bodies, and compression (which the
 * Swift driver's route uses too).
 */

import { createHash } from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  gzipSync,
} from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';

// ---------------------------------------------------------------------------------------------
// Which routes are cached, and what the cache knows of one request
// ---------------------------------------------------------------------------------------------

/** What the HTTP cache did with one request. */
export type CacheOutcome =
  /** The route is not cacheable (a write, a public route, or `config.cache: false`). */
  | 'uncacheable'
  /** Cacheable, neither fresh nor in memory: the handler is rendering the body. */
  | 'miss'
  /** `If-None-Match` named the current ETag: answered 304 without running the handler. */
  | 'not-modified'
  /** Answered with bytes kept from an earlier identical request, without running the handler. */
  | 'hit'
  /** Rendered by the handler, compressed when worth it, and kept for the next identical request. */
  | 'stored'
  /** Rendered, but not a body to keep: an error, a status other than 200, or a stream. */
  | 'not-stored';

/** The HTTP cache's view of one request: `request.httpCache`. */
export interface HttpCacheState {
  /** The strong ETag of the representation, set once a cacheable request is authenticated; null otherwise. */
  etag: string | null;
  /** The content coding the body is sent in, negotiated from `Accept-Encoding`; null for identity. */
  encoding: Encoding | null;
  /** Where the request stands; the final value says how it was answered. */
  outcome: CacheOutcome;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Whether the route's GET answers carry an ETag, honour `If-None-Match` and are kept in the
     * response cache. Defaults to true for a GET route with `auth`, false otherwise.
     * A cacheable body must depend only on the workspace's content and the URL; it needs `auth`,
     * because the ETag is built from the key's workspace and its content revision.
     */
    cache?: boolean;
    /**
     * Set on a cacheable route whose some requests answer content that never changes (a
     * release's reads, docs/releases.md): for a request it answers true for, the handler sends a
     * content-addressed answer itself (`sendContentAddressed`), with an ETag that is a hash of
     * its bytes rather than of the workspace's revision, and nothing here wraps it.
     */
    ownEtag?: (request: FastifyRequest) => boolean;
  }
  interface FastifyRequest {
    /** What the HTTP cache knows and did for this request; see `HttpCacheState`. */
    readonly httpCache: HttpCacheState;
  }
}

type RouteShape = Pick<RouteOptions, 'method' | 'url'> & { config?: RouteOptions['config'] };

/**
 * Whether a route takes part in conditional requests and the response cache. Shared with the
 * OpenAPI document, which lists 304 for exactly these routes.
 */
export function isCacheableRoute(route: RouteShape): boolean {
  if (![route.method].flat().includes('GET')) return false;
  const { auth, cache } = route.config ?? {};
  if (cache === true && !auth) {
    throw new Error(`GET ${route.url}: config.cache needs config.auth, as an ETag is per workspace`);
  }
  return cache ?? auth !== undefined;
}

/**
 * The HEAD route Fastify adds beside a cacheable GET. It is built from the GET's options as they
 * were given (before any onRoute hook changed them), so it is recognised by the same rule; it
 * answers 304 and the kept bytes' headers like its GET, and never keeps a body of its own.
 */
export function isCacheableHeadRoute(route: RouteShape): boolean {
  if (route.method !== 'HEAD') return false;
  const { auth, cache } = route.config ?? {};
  return cache ?? auth !== undefined;
}

// ---------------------------------------------------------------------------------------------
// The plugin: wraps the handlers of those routes, keeps and compresses what they send
// ---------------------------------------------------------------------------------------------

export interface HttpCacheOptions {
  /** Memory for rendered bodies (`RESPONSE_CACHE_BYTES`). */
  maxBytes: number;
}

const kState = Symbol('httpCacheState');
/** How a rendering request releases the identical requests waiting for its bytes. */
const kSettle = Symbol('httpCacheSettle');
type WithState = FastifyRequest & { [kState]: HttpCacheState | null; [kSettle]: (() => void) | null };

/**
 * Everything HTTP caching does, in one plugin: ETags and `If-None-Match` for cacheable routes (see
 * `isCacheableRoute`), the bounded cache of rendered bytes, and compression of every response.
 * Wrapped in fastify-plugin so its hooks reach every route registered after it, whatever the
 * plugin they belong to.
 */
export const httpCache = fp<HttpCacheOptions>(
  async (app: FastifyInstance, { maxBytes }) => {
    const cache = new ResponseCache(maxBytes);
    const cacheKey = (request: FastifyRequest, state: HttpCacheState) =>
      `${request.principal?.workspaceId}:${state.etag}:${state.encoding ?? 'identity'}`;

    // The state lives in a field every request is built with, and is made on first read.
    app.decorateRequest(kState as unknown as string, null);
    app.decorateRequest(kSettle as unknown as string, null);
    app.decorateRequest('httpCache', {
      getter(this: FastifyRequest): HttpCacheState {
        const request = this as WithState;
        request[kState] ??= { etag: null, encoding: null, outcome: 'uncacheable' };
        return request[kState];
      },
    });

    /** Answers from the validator or the kept bytes when it can; true when the reply is sent. */
    function answerFromCache(request: FastifyRequest, reply: FastifyReply): boolean {
      const principal = request.principal;
      if (!principal) return false;
      const state = request.httpCache;
      state.etag = responseEtag(principal.workspaceId, principal.revision, request.url);
      // `private, no-cache`: a browser keeps the body but asks again every time (with
      // If-None-Match, so an unchanged workspace costs a 304); a shared cache keeps nothing, as
      // the answer depends on who asks.
      reply.header('etag', state.etag).header('vary', 'Accept-Encoding').header('cache-control', 'private, no-cache');
      if (matchesIfNoneMatch(request.headers['if-none-match'], state.etag)) {
        state.outcome = 'not-modified';
        reply.code(304).send();
        return true;
      }
      state.encoding = negotiateEncoding(request.headers['accept-encoding']);
      const cached = cache.get(cacheKey(request, state));
      if (!cached) {
        state.outcome = 'miss';
        return false;
      }
      state.outcome = 'hit';
      if (cached.encoding) reply.header('content-encoding', cached.encoding).header('etag', weak(state.etag));
      reply.type(cached.contentType).send(cached.body);
      return true;
    }

    // The check runs as the first step of the route's own handler, not as a hook: by then every
    // onRequest, validation and preHandler step has run, whichever plugin added it and in whatever
    // order. That matters for two of them: authentication gives the workspace and revision the
    // ETag is made of, and the rate limiter (a preHandler) must count a 304 or a cached answer
    // like any other request. A request that fails validation never reaches the check.
    //
    // Identical requests that miss together are rendered once: the first renders, the others wait
    // until its bytes are kept (or it ends without keeping them) and answer from the cache, so a
    // burst of the same large export right after a write costs one rendering, not one each.
    app.addHook('onRoute', (route) => {
      if (isCacheableHeadRoute(route)) {
        // A HEAD answers what the GET would, without its body: a 304, or the headers of the kept
        // bytes, neither of which runs the handler. Otherwise the handler runs, and a body it
        // streams (a large export) is abandoned at once (see onSend): its first chunk is all that
        // gets rendered, enough to know the answer is a 200 and not a 400.
        const handler = route.handler;
        const ownEtag = route.config?.ownEtag;
        route.handler = function cachedHeadHandler(this: FastifyInstance, request, reply) {
          if (ownEtag?.(request)) return handler.call(this, request, reply);
          if (answerFromCache(request, reply)) return undefined;
          return handler.call(this, request, reply);
        } as RouteHandlerMethod;
        return;
      }
      if (!isCacheableRoute(route)) return;
      const handler = route.handler;
      const ownEtag = route.config?.ownEtag;
      route.handler = function cachedHandler(this: FastifyInstance, request, reply) {
        if (ownEtag?.(request)) return handler.call(this, request, reply);
        if (answerFromCache(request, reply)) return undefined;
        const key = cacheKey(request, request.httpCache);
        const running = rendering.get(key);
        if (!running) {
          lead(request, reply, key);
          return handler.call(this, request, reply);
        }
        return running.then(() => {
          if (answerFromCache(request, reply)) return undefined;
          lead(request, reply, key);
          return handler.call(this, request, reply);
        });
      } as RouteHandlerMethod;
    });

    /** Representations being rendered, by cache key: settled once kept, or once their rendering ended. */
    const rendering = new Map<string, Promise<void>>();
    function lead(request: FastifyRequest, reply: FastifyReply, key: string): void {
      let settle = () => {};
      const done = new Promise<void>((resolve) => {
        settle = resolve;
      });
      rendering.set(key, done);
      const finish = () => {
        if (rendering.get(key) === done) rendering.delete(key);
        settle();
      };
      (request as WithState)[kSettle] = finish;
      // Whatever happens to the response (an error, a client gone), the followers go on.
      reply.raw.once('close', finish);
    }
    const settle = (request: FastifyRequest) => (request as WithState)[kSettle]?.();
    app.addHook('onResponse', (request, _reply, done) => {
      settle(request);
      done();
    });

    /**
     * A body streamed by its handler (a large export) is compressed as it flows, on the thread
     * pool, and kept once it has ended whole, if it fits; a stream that fails or is abandoned
     * is never kept.
     */
    function keepStream(
      request: FastifyRequest,
      reply: FastifyReply,
      state: HttpCacheState,
      streamed: StreamedBody,
    ): Readable {
      const { etag, body } = streamed;
      const encoding = state.encoding;
      // A handler that streams its body already in the negotiated coding (a gzipped export) says so.
      const encoded = encoding !== null && reply.getHeader('content-encoding') === encoding;
      if (encoding) reply.header('content-encoding', encoding).header('etag', weak(etag));
      reply.removeHeader('content-length');
      const key = cacheKey(request, state);
      const contentType = String(reply.getHeader('content-type') ?? 'application/octet-stream');
      const kept: Buffer[] = [];
      let size = 0;
      let keeping = true;
      state.outcome = 'not-stored';
      const recorder = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          if (keeping) {
            size += chunk.length;
            keeping = cache.fits(size);
            if (keeping) kept.push(chunk);
            else kept.length = 0;
          }
          callback(null, chunk);
        },
        flush(callback) {
          if (keeping) {
            cache.set(key, { body: Buffer.concat(kept, size), contentType, encoding });
            state.outcome = 'stored';
          }
          settle(request);
          callback();
        },
      });
      const stages = encoding && !encoded ? [body, compressStream(encoding), recorder] : [body, recorder];
      // An error ends the response early (the client sees a cut transfer, never a complete-looking file).
      pipeline(stages, () => settle(request));
      return recorder;
    }

    app.addHook('onSend', ((request, reply, payload, done) => {
      const state = (request as WithState)[kState];
      if (!state || state.outcome === 'uncacheable') return compressAsSent(request, reply, payload, done);
      if (state.outcome !== 'miss') return done(null, payload); // a 304 or bytes from the cache: final
      if (reply.statusCode >= 400) {
        // An error is no representation of the resource: it carries no validator.
        reply.removeHeader('etag');
        state.outcome = 'not-stored';
        return compressAsSent(request, reply, payload, done);
      }
      if (reply.statusCode === 200 && state.etag && payload instanceof Readable) {
        if (request.method === 'HEAD') return done(null, abandonStream(reply, state, state.etag, payload));
        return done(null, keepStream(request, reply, state, { etag: state.etag, body: payload }));
      }
      if (reply.statusCode !== 200 || !isBytes(payload) || !state.etag) {
        state.outcome = 'not-stored';
        return done(null, payload);
      }
      const etag = state.etag;
      const store = (compressed: Buffer | null) => {
        if (compressed) {
          reply.header('content-encoding', state.encoding).header('etag', weak(etag));
          reply.removeHeader('content-length');
        }
        const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
        const body = compressed ?? payload;
        cache.set(cacheKey(request, state), { body, contentType, encoding: compressed ? state.encoding : null });
        state.outcome = 'stored';
        settle(request);
        done(null, body);
      };
      const compressed = state.encoding ? compress(payload, state.encoding) : null;
      if (compressed instanceof Promise) compressed.then(store, (error: Error) => done(error));
      else store(compressed);
    }) as onSendHookHandler);
  },
  { name: 'copydesk-http-cache', fastify: '5.x' },
);

/** A body its handler streams, with the ETag it is sent under. */
interface StreamedBody {
  etag: string;
  body: Readable;
}

/**
 * A HEAD whose handler streams its body: the stream is destroyed unread (which stops the
 * rendering and frees what it holds) and the headers go out as the GET's would, without a
 * length, which only the whole body would tell. Fastify's own HEAD step then drains the empty
 * stream put in its place.
 */
function abandonStream(reply: FastifyReply, state: HttpCacheState, etag: string, body: Readable): Readable {
  body.destroy();
  state.outcome = 'not-stored';
  if (state.encoding) reply.header('content-encoding', state.encoding).header('etag', weak(etag));
  reply.removeHeader('content-length');
  return Readable.from([]);
}

const isBytes = (payload: unknown): payload is string | Buffer =>
  typeof payload === 'string' || Buffer.isBuffer(payload);

type Done = (error: Error | null, payload?: unknown) => void;

/** Any other response (writes, errors, the OpenAPI document) is compressed as it goes out. */
function compressAsSent(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: Done): void {
  if (reply.hasHeader('content-encoding') || !isBytes(payload) || Buffer.byteLength(payload) < COMPRESSION_THRESHOLD) {
    done(null, payload);
    return;
  }
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  const compressed = encoding ? compress(payload, encoding) : null;
  const send = (bytes: Buffer | null) => {
    if (bytes) {
      reply.header('content-encoding', encoding).header('vary', 'Accept-Encoding').removeHeader('content-length');
    }
    done(null, bytes ?? payload);
  };
  if (compressed instanceof Promise) compressed.then(send, (error: Error) => done(error));
  else send(compressed);
}

// ---------------------------------------------------------------------------------------------
// The ETag of a response (pure functions)
// ---------------------------------------------------------------------------------------------

/**
 * Entity tags, as pure functions. A tag is `"<revision>-<digest>"`: the workspace's content
 * revision (advanced by every write, in the write's own transaction) and a digest of the workspace
 * id and the normalised request. It depends on nothing held in memory, so every server sharing the
 * database computes the same tag, and a restart keeps it.
 */

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

/**
 * Digests of the requests seen lately, by workspace and URL as sent: a client polling with
 * `If-None-Match` repeats the same URL, and normalising it and hashing it again is most of what
 * its 304 would cost. Only short URLs are kept, at most `MAX_DIGESTS` of them, least recently
 * used out first, so the memory is bounded by about 8 MiB whatever the clients send. A digest
 * depends on nothing but its key, so nothing invalidates it.
 */
const MAX_DIGESTS = 4096;

/**
 * The version of what a GET answers for a given revision and URL: part of every response's ETag.
 * Raise it in a release that changes the bytes of any cached answer (a format's output, a record's
 * fields), so that a client's `If-None-Match` from the build before gets the new bytes, not a 304.
 */
export const ANSWER_VERSION = 1;
const MAX_KEPT_URL = 1024;
const digests = new LRUCache<string, string>({ max: MAX_DIGESTS });

function digestOf(workspaceId: number, url: string): string {
  const key = `${workspaceId}\n${url}`;
  const known = digests.get(key);
  if (known !== undefined) return known;
  const digest = createHash('sha256')
    .update(`${ANSWER_VERSION}\n${workspaceId}\n${normaliseRequest(url)}`)
    .digest('base64url')
    .slice(0, 22);
  if (url.length <= MAX_KEPT_URL) digests.set(key, digest);
  return digest;
}

/** The strong ETag of a whole response (workspace, content revision, URL); a text's own ETag is `textEtag` (texts core). */
export function responseEtag(workspaceId: number, revision: number, url: string): string {
  return `"${revision}-${digestOf(workspaceId, url)}"`;
}

/** The tag sent with a compressed body: its bytes differ from the identity form's (nginx does the same). */
export const weak = (etag: string): string => `W/${etag}`;

/** Whether `If-None-Match` names the tag, compared weakly (a `W/` prefix is ignored), or is `*`. */
export function matchesIfNoneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  // What a client sends back is most often the one tag it was given, as it was given.
  if (ifNoneMatch === etag || (ifNoneMatch.startsWith('W/') && ifNoneMatch.slice(2) === etag)) return true;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

// ---------------------------------------------------------------------------------------------
// Content-addressed answers: the ETag is a hash of the bytes
// ---------------------------------------------------------------------------------------------

/**
 * An answer whose bytes never change for its URL (a release's export or list, a delivered file):
 * its strong ETag is the SHA-256 of its bytes, so every server, before and after a restart or a
 * restore, on either database, gives the same bytes the same tag. Its compressed forms are made
 * once and kept with it.
 */
export interface ContentAddressedBody {
  body: Buffer;
  contentType: string;
  etag: string;
  /** The compressed forms made so far (null: too small to compress). */
  encoded: Map<Encoding, Buffer | null>;
}

export function contentAddressed(body: Buffer, contentType: string): ContentAddressedBody {
  const etag = `"sha256-${createHash('sha256').update(body).digest('base64url')}"`;
  return { body, contentType, etag, encoded: new Map() };
}

/**
 * Sends a content-addressed answer: 304 when `If-None-Match` names its tag, else its bytes in
 * the best coding the client accepts (with the weak form of the tag, as for any compressed
 * body), `Vary: Accept-Encoding` and the given `Cache-Control`.
 */
export async function sendContentAddressed(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: ContentAddressedBody,
  cacheControl = 'private, no-cache',
): Promise<FastifyReply> {
  reply.header('etag', answer.etag).header('vary', 'Accept-Encoding').header('cache-control', cacheControl);
  if (matchesIfNoneMatch(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  let encoded: Buffer | null = null;
  if (encoding) {
    if (!answer.encoded.has(encoding)) answer.encoded.set(encoding, await compress(answer.body, encoding));
    encoded = answer.encoded.get(encoding) ?? null;
  }
  if (encoded && encoding) {
    reply.header('content-encoding', encoding).header('etag', weak(answer.etag));
    return reply.type(answer.contentType).send(encoded);
  }
  return reply.type(answer.contentType).send(answer.body);
}

// ---------------------------------------------------------------------------------------------
// The body a handler answers: bytes when small, else a stream
// ---------------------------------------------------------------------------------------------

/** An answer that ends within this many bytes is sent as bytes, with its length. */
const WHOLE_BYTES = 64 * 1024;

/**
 * An answer written in chunks as it is read (the v2 lists and exports, the Swift driver, the v0/v1
 * component fetches, the import report): bytes when it ends within `WHOLE_BYTES` (with its
 * length, compressed and cached as any small answer), else a stream that takes the next chunk as
 * the client reads (the chunks are generated, page by page, only as the socket drains), which
 * `onSend` above compresses as it flows and keeps once whole. `done` runs exactly once, when the
 * chunks are finished, failed or abandoned (a client gone mid-answer).
 */
export async function bodyOf(chunks: AsyncGenerator<Buffer>, done: () => Promise<void>): Promise<Buffer | Readable> {
  let finished = false;
  const finish = async () => {
    if (finished) return;
    finished = true;
    await done();
  };
  const first: Buffer[] = [];
  let size = 0;
  try {
    while (size <= WHOLE_BYTES) {
      const next = await chunks.next();
      if (next.done) {
        await finish();
        return Buffer.concat(first, size);
      }
      first.push(next.value);
      size += next.value.length;
    }
  } catch (error) {
    await finish();
    throw error;
  }
  async function* all() {
    try {
      yield* first.splice(0);
      yield* chunks;
    } finally {
      await chunks.return(undefined);
      await finish();
    }
  }
  const body = Readable.from(all(), { objectMode: false });
  // A stream destroyed before its first read never started `all`.
  body.once('close', () => {
    void chunks.return(undefined).finally(finish);
  });
  return body;
}

// ---------------------------------------------------------------------------------------------
// Rendered bodies kept in memory
// ---------------------------------------------------------------------------------------------

/** A rendered response as it was sent: the bytes and the headers that describe them. */
export interface CachedBody {
  body: string | Buffer;
  contentType: string;
  /** `br` or `gzip` when the bytes are compressed, null for identity. */
  encoding: Encoding | null;
}

/** No body larger than this is kept, whatever the budget: a huge answer is rendered (streamed) again. */
export const MAX_CACHED_BODY_BYTES = 8 * 1024 * 1024;

/** What an entry costs beyond its bytes: the key, the headers, the cache's own bookkeeping. */
const ENTRY_OVERHEAD = 256;

/**
 * Rendered bodies, least recently used first out, bounded by the bytes they hold (lru-cache's
 * `maxSize`). One entry may take at most a quarter of the budget and never more than
 * `MAX_CACHED_BODY_BYTES`, so a single huge export cannot flush everything else nor pin tens of
 * megabytes. Entries never go stale: their keys hold the ETag, which changes with every write.
 */
export class ResponseCache {
  readonly #entries: LRUCache<string, CachedBody>;
  readonly #maxEntryBytes: number;

  constructor(readonly maxBytes: number) {
    this.#maxEntryBytes = Math.min(Math.floor(maxBytes / 4), MAX_CACHED_BODY_BYTES);
    this.#entries = new LRUCache<string, CachedBody>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (entry, key) => Buffer.byteLength(entry.body) + key.length + ENTRY_OVERHEAD,
    });
  }

  get(key: string): CachedBody | undefined {
    return this.#entries.get(key);
  }

  /** Whether a body of this many bytes may be kept. */
  fits(size: number): boolean {
    return size <= this.#maxEntryBytes;
  }

  set(key: string, entry: CachedBody): void {
    if (this.#entries.has(key) || !this.fits(Buffer.byteLength(entry.body))) return;
    this.#entries.set(key, entry);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The bytes held, as counted against the budget. */
  get bytes(): number {
    return this.#entries.calculatedSize;
  }
}

// ---------------------------------------------------------------------------------------------
// Compression
// ---------------------------------------------------------------------------------------------

/** The content codings we send, best first. */
export type Encoding = 'br' | 'gzip';

/** Bodies smaller than this go uncompressed: the saving does not pay for the work. */
export const COMPRESSION_THRESHOLD = 1024;

const ENCODINGS: Encoding[] = ['br', 'gzip'];
const brotliPooled = promisify(brotliCompress);
const gzipPooled = promisify(gzip);

/** The best coding the client accepts (`br` over `gzip`), or null for identity. */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const chosen = negotiate(acceptEncoding.toLowerCase().replace(/x-gzip/g, 'gzip'), ENCODINGS);
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

/**
 * Bodies from this size on are compressed on the thread pool rather than the event loop: brotli
 * at quality 4 takes about a millisecond per 100 KiB, so a list of a few megabytes would hold up
 * every other request for tens of milliseconds. Smaller ones are done at once, which costs less
 * than the hop to the thread pool.
 */
export const POOLED_COMPRESSION_BYTES = 64 * 1024;

const brotliOptions = (size: number) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: size },
});

/**
 * Compresses a body in one go, or answers null when it is under the threshold; a large body's
 * bytes come as a promise (see `POOLED_COMPRESSION_BYTES`). A cacheable body is compressed once
 * per content revision and kept; brotli at quality 4 is the usual setting for dynamic content.
 */
export function compress(payload: string | Buffer, encoding: Encoding): Buffer | Promise<Buffer> | null {
  const size = Buffer.byteLength(payload);
  if (size < COMPRESSION_THRESHOLD) return null;
  if (size >= POOLED_COMPRESSION_BYTES) {
    return encoding === 'br' ? brotliPooled(payload, brotliOptions(size)) : gzipPooled(payload);
  }
  return encoding === 'br' ? brotliCompressSync(payload, brotliOptions(size)) : gzipSync(payload);
}

/** The same compression as a stream, run on the thread pool: for bodies streamed by their handler. */
export function compressStream(encoding: Encoding): Transform {
  if (encoding === 'br') return createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  return createGzip();
}
