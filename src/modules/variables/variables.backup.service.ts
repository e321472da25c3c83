import { type BackupRow, type IdMaps, insertRows, selectRows } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';

/** Variables as stored (`data` is the stored JSON text), for backup and restore. */
const COLUMNS = ['id', 'name', 'type', 'data', 'created_at'];

export const dumpVariables = (executor: Executor, workspaceId: number) =>
  selectRows(executor, 'variables', COLUMNS, { column: 'workspace_id', in: [workspaceId] });

export async function restoreVariables(trx: Executor, maps: IdMaps, rows: readonly BackupRow[]): Promise<void> {
  const scope = { column: 'workspace_id', in: [maps.workspaceId] };
  maps.variables = await insertRows(
    trx,
    'variables',
    ['workspace_id', ...COLUMNS.slice(1)],
    rows.map((r) => ({ ...r, workspace_id: maps.workspaceId })),
    { keyColumns: ['name'], scope },
  );
}
