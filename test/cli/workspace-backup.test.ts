import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp } from '../helpers/app.js';
import { tempSqlitePath, testDatabaseConfig } from '../helpers/database.js';
import { copydesk } from './backup-helpers.js';
import { everyGet, legacyGets, seedWorkspace, withoutReadTime } from './workspace-fixture.js';

// The backup is written from a SQLite server and restored into this suite's database: PostgreSQL
// when DATABASE_URL names one, which is the move from one server to several.
const source = await setupApp({ database: { kind: 'sqlite', path: tempSqlitePath('copydesk-backup-') } });
const target = await setupApp({ database: testDatabaseConfig() });
const dir = mkdtempSync(join(tmpdir(), 'copydesk-backup-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The file's lines without what differs between two exports of one workspace by design. */
function contentOf(file: string) {
  const [header, ...rows] = gunzipSync(readFileSync(file))
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  delete header.exportedAt;
  for (const line of rows) if (line.table === 'apiKeys') delete line.row.last_used_at;
  return [header, ...rows];
}

/** History pages with change ids left out: a restore gives changes new ids in the same order. */
async function historyOf(api: ReturnType<typeof apiClient>) {
  const res = await api.get('history?limit=1000');
  expect(res.status).toBe(200);
  return res.body.changes.map(({ id: _id, ...change }: { id: string }) => change);
}

async function seededSource() {
  const ws = await createWorkspace(source, 'Backed up');
  await source.services.accounts.createUser({
    workspaceId: ws.id,
    email: 'ed@example.com',
    name: 'Ed',
    role: 'viewer',
  });
  await seedWorkspace(ws.api, 'ed@example.com');
  // History of records that are gone, renamed or changed.
  await ws.api.delete('textItems', { developerIds: ['mobile.banner'] });
  await ws.api.patch('variants', { updates: [{ developerId: 'short', newDeveloperId: 'brief' }] });
  await ws.api.patch('components', { updates: [{ developerId: 'root.hello', text: 'Hi {{user}}' }] });
  return ws;
}

describe('copydesk workspace export and import', () => {
  it('restores a workspace whose every GET, history and backup are the same as the source', async () => {
    const ws = await seededSource();
    const first = join(dir, 'first.json.gz');
    const exported = await copydesk(
      source,
      'workspace',
      'export',
      '--workspace',
      String(ws.id),
      '--out',
      first,
      '--json',
    );
    expect(exported.err).toEqual([]);
    expect(exported.json()).toMatchObject({ workspaceId: ws.id, file: first });

    const restored = await copydesk(target, 'workspace', 'import', '--file', first, '--json');
    expect(restored.err).toEqual([]);
    const summary = restored.json();
    expect(summary.skippedKeys).toEqual([]);
    expect(summary.restored.texts).toBeGreaterThan(10);

    // The source's key was restored with the workspace: the same key reads the copy.
    const copy = apiClient(target.app, ws.key);
    // The search index is rebuilt for the restored texts (by a component's variant value too).
    expect((await copy.get('search?q=panier')).body.results.length).toBeGreaterThan(0);
    const searches = ['search?q=panier', 'search?q=cart', 'search?q=went wrong'];
    for (const url of [...everyGet(['web', 'mobile']), 'webhooks', ...searches]) {
      const [a, b] = [await ws.api.get(url), await copy.get(url)];
      expect({ url, status: b.status, body: b.raw.body }).toEqual({ url, status: a.status, body: a.raw.body });
    }
    for (const url of legacyGets) {
      const headers = { authorization: `token ${ws.key}` };
      const [a, b] = [await ws.api.get(url, headers), await copy.get(url, headers)];
      expect({ url, status: b.status, body: withoutReadTime(b.raw.body) }).toEqual({
        url,
        status: a.status,
        body: withoutReadTime(a.raw.body),
      });
    }
    expect(await historyOf(copy)).toEqual(await historyOf(ws.api));
    expect((await historyOf(copy)).length).toBeGreaterThan(20);

    const second = join(dir, 'second.json.gz');
    const again = await copydesk(
      target,
      'workspace',
      'export',
      '--workspace',
      String(summary.workspaceId),
      '--out',
      second,
    );
    expect(again.code).toBe(0);
    expect(contentOf(second)).toEqual(contentOf(first));

    // A restored workspace is not empty: a second restore into it is refused and changes nothing.
    const before = await historyOf(copy);
    const refused = await copydesk(
      target,
      'workspace',
      'import',
      '--file',
      first,
      '--workspace',
      String(summary.workspaceId),
    );
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toMatch(
      new RegExp(
        `Workspace ${summary.workspaceId} is not empty \\(\\d+ texts, 3 variants, .*\\): a backup is restored only into an empty workspace`,
      ),
    );
    expect(await historyOf(copy)).toEqual(before);
  });

  it('refuses a workspace with content, names keys it cannot restore, and rejects a file that is no backup', async () => {
    const ws = await seededSource();
    const file = join(dir, 'keys.json.gz');
    expect((await copydesk(source, 'workspace', 'export', '--workspace', String(ws.id), '--out', file)).code).toBe(0);

    const busy = await createWorkspace(source, 'Busy');
    await busy.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] });
    const refused = await copydesk(source, 'workspace', 'import', '--file', file, '--workspace', String(busy.id));
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toMatch(`Workspace ${busy.id} is not empty (1 variants, 1 changes in history)`);
    expect((await busy.api.get('variants')).body).toHaveLength(1);

    // Into the same database: the key ids are taken by the source workspace, so keys are left out.
    const same = await copydesk(source, 'workspace', 'import', '--file', file, '--json');
    expect(same.code).toBe(0);
    expect(same.json().skippedKeys).toHaveLength(1);

    const several = await copydesk(source, 'workspace', 'export', '--out', join(dir, 'which.json.gz'));
    expect(several.code).toBe(1);
    expect(several.err.join('\n')).toMatch('--workspace: this database holds several workspaces (or none); name one');

    const future = join(dir, 'future.json.gz');
    const [header, ...lines] = contentOf(file);
    const text = [{ ...header, version: 3 }, ...lines].map((line) => JSON.stringify(line)).join('\n');
    writeFileSync(future, gzipSync(text));
    const newer = await copydesk(target, 'workspace', 'import', '--file', future);
    expect(newer.code).toBe(1);
    expect(newer.err.join('\n')).toMatch('file: backup version 3 is not supported (this server reads 1 and 2)');

    const notBackup = join(dir, 'not-a-backup.gz');
    writeFileSync(notBackup, 'plain text');
    const rejected = await copydesk(source, 'workspace', 'import', '--file', notBackup);
    expect(rejected.code).toBe(1);
    expect(rejected.err.join('\n')).toMatch('file: not a gzip-compressed JSON document');
  });
});
