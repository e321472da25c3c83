import { isBool, isDeveloperId, isInteger, isNonEmpty, isTime, nullable, oneOf } from '../../db/backup-check.js';
import { type DumpSpec, type IdMaps, selfLinkedRestorer, type TableRestorer } from '../../db/backup-rows.js';

/** Projects and bases as stored; a project's base is set once every row has its new id. */
const COLUMNS = ['id', 'kind', 'developer_id', 'name', 'base_id', 'developer_mode', 'created_at'];

export const PROJECTS_DUMP: DumpSpec = { table: 'projects', columns: COLUMNS, keys: ['id'] };

const CHECKS = {
  id: isInteger,
  kind: oneOf(['project', 'base']),
  developer_id: isDeveloperId,
  name: isNonEmpty,
  base_id: nullable(isInteger),
  developer_mode: isBool,
  created_at: isTime,
};

export function projectsRestorer(maps: IdMaps): TableRestorer {
  return selfLinkedRestorer({
    fileTable: 'projects',
    table: 'projects',
    columns: COLUMNS,
    checks: CHECKS,
    link: 'base_id',
    ids: maps.projects,
    workspaceId: maps.workspaceId,
  });
}
