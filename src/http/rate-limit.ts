import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from './errors.js';
import { type RedisBreaker, redisBreaker } from './redis-breaker.js';

/** Checks a request that carries no valid key against its address's budget; throws the 429. */
export type KeylessLimit = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Probes from load balancers come often and from few addresses: they are never counted. */
const UNCOUNTED = new Set(['/healthz', '/readyz']);

const exceeded = (max: number, seconds: number) =>
  `Rate limit of ${max} requests a minute exceeded, retry in ${seconds} s`;

/**
 * Two budgets, each a minute long: one per API key for keyed requests (after authentication,
 * before the handler, so a 304 or a cached answer counts too), and one per client address for
 * everything without a valid key, failed authentications included, so guessing keys is limited
 * as well. With `REDIS_URL` the counters live in Redis and every server draws on the same
 * budget; while Redis does not answer (each command may take 250 ms), each process counts on its
 * own for a few seconds and tries again (src/http/redis-breaker.ts).
 */
export interface RateLimits {
  keyless: KeylessLimit | null;
  /** With Redis: `degraded` while the counters are per process because Redis does not answer. */
  redisState: (() => 'ok' | 'degraded') | null;
}

/** How long one Redis command may take before the request counts locally instead. */
const REDIS_COMMAND_MS = 250;

export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<RateLimits> {
  const perKey = config.rateLimitPerMinute;
  const perAddress = config.rateLimitKeylessPerMinute;
  if (perKey === 0 && perAddress === 0) return { keyless: null, redisState: null };
  const redis = config.redis
    ? new Redis(config.redis.url, {
        connectTimeout: 500,
        commandTimeout: REDIS_COMMAND_MS,
        // A command to a Redis that is not connected fails at once instead of waiting in a queue.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        retryStrategy: (times) => Math.min(times * 250, 2_000),
      })
    : null;
  let breaker: RedisBreaker | null = null;
  if (redis && config.redis) {
    breaker = redisBreaker(redis, `${config.redis.prefix}rate:`, app.log);
    redis.on('error', (error) => app.log.debug({ err: error }, 'redis connection error'));
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: perKey > 0,
    hook: 'preHandler',
    max: perKey,
    timeWindow: '1 minute',
    enableDraftSpec: true,
    ...(breaker ? { store: breaker.Store as never, skipOnError: true } : {}),
    // A key's own budget; a signed-in person's session draws on their user's.
    keyGenerator: (request) =>
      request.principal?.keyId ? `key:${request.principal.keyId}` : `user:${request.principal?.userId}`,
    // This budget is for keyed requests; the rest is counted per address below.
    allowList: (request) => request.principal === null,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'rate_limited',
      message: exceeded(context.max, Math.ceil(context.ttl / 1000)),
    }),
  });
  const redisState = breaker ? () => (breaker.state() === 'closed' ? ('ok' as const) : ('degraded' as const)) : null;
  if (perAddress === 0) return { keyless: null, redisState };
  const check = app.createRateLimit({
    max: perAddress,
    timeWindow: '1 minute',
    keyGenerator: (request) => `address:${request.ip}`,
    allowList: (request) => {
      const url = request.routeOptions.url ?? '';
      if (UNCOUNTED.has(url)) return true;
      // Public reads outside the API (the web app's files, the docs page) are fixed files that a
      // whole office behind one address loads many times a minute; failed keys and sign-ins count.
      const read = request.method === 'GET' || request.method === 'HEAD';
      return read && !request.routeOptions.config.auth && !url.startsWith('/v2/') && !url.startsWith('/v1/');
    },
  });
  const keyless: KeylessLimit = async (request, reply) => {
    const outcome = await check(request);
    if (outcome.isAllowed || !outcome.isExceeded) return;
    reply.header('retry-after', outcome.ttlInSeconds);
    reply.header('ratelimit-limit', outcome.max).header('ratelimit-remaining', 0);
    throw new AppError('rate_limited', exceeded(outcome.max, outcome.ttlInSeconds));
  };
  return { keyless, redisState };
}
