import { isBool, isDeveloperId, isInteger, isName, isTime, nullable, oneOf, rowError } from '../../db/backup-check.js';
import { type DumpSpec, type IdMaps, selfLinkedRestorer, type TableRestorer } from '../../db/backup-rows.js';

/** Projects and bases as stored; a project's base is set once every row has its new id. */
const COLUMNS = ['id', 'kind', 'developer_id', 'name', 'base_id', 'developer_mode', 'created_at'];

export const PROJECTS_DUMP: DumpSpec = { table: 'projects', columns: COLUMNS, keys: ['id'] };

const CHECKS = {
  id: isInteger,
  kind: oneOf(['project', 'base']),
  developer_id: isDeveloperId,
  name: isName(),
  base_id: nullable(isInteger),
  developer_mode: isBool,
  created_at: isTime,
};

/**
 * Projects and bases as the API keeps them: only a project is connected to a base, and what it
 * is connected to is a base (checked once the table is read: a base may come after its project).
 */
export function projectsRestorer(maps: IdMaps): TableRestorer {
  const restorer = selfLinkedRestorer({
    fileTable: 'projects',
    table: 'projects',
    columns: COLUMNS,
    checks: CHECKS,
    link: 'base_id',
    ids: maps.projects,
    workspaceId: maps.workspaceId,
  });
  // Projects and bases are few: their kinds, and the rows that name a base, by file id.
  const kinds = new Map<number, unknown>();
  const connected: { index: number; id: unknown; baseId: unknown }[] = [];
  return {
    ...restorer,
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        kinds.set(Number(row.id), row.kind);
        if (row.base_id === null || row.base_id === undefined) return;
        if (row.kind !== 'project')
          throw rowError({ table: 'projects', index: first + i, row }, 'base_id', 'must be null for a base');
        connected.push({ index: first + i, id: row.id, baseId: row.base_id });
      });
      await restorer.rows(trx, rows, first);
    },
    async finish(trx) {
      for (const { index, id, baseId } of connected) {
        const kind = kinds.get(Number(baseId));
        if (kind !== undefined && kind !== 'base') {
          throw rowError(
            { table: 'projects', index, row: { id } },
            'base_id',
            `refers to projects ${String(baseId)}, which is not a base`,
          );
        }
      }
      await restorer.finish?.(trx);
    },
  };
}
