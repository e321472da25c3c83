import {
  type Check,
  checkColumns,
  checkReference,
  isBool,
  isInteger,
  isJson,
  isNonEmpty,
  isObject,
  isString,
  isStringArray,
  isTime,
  nullable,
  oneOf,
  rowName,
} from '../../db/backup-check.js';
import {
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  insertRows,
  mapId,
  type TableRestorer,
} from '../../db/backup-rows.js';
import { AppError, badRequest } from '../../http/errors.js';
import { validCheck } from './entries.rules.js';
import { CHECK_TYPES, type RuleCheck } from './lint/types.js';

/**
 * Style guides with their sections, rules and terms, as stored. A restore replaces the built-in
 * guide the workspace was created with by the backup's own.
 */
const GUIDES = ['id', 'developer_id', 'name', 'description', 'enabled_by_default', 'variant_id', 'created_at'];
const SECTIONS = ['id', 'styleguide_id', 'section_id', 'kind', 'name', 'position'];
const RULES = [
  'id',
  'styleguide_id',
  'section_id',
  'developer_id',
  'name',
  'description',
  'examples',
  'check_kind',
  'check_config',
  'position',
];
const TERMS = [
  'id',
  'styleguide_id',
  'section_id',
  'developer_id',
  'preferred',
  'replaces',
  'case_sensitive',
  'note',
  'position',
];

const inGuide = (table: string, columns: readonly string[]): DumpSpec => ({
  table,
  columns,
  keys: ['id'],
  via: { column: 'styleguide_id', table: 'styleguides' },
});
export const STYLEGUIDES_DUMP: DumpSpec = { table: 'styleguides', columns: GUIDES, keys: ['id'] };
export const SECTIONS_DUMP = inGuide('styleguide_sections', SECTIONS);
export const RULES_DUMP = inGuide('styleguide_rules', RULES);
export const TERMS_DUMP = inGuide('styleguide_terms', TERMS);

export function styleguidesRestorer(maps: IdMaps): TableRestorer {
  return {
    async start(trx) {
      // Sections, rules and terms of the replaced guides go with them (foreign keys on delete cascade).
      await trx.deleteFrom('styleguides').where('workspace_id', '=', maps.workspaceId).execute();
    },
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns('styleguides', first + i, row, {
          id: isInteger,
          developer_id: isNonEmpty,
          name: isNonEmpty,
          description: isString,
          enabled_by_default: isBool,
          created_at: isTime,
        });
        checkNewId('styleguides', first + i, row, maps.styleguides);
        checkReference('styleguides', first + i, row, 'variant_id', { name: 'variants', ids: maps.variants }, true);
      });
      const mapped = rows.map((g) => ({
        ...g,
        workspace_id: maps.workspaceId,
        variant_id: mapId(maps.variants, g.variant_id),
      }));
      await insertMapped(
        trx,
        'styleguides',
        ['workspace_id', ...GUIDES.slice(1)],
        mapped,
        ['developer_id'],
        maps.styleguides,
      );
    },
  };
}

export function sectionsRestorer(maps: IdMaps): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns('styleguideSections', first + i, row, {
          id: isInteger,
          section_id: isNonEmpty,
          kind: oneOf(['rules', 'wordlist']),
          name: isString,
          position: isInteger,
        });
        checkNewId('styleguideSections', first + i, row, maps.sections);
        const guides = { name: 'styleguides', ids: maps.styleguides };
        checkReference('styleguideSections', first + i, row, 'styleguide_id', guides, false);
      });
      const mapped = rows.map((s) => ({ ...s, styleguide_id: mapId(maps.styleguides, s.styleguide_id) }));
      await insertMapped(
        trx,
        'styleguide_sections',
        SECTIONS.slice(1),
        mapped,
        ['styleguide_id', 'section_id'],
        maps.sections,
      );
    },
  };
}

const isExamples = (value: unknown) => Array.isArray(value) && value.every(isObject);

/** A check's stored configuration: the API's fields of a check, of their types, and no others. */
const CONFIG_FIELDS: Record<string, Check> = {
  limit: (v) => (Number.isSafeInteger(v) && (v as number) > 0 ? null : 'must be a positive integer'),
  pattern: isString,
  flags: isString,
  replacement: isString,
  message: isString,
};

/** A rule's check as the API checks it (a regex must compile under the lint engine's RE2 guard). */
function checkRule(index: number, row: Record<string, unknown>): void {
  const where = `file: ${rowName('styleguideRules', index, row)}`;
  if (row.check_kind === null || row.check_kind === undefined) {
    if (row.check_config !== null && row.check_config !== undefined) {
      throw badRequest(`${where}.check_config: must be null when check_kind is null`);
    }
    return;
  }
  let config: unknown;
  try {
    config = JSON.parse(String(row.check_config ?? '{}'));
  } catch {
    throw badRequest(`${where}.check_config: must be a JSON object (not valid JSON)`);
  }
  if (!isObject(config)) throw badRequest(`${where}.check_config: must be a JSON object`);
  for (const [field, value] of Object.entries(config)) {
    const check = CONFIG_FIELDS[field];
    if (!check || field === 'type') throw badRequest(`${where}.check_config.${field}: is not a field of a check`);
    const problem = check(value);
    if (problem) throw badRequest(`${where}.check_config.${field}: ${problem}`);
  }
  try {
    validCheck({ ...config, type: row.check_kind } as RuleCheck, 'check_config');
  } catch (error) {
    if (error instanceof AppError) throw badRequest(`${where}.${error.message}`);
    throw error;
  }
}

function entryRestorer(
  maps: IdMaps,
  table: 'styleguideRules' | 'styleguideTerms',
  columns: readonly string[],
  checks: Record<string, Check>,
): TableRestorer {
  const sqlTable = table === 'styleguideRules' ? 'styleguide_rules' : 'styleguide_terms';
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns(table, first + i, row, {
          id: isInteger,
          developer_id: isNonEmpty,
          position: isInteger,
          ...checks,
        });
        checkReference(table, first + i, row, 'styleguide_id', { name: 'styleguides', ids: maps.styleguides }, false);
        checkReference(table, first + i, row, 'section_id', { name: 'styleguideSections', ids: maps.sections }, false);
        if (table === 'styleguideRules') checkRule(first + i, row);
      });
      const mapped = rows.map((row) => ({
        ...row,
        styleguide_id: mapId(maps.styleguides, row.styleguide_id),
        section_id: mapId(maps.sections, row.section_id),
      }));
      await insertRows(trx, sqlTable, columns.slice(1), mapped);
    },
  };
}

export const rulesRestorer = (maps: IdMaps) =>
  entryRestorer(maps, 'styleguideRules', RULES, {
    name: isString,
    description: isString,
    examples: isJson('a JSON array of examples', isExamples),
    check_kind: nullable(oneOf(CHECK_TYPES)),
  });

export const termsRestorer = (maps: IdMaps) =>
  entryRestorer(maps, 'styleguideTerms', TERMS, {
    preferred: isNonEmpty,
    replaces: isJson('a JSON array of strings', isStringArray),
    case_sensitive: isBool,
    note: isString,
  });
