import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copydesk, readLines, writeLines } from '../../cli/backup-helpers.js';
import { apiClient, createWorkspace, setupApp } from '../../helpers/app.js';
import { tempSqlitePath, testDatabaseConfig } from '../../helpers/database.js';

// Written from a SQLite server, restored into this suite's database (PostgreSQL when DATABASE_URL
// names one), as the backup tests do.
const source = await setupApp({ database: { kind: 'sqlite', path: tempSqlitePath('copydesk-follows-') } });
const target = await setupApp({ database: testDatabaseConfig() });
const dir = mkdtempSync(join(tmpdir(), 'copydesk-follows-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function followedWorkspace() {
  const ws = await createWorkspace(source, 'Followed');
  const ok = async (res: Promise<{ status: number; body: any }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  await ok(ws.api.post('users', { email: 'ana@example.com', role: 'viewer' }));
  const ana = await source.services.accounts.createKey({ workspaceId: ws.id, email: 'ana@example.com' });
  await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }));
  await ok(
    ws.api.post('textItems', {
      projectId: 'web',
      textItems: [
        { developerId: 'title', text: 'Welcome', assignee: 'ana@example.com' },
        { developerId: 'body', text: 'Text' },
      ],
    }),
  );
  await ok(ws.api.post('components', { components: [{ developerId: 'button', name: 'Button', text: 'OK' }] }));
  await ok(apiClient(source.app, ana.key).put('follows', { follows: [{ componentId: 'button' }] }));
  await ok(ws.api.delete('follows', { follows: [{ textItemId: 'body' }] }));
  return { ws, anaKey: ana.key };
}

describe('follows in a workspace backup', () => {
  it('round-trip with their users and texts; notifications are not backed up', async () => {
    const { ws, anaKey } = await followedWorkspace();
    const anaBefore = apiClient(source.app, anaKey);
    expect((await anaBefore.get('notifications')).body.notifications).toHaveLength(1);
    const file = join(dir, 'follows.json.gz');
    const exported = await copydesk(source, 'workspace', 'export', '--workspace', String(ws.id), '--out', file);
    expect(exported.err).toEqual([]);
    expect(readLines(file).filter((line) => line.table === 'follows')).toHaveLength(4);

    const restored = await copydesk(target, 'workspace', 'import', '--file', file, '--json');
    expect(restored.err).toEqual([]);
    expect(restored.json().restored.follows).toBe(4);
    for (const [before, after] of [
      [ws.api, apiClient(target.app, ws.key)],
      [anaBefore, apiClient(target.app, anaKey)],
    ] as const) {
      const [a, b] = [await before.get('follows'), await after.get('follows')];
      expect(b.status).toBe(200);
      expect(b.body).toEqual(a.body);
    }
    expect((await apiClient(target.app, anaKey).get('follows')).body.follows.map((f: any) => f.reason)).toEqual([
      'assigned',
      'explicit',
    ]);
    expect((await apiClient(target.app, anaKey).get('notifications')).body.notifications).toEqual([]);
  });

  it('refuses a follow of a text the file does not hold, naming the row', async () => {
    const { ws } = await followedWorkspace();
    const file = join(dir, 'bad.json.gz');
    await copydesk(source, 'workspace', 'export', '--workspace', String(ws.id), '--out', file);
    const lines = readLines(file);
    const follow = lines.find((line) => line.table === 'follows');
    if (!follow?.row) throw new Error('no follow in the file');
    follow.row.text_id = 99;
    const broken = join(dir, 'broken.json.gz');
    writeLines(broken, lines);
    const res = await copydesk(target, 'workspace', 'import', '--file', broken);
    expect(res.code).not.toBe(0);
    expect(res.err.join('\n')).toContain('follows[0] (id 1).text_id: refers to texts 99');
  });
});
