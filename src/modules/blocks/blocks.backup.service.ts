import { checkColumns, checkReference, isDeveloperId, isInteger, isNonEmpty } from '../../db/backup-check.js';
import {
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  mapId,
  type TableRestorer,
} from '../../db/backup-rows.js';

/** Blocks as stored, with their rank (`position`), for backup and restore. */
const COLUMNS = ['id', 'project_id', 'developer_id', 'name', 'position'];

export const BLOCKS_DUMP: DumpSpec = { table: 'blocks', columns: COLUMNS, keys: ['id'] };

const CHECKS = { id: isInteger, developer_id: isDeveloperId, name: isNonEmpty, position: isInteger };

export function blocksRestorer(maps: IdMaps): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns('blocks', first + i, row, CHECKS);
        checkNewId('blocks', first + i, row, maps.blocks);
        checkReference('blocks', first + i, row, 'project_id', { name: 'projects', ids: maps.projects }, false);
      });
      const mapped = rows.map((r) => ({
        ...r,
        workspace_id: maps.workspaceId,
        project_id: mapId(maps.projects, r.project_id),
      }));
      await insertMapped(
        trx,
        'blocks',
        ['workspace_id', ...COLUMNS.slice(1)],
        mapped,
        ['project_id', 'developer_id'],
        maps.blocks,
      );
    },
  };
}
