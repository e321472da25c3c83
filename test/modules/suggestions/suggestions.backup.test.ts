import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copydesk, readLines, writeLines } from '../../cli/backup-helpers.js';
import { apiClient, createWorkspace, ok, setupApp } from '../../helpers/app.js';
import { backupRoundTrip } from '../../helpers/backup.js';
import { tempSqlitePath, testDatabaseConfig } from '../../helpers/database.js';

// Written from a SQLite server, restored into this suite's database (PostgreSQL when DATABASE_URL
// names one), as the backup tests do.
const source = await setupApp({ database: { kind: 'sqlite', path: tempSqlitePath('copydesk-suggestions-') } });
const target = await setupApp({ database: testDatabaseConfig() });
const dir = mkdtempSync(join(tmpdir(), 'copydesk-suggestions-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function reviewedWorkspace() {
  const ws = await createWorkspace(source, 'Reviewed');
  await ok(ws.api.post('users', { email: 'ana@example.com', role: 'commenter' }));
  const ana = await source.services.accounts.createKey({ workspaceId: ws.id, email: 'ana@example.com' });
  const critic = apiClient(source.app, ana.key);
  await ok(ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] }));
  await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }));
  await ok(
    ws.api.post('textItems', {
      projectId: 'web',
      textItems: [
        { developerId: 'title', text: 'Welcome' },
        { developerId: 'gone', text: 'Old' },
      ],
    }),
  );
  await ok(ws.api.post('components', { components: [{ developerId: 'button', name: 'Button', text: 'OK' }] }));
  const { ids } = await ok(
    critic.post('suggestions', {
      suggestions: [
        { textItemId: 'title', text: 'Welcome home', note: 'Warmer' },
        { componentId: 'button', variantId: 'fr', text: '<b>Bien</b>', richText: 'html' },
        { textItemId: 'gone', text: 'Older' },
        { componentId: 'button', text: 'Okay' },
      ],
    }),
  );
  const [title, , , button] = ids;
  await ok(ws.api.post('suggestions/accept', { ids: [title] }));
  await ok(ws.api.post('suggestions/reject', { ids: [button], note: 'Short is better' }));
  await ok(ws.api.delete('textItems', { developerIds: ['gone'] }));
  return { ws, ids };
}

const reads = ['suggestions', 'suggestions?status=obsolete', 'suggestions?textItemId=gone', 'history?kind=suggestion'];

describe('suggestions in a workspace backup', () => {
  it('round-trips: every suggestion read and its history are the same after a restore', async () => {
    const { ws, ids } = await reviewedWorkspace();
    const { rows, copy, exportAgain } = await backupRoundTrip({
      source,
      target,
      ws,
      dir,
      table: 'suggestions',
      rows: 4,
      reads,
    });
    const statuses = (await copy.get('suggestions')).body.suggestions.map((s: any) => s.status);
    expect(statuses).toEqual(['accepted', 'open', 'obsolete', 'rejected']);
    // The diff of one suggestion is the same; its text has a new row id, so a new ETag.
    const [a, b] = [(await ws.api.get(`suggestions/${ids[1]}`)).body, (await copy.get(`suggestions/${ids[1]}`)).body];
    expect(b.diff).toEqual(a.diff);
    expect(b.proposed).toEqual(a.proposed);
    expect(b.current.text).toBe(a.current.text);

    expect(await exportAgain()).toEqual(rows);
  });

  it('refuses a suggestion row that breaks a rule, naming the row and the column, and restores nothing', async () => {
    const { ws } = await reviewedWorkspace();
    const file = join(dir, 'bad.json.gz');
    await copydesk(source, 'workspace', 'export', '--workspace', String(ws.id), '--out', file);
    const lines = readLines(file);
    const row = lines.find((line) => line.table === 'suggestions')?.row;
    if (!row) throw new Error('no suggestion in the file');
    row.status = 'maybe';
    const broken = join(dir, 'broken.json.gz');
    writeLines(broken, lines);
    const res = await copydesk(target, 'workspace', 'import', '--file', broken);
    expect(res.code).not.toBe(0);
    expect(res.err.join('\n')).toMatch(/suggestions\[0\] \(id \d+\)\.status: must be one of/);
  });
});
