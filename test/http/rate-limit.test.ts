import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp } from '../helpers/app.js';

const ctx = await setupApp({ rateLimitPerMinute: 3 });

describe('rate limiting per API key', () => {
  it('answers the 4th request of a minute with 429, Retry-After and a message', async () => {
    const { api } = await createWorkspace(ctx);
    for (let i = 0; i < 3; i += 1) expect((await api.get('statuses')).status).toBe(200);
    const res = await api.get('statuses');
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.body).toEqual({
      message: expect.stringMatching(/^Rate limit of 3 requests a minute exceeded, retry in \d+ s$/),
      code: 'rate_limited',
      requestId: res.headers['x-request-id'],
    });
  });

  it('counts writes, reads and conditional reads alike, and blocks writes once limited', async () => {
    const { id, email, api } = await createWorkspace(ctx);
    const first = await api.get('variants');
    expect(first.status).toBe(200);
    expect((await api.get('variants', { 'if-none-match': String(first.headers.etag) })).status).toBe(304);
    expect((await api.post('variants', { variants: [{ name: 'French' }] })).status).toBe(201);
    const limited = await api.post('variants', { variants: [{ name: 'Spanish' }] });
    expect(limited.status).toBe(429);
    // The refused write changed nothing: seen through a second key that still has requests left.
    const { key } = await ctx.services.accounts.createKey({ workspaceId: id, email });
    const names = (await apiClient(ctx.app, key).get('variants')).body.map((v: { name: string }) => v.name);
    expect(names).toEqual(['French']);
  });

  it('sends RateLimit-Limit and RateLimit-Remaining on successful responses', async () => {
    const { api } = await createWorkspace(ctx);
    const first = await api.get('users');
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('3');
    expect(first.headers['ratelimit-remaining']).toBe('2');
    const second = await api.get('variables');
    expect(second.headers['ratelimit-remaining']).toBe('1');
  });

  it('limits each key on its own, also two keys of one workspace and user', async () => {
    const { id, email, api } = await createWorkspace(ctx);
    for (let i = 0; i < 3; i += 1) await api.get('statuses');
    expect((await api.get('statuses')).status).toBe(429);
    const { key } = await ctx.services.accounts.createKey({ workspaceId: id, email, name: 'second' });
    const second = apiClient(ctx.app, key);
    const res = await second.get('statuses');
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('2');
    expect((await api.get('statuses')).status).toBe(429);
  });

  it('never limits /healthz and /readyz, with or without a key', async () => {
    const { api } = await createWorkspace(ctx);
    for (let i = 0; i < 3; i += 1) await api.get('statuses');
    expect((await api.get('statuses')).status).toBe(429);
    for (let i = 0; i < 10; i += 1) {
      expect((await api.get('/healthz')).status).toBe(200);
      expect((await api.get('/readyz')).status).toBe(200);
      expect((await apiClient(ctx.app, null).get('/healthz')).status).toBe(200);
    }
  });
});

describe('rate limiting of requests without a valid key, per client address', async () => {
  const keyless = await setupApp({ rateLimitPerMinute: 0, rateLimitKeylessPerMinute: 3 });
  const from = (remoteAddress: string, url: string, authorization?: string) =>
    keyless.app.inject({ method: 'GET', url, remoteAddress, headers: authorization ? { authorization } : {} });

  it('counts missing keys, wrong keys and public routes alike, and answers the 4th with 429', async () => {
    expect((await from('198.51.100.1', '/v2/statuses')).statusCode).toBe(401);
    expect((await from('198.51.100.1', '/v2/statuses', 'cdk_not_a_key')).statusCode).toBe(401);
    expect((await from('198.51.100.1', '/v2/openapi.json')).statusCode).toBe(200);
    const limited = await from('198.51.100.1', '/v2/statuses', 'cdk_another_guess');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toEqual({
      message: expect.stringMatching(/^Rate limit of 3 requests a minute exceeded, retry in \d+ s$/),
      code: 'rate_limited',
      requestId: limited.headers['x-request-id'],
    });
    expect((await from('198.51.100.1', '/v2/openapi.json')).statusCode).toBe(429);
  });

  it('limits each address on its own, never a valid key, and never health checks', async () => {
    const { key } = await createWorkspace(keyless);
    for (let i = 0; i < 3; i += 1) expect((await from('198.51.100.2', '/v2/statuses')).statusCode).toBe(401);
    expect((await from('198.51.100.2', '/v2/statuses')).statusCode).toBe(429);
    expect((await from('198.51.100.3', '/v2/statuses')).statusCode).toBe(401);
    for (let i = 0; i < 5; i += 1) {
      expect((await from('198.51.100.2', '/v2/statuses', key)).statusCode).toBe(200);
      expect((await from('198.51.100.2', '/healthz')).statusCode).toBe(200);
      expect((await from('198.51.100.2', '/readyz')).statusCode).toBe(200);
      // The docs page is a public read outside the API: not counted either.
      expect((await from('198.51.100.2', '/docs/static/index.html')).statusCode).not.toBe(429);
    }
  });
});

describe('behind proxies, the client address comes from the right of X-Forwarded-For', () => {
  const call = (app: Awaited<ReturnType<typeof setupApp>>['app'], forwardedFor: string) =>
    app.inject({
      method: 'GET',
      url: '/v2/statuses',
      remoteAddress: '10.0.0.5',
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('one trusted hop: rotating the leftmost entries does not escape the limit', async () => {
    const proxied = await setupApp({ rateLimitPerMinute: 0, rateLimitKeylessPerMinute: 3, trustProxy: 1 });
    for (let i = 0; i < 3; i += 1) expect((await call(proxied.app, `6.6.6.${i}, 203.0.113.7`)).statusCode).toBe(401);
    // The same client behind the proxy, whatever it writes on the left.
    expect((await call(proxied.app, '6.6.6.99, 203.0.113.7')).statusCode).toBe(429);
    expect((await call(proxied.app, '203.0.113.7')).statusCode).toBe(429);
    // Another client is counted on its own.
    expect((await call(proxied.app, '6.6.6.1, 198.51.100.2')).statusCode).toBe(401);
  });

  it('a list of proxy addresses: the client is the rightmost address that is not a proxy', async () => {
    const proxied = await setupApp({
      rateLimitPerMinute: 0,
      rateLimitKeylessPerMinute: 2,
      trustProxy: ['10.0.0.0/8', '192.0.2.10'],
    });
    for (let i = 0; i < 2; i += 1) {
      expect((await call(proxied.app, `1.1.1.${i}, 203.0.113.9, 192.0.2.10`)).statusCode).toBe(401);
    }
    expect((await call(proxied.app, '1.1.1.50, 203.0.113.9, 192.0.2.10')).statusCode).toBe(429);
  });

  it('no trusted proxy: the header is ignored and the peer is the client', async () => {
    const direct = await setupApp({ rateLimitPerMinute: 0, rateLimitKeylessPerMinute: 2 });
    for (let i = 0; i < 2; i += 1) expect((await call(direct.app, `7.7.7.${i}`)).statusCode).toBe(401);
    expect((await call(direct.app, '7.7.7.200')).statusCode).toBe(429);
  });
});
