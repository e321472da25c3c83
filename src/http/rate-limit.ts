import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from './errors.js';

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
 * budget; if Redis cannot answer, requests pass rather than fail.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<KeylessLimit | null> {
  const perKey = config.rateLimitPerMinute;
  const perAddress = config.rateLimitKeylessPerMinute;
  if (perKey === 0 && perAddress === 0) return null;
  const redis = config.redis
    ? new Redis(config.redis.url, { connectTimeout: 500, maxRetriesPerRequest: 1, lazyConnect: false })
    : null;
  if (redis) {
    redis.on('error', (error) => app.log.warn({ err: error }, 'redis unavailable: requests are not limited'));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: perKey > 0,
    hook: 'preHandler',
    max: perKey,
    timeWindow: '1 minute',
    enableDraftSpec: true,
    ...(redis ? { redis, nameSpace: `${config.redis?.prefix}rate:`, skipOnError: true } : {}),
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
  if (perAddress === 0) return null;
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
  return async (request, reply) => {
    const outcome = await check(request);
    if (outcome.isAllowed || !outcome.isExceeded) return;
    reply.header('retry-after', outcome.ttlInSeconds);
    reply.header('ratelimit-limit', outcome.max).header('ratelimit-remaining', 0);
    throw new AppError('rate_limited', exceeded(outcome.max, outcome.ttlInSeconds));
  };
}
