import { describe, expect, it } from 'vitest';
import { appendAll } from '../../../src/shared/arrays.js';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { post } from '../exports/helpers.js';
import { emptyLike, file, importFile } from './helpers.js';

/*
 * Files large enough to be parsed on a worker thread (256 KB and more) and written in several
 * parts of 500 keys, inside the one transaction.
 */
const ctx = await setupApp();

async function fresh(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await emptyLike(ws);
  return ws;
}

const historyCount = async (ws: Workspace) => (await ws.api.get('history?limit=1000')).body.changes.length;
const keys = (count: number, text = (i: number) => `Text number ${i} of a large file`) =>
  Array.from({ length: count }, (_, i) => [`key-${i}`, text(i)] as const);
const json = (entries: readonly (readonly [string, string])[]) => JSON.stringify(Object.fromEntries(entries));

describe('large files', () => {
  it('a CSV of 3,500 keys with a variant column, then again with changes and skips', async () => {
    const ws = await fresh();
    const rows = (suffix: string) =>
      keys(3500).map(([key, text]) => `${key},"${text}${suffix}","${text} (fr)${suffix}"`);
    const content = (suffix: string) => `key,en,fr\n${rows(suffix).join('\n')}\n`;
    expect(content('').length).toBeGreaterThan(256 * 1024);
    const columns = { key: 'key', text: 'en', variants: { fr: 'fr' } };
    const first = await importFile(ws, { format: 'csv', projectId: 'web', content: content(''), columns });
    expect(first.created).toHaveLength(3500);
    expect(first.keys.map((k: { key: string }) => k.key).slice(0, 3)).toEqual(['key-0', 'key-1', 'key-2']);
    const fr = JSON.parse(await file(ws, 'textItems', { format: 'json_i18next', variantId: 'fr' }));
    expect(Object.keys(fr).filter((key) => key.startsWith('key-'))).toHaveLength(3500);
    expect(fr['key-2999']).toBe('Text number 2999 of a large file (fr)');

    const skip = ['key-5', 'key-2500'];
    const again = await importFile(ws, { format: 'csv', projectId: 'web', content: content('!'), columns, skip });
    expect(again.updated).toHaveLength(3498);
    expect(again.skipped).toEqual(skip.map((key) => ({ key, reason: 'left as it is: skipped in the request' })));
    const base = JSON.parse(await file(ws, 'textItems', { format: 'json_i18next' }));
    expect(base['key-2999']).toBe('Text number 2999 of a large file!');
    expect(base['key-2500']).toBe('Text number 2500 of a large file');
    const frAgain = JSON.parse(await file(ws, 'textItems', { format: 'json_i18next', variantId: 'fr' }));
    expect(frAgain['key-2999']).toBe('Text number 2999 of a large file (fr)!');
    expect(frAgain['key-5']).toBe('Text number 5 of a large file (fr)');
  }, 120_000);

  it('a large answer (kept on disk past 64 KB a list) is the same with and without dryRun', async () => {
    const ws = await fresh();
    // A key the parser skips (an Android <string-array>) comes first in keys[], as it always did.
    const strings = keys(3000)
      .map(([key, text]) => `  <string name="${key}">${text}</string>`)
      .join('\n');
    const content = `<resources>\n  <string-array name="menu"><item>A</item></string-array>\n${strings}\n</resources>`;
    expect(content.length).toBeGreaterThan(64 * 1024);
    const dry = await importFile(ws, { format: 'android', projectId: 'web', content, dryRun: true });
    const real = await importFile(ws, { format: 'android', projectId: 'web', content });
    expect({ ...dry, dryRun: false }).toEqual(real);
    expect(real.created).toHaveLength(3000);
    expect(real.keys).toHaveLength(3001);
    expect(real.keys[0]).toMatchObject({ key: 'menu', action: 'skip' });
    expect(real.keys[3000]).toEqual({
      key: 'key-2999',
      action: 'create',
      changes: [{ field: 'text', before: null, after: 'Text number 2999 of a large file' }],
    });
  }, 120_000);

  it('an import of several parts is one write: one revision in history, and searchable', async () => {
    const ws = await fresh();
    // 1,200 keys: three parts of the write, and several batches of the search indexer.
    const rows = keys(1200, (i) => `Bulk line ${i} zebra${i}`).map(([key, text]) => `bulk-${key},${text}`);
    const content = `key,en\n${rows.join('\n')}\n`;
    const body = await importFile(ws, {
      format: 'csv',
      projectId: 'web',
      content,
      columns: { key: 'key', text: 'en' },
    });
    expect(body.created).toHaveLength(1200);
    expect(body.keys).toHaveLength(1200);
    expect(body.keys[1199]).toEqual({
      key: 'bulk-key-1199',
      action: 'create',
      changes: [{ field: 'text', before: null, after: 'Bulk line 1199 zebra1199' }],
    });

    const logged: Array<{ developerId: string; action: string; revision: string }> = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: any } = await ws.api.get(
        `history?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.status).toBe(200);
      appendAll(logged, page.body.changes);
      cursor = page.body.nextCursor;
    } while (cursor);
    const imported = logged.filter((change) => change.developerId.startsWith('bulk-'));
    expect(imported).toHaveLength(1200);
    expect(new Set(imported.map((change) => change.action))).toEqual(new Set(['created']));
    expect(new Set(imported.map((change) => change.revision)).size).toBe(1);

    // A search works off what is queued first, so the last part's texts are found at once.
    for (const [q, developerId] of [
      ['zebra1199', 'bulk-key-1199'],
      ['zebra0 bulk', 'bulk-key-0'],
      ['zebra777', 'bulk-key-777'],
    ] as const) {
      const found = await ws.api.get(`search?q=${encodeURIComponent(q)}`);
      expect(found.status).toBe(200);
      expect(found.body.results.map((r: { developerId: string }) => r.developerId)).toEqual([developerId]);
    }
  }, 120_000);

  it('a part that fails after others were written leaves nothing of the import', async () => {
    const ws = await fresh();
    // `cart` has plural forms, so the developer ID `cart_one` is its `one` record's.
    await post(ws, 'textItems', {
      projectId: 'web',
      textItems: [
        {
          developerId: 'cart',
          text: 'item',
          plurals: [
            { form: 'one', text: 'item' },
            { form: 'other', text: 'items' },
          ],
        },
      ],
    });
    const before = await historyCount(ws);
    const content = json([...keys(4500), ['cart_one', 'collides with a plural record']]);
    const body = await importFile(ws, { format: 'json_icu', projectId: 'web', content }, 400);
    expect(body.message).toMatch(/cart_one/);
    expect(await historyCount(ws)).toBe(before);
    const exported = JSON.parse(await file(ws, 'textItems', { format: 'json_i18next' }));
    expect(Object.keys(exported).filter((key) => key.startsWith('key-'))).toEqual([]);
    // Nor in the search index: the texts the first parts queued went with the transaction.
    const found = await ws.api.get(`search?q=${encodeURIComponent('large file')}`);
    expect(found.body.results).toEqual([]);
  }, 120_000);

  it('the import writes beside other requests: writes sent meanwhile follow it, a failed one leaves all writable', async () => {
    // On SQLite the import's transaction runs on a connection of its own in a worker thread; the
    // server's connection must not write while that one holds the write lock (it would wait on
    // it, then fail), and a transaction rolled back there must let go of the lock.
    const ws = await fresh();
    const before = await historyCount(ws);
    const failing = json([...keys(700, (i) => `Failing ${i}`), ['bad', 'a \u0000 in it']]);
    const [failed, good, written] = await Promise.all([
      ws.api.post('import', { format: 'json_i18next', projectId: 'web', content: failing }),
      ws.api.post('import', { format: 'json_i18next', projectId: 'web', content: json(keys(600)) }),
      ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'meanwhile', text: 'Meanwhile' }] }),
    ]);
    expect(failed.status, JSON.stringify(failed.body)).toBe(400);
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.created).toHaveLength(600);
    expect(written.status, JSON.stringify(written.body)).toBe(201);
    // The changes of the two writes in history, nothing of the failed import.
    expect(await historyCount(ws)).toBe(before + 601);
    const exported = JSON.parse(await file(ws, 'textItems', { format: 'json_i18next' }));
    expect(exported.meanwhile).toBe('Meanwhile');
    expect(exported['key-599']).toBe('Text number 599 of a large file');
    expect(Object.values(exported).filter((text) => String(text).startsWith('Failing'))).toEqual([]);
    // And the database takes writes after them, on either connection.
    await post(ws, 'textItems', { projectId: 'web', textItems: [{ developerId: 'after', text: 'After' }] });
    const again = await importFile(ws, { format: 'json_i18next', projectId: 'web', content: json([['late', 'Late']]) });
    expect(again.created).toEqual(['late']);
  }, 120_000);

  it('a large file nested too deep is a 400 naming the line, read on its own thread', async () => {
    const ws = await fresh();
    const deep = `${'{"a":'.repeat(4000)}"x"${'}'.repeat(4000)}`;
    const content = `{\n${keys(12_000)
      .map(([key, text]) => `"${key}": "${text}",`)
      .join('\n')}\n"deep": ${deep}\n}`;
    expect(content.length).toBeGreaterThan(256 * 1024);
    const body = await importFile(ws, { format: 'json_nested', projectId: 'web', content }, 400);
    expect(body.message).toMatch(/^json_nested file, line 12002: objects and arrays nested more than 64 levels deep/);
  }, 120_000);

  it('a large file with a text that cannot be stored is a 400 naming the key', async () => {
    const ws = await fresh();
    const content = json([...keys(12_000), ['bad', 'a \u0000 in it']]);
    expect(content.length).toBeGreaterThan(256 * 1024);
    const body = await importFile(ws, { format: 'json_i18next', projectId: 'web', content }, 400);
    expect(body.message).toMatch(/^content: .*bad/);
  }, 120_000);
});
