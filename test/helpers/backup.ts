import { join } from 'node:path';
import { expect } from 'vitest';
import { copydesk, type Line, readLines } from '../cli/backup-helpers.js';
import { type Api, apiClient, type TestContext, type Workspace } from './app.js';

/**
 * A workspace backup's round trip for one table: `ws` exported from `source` into `dir`, its
 * `table` rows counted, the file restored into `target`, and every URL of `reads` answered the
 * same by both (history entries compared without their ids, which a restore renumbers).
 * `exportAgain` writes the restored workspace's backup and gives back its rows of `table`.
 */
export async function backupRoundTrip(options: {
  source: TestContext;
  target: TestContext;
  ws: Workspace;
  dir: string;
  table: string;
  rows: number;
  reads: readonly string[];
}): Promise<{ rows: Line[]; copy: Api; exportAgain: () => Promise<Line[]> }> {
  const { source, target, ws, dir, table, reads } = options;
  const file = join(dir, `${table}.json.gz`);
  const exported = await copydesk(source, 'workspace', 'export', '--workspace', String(ws.id), '--out', file);
  expect(exported.err).toEqual([]);
  const rows = readLines(file).filter((line) => line.table === table);
  expect(rows).toHaveLength(options.rows);

  const restored = await copydesk(target, 'workspace', 'import', '--file', file, '--json');
  expect(restored.err).toEqual([]);
  expect(restored.json().restored[table]).toBe(options.rows);
  const copy = apiClient(target.app, ws.key);
  for (const url of reads) {
    const [a, b] = [await ws.api.get(url), await copy.get(url)];
    expect(a.status, url).toBe(200);
    const strip = (body: any) =>
      url.startsWith('history') ? body.changes.map(({ id: _id, ...c }: { id: string }) => c) : body;
    expect(strip(b.body), url).toEqual(strip(a.body));
  }
  const exportAgain = async () => {
    const again = join(dir, `${table}-again.json.gz`);
    const workspaceId = String(restored.json().workspaceId);
    expect((await copydesk(target, 'workspace', 'export', '--workspace', workspaceId, '--out', again)).code).toBe(0);
    return readLines(again).filter((line) => line.table === table);
  };
  return { rows, copy, exportAgain };
}
