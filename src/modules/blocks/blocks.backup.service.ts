import { checkColumns, checkReference, isDeveloperId, isInteger, isName, rowError } from '../../db/backup-check.js';
import {
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  mapId,
  refuseTakenKeys,
  type TableRestorer,
} from '../../db/backup-rows.js';

/** Blocks as stored, with their rank (`position`), for backup and restore. */
const COLUMNS = ['id', 'project_id', 'developer_id', 'name', 'position'];

export const BLOCKS_DUMP: DumpSpec = { table: 'blocks', columns: COLUMNS, keys: ['id'] };

const CHECKS = { id: isInteger, developer_id: isDeveloperId, name: isName(), position: isInteger };

/** Blocks as the API keeps them: in a project (a base has none), each developer ID once per project. */
export function blocksRestorer(maps: IdMaps): TableRestorer {
  let bases: Set<number> | undefined;
  return {
    async start(trx) {
      const rows = await trx
        .selectFrom('projects')
        .select('id')
        .where('workspace_id', '=', maps.workspaceId)
        .where('kind', '=', 'base')
        .execute();
      bases = new Set(rows.map((r) => Number(r.id)));
    },
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns({ table: 'blocks', index: first + i, row }, CHECKS);
        checkNewId('blocks', first + i, row, maps.blocks);
        checkReference(
          { table: 'blocks', index: first + i, row },
          'project_id',
          { name: 'projects', ids: maps.projects },
          false,
        );
        if (bases?.has(mapId(maps.projects, row.project_id) as number)) {
          throw rowError(
            { table: 'blocks', index: first + i, row },
            'project_id',
            `projects ${String(row.project_id)} is a base, which has no blocks`,
          );
        }
      });
      const mapped = rows.map((r) => ({
        ...r,
        workspace_id: maps.workspaceId,
        project_id: mapId(maps.projects, r.project_id),
      }));
      const unique = { fileTable: 'blocks', table: 'blocks', keys: ['project_id', 'developer_id'] };
      await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
      await insertMapped(trx, {
        table: 'blocks',
        columns: ['workspace_id', ...COLUMNS.slice(1)],
        rows: mapped,
        keyColumns: ['project_id', 'developer_id'],
        ids: maps.blocks,
      });
    },
  };
}
