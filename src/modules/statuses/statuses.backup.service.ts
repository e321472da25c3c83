import { checkColumns, isDeveloperId, isInteger, isName, rowError } from '../../db/backup-check.js';
import { type BackupRow, type IdMaps, insertRows, selectRows, type TableRestorer } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';

/** The workflow as stored; a restore replaces the workflow the workspace started with. */
const COLUMNS = ['status_key', 'name', 'position'];

/** A workspace's statuses, in order: a handful, so read whole. */
export async function dumpStatuses(executor: Executor, workspaceId: number): Promise<BackupRow[]> {
  const rows = await selectRows(executor, 'statuses', COLUMNS, { column: 'workspace_id', equals: workspaceId });
  return rows.sort((a, b) => Number(a.position) - Number(b.position));
}

/** Every key the file's texts may carry is collected in `maps.statuses`. */
export function statusesRestorer(maps: IdMaps): TableRestorer {
  return {
    async start(trx) {
      await trx.deleteFrom('statuses').where('workspace_id', '=', maps.workspaceId).execute();
    },
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns(
          { table: 'statuses', index: first + i, row },
          { status_key: isDeveloperId, name: isName(), position: isInteger },
        );
        const key = String(row.status_key);
        if (maps.statuses.has(key)) {
          throw rowError(
            { table: 'statuses', index: first + i, row },
            'status_key',
            `'${key}' is used by an earlier status`,
          );
        }
        maps.statuses.add(key);
      });
      await insertRows(
        trx,
        'statuses',
        ['workspace_id', ...COLUMNS],
        rows.map((r) => ({ ...r, workspace_id: maps.workspaceId })),
      );
    },
  };
}
