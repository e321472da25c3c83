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
const source = await setupApp({ database: { kind: 'sqlite', path: tempSqlitePath('copydesk-comments-') } });
const target = await setupApp({ database: testDatabaseConfig() });
const dir = mkdtempSync(join(tmpdir(), 'copydesk-comments-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function commentedWorkspace() {
  const ws = await createWorkspace(source, 'Commented');
  await ok(ws.api.post('users', { email: 'ana@example.com', role: 'commenter' }));
  const ana = await source.services.accounts.createKey({ workspaceId: ws.id, email: 'ana@example.com' });
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
    ws.api.post('comments', {
      comments: [
        { textItemId: 'title', body: 'Warmer? @ana@example.com', range: { start: 0, end: 7, quote: 'Welcome' } },
        { componentId: 'button', variantId: 'fr', body: 'French?' },
        { textItemId: 'gone', body: 'Remove this one' },
      ],
    }),
  );
  const [title, button, gone] = ids;
  await ok(apiClient(source.app, ana.key).post('comments', { comments: [{ threadId: title, body: 'Agreed' }] }));
  await ok(ws.api.post('comments/resolve', { threadIds: [button] }));
  await ok(ws.api.patch('comments', { updates: [{ id: gone, body: 'Remove this one, please' }] }));
  await ok(ws.api.delete('textItems', { developerIds: ['gone'] }));
  return { ws, anaKey: ana.key };
}

const reads = ['comments', 'comments/counts', 'comments?open=true', 'comments?textItemId=gone', 'history?kind=comment'];

describe('comments in a workspace backup', () => {
  it('round-trips: every comment read, mentions and history are the same after a restore', async () => {
    const { ws, anaKey } = await commentedWorkspace();
    const { rows, copy, exportAgain } = await backupRoundTrip({
      source,
      target,
      ws,
      dir,
      table: 'comments',
      rows: 4,
      reads,
    });
    expect((await copy.get('comments')).body.comments).toHaveLength(4);
    const mine = (await apiClient(target.app, anaKey).get('comments?mentions=me')).body.comments;
    expect(mine.map((c: any) => c.body)).toEqual(['Warmer? @ana@example.com']);

    // The restored comments are ordinary ones: they take replies and edits.
    const [first] = (await copy.get('comments')).body.comments;
    expect((await copy.post('comments', { comments: [{ threadId: first.id, body: 'After the move' }] })).status).toBe(
      201,
    );

    const replied = await exportAgain();
    expect(replied.slice(0, 4)).toEqual(rows);
  });

  it('refuses a comment row that breaks a rule, naming the row and the column, and restores nothing', async () => {
    const { ws } = await commentedWorkspace();
    const file = join(dir, 'bad.json.gz');
    await copydesk(source, 'workspace', 'export', '--workspace', String(ws.id), '--out', file);
    const lines = readLines(file);
    const reply = lines.find((line) => line.table === 'comments' && line.row?.thread_id !== null);
    if (!reply?.row) throw new Error('no reply in the file');
    reply.row.thread_id = 99;
    const broken = join(dir, 'broken.json.gz');
    writeLines(broken, lines);
    const res = await copydesk(target, 'workspace', 'import', '--file', broken);
    expect(res.code).not.toBe(0);
    expect(res.err.join('\n')).toContain(`comments[3] (id ${reply.row.id}).thread_id: refers to comments 99`);

    reply.row.thread_id = 1;
    reply.row.mentions = '"ana"';
    writeLines(broken, lines);
    const bad = await copydesk(target, 'workspace', 'import', '--file', broken);
    expect(bad.err.join('\n')).toContain(`.mentions: must be a JSON array of emails`);
  });
});
