import type { RouteOptions } from 'fastify';
import type { Encoding } from './encoding.js';

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
