import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * Rate-limit counters in Redis, shared by every server, that never stand in a request's way.
 * Each command has a short timeout (the client's `commandTimeout`, and no offline queue, so a
 * command to a Redis that is not connected fails at once). A failed or late command opens the
 * breaker: for the next `OPEN_MS` every count goes to this process's own counters, then one
 * request tries Redis again (half-open) and closes the breaker if it answers. While open, limits
 * still hold, per process. The breaker's state is what `/readyz` reports.
 */

interface Counted {
  current: number;
  ttl: number;
}
type Callback = (error: Error | null, result: Counted | null) => void;

/** The store interface of @fastify/rate-limit (its own stores are plain CommonJS). */
interface Store {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  child(routeOptions: RouteOptions): Store;
}
interface RouteOptions {
  continueExceeding: boolean;
  exponentialBackoff: boolean;
  cache?: number;
  routeInfo: { method: string; url: string };
}
type StoreClass = new (...args: unknown[]) => Store;

const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreClass;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreClass;

/** How long counts stay local after Redis failed, before Redis is tried again. */
export const OPEN_MS = 5_000;

export interface RedisBreaker {
  /** `closed` while Redis answers; `open` while counts are local. */
  state(): 'closed' | 'open';
  /** The class to give @fastify/rate-limit as its `store`. */
  readonly Store: new (params: {
    continueExceeding: boolean;
    exponentialBackoff: boolean;
  }) => Store;
}

export function redisBreaker(redis: Redis, nameSpace: string, log: FastifyBaseLogger): RedisBreaker {
  let openUntil = 0;
  let probing = false;
  const open = (error: Error) => {
    if (openUntil <= Date.now()) log.warn({ err: error }, 'redis did not answer: rate limits are per process for now');
    openUntil = Date.now() + OPEN_MS;
  };

  class BreakerStore implements Store {
    constructor(
      private readonly shared: Store,
      private readonly local: Store,
    ) {}

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      const now = Date.now();
      // Open, or half-open with a probe already out: count here, at no cost.
      if (now < openUntil || (openUntil > 0 && probing)) {
        this.local.incr(key, callback, timeWindow, max);
        return;
      }
      const halfOpen = openUntil > 0;
      if (halfOpen) probing = true;
      this.shared.incr(
        key,
        (error, result) => {
          if (halfOpen) probing = false;
          if (error || !result) {
            open(error ?? new Error('no answer'));
            this.local.incr(key, callback, timeWindow, max);
            return;
          }
          if (halfOpen) {
            openUntil = 0;
            log.info('redis answers again: rate limits are shared');
          }
          callback(null, result);
        },
        timeWindow,
        max,
      );
    }

    child(routeOptions: RouteOptions): Store {
      return new BreakerStore(this.shared.child(routeOptions), this.local.child(routeOptions));
    }
  }

  return {
    state: () => (Date.now() < openUntil || redis.status !== 'ready' ? 'open' : 'closed'),
    Store: class extends BreakerStore {
      constructor(params: { continueExceeding: boolean; exponentialBackoff: boolean }) {
        super(
          new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, nameSpace),
          new LocalStore(params.continueExceeding, params.exponentialBackoff),
        );
      }
    },
  };
}
