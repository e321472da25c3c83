import {
  checkColumns,
  isDeveloperId,
  isInteger,
  isNonEmpty,
  isTime,
  nullable,
  rowError,
} from '../../db/backup-check.js';
import {
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  Links,
  type TableRestorer,
  updateLinks,
} from '../../db/backup-rows.js';

/** Component folders as stored; parents are set once every folder has its new id. */
const COLUMNS = ['id', 'developer_id', 'name', 'parent_id', 'created_at'];

export const FOLDERS_DUMP: DumpSpec = { table: 'component_folders', columns: COLUMNS, keys: ['id'] };

const CHECKS = {
  id: isInteger,
  developer_id: isDeveloperId,
  name: isNonEmpty,
  parent_id: nullable(isInteger),
  created_at: isTime,
};

export function foldersRestorer(maps: IdMaps): TableRestorer {
  const parents = new Links();
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns('folders', first + i, row, CHECKS);
        checkNewId('folders', first + i, row, maps.folders);
        parents.add(first + i, row.id, row.parent_id);
      });
      const mapped = rows.map((r) => ({ ...r, workspace_id: maps.workspaceId, parent_id: null }));
      await insertMapped(
        trx,
        'component_folders',
        ['workspace_id', ...COLUMNS.slice(1)],
        mapped,
        ['developer_id'],
        maps.folders,
      );
    },
    async finish(trx) {
      const broken = await updateLinks(trx, 'component_folders', 'parent_id', parents, maps.folders);
      if (broken >= 0) {
        const row = { id: parents.rows[broken] };
        throw rowError(
          'folders',
          parents.indexes[broken] as number,
          row,
          'parent_id',
          `refers to folders ${parents.targets[broken]}, which the file does not hold`,
        );
      }
    },
  };
}
