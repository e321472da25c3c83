import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp } from '../helpers/app.js';

const ctx = await setupApp();

const names = (body: { name: string }[]) => body.map((v) => v.name).sort();

describe('the response cache', () => {
  it('answers a repeat from the kept bytes until a write moves the revision', async () => {
    const ws = await createWorkspace(ctx);
    expect((await ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] })).status).toBe(201);
    const first = await ws.api.get('variants');
    // A change that bypasses the service (and so the revision) cannot be seen through the cache.
    await ctx.database.db
      .updateTable('variants')
      .set({ name: 'Behind the cache' })
      .where('workspace_id', '=', ws.id)
      .execute();
    const repeat = await ws.api.get('variants');
    expect(repeat.body).toEqual(first.body);
    expect(repeat.headers.etag).toBe(first.headers.etag);

    expect((await ws.api.post('variants', { variants: [{ name: 'German', developerId: 'de' }] })).status).toBe(201);
    const after = await ws.api.get('variants');
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(names(after.body)).toEqual(['Behind the cache', 'German']);
  });

  it('keeps no error: a failed GET fails the same way again, without a validator', async () => {
    const ws = await createWorkspace(ctx);
    const url = `components?filter=${encodeURIComponent(JSON.stringify({ statuses: ['NO_SUCH_STATUS'] }))}`;
    for (let i = 0; i < 2; i += 1) {
      const res = await ws.api.get(url);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('NO_SUCH_STATUS');
      expect(res.headers.etag).toBeUndefined();
    }
  });

  it('serves HEAD by running the handler, with the headers of the GET and no body', async () => {
    const ws = await createWorkspace(ctx);
    const get = await ws.api.get('statuses');
    const head = await ctx.app.inject({ method: 'HEAD', url: '/v2/statuses', headers: { authorization: ws.key } });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect((await ws.api.get('statuses', { 'if-none-match': String(get.headers.etag) })).status).toBe(304);
  });
});

describe('which routes are cached', () => {
  it('caches the GETs of the deprecated v0 and v1 APIs too, whichever way the key is sent', async () => {
    const ws = await createWorkspace(ctx);
    const legacy = apiClient(ctx.app, `token ${ws.key}`);
    for (const path of ['/v1/variants', '/variants', '/variables']) {
      const first = await legacy.get(path);
      expect(first.status).toBe(200);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"\d+-/);
      expect((await legacy.get(path, { 'if-none-match': etag })).status).toBe(304);
      expect((await ws.api.get(path, { 'if-none-match': etag })).status).toBe(304);
    }
    const before = String((await legacy.get('/v1/variants')).headers.etag);
    expect((await ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] })).status).toBe(201);
    const after = await legacy.get('/v1/variants', { 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(JSON.stringify(after.body)).toContain('fr');
  });

  it('leaves /token-check, health checks and the OpenAPI document uncached', async () => {
    const ws = await createWorkspace(ctx);
    for (const path of ['/token-check', '/healthz', '/readyz', '/v2/openapi.json']) {
      const res = await ws.api.get(path, { 'if-none-match': '*' });
      expect(res.status, path).toBe(200);
      expect(res.headers.etag, path).toBeUndefined();
    }
  });

  it('lists 304 in the OpenAPI document for exactly the cached GETs', async () => {
    const { body } = await apiClient(ctx.app, null).get('/v2/openapi.json');
    const responses = (path: string, method = 'get') => Object.keys(body.paths[path]?.[method]?.responses ?? {});
    expect(responses('/v2/statuses')).toContain('304');
    expect(responses('/v1/variants')).toContain('304');
    expect(responses('/variables')).toContain('304');
    expect(responses('/token-check')).toContain('200');
    expect(responses('/token-check')).not.toContain('304');
    expect(responses('/v2/statuses', 'put')).not.toContain('304');
  });
});
