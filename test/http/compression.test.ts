import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../helpers/app.js';

const ctx = await setupApp();

async function workspaceWithVariants(count: number) {
  const ws = await createWorkspace(ctx);
  const variants = Array.from({ length: count }, (_, i) => ({
    name: `Variant number ${i}`,
    description: 'x'.repeat(40),
  }));
  const created = await ws.api.post('variants', { variants });
  expect(created.status).toBe(201);
  return ws;
}

const get = (key: string, url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers: { authorization: key, ...headers } });

describe('compression', () => {
  it('sends a large GET as brotli or gzip when accepted, with the same content', async () => {
    const ws = await workspaceWithVariants(40);
    const plain = await get(ws.key, '/v2/variants');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await get(ws.key, '/v2/variants', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

    const gzip = await get(ws.key, '/v2/variants', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);

    // The repeat comes from the cache, encoded the same way.
    const again = await get(ws.key, '/v2/variants', { 'accept-encoding': 'gzip' });
    expect(again.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(again.rawPayload).toString()).toBe(plain.body);
  });

  it('compresses a body past 64 KiB (on the thread pool) to the same content', async () => {
    const ws = await createWorkspace(ctx);
    const variants = Array.from({ length: 500 }, (_, i) => ({
      name: `Variant number ${i}`,
      description: `${i} `.repeat(60),
    }));
    expect((await ws.api.post('variants', { variants })).status).toBe(201);
    const plain = await get(ws.key, '/v2/variants');
    expect(plain.rawPayload.length).toBeGreaterThan(64 * 1024);
    for (const [coding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const first = await get(ws.key, '/v2/variants', { 'accept-encoding': coding });
      expect(first.headers['content-encoding']).toBe(coding);
      expect(first.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(decode(first.rawPayload).toString()).toBe(plain.body);
      const kept = await get(ws.key, '/v2/variants', { 'accept-encoding': coding });
      expect(kept.rawPayload.equals(first.rawPayload)).toBe(true);
    }
  });

  it('marks a compressed body weak, and still answers its If-None-Match with 304', async () => {
    const ws = await workspaceWithVariants(40);
    const plain = await get(ws.key, '/v2/variants');
    const br = await get(ws.key, '/v2/variants', { 'accept-encoding': 'br' });
    expect(br.headers.etag).toBe(`W/${plain.headers.etag}`);
    const fresh = await get(ws.key, '/v2/variants', {
      'accept-encoding': 'br',
      'if-none-match': String(br.headers.etag),
    });
    expect(fresh.statusCode).toBe(304);
  });

  it('leaves responses under 1 KiB alone', async () => {
    const ws = await createWorkspace(ctx);
    const res = await get(ws.key, '/v2/statuses', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body)).toHaveLength(4);
  });

  it('compresses other large responses too, such as a create with many ids', async () => {
    const ws = await createWorkspace(ctx);
    const variants = Array.from({ length: 120 }, (_, i) => ({ name: `A rather long variant name ${i}` }));
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v2/variants',
      headers: { authorization: ws.key, 'accept-encoding': 'gzip' },
      payload: { variants },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString()).developerIds).toHaveLength(120);
  });
});
