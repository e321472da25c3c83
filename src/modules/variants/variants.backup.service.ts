import {
  checkColumns,
  isDeveloperId,
  isInteger,
  isNonEmpty,
  isString,
  isTime,
  nullable,
} from '../../db/backup-check.js';
import {
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  refuseTakenKeys,
  type TableRestorer,
} from '../../db/backup-rows.js';
import { canonicalLocale } from '../../shared/locale.js';
import { RESERVED_VARIANT_IDS } from './variants.rules.js';

/** Variants as stored, for backup and restore (see docs/backup.md). */
const COLUMNS = ['id', 'developer_id', 'name', 'description', 'locale_code', 'created_at'];

export const VARIANTS_DUMP: DumpSpec = { table: 'variants', columns: COLUMNS, keys: ['id'] };

/** A locale code as the API stores one: a BCP 47 tag, in its canonical form. */
function isLocale(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  let canonical: string | null = null;
  try {
    canonical = canonicalLocale(value, 'locale_code');
  } catch {
    return `'${value}' is not a valid BCP 47 language tag`;
  }
  return canonical === value ? null : `must be in canonical form ('${canonical}')`;
}

const CHECKS = {
  id: isInteger,
  developer_id: (v: unknown) =>
    typeof v === 'string' && RESERVED_VARIANT_IDS.has(v) ? `'${v}' is a reserved variant id` : isDeveloperId(v),
  name: isNonEmpty,
  description: isString,
  locale_code: nullable(isLocale),
  created_at: isTime,
};

export function variantsRestorer(maps: IdMaps): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns({ table: 'variants', index: first + i, row }, CHECKS);
        checkNewId('variants', first + i, row, maps.variants);
      });
      const mapped = rows.map((r) => ({ ...r, workspace_id: maps.workspaceId }));
      // Developer IDs and names are each unique in a workspace.
      for (const key of ['developer_id', 'name']) {
        const unique = { fileTable: 'variants', table: 'variants', keys: [key], workspaceId: maps.workspaceId };
        await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
      }
      await insertMapped(trx, {
        table: 'variants',
        columns: ['workspace_id', ...COLUMNS.slice(1)],
        rows: mapped,
        keyColumns: ['developer_id'],
        ids: maps.variants,
      });
    },
  };
}
