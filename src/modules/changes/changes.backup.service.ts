import { type BackupRow, insertRows, selectRows } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';
import { CHANGE_COLUMNS } from './changes.repository.js';

/**
 * The change log as stored, for backup and restore. Restored changes keep their time, actor, key
 * id and fields; they get new ids after every change already in the database, in the backup's
 * order, so history pages the same way. `record_ref` is rewritten by the caller, which knows the
 * new row ids. Each keeps the revision of the write that made it (null in backups made before
 * changes had one), and the workspace's revision is raised past the highest of them, so a write
 * after the restore never shares a revision with a restored change (an undo of that revision
 * would otherwise take them along).
 */
const COLUMNS = ['id', ...CHANGE_COLUMNS.filter((c) => c !== 'workspace_id')];

export const dumpChanges = (executor: Executor, workspaceId: number) =>
  selectRows(executor, 'changes', COLUMNS, { column: 'workspace_id', in: [workspaceId] });

export async function restoreChanges(trx: Executor, workspaceId: number, rows: readonly BackupRow[]): Promise<void> {
  await insertRows(
    trx,
    'changes',
    ['workspace_id', ...COLUMNS.slice(1)],
    rows.map((r) => ({ ...r, revision: r.revision ?? null, workspace_id: workspaceId })),
  );
  const highest = rows.reduce((max, r) => Math.max(max, Number(r.revision ?? 0) || 0), 0);
  if (highest > 0) {
    await trx
      .updateTable('workspaces')
      .set({ revision: highest })
      .where('id', '=', workspaceId)
      .where('revision', '<', highest)
      .execute();
  }
}
