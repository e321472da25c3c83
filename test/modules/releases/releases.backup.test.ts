import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copydesk, readLines, writeLines } from '../../cli/backup-helpers.js';
import { createWorkspace, ok, setupApp } from '../../helpers/app.js';
import { backupRoundTrip } from '../../helpers/backup.js';
import { tempSqlitePath, testDatabaseConfig } from '../../helpers/database.js';
import { seed } from '../exports/helpers.js';

// Made on a SQLite server, restored into this suite's database (PostgreSQL when DATABASE_URL
// names one): the release's bytes and ETags must not change on the way.
const source = await setupApp({ database: { kind: 'sqlite', path: tempSqlitePath('copydesk-releases-') } });
const target = await setupApp({ database: testDatabaseConfig() });
const dir = mkdtempSync(join(tmpdir(), 'copydesk-releases-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const all = encodeURIComponent(JSON.stringify({ variants: [{ id: 'all' }] }));
const READS = [
  'textItems/export?format=json_i18next&variantId=fr&release=r1',
  'components/export?format=android&variantId=ru&release=r1',
  'textItems/export?format=ios-strings&release=r2',
  `textItems?filter=${all}&withEtag=true&release=r1`,
  `components?filter=${all}&release=r2`,
  'releases',
  'releases/r2',
  'releases/diff?from=r1&to=r2',
  // The project web is pinned to r1: a key's read of it without release= answers r1.
  'releasePins',
  `textItems/export?format=android&filter=${encodeURIComponent(JSON.stringify({ projects: [{ id: 'web' }] }))}`,
];

describe('releases in a workspace backup', () => {
  it('restore with the same bytes and strong ETags, on the other database too', async () => {
    const ws = await createWorkspace(source, 'Released');
    await seed(ws);
    await ok(ws.api.post('releases', { name: 'r1', filter: { statuses: [] } }));
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'greet', text: 'Changed' }] }));
    await ok(ws.api.post('releases', { name: 'r2', filter: { statuses: [] } }));
    await ok(ws.api.put('releasePins', { projectId: 'web', release: 'r1' }));
    const before = new Map<string, { body: string; etag: unknown }>();
    for (const url of READS) {
      const res = await ws.api.get(url);
      before.set(url, { body: res.raw.body, etag: res.headers.etag });
    }
    // r1 and r2 share every document (the workspace's too) but the changed text's: stored once each.
    const r1 = await ok(ws.api.get('releases/r1'));
    const documents = 1 + r1.textItems + r1.components;
    const { copy, rows, exportAgain } = await backupRoundTrip({
      source,
      target,
      ws,
      dir,
      table: 'releaseContents',
      rows: documents + 1,
      reads: READS,
    });
    for (const url of READS.filter((u) => u.includes('release=') || u.includes('filter='))) {
      const res = await copy.get(url);
      expect(res.raw.body, url).toBe(before.get(url)?.body);
      expect(res.headers.etag, url).toBe(before.get(url)?.etag);
      expect(String(res.headers.etag)).toMatch(/^"sha256-/);
    }
    // The restored workspace backs up to the same documents.
    expect(await exportAgain()).toEqual(rows);
    // A restored release is as immutable as the original: a later edit leaves it.
    await ok(copy.patch('textItems', { updates: [{ developerId: 'cart', text: 'Later' }] }));
    const url = READS[0] as string;
    expect((await copy.get(url)).raw.body).toBe(before.get(url)?.body);
  });

  it('refuses a document whose body does not match its hash', async () => {
    const ws = await createWorkspace(source, 'Tampered');
    await ok(ws.api.post('releases', { name: 'x' }));
    const file = join(dir, 'tampered.json.gz');
    expect((await copydesk(source, 'workspace', 'export', '--workspace', String(ws.id), '--out', file)).code).toBe(0);
    const lines = readLines(file).map((line) =>
      line.table === 'releaseContents' ? { ...line, row: { ...line.row, body: `${line.row?.body} ` } } : line,
    );
    writeLines(file, lines);
    const restored = await copydesk(target, 'workspace', 'import', '--file', file);
    expect(restored.code).not.toBe(0);
    expect(restored.err.join('\n')).toContain('releaseContents[0]');
    expect(restored.err.join('\n')).toContain('body: does not have the SHA-256 in hash');
  });
});
