import { type BackupRow, type IdMaps, insertRows, selectRows } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';

/** The workflow as stored; a restore replaces the workflow the workspace started with. */
const COLUMNS = ['status_key', 'name', 'position'];

export async function dumpStatuses(executor: Executor, workspaceId: number): Promise<BackupRow[]> {
  const rows = await selectRows(executor, 'statuses', COLUMNS, { column: 'workspace_id', in: [workspaceId] });
  return rows.sort((a, b) => Number(a.position) - Number(b.position));
}

export async function restoreStatuses(trx: Executor, maps: IdMaps, rows: readonly BackupRow[]): Promise<void> {
  await trx.deleteFrom('statuses').where('workspace_id', '=', maps.workspaceId).execute();
  await insertRows(
    trx,
    'statuses',
    ['workspace_id', ...COLUMNS],
    rows.map((r) => ({ ...r, workspace_id: maps.workspaceId })),
  );
}
