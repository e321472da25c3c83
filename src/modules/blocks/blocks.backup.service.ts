import { type BackupRow, type IdMaps, insertRows, mapId, selectRows } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';

/** Blocks as stored, with their rank (`position`), for backup and restore. */
const COLUMNS = ['id', 'project_id', 'developer_id', 'name', 'position'];

export const dumpBlocks = (executor: Executor, workspaceId: number) =>
  selectRows(executor, 'blocks', COLUMNS, { column: 'workspace_id', in: [workspaceId] });

export async function restoreBlocks(trx: Executor, maps: IdMaps, rows: readonly BackupRow[]): Promise<void> {
  const mapped = rows.map((r) => ({
    ...r,
    workspace_id: maps.workspaceId,
    project_id: mapId(maps.projects, r.project_id),
  }));
  maps.blocks = await insertRows(trx, 'blocks', ['workspace_id', ...COLUMNS.slice(1)], mapped, {
    keyColumns: ['project_id', 'developer_id'],
    scope: { column: 'workspace_id', in: [maps.workspaceId] },
  });
}
