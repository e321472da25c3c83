import {
  type Check,
  checkColumns,
  checkReference,
  isBool,
  isDeveloperId,
  isInteger,
  isJson,
  isObject,
  isString,
  isStringArray,
  isTime,
  nullable,
  oneOf,
  rowError,
} from '../../db/backup-check.js';
import {
  type BackupRow,
  checkNewId,
  type DumpSpec,
  type IdMaps,
  insertMapped,
  insertRows,
  Links,
  mapId,
  type TableRestorer,
  updateLinks,
} from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';
import { PLURAL_FORMS } from './plurals.js';
import { indexWorkspaceTexts } from './search.repository.js';
import { TEXT_COLUMNS } from './texts.repository.js';

/**
 * Components and text items, their variant values and variable links, as stored, for backup and
 * restore. Rows leave this module only as backup rows, never as the core's domain types. A text
 * carries the columns a read takes, less the revision stamp, plus its timestamps; a text and its
 * variant values carry their `text_version`, so translation states survive a restore.
 */
const TEXTS = [...TEXT_COLUMNS.filter((column) => column !== 'revision'), 'created_at', 'updated_at'];
const VALUES = [
  'text_id',
  'variant_id',
  'text',
  'rich_text',
  'plurals',
  'status',
  'assignee_id',
  'notes',
  'character_limit',
  'text_version',
];
const VARIABLES = ['text_id', 'variable_id'];

export const TEXTS_DUMP: DumpSpec = { table: 'texts', columns: TEXTS, keys: ['id'] };
export const TEXT_VARIANTS_DUMP: DumpSpec = {
  table: 'text_variants',
  columns: VALUES,
  keys: ['text_id', 'variant_id'],
  via: { column: 'text_id', table: 'texts' },
};
export const TEXT_VARIABLES_DUMP: DumpSpec = {
  table: 'text_variables',
  columns: VARIABLES,
  keys: ['text_id', 'variable_id'],
  via: { column: 'text_id', table: 'texts' },
};

/** Stored plural forms: `[{ "form": "one", "text": "...", "richText"?: "..." }]`. */
const isPlurals = (value: unknown) =>
  Array.isArray(value) &&
  value.every(
    (p) =>
      isObject(p) &&
      (PLURAL_FORMS as readonly unknown[]).includes(p.form) &&
      typeof p.text === 'string' &&
      (p.richText === undefined || p.richText === null || typeof p.richText === 'string'),
  );

/** The columns a text and a variant value share. */
const VALUE_CHECKS: Record<string, Check> = {
  text: isString,
  rich_text: nullable(isString),
  plurals: nullable(isJson('a JSON array of plural forms ({form, text})', isPlurals)),
  notes: isString,
  character_limit: nullable(isInteger),
  text_version: nullable(isInteger),
};

const TEXT_CHECKS: Record<string, Check> = {
  id: isInteger,
  kind: oneOf(['component', 'text_item']),
  developer_id: isDeveloperId,
  name: nullable(isString),
  base_text_item_id: nullable(isInteger),
  component_id: nullable(isInteger),
  position: isInteger,
  ...VALUE_CHECKS,
  tags: isJson('a JSON array of strings', isStringArray),
  integrated: isBool,
  created_at: isTime,
  updated_at: isTime,
};

function checkStatus(table: string, index: number, row: BackupRow, maps: IdMaps): void {
  if (!maps.statuses.has(row.status as string)) {
    throw rowError(table, index, row, 'status', `'${String(row.status)}' is not a status of the file's workflow`);
  }
}

export function textsRestorer(maps: IdMaps): TableRestorer {
  const links = { base_text_item_id: new Links(), component_id: new Links() };
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, index) => {
        const i = first + index;
        checkColumns('texts', i, row, TEXT_CHECKS);
        checkNewId('texts', i, row, maps.texts);
        checkReference('texts', i, row, 'folder_id', { name: 'folders', ids: maps.folders }, true);
        checkReference('texts', i, row, 'project_id', { name: 'projects', ids: maps.projects }, true);
        checkReference('texts', i, row, 'block_id', { name: 'blocks', ids: maps.blocks }, true);
        checkReference('texts', i, row, 'assignee_id', { name: 'users', ids: maps.users }, true);
        checkStatus('texts', i, row, maps);
        links.base_text_item_id.add(i, row.id, row.base_text_item_id);
        links.component_id.add(i, row.id, row.component_id);
      });
      const mapped = rows.map((t) => ({
        ...t,
        workspace_id: maps.workspaceId,
        folder_id: mapId(maps.folders, t.folder_id),
        project_id: mapId(maps.projects, t.project_id),
        block_id: mapId(maps.blocks, t.block_id),
        assignee_id: mapId(maps.users, t.assignee_id),
        // A backup written before translation states were kept has no versions: its values are up to date.
        text_version: t.text_version ?? 0,
        // References between texts are set once every text has its new id.
        base_text_item_id: null,
        component_id: null,
      }));
      await insertMapped(
        trx,
        'texts',
        ['workspace_id', ...TEXTS.slice(1)],
        mapped,
        ['kind', 'developer_id'],
        maps.texts,
      );
    },
    async finish(trx) {
      for (const column of ['base_text_item_id', 'component_id'] as const) {
        const list = links[column];
        const broken = await updateLinks(trx, 'texts', column, list, maps.texts);
        if (broken >= 0) {
          const row = { id: list.rows[broken] };
          const problem = `refers to texts ${list.targets[broken]}, which the file does not hold`;
          throw rowError('texts', list.indexes[broken] as number, row, column, problem);
        }
      }
    },
  };
}

export function textVariantsRestorer(maps: IdMaps): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, index) => {
        const i = first + index;
        checkColumns('textVariants', i, row, VALUE_CHECKS);
        checkReference('textVariants', i, row, 'text_id', { name: 'texts', ids: maps.texts }, false);
        checkReference('textVariants', i, row, 'variant_id', { name: 'variants', ids: maps.variants }, false);
        checkReference('textVariants', i, row, 'assignee_id', { name: 'users', ids: maps.users }, true);
        checkStatus('textVariants', i, row, maps);
      });
      const mapped = rows.map((v) => ({
        ...v,
        text_id: mapId(maps.texts, v.text_id),
        variant_id: mapId(maps.variants, v.variant_id),
        assignee_id: mapId(maps.users, v.assignee_id),
        text_version: v.text_version ?? 0,
      }));
      await insertRows(trx, 'text_variants', VALUES, mapped);
    },
  };
}

export function textVariablesRestorer(maps: IdMaps): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, index) => {
        const i = first + index;
        checkReference('textVariables', i, row, 'text_id', { name: 'texts', ids: maps.texts }, false);
        checkReference('textVariables', i, row, 'variable_id', { name: 'variables', ids: maps.variables }, false);
      });
      const mapped = rows.map((v) => ({
        text_id: mapId(maps.texts, v.text_id),
        variable_id: mapId(maps.variables, v.variable_id),
      }));
      await insertRows(trx, 'text_variables', VARIABLES, mapped);
    },
  };
}

/** The restored texts' search documents, built once each (the triggers only queued them). */
export const indexRestoredTexts = (trx: Executor, workspaceId: number) => indexWorkspaceTexts(trx, workspaceId);
