import {
  allOf,
  type Check,
  checkColumns,
  checkReference,
  isBool,
  isDeveloperId,
  isInteger,
  isJson,
  isName,
  isObject,
  isString,
  isTime,
  maxChars,
  nullable,
  oneOf,
  rowError,
  rowName,
} from '../../db/backup-check.js';
import {
  type BackupRow,
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  insertRows,
  mapId,
  refuseTakenKeys,
  type TableRestorer,
} from '../../db/backup-rows.js';
import { AppError, badRequest } from '../../http/errors.js';
import { validCheck } from './entries.rules.js';
import { MAX_PATTERN_LENGTH } from './lint/regex-guard.js';
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

/** The restorers of a file's style guides, sections, rules and terms, sharing what they learn of the guides. */
export interface StyleguideRestorers {
  styleguides: TableRestorer;
  sections: TableRestorer;
  rules: TableRestorer;
  terms: TableRestorer;
}

const isText = (max: number) => allOf(isString, maxChars(max));
/** Text of 1 to `max` characters, as the API's `minLength: 1` takes it (spaces count). */
const isFilled = (max: number): Check => allOf((v) => (v === '' ? 'must not be empty' : null), isText(max));

/**
 * Style guides as the API keeps them: each column as its schema takes it; a guide scoped to a
 * variant with a locale code; each guide with its sections (a rules and a wordlist section at
 * least, each section ID once); each rule and term in a section of its own guide, of its kind
 * (rules in a rules section, terms in a wordlist section), each developer ID once per guide.
 * Guides and sections are few, so what the entries are checked against is kept by file id.
 */
export function styleguideRestorers(maps: IdMaps): StyleguideRestorers {
  /** Guide file id -> its row's place in the file. */
  const guides = new Map<number, number>();
  /** Section file id -> its guide's file id and its kind. */
  const sections = new Map<number, { guide: number; kind: unknown }>();
  let unscoped = new Set<number>();

  const styleguides: TableRestorer = {
    async start(trx) {
      // Sections, rules and terms of the replaced guides go with them (foreign keys on delete cascade).
      await trx.deleteFrom('styleguides').where('workspace_id', '=', maps.workspaceId).execute();
      const variants = await trx
        .selectFrom('variants')
        .select('id')
        .where('workspace_id', '=', maps.workspaceId)
        .where('locale_code', 'is', null)
        .execute();
      unscoped = new Set(variants.map((v) => Number(v.id)));
    },
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns(
          { table: 'styleguides', index: first + i, row },
          {
            id: isInteger,
            developer_id: isDeveloperId,
            name: isName(),
            description: isText(10_000),
            enabled_by_default: isBool,
            created_at: isTime,
          },
        );
        checkNewId('styleguides', first + i, row, maps.styleguides);
        checkReference(
          { table: 'styleguides', index: first + i, row },
          'variant_id',
          { name: 'variants', ids: maps.variants },
          true,
        );
        if (unscoped.has(mapId(maps.variants, row.variant_id) as number)) {
          const problem = `variants ${String(row.variant_id)} has no locale code; only variants with a locale code can scope a style guide`;
          throw rowError({ table: 'styleguides', index: first + i, row }, 'variant_id', problem);
        }
        guides.set(Number(row.id), first + i);
      });
      const mapped = rows.map((g) => ({
        ...g,
        workspace_id: maps.workspaceId,
        variant_id: mapId(maps.variants, g.variant_id),
      }));
      const unique = {
        fileTable: 'styleguides',
        table: 'styleguides',
        keys: ['developer_id'],
        workspaceId: maps.workspaceId,
      };
      await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
      await insertMapped(trx, {
        table: 'styleguides',
        columns: ['workspace_id', ...GUIDES.slice(1)],
        rows: mapped,
        keyColumns: ['developer_id'],
        ids: maps.styleguides,
      });
    },
  };

  const sectionsRestorer: TableRestorer = {
    async rows(trx, rows, first) {
      rows.forEach((row, i) => {
        checkColumns(
          { table: 'styleguideSections', index: first + i, row },
          {
            id: isInteger,
            section_id: isDeveloperId,
            kind: oneOf(['rules', 'wordlist']),
            name: isText(200),
            position: isInteger,
          },
        );
        checkNewId('styleguideSections', first + i, row, maps.sections);
        const guideRefs = { name: 'styleguides', ids: maps.styleguides };
        checkReference({ table: 'styleguideSections', index: first + i, row }, 'styleguide_id', guideRefs, false);
        sections.set(Number(row.id), { guide: Number(row.styleguide_id), kind: row.kind });
      });
      const mapped = rows.map((s) => ({ ...s, styleguide_id: mapId(maps.styleguides, s.styleguide_id) }));
      const unique = {
        fileTable: 'styleguideSections',
        table: 'styleguide_sections',
        keys: ['styleguide_id', 'section_id'],
      };
      await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
      await insertMapped(trx, {
        table: 'styleguide_sections',
        columns: SECTIONS.slice(1),
        rows: mapped,
        keyColumns: ['styleguide_id', 'section_id'],
        ids: maps.sections,
      });
    },
    async finish() {
      for (const [guide, index] of guides) {
        for (const kind of ['rules', 'wordlist']) {
          if ([...sections.values()].some((s) => s.guide === guide && s.kind === kind)) continue;
          const problem = `style guide ${guide} has no ${kind} section; every guide has a rules and a wordlist section`;
          throw rowError({ table: 'styleguides', index, row: { id: guide } }, 'sections', problem);
        }
      }
    },
  };

  function entryRestorer(
    table: 'styleguideRules' | 'styleguideTerms',
    columns: readonly string[],
    checks: Record<string, Check>,
  ): TableRestorer {
    const sqlTable = table === 'styleguideRules' ? 'styleguide_rules' : 'styleguide_terms';
    const kind = table === 'styleguideRules' ? 'rules' : 'wordlist';
    return {
      async rows(trx, rows, first) {
        rows.forEach((row, i) => {
          checkColumns(
            { table, index: first + i, row },
            {
              id: isInteger,
              developer_id: isDeveloperId,
              position: isInteger,
              ...checks,
            },
          );
          checkReference(
            { table, index: first + i, row },
            'styleguide_id',
            { name: 'styleguides', ids: maps.styleguides },
            false,
          );
          checkReference(
            { table, index: first + i, row },
            'section_id',
            { name: 'styleguideSections', ids: maps.sections },
            false,
          );
          checkSection(table, first + i, row, kind);
          if (table === 'styleguideRules') checkRule(first + i, row);
        });
        const mapped = rows.map((row) => ({
          ...row,
          styleguide_id: mapId(maps.styleguides, row.styleguide_id),
          section_id: mapId(maps.sections, row.section_id),
        }));
        await refuseTakenKeys(
          trx,
          { fileTable: table, table: sqlTable, keys: ['styleguide_id', 'developer_id'] },
          { rows, stored: mapped, first },
        );
        await insertRows(trx, sqlTable, columns.slice(1), mapped);
      },
    };
  }

  /** An entry's section is one of its own guide's, and of the entry's kind. */
  function checkSection(table: string, index: number, row: BackupRow, kind: string): void {
    const section = sections.get(Number(row.section_id)) as { guide: number; kind: unknown };
    if (section.guide !== Number(row.styleguide_id)) {
      const problem = `styleguideSections ${String(row.section_id)} belongs to style guide ${section.guide}, not to this entry's style guide ${String(row.styleguide_id)}`;
      throw rowError({ table, index, row }, 'section_id', problem);
    }
    if (section.kind !== kind) {
      const noun = kind === 'rules' ? 'rules' : 'terms';
      const problem = `styleguideSections ${String(row.section_id)} is a ${String(section.kind)} section; ${noun} go in a ${kind} section`;
      throw rowError({ table, index, row }, 'section_id', problem);
    }
  }

  return {
    styleguides,
    sections: sectionsRestorer,
    rules: entryRestorer('styleguideRules', RULES, {
      name: isName(),
      description: isText(10_000),
      examples: isJson('a JSON array of at most 100 examples ({before, after})', isExamples),
      check_kind: nullable(oneOf(CHECK_TYPES)),
    }),
    terms: entryRestorer('styleguideTerms', TERMS, {
      preferred: isFilled(200),
      replaces: isJson('a JSON array of at most 100 terms (strings of 1 to 200 characters)', isReplaces),
      case_sensitive: isBool,
      note: isText(10_000),
    }),
  };
}

/** A rule's examples as the API takes them: at most 100, each exactly `{before, after}`, texts of at most 10,000 characters. */
const isExamples = (value: unknown) =>
  Array.isArray(value) &&
  value.length <= 100 &&
  value.every(
    (e) =>
      isObject(e) &&
      Object.keys(e).length === 2 &&
      isText(10_000)(e.before) === null &&
      isText(10_000)(e.after) === null,
  );

/** A term's `replaces`: at most 100 terms of 1 to 200 characters. */
const isReplaces = (value: unknown) =>
  Array.isArray(value) && value.length <= 100 && value.every((t) => isFilled(200)(t) === null);

/** A check's stored configuration: the API's fields of a check, of their types and lengths, and no others. */
const CONFIG_FIELDS: Record<string, Check> = {
  limit: (v) => (Number.isSafeInteger(v) && (v as number) > 0 ? null : 'must be a positive integer'),
  pattern: isFilled(MAX_PATTERN_LENGTH),
  flags: isText(4),
  replacement: isText(1000),
  message: isFilled(1000),
};

/** A rule's check as the API checks it (a regex must compile under the lint engine's RE2 guard). */
function checkRule(index: number, row: Record<string, unknown>): void {
  const where = `file: ${rowName({ table: 'styleguideRules', index, row })}`;
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
