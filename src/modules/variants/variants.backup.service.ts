import { type BackupRow, type IdMaps, insertRows, selectRows } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';

/** Variants as stored, for backup and restore (see docs/backup.md). */
const COLUMNS = ['id', 'developer_id', 'name', 'description', 'locale_code', 'created_at'];

export const dumpVariants = (executor: Executor, workspaceId: number) =>
  selectRows(executor, 'variants', COLUMNS, { column: 'workspace_id', in: [workspaceId] });

export async function restoreVariants(trx: Executor, maps: IdMaps, rows: readonly BackupRow[]): Promise<void> {
  const scope = { column: 'workspace_id', in: [maps.workspaceId] };
  maps.variants = await insertRows(
    trx,
    'variants',
    ['workspace_id', ...COLUMNS.slice(1)],
    rows.map((r) => ({ ...r, workspace_id: maps.workspaceId })),
    { keyColumns: ['developer_id'], scope },
  );
}
