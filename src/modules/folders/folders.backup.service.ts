import { isDeveloperId, isInteger, isName, isTime, nullable, rowError } from '../../db/backup-check.js';
import { type DumpSpec, type IdMaps, selfLinkedRestorer, type TableRestorer } from '../../db/backup-rows.js';
import { ROOT_FOLDER_ID } from './folders.plan.js';

/** Component folders as stored; parents are set once every folder has its new id. */
const COLUMNS = ['id', 'developer_id', 'name', 'parent_id', 'created_at'];

export const FOLDERS_DUMP: DumpSpec = { table: 'component_folders', columns: COLUMNS, keys: ['id'] };

const CHECKS = {
  id: isInteger,
  developer_id: (v: unknown) =>
    v === ROOT_FOLDER_ID ? `'${ROOT_FOLDER_ID}' is reserved for the library root` : isDeveloperId(v),
  name: isName(),
  parent_id: nullable(isInteger),
  created_at: isTime,
};

/**
 * Folders as the API keeps them: besides each column, a name is used once among the folders of
 * one parent (checked by the file's parent ids, which stay as they are; folders are few enough
 * to keep one key each).
 */
export function foldersRestorer(maps: IdMaps): TableRestorer {
  const restorer = selfLinkedRestorer({
    fileTable: 'folders',
    table: 'component_folders',
    columns: COLUMNS,
    checks: CHECKS,
    link: 'parent_id',
    ids: maps.folders,
    workspaceId: maps.workspaceId,
  });
  const siblings = new Set<string>();
  return {
    ...restorer,
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        const key = JSON.stringify([row.parent_id ?? null, row.name]);
        if (siblings.has(key)) {
          const under = row.parent_id == null ? 'the library root' : `folder ${String(row.parent_id)}`;
          throw rowError(
            { table: 'folders', index: first + i, row },
            'name',
            `'${String(row.name)}' is the name of another folder under ${under}`,
          );
        }
        siblings.add(key);
      });
      await restorer.rows(trx, rows, first);
    },
  };
}
