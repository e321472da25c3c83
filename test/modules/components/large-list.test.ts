import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';

// A list of many pages (SQLite reads 250 texts a page, PostgreSQL 1,000) and far more than the
// 64 KiB answered as bytes: it is streamed page by page, and is still the same JSON array.
const ctx = await setupApp();
const ws = await createWorkspace(ctx);
const COUNT = 2_300;
const pad = (n: number) => String(n).padStart(4, '0');
await ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] });
for (let from = 0; from < COUNT; from += 1_000) {
  const components = Array.from({ length: Math.min(1_000, COUNT - from) }, (_, i) => {
    const n = from + i;
    return {
      // Inserted out of developer ID order.
      developerId: `c-${pad(COUNT - n)}`,
      text: `Component ${n} ${'x'.repeat(60)}`,
      tags: [`t${n % 4}`],
      ...(n % 3 === 0 && { variants: [{ variantId: 'fr', text: `Composant ${n}` }] }),
    };
  });
  expect((await ws.api.post('components', { components })).status).toBe(201);
}

const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers: { authorization: ws.key, ...headers } });

describe('GET /v2/components larger than one page', () => {
  const url = `/v2/components?filter=${encodeURIComponent(JSON.stringify({ variants: [{ id: 'base' }, { id: 'fr' }] }))}`;

  it('streams every record once, in developer ID order, base before its variant value', async () => {
    const res = await get(url);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    const records = JSON.parse(res.body) as { id: string; variantId: string | null; text: string }[];
    expect(records.filter((r) => r.variantId === null)).toHaveLength(COUNT);
    expect(records.filter((r) => r.variantId === 'fr')).toHaveLength(Math.ceil(COUNT / 3));
    const ids = records.map((r) => r.id);
    expect(ids).toEqual([...ids].sort());
    expect(records[0]).toMatchObject({
      id: 'c-0001',
      variantId: null,
      text: `Component ${COUNT - 1} ${'x'.repeat(60)}`,
    });
  });

  it('is the same array as the records of its parts, and the same gzipped; a repeat is a 304', async () => {
    const whole = await get(url);
    expect(whole.statusCode).toBe(200);
    type Row = { id: string; variantId: string | null };
    const parts: Row[] = [];
    for (const tag of ['t0', 't1', 't2', 't3']) {
      const res = await get(
        `/v2/components?filter=${encodeURIComponent(JSON.stringify({ variants: [{ id: 'base' }, { id: 'fr' }], tags: { values: [tag] } }))}`,
      );
      for (const record of JSON.parse(res.body) as Row[]) parts.push(record);
    }
    // Ordered as the whole list: by developer ID, the base record before the variant's.
    parts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.variantId === null ? -1 : 1));
    expect(parts).toEqual(JSON.parse(whole.body));
    const gzipped = await get(url, { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString('utf8')).toBe(whole.body);
    const again = await get(url, { 'if-none-match': String(whole.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('is a 400 naming the field for a bad filter, before any byte', async () => {
    const res = await get(`/v2/components?filter=${encodeURIComponent(JSON.stringify({ statuses: ['NOPE'] }))}`);
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).message).toContain('NOPE');
  });
});
