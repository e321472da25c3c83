import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../../src/formats/types.js';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { i18nextOf } from './consumers.js';
import { exportOf, file, post } from './helpers.js';

// Exports of more texts than one page of the reader (1,000) and one chunk of the file (64 KiB):
// the file is read and written in pieces, and must still be one file of one moment.
const ctx = await setupApp();

const pad = (n: number) => String(n).padStart(4, '0');
const ITEMS = 2_400;

/** Two projects; every third item plural, every fourth tagged, every fifth with a French value that is WIP. */
async function seedLarge(ws: Workspace, text: (n: number) => string = (n) => `Text ${n}`): Promise<void> {
  await post(ws, 'variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
  await post(ws, 'projects', {
    projects: [
      { name: 'B', developerId: 'project-b' },
      { name: 'A', developerId: 'project-a' },
    ],
  });
  for (let from = 0; from < ITEMS; from += 1_000) {
    const textItems = Array.from({ length: Math.min(1_000, ITEMS - from) }, (_, i) => {
      const n = from + i;
      return {
        // Inserted in descending developer ID order, so the project order is not the ID order.
        developerId: `item-${pad(ITEMS - n)}`,
        text: text(n),
        ...(n % 3 === 0 && {
          plurals: [
            { form: 'one', text: text(n) },
            { form: 'other', text: `Many ${n}` },
          ],
        }),
        ...(n % 4 === 0 && { tags: ['four'] }),
        variants: [{ variantId: 'fr', text: `Texte ${n}`, status: n % 5 === 0 ? 'WIP' : 'NONE' }],
      };
    });
    await post(ws, 'textItems', { projectId: from < 2_000 ? 'project-b' : 'project-a', textItems });
  }
}

const ws = await createWorkspace(ctx);
await seedLarge(ws);
const numberOf = (id: string) => ITEMS - Number(id.slice('item-'.length));

describe('exports larger than a page and a chunk', () => {
  it('hold every selected text once, in developer ID order, as the consumer reads them', async () => {
    const body = await file(ws, 'textItems', { format: 'json_i18next' });
    expect(body.length).toBeGreaterThan(64 * 1024);
    const json = JSON.parse(body) as Record<string, string>;
    const ids = Object.keys(json).filter((key) => !key.includes('_'));
    expect(ids).toHaveLength(ITEMS);
    expect(ids).toEqual([...ids].sort());
    const t = await i18nextOf(json, 'en');
    for (const id of ['item-0001', 'item-1000', 'item-1001', 'item-2400']) {
      const n = numberOf(id);
      expect(t(id, {})).toBe(`Text ${n}`);
      if (n % 3 === 0) expect(t(id, { count: 2 })).toBe(`Many ${n}`);
    }
  });

  it('apply the filter and the variant across pages', async () => {
    const tagged = JSON.parse(
      await file(ws, 'textItems', { format: 'json_icu', filter: { tags: { values: ['four'] } } }),
    );
    expect(Object.keys(tagged)).toHaveLength(ITEMS / 4);
    expect(Object.keys(tagged).every((id) => numberOf(id) % 4 === 0)).toBe(true);
    const filter = { statuses: ['NONE'] };
    const french = JSON.parse(await file(ws, 'textItems', { format: 'json_icu', variantId: 'fr', filter }));
    const ids = Object.keys(french).filter((key) => !key.startsWith('__'));
    // The WIP French values fail the status filter: every fifth item is left out.
    expect(ids).toHaveLength(ITEMS - ITEMS / 5);
    expect(french['item-2399']).toBe('Texte 1');
    expect(french['item-2400']).toBeUndefined();
  });

  it('follow the project order: projects by developer ID, then the items in their order', async () => {
    const body = await file(ws, 'textItems', { format: 'ios-strings', sort: 'project_order' });
    const ids = [...body.matchAll(/^"(item-\d+)" = /gm)].map((match) => match[1] as string);
    const numbers = ids.map(numberOf);
    const expected = [
      ...Array.from({ length: ITEMS - 2_000 }, (_, i) => 2_000 + i),
      ...Array.from({ length: 2_000 }, (_, i) => i),
    ];
    expect(numbers).toEqual(expected);
  });

  it('are the same bytes compressed, and the same again from the response cache', async () => {
    const plain = await exportOf(ws, 'textItems', { format: 'android' });
    expect(plain.raw.body.length).toBeGreaterThan(64 * 1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (let i = 0; i < 2; i++) {
      const res = await exportOf(ws, 'textItems', { format: 'android' }, { 'accept-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.etag).toBe(`W/${plain.headers.etag}`);
      expect(gunzipSync(res.raw.rawPayload).toString('utf8')).toBe(plain.raw.body);
    }
    const again = await exportOf(ws, 'textItems', { format: 'android' });
    expect(again.raw.body).toBe(plain.raw.body);
  });
});

describe('exports their clients give up on', () => {
  it('release what they read from, so later exports still run', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
    const { port } = ctx.app.server.address() as AddressInfo;
    // More abandoned exports than PostgreSQL grants snapshots at once (half its pool of 10).
    for (let i = 0; i < 8; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = request(
          {
            port,
            path: `/v2/textItems/export?format=android&richText=html&n=${i}`,
            headers: { authorization: ws.key },
          },
          (response) => {
            response.once('data', () => {
              req.destroy();
              resolve();
            });
          },
        );
        req.on('error', () => resolve());
        req.on('timeout', () => reject(new Error('no answer')));
        req.end();
      });
    }
    const after = await exportOf(ws, 'textItems', { format: 'json_vue_i18n' });
    expect(after.status).toBe(200);
    expect(Object.keys(JSON.parse(after.raw.body))).toHaveLength(ITEMS);
  });
});

describe('an export read while texts change', () => {
  it('holds the texts as they were when it began, and the next export the new ones', async () => {
    const w = await createWorkspace(ctx);
    // About 12 MB: more than the socket and stream buffers hold, so the server is still reading
    // when the write below commits.
    await seedLarge(w, (n) => `Text ${n} ${'x'.repeat(5_000)}`);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
    const { port } = ctx.app.server.address() as AddressInfo;
    const chunks: Buffer[] = [];
    const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      request({ port, path: '/v2/textItems/export?format=json_i18next', headers: { authorization: w.key } }, resolve)
        .on('error', reject)
        .end();
    });
    response.pause();
    // The first and the last item (in file order) change while the file is being sent.
    const patched = await w.api.patch('textItems', {
      updates: [
        { developerId: 'item-0001', text: 'Changed first' },
        { developerId: 'item-2400', text: 'Changed last' },
      ],
    });
    expect(patched.status).toBe(200);
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.resume();
    await new Promise((resolve) => response.on('end', resolve));
    const during = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
    expect(during['item-0001']).toMatch(/^Text 2399 /);
    expect(during['item-2400']).toMatch(/^Text 0 /);
    const after = JSON.parse(await file(w, 'textItems', { format: 'json_i18next' })) as Record<string, string>;
    expect(after['item-0001']).toBe('Changed first');
    expect(after['item-2400']).toBe('Changed last');
    // Seeding 12 MB through the API takes most of it; a busy shared machine stretches that.
  }, 90_000);
});

describe('gzipped exports', () => {
  // A streamed export is compressed as it flows: the file must be the plain file, gzipped, in
  // every format, before and after writes that edit, add (a clashing Android name too) and delete.
  const renderings = [...FORMATS.map((format) => ({ format })), { format: 'android', variantId: 'fr' }];

  /** The plain file and the gzipped one (asked with `extra` to miss the response cache); both 200. */
  async function both(w: Workspace, params: Record<string, string>, extra: Record<string, string> = {}) {
    const plain = await exportOf(w, 'textItems', { ...params, ...extra });
    expect(plain.status, plain.raw.body).toBe(200);
    const zipped = await ctx.app.inject({
      method: 'GET',
      url: `/v2/textItems/export?${new URLSearchParams({ ...params, ...extra, sort: 'id' })}`,
      headers: { authorization: w.key, 'accept-encoding': 'gzip' },
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    return { plain: plain.raw.body, unzipped: gunzipSync(zipped.rawPayload).toString('utf8') };
  }

  it('are the plain file gzipped, before and after writes', async () => {
    const w = await createWorkspace(ctx);
    await seedLarge(w);
    for (const params of renderings) {
      const { plain, unzipped } = await both(w, params);
      expect(plain.length, params.format).toBeGreaterThan(64 * 1024);
      expect(unzipped, params.format).toBe(plain);
    }
    expect((await w.api.patch('textItems', { updates: [{ developerId: 'item-1200', text: 'Edited' }] })).status).toBe(
      200,
    );
    const added = await w.api.post('textItems', {
      projectId: 'project-a',
      textItems: [
        { developerId: 'item-1200_', text: 'Inside a run' },
        { developerId: 'item_1200', text: 'Clashes with item-1200 on Android' },
        { developerId: 'zz-last', text: 'After every run' },
      ],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await w.api.delete('textItems', { developerIds: ['item-0002'] })).status).toBe(200);
    for (const params of renderings) {
      const { plain, unzipped } = await both(w, params);
      expect(unzipped, JSON.stringify(params)).toBe(plain);
      expect(plain).not.toContain('Text 2398');
      if ('variantId' in params) continue;
      expect(plain).toContain('Edited');
      if (params.format === 'android') expect(plain).toContain('name="item_1200_2"');
    }
    // Two workspaces' worth of files, each rendered twice (plain and gzipped).
  }, 90_000);
});
