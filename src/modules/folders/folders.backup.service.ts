import { isDeveloperId, isInteger, isNonEmpty, isTime, nullable } from '../../db/backup-check.js';
import { type DumpSpec, type IdMaps, selfLinkedRestorer, type TableRestorer } from '../../db/backup-rows.js';

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
  return selfLinkedRestorer({
    fileTable: 'folders',
    table: 'component_folders',
    columns: COLUMNS,
    checks: CHECKS,
    link: 'parent_id',
    ids: maps.folders,
    workspaceId: maps.workspaceId,
  });
}
