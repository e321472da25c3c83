import {
  checkColumns,
  isDeveloperId,
  isInteger,
  isNonEmpty,
  isString,
  isTime,
  nullable,
} from '../../db/backup-check.js';
import { checkNewId, type DumpSpec, type IdMaps, insertMapped, type TableRestorer } from '../../db/backup-rows.js';

/** Variants as stored, for backup and restore (see docs/backup.md). */
const COLUMNS = ['id', 'developer_id', 'name', 'description', 'locale_code', 'created_at'];

export const VARIANTS_DUMP: DumpSpec = { table: 'variants', columns: COLUMNS, keys: ['id'] };

const CHECKS = {
  id: isInteger,
  developer_id: isDeveloperId,
  name: isNonEmpty,
  description: isString,
  locale_code: nullable(isString),
  created_at: isTime,
};

export function variantsRestorer(maps: IdMaps): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns('variants', first + i, row, CHECKS);
        checkNewId('variants', first + i, row, maps.variants);
      });
      const mapped = rows.map((r) => ({ ...r, workspace_id: maps.workspaceId }));
      await insertMapped(
        trx,
        'variants',
        ['workspace_id', ...COLUMNS.slice(1)],
        mapped,
        ['developer_id'],
        maps.variants,
      );
    },
  };
}
