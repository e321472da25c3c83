import { pipeline, Readable, Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';
import { COMPRESSION_THRESHOLD, compress, compressStream, negotiateEncoding } from './encoding.js';
import { matchesIfNoneMatch, responseEtag, weak } from './etag.js';
import { ResponseCache } from './lru.js';
import { type HttpCacheState, isCacheableHeadRoute, isCacheableRoute } from './state.js';

export type { CacheOutcome, HttpCacheState } from './state.js';
export { isCacheableRoute } from './state.js';

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
        route.handler = function cachedHeadHandler(this: FastifyInstance, request, reply) {
          if (answerFromCache(request, reply)) return undefined;
          return handler.call(this, request, reply);
        } as RouteHandlerMethod;
        return;
      }
      if (!isCacheableRoute(route)) return;
      const handler = route.handler;
      route.handler = function cachedHandler(this: FastifyInstance, request, reply) {
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
      etag: string,
      body: Readable,
    ): Readable {
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
        return done(null, keepStream(request, reply, state, state.etag, payload));
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
