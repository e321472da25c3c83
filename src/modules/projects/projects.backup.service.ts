import {
  checkColumns,
  isBool,
  isDeveloperId,
  isInteger,
  isNonEmpty,
  isTime,
  nullable,
  oneOf,
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
  const bases = new Links();
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns('projects', first + i, row, CHECKS);
        checkNewId('projects', first + i, row, maps.projects);
        bases.add(first + i, row.id, row.base_id);
      });
      const mapped = rows.map((r) => ({ ...r, workspace_id: maps.workspaceId, base_id: null }));
      await insertMapped(
        trx,
        'projects',
        ['workspace_id', ...COLUMNS.slice(1)],
        mapped,
        ['developer_id'],
        maps.projects,
      );
    },
    async finish(trx) {
      const broken = await updateLinks(trx, 'projects', 'base_id', bases, maps.projects);
      if (broken >= 0) {
        const row = { id: bases.rows[broken] };
        throw rowError(
          'projects',
          bases.indexes[broken] as number,
          row,
          'base_id',
          `refers to projects ${bases.targets[broken]}, which the file does not hold`,
        );
      }
    },
  };
}
