import { type BackupRow, insertRows, selectRows } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';

/**
 * The change log as stored, for backup and restore. Restored changes keep their time, actor, key
 * id and fields; they get new ids after every change already in the database, in the backup's
 * order, so history pages the same way. `record_ref` is rewritten by the caller, which knows the
 * new row ids.
 */
const COLUMNS = ['id', 'at', 'actor', 'key_id', 'kind', 'record_ref', 'developer_id', 'variant_id', 'action', 'fields'];

export const dumpChanges = (executor: Executor, workspaceId: number) =>
  selectRows(executor, 'changes', COLUMNS, { column: 'workspace_id', in: [workspaceId] });

export async function restoreChanges(trx: Executor, workspaceId: number, rows: readonly BackupRow[]): Promise<void> {
  await insertRows(
    trx,
    'changes',
    ['workspace_id', ...COLUMNS.slice(1)],
    rows.map((r) => ({ ...r, workspace_id: workspaceId })),
  );
}
