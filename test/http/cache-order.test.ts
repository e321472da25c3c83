import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { httpCache } from '../../src/http/cache/index.js';
import { forbidden } from '../../src/http/errors.js';

/**
 * The cache plugin on a small app of its own, registered before and after the rate limiter: the
 * same answers either way. A stand-in authentication gives every keyed request workspace 1 at
 * revision `revision.value`.
 */
async function appWith(order: 'cache first' | 'limiter first', limit = 100) {
  const app = Fastify({ logger: false });
  const revision = { value: 7 };
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.auth) return;
    request.principal = {
      workspaceId: 1,
      userId: 1,
      email: 'a@example.com',
      keyId: 'key',
      role: 'admin',
      revision: revision.value,
    };
  });
  const limiter = () =>
    app.register(rateLimit, {
      global: true,
      hook: 'preHandler',
      max: limit,
      timeWindow: '1 minute',
      keyGenerator: (request) => request.principal?.keyId ?? request.ip,
    });
  const cache = () => app.register(httpCache, { maxBytes: 1 << 20 });
  if (order === 'cache first') {
    await cache();
    await limiter();
  } else {
    await limiter();
    await cache();
  }
  const renders = { value: 0 };
  const render = async () => {
    renders.value += 1;
    return { items: Array.from({ length: 200 }, (_, i) => `item ${i}`) };
  };
  app.get('/keyed', { config: { auth: 'v2' } }, render);
  app.get('/either', { config: { auth: 'either' } }, render);
  app.get('/opted-out', { config: { auth: 'v2', cache: false } }, render);
  app.get('/public', render);
  app.get(
    '/guarded',
    { config: { auth: 'v2' }, preHandler: async () => Promise.reject(forbidden('not yours')) },
    render,
  );
  await app.ready();
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
  return { app, get, renders, revision };
}

describe.each(['cache first', 'limiter first'] as const)('the cache plugin registered %s', (order) => {
  it('renders once, then answers from the cache and with 304, all counted by the rate limiter', async () => {
    const { get, renders } = await appWith(order, 3);
    const first = await get('/keyed');
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^"7-/);
    const hit = await get('/keyed');
    expect(hit.body).toBe(first.body);
    expect((await get('/keyed', { 'if-none-match': String(first.headers.etag) })).statusCode).toBe(304);
    expect(renders.value).toBe(1);
    const limited = await get('/keyed', { 'if-none-match': String(first.headers.etag) });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers.etag).toBeUndefined();
  });

  it("runs the route's own preHandler before answering from the cache", async () => {
    const { get, renders } = await appWith(order);
    const res = await get('/guarded', { 'if-none-match': '*' });
    expect(res.statusCode).toBe(403);
    expect(res.headers.etag).toBeUndefined();
    expect(renders.value).toBe(0);
  });

  it('a new revision is a new ETag and a fresh render', async () => {
    const { get, renders, revision } = await appWith(order);
    const before = String((await get('/keyed')).headers.etag);
    revision.value += 1;
    const after = await get('/keyed', { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).toMatch(/^"8-/);
    expect(renders.value).toBe(2);
  });

  it('caches any authenticated GET by default, whatever its key scheme; cache: false and public routes opt out', async () => {
    const { get, renders } = await appWith(order);
    expect((await get('/either', { 'if-none-match': '*' })).statusCode).toBe(304);
    for (const url of ['/opted-out', '/public']) {
      renders.value = 0;
      const res = await get(url, { 'if-none-match': '*', 'accept-encoding': 'gzip' });
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toBeUndefined();
      // Not cached, still compressed as it goes out.
      expect(res.headers['content-encoding']).toBe('gzip');
      await get(url);
      expect(renders.value).toBe(2);
    }
  });
});

describe('config.cache', () => {
  it('refuses a cacheable route without auth when the app starts', async () => {
    const app = Fastify({ logger: false });
    await app.register(httpCache, { maxBytes: 1 << 20 });
    expect(() => app.get('/nope', { config: { cache: true } }, async () => ({}))).toThrow(
      /GET \/nope: config.cache needs config.auth/,
    );
    await app.close();
  });
});
