import type { Transaction } from 'kysely';
import {
  checkColumns,
  isInteger,
  isJson,
  isNonEmpty,
  isObject,
  isString,
  isTime,
  nullable,
} from '../../db/backup-check.js';
import { type BackupRow, type DumpSpec, insertRows, type TableRestorer } from '../../db/backup-rows.js';
import type { Database, Executor } from '../../db/schema.js';
import { readRevision } from './changes.repository.js';
import { advanceRevision, CHANGE_COLUMNS } from './write-path.js';

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

export const CHANGES_DUMP: DumpSpec = { table: 'changes', columns: COLUMNS, keys: ['id'] };

const CHECKS = {
  id: isInteger,
  at: isTime,
  actor: isNonEmpty,
  key_id: nullable(isString),
  kind: isNonEmpty,
  record_ref: (v: unknown) => (typeof v === 'string' && v.indexOf(':') > 0 ? null : "must be 'kind:id'"),
  developer_id: isString,
  variant_id: nullable(isString),
  action: isNonEmpty,
  fields: isJson('a JSON object or array of field values', (f) => isObject(f) || Array.isArray(f)),
  revision: nullable(isInteger),
};

/** `refIn` gives a change's record ref in this database (the caller knows the new row ids). */
export function changesRestorer(workspaceId: number, refIn: (ref: string) => string): TableRestorer {
  let highest = 0;
  return {
    async rows(trx, rows, first) {
      for (let i = 0; i < rows.length; i += 1)
        checkColumns({ table: 'changes', index: first + i, row: rows[i] as BackupRow }, CHECKS);
      const mapped = rows.map((r): BackupRow => {
        highest = Math.max(highest, Number(r.revision ?? 0) || 0);
        return {
          ...r,
          record_ref: refIn(String(r.record_ref)),
          revision: r.revision ?? null,
          workspace_id: workspaceId,
        };
      });
      await insertRows(trx, 'changes', ['workspace_id', ...COLUMNS.slice(1)], mapped);
    },
    async finish(trx) {
      if (highest === 0) return;
      await trx
        .updateTable('workspaces')
        .set({ revision: highest })
        .where('id', '=', workspaceId)
        .where('revision', '<', highest)
        .execute();
    },
  };
}

/**
 * A restore is a write: it advances the workspace's revision first (which takes the workspace
 * row's lock on PostgreSQL, so it queues behind other writers like any write).
 */
export const beginRestoreWrite = (trx: Transaction<Database>, workspaceId: number) => advanceRevision(trx, workspaceId);

/** The workspace's revision once the restore has written: what the write path announces. */
export const restoredRevision = (trx: Executor, workspaceId: number) => readRevision(trx, workspaceId);
