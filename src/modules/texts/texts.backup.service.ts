import { sql } from 'kysely';
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
  refuseTakenKeys,
  type TableRestorer,
  updateLinks,
} from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';
import { parseRichText } from '../../richtext/index.js';
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

/** Stored plural forms: `[{ "form": "one", "text": "...", "richText"?: "..." }]`, each form once. */
const isPlurals = (value: unknown) =>
  Array.isArray(value) &&
  value.every(
    (p) =>
      isObject(p) &&
      (PLURAL_FORMS as readonly unknown[]).includes(p.form) &&
      typeof p.text === 'string' &&
      (p.richText === undefined || p.richText === null || typeof p.richText === 'string'),
  ) &&
  new Set(value.map((p) => p.form)).size === value.length;

/** The columns a text and a variant value share. */
const VALUE_CHECKS: Record<string, Check> = {
  text: isString,
  rich_text: nullable(isString),
  plurals: nullable(isJson('a JSON array of plural forms ({form, text}), each form once', isPlurals)),
  notes: isString,
  character_limit: nullable((v) =>
    Number.isSafeInteger(v) && (v as number) > 0 ? null : 'must be a positive integer',
  ),
  text_version: nullable(isInteger),
};

const TEXT_CHECKS: Record<string, Check> = {
  id: isInteger,
  kind: oneOf(['component', 'text_item']),
  developer_id: isDeveloperId,
  name: nullable(isString),
  folder_id: nullable(isInteger),
  project_id: nullable(isInteger),
  block_id: nullable(isInteger),
  base_text_item_id: nullable(isInteger),
  component_id: nullable(isInteger),
  position: isInteger,
  ...VALUE_CHECKS,
  tags: isJson('a JSON array of strings', isStringArray),
  integrated: isBool,
  created_at: isTime,
  updated_at: isTime,
};

/** The columns only a text item has, and the one only a component has: null on the other kind. */
const ITEM_ONLY = ['project_id', 'block_id', 'base_text_item_id', 'component_id'] as const;

const clip = (value: string) => `'${value.length > 80 ? `${value.slice(0, 77)}...` : value}'`;

/**
 * Stored rich text as the API stores it: the API's own parser (the one that sanitises what
 * clients send) gives back the markup unchanged, and its plain text is the text stored beside it.
 * Superscript and subscript are let through: a workspace may have turned them off since.
 */
function richTextProblem(markup: string, text: unknown): string | null {
  const parsed = parseRichText(markup, { supSub: true });
  if (parsed.html !== markup) {
    return `is not rich text as the API stores it (the API's parser makes ${clip(parsed.html)} of it)`;
  }
  if (parsed.text !== text) return `holds the text ${clip(parsed.text)}, not the record's text ${clip(String(text))}`;
  return null;
}

/**
 * A text's or variant value's content beyond each column's type: its rich text and the rich text
 * of its plural forms (see `richTextProblem`), and the first plural form, which the API keeps equal
 * to the text (and its rich text) on every write.
 */
function checkContent(table: string, index: number, row: BackupRow): void {
  if (typeof row.rich_text === 'string') {
    const problem = richTextProblem(row.rich_text, row.text);
    if (problem) throw rowError({ table, index, row }, 'rich_text', problem);
  }
  if (typeof row.plurals !== 'string') return;
  const plurals = JSON.parse(row.plurals) as { form: string; text: string; richText?: string | null }[];
  plurals.forEach((plural, i) => {
    if (typeof plural.richText !== 'string') return;
    const problem = richTextProblem(plural.richText, plural.text);
    if (problem) throw rowError({ table, index, row }, `plurals[${i}].richText`, problem);
  });
  const first = plurals[0];
  if (first === undefined) return;
  if (first.text !== row.text) {
    throw rowError({ table, index, row }, 'plurals[0].text', `must be the text (${clip(String(row.text))})`);
  }
  if ((first.richText ?? null) !== (row.rich_text ?? null)) {
    throw rowError({ table, index, row }, 'plurals[0].richText', 'must be the rich_text');
  }
}

/** Where a text may be: a component in the library (a folder or the root), a text item in a project or base. */
function checkPlace(index: number, row: BackupRow): void {
  if (row.kind === 'component') {
    for (const column of ITEM_ONLY) {
      if (row[column] !== null && row[column] !== undefined) {
        throw rowError({ table: 'texts', index, row }, column, 'must be null for a component');
      }
    }
    return;
  }
  if (row.folder_id !== null && row.folder_id !== undefined) {
    throw rowError({ table: 'texts', index, row }, 'folder_id', 'must be null for a text item');
  }
  if (row.project_id === null || row.project_id === undefined) {
    throw rowError({ table: 'texts', index, row }, 'project_id', 'a text item must be in a project or base');
  }
}

function checkStatus(table: string, index: number, row: BackupRow, maps: IdMaps): void {
  if (!maps.statuses.has(row.status as string)) {
    throw rowError({ table, index, row }, 'status', `'${String(row.status)}' is not a status of the file's workflow`);
  }
}

/** The restored projects and blocks, by new row id, as the texts refer to them. */
interface Places {
  blockProject: Map<number, number>;
  projectKind: Map<number, { kind: string; baseId: number | null }>;
}

async function placesOf(trx: Executor, workspaceId: number): Promise<Places> {
  const blocks = await trx
    .selectFrom('blocks')
    .select(['id', 'project_id'])
    .where('workspace_id', '=', workspaceId)
    .execute();
  const projects = await trx
    .selectFrom('projects')
    .select(['id', 'kind', 'base_id'])
    .where('workspace_id', '=', workspaceId)
    .execute();
  return {
    blockProject: new Map(blocks.map((b) => [Number(b.id), Number(b.project_id)])),
    projectKind: new Map(projects.map((p) => [Number(p.id), { kind: p.kind, baseId: p.base_id }])),
  };
}

/** The file id of a row from its new id (looked up only to name a refused row). */
function fileIdOf(ids: ReadonlyMap<number, number>, rowId: number): number | undefined {
  for (const [fileId, id] of ids) if (id === rowId) return fileId;
  return undefined;
}

export function textsRestorer(maps: IdMaps): TableRestorer {
  const links = { base_text_item_id: new Links(), component_id: new Links() };
  let places: Places | undefined;
  const unique = { fileTable: 'texts', table: 'texts', keys: ['kind', 'developer_id'], workspaceId: maps.workspaceId };

  /** A link the database found wrong once every text is written, named by its row in the file. */
  const refuseLink = (column: 'base_text_item_id' | 'component_id', rowId: number, problem: string): never => {
    const fileId = fileIdOf(maps.texts, rowId);
    const list = links[column];
    const at = list.rows.indexOf(fileId as number);
    throw rowError({ table: 'texts', index: list.indexes[at] ?? -1, row: { id: fileId } }, column, problem);
  };

  return {
    async start(trx) {
      places = await placesOf(trx, maps.workspaceId);
    },
    async rows(trx, rows, first) {
      const known = places ?? (await placesOf(trx, maps.workspaceId));
      rows.forEach((row, index) => {
        const i = first + index;
        const at = { table: 'texts', index: i, row };
        checkColumns(at, TEXT_CHECKS);
        checkNewId('texts', i, row, maps.texts);
        checkReference(at, 'folder_id', { name: 'folders', ids: maps.folders }, true);
        checkReference(at, 'project_id', { name: 'projects', ids: maps.projects }, true);
        checkReference(at, 'block_id', { name: 'blocks', ids: maps.blocks }, true);
        checkReference(at, 'assignee_id', { name: 'users', ids: maps.users }, true);
        checkStatus('texts', i, row, maps);
        checkPlace(i, row);
        checkContent('texts', i, row);
        if (row.block_id !== null && row.block_id !== undefined) {
          const blockProject = known.blockProject.get(mapId(maps.blocks, row.block_id) as number);
          if (blockProject !== mapId(maps.projects, row.project_id)) {
            throw rowError(at, 'block_id', `block ${String(row.block_id)} is in another project`);
          }
        }
        if (row.base_text_item_id !== null && row.base_text_item_id !== undefined) {
          const project = known.projectKind.get(mapId(maps.projects, row.project_id) as number);
          if (project?.kind !== 'project' || project.baseId === null) {
            throw rowError(
              at,
              'base_text_item_id',
              `project ${String(row.project_id)} is not a project connected to a base`,
            );
          }
        }
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
      await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
      await insertMapped(trx, {
        table: 'texts',
        columns: ['workspace_id', ...TEXTS.slice(1)],
        rows: mapped,
        keyColumns: ['kind', 'developer_id'],
        ids: maps.texts,
      });
    },
    async finish(trx) {
      for (const column of ['base_text_item_id', 'component_id'] as const) {
        const list = links[column];
        const broken = await updateLinks(trx, { table: 'texts', column, links: list, ids: maps.texts });
        if (broken >= 0) {
          const row = { id: list.rows[broken] };
          const problem = `refers to texts ${list.targets[broken]}, which the file does not hold`;
          throw rowError({ table: 'texts', index: list.indexes[broken] as number, row }, column, problem);
        }
      }
      // What the links point at, now that every text is written: an instance's component is a
      // component; an item derives from an item of its own project's base.
      const ws = maps.workspaceId;
      if (links.component_id.rows.length > 0) {
        const { rows } = await sql<{ id: number }>`select t.id from texts t join texts c on c.id = t.component_id
          where t.component_id is not null and t.workspace_id = ${ws} and c.kind <> 'component' limit 1`.execute(trx);
        if (rows[0]) refuseLink('component_id', Number(rows[0].id), 'must refer to a component');
      }
      if (links.base_text_item_id.rows.length > 0) {
        const { rows } = await sql<{ id: number }>`select t.id from texts t
          join texts b on b.id = t.base_text_item_id join projects p on p.id = t.project_id
          where t.base_text_item_id is not null and t.workspace_id = ${ws}
            and (b.kind <> 'text_item' or b.project_id <> p.base_id) limit 1`.execute(trx);
        if (rows[0]) {
          refuseLink('base_text_item_id', Number(rows[0].id), "must refer to a text item of its project's base");
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
        const at = { table: 'textVariants', index: i, row };
        checkColumns(at, VALUE_CHECKS);
        checkReference(at, 'text_id', { name: 'texts', ids: maps.texts }, false);
        checkReference(at, 'variant_id', { name: 'variants', ids: maps.variants }, false);
        checkReference(at, 'assignee_id', { name: 'users', ids: maps.users }, true);
        checkStatus('textVariants', i, row, maps);
        checkContent('textVariants', i, row);
      });
      const mapped = rows.map((v) => ({
        ...v,
        text_id: mapId(maps.texts, v.text_id),
        variant_id: mapId(maps.variants, v.variant_id),
        assignee_id: mapId(maps.users, v.assignee_id),
        text_version: v.text_version ?? 0,
      }));
      const unique = { fileTable: 'textVariants', table: 'text_variants', keys: ['text_id', 'variant_id'] };
      await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
      await insertRows(trx, 'text_variants', VALUES, mapped);
    },
  };
}

export function textVariablesRestorer(maps: IdMaps): TableRestorer {
  return {
    async rows(trx, rows, first) {
      rows.forEach((row, index) => {
        const i = first + index;
        const at = { table: 'textVariables', index: i, row };
        checkReference(at, 'text_id', { name: 'texts', ids: maps.texts }, false);
        checkReference(at, 'variable_id', { name: 'variables', ids: maps.variables }, false);
      });
      const mapped = rows.map((v) => ({
        text_id: mapId(maps.texts, v.text_id),
        variable_id: mapId(maps.variables, v.variable_id),
      }));
      const unique = { fileTable: 'textVariables', table: 'text_variables', keys: ['text_id', 'variable_id'] };
      await refuseTakenKeys(trx, unique, { rows, stored: mapped, first });
      await insertRows(trx, 'text_variables', VARIABLES, mapped);
    },
  };
}

/** The restored texts' search documents, built once each (the triggers only queued them). */
export const indexRestoredTexts = (trx: Executor, workspaceId: number) => indexWorkspaceTexts(trx, workspaceId);
