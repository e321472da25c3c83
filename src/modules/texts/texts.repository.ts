/**
 * The texts tables (`texts`, `text_variants`, `text_variables`; src/db/schema.texts.ts): the SQL
 * of their reads and writes (the search index has its own, search.repository.ts), and the only
 * place that knows what their rows mean. Read top-down: the columns read and rows turned into
 * domain values (`TextEntity`); the reader's SQL, the texts a request selects in three queries
 * sharing one WHERE, page by page; lookups by developer ID and row id; writes in multi-row
 * batches; the reads and writes other modules' changes cascade into; linked instances (what
 * they show, `showInstances`, and detaching and relinking them); and domain values turned into
 * columns, for the writes.
 */

import {
  CompiledQuery,
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { bulkInsertObjects } from '../../db/bulk-insert.js';
import {
  answersOnEventLoop,
  codeUnitOrder,
  cursorPages,
  rowIdLookupColumn,
  typedPlaceholders,
} from '../../db/query-plan.js';
import type { Database, Executor } from '../../db/schema.js';
import type { NewTextRow, TextRow, TextVariantRow, TextVariantsTable } from '../../db/schema.texts.js';
import { now } from '../../db/transaction.js';
import { appendAll } from '../../shared/arrays.js';
import { nextTurn } from '../../shared/next-turn.js';
import { parseStoredPlurals, serializePlurals } from './plurals.js';
import {
  type Component,
  type NewText,
  type TextEntity,
  type TextFieldChanges,
  type TextItem,
  type TextKind,
  type TextOfKind,
  translationStateOf,
  type VariantValue,
} from './texts.types.js';

/** Ids per `in (...)` list, leaving room for the other parameters of the statement. */
const IDS_PER_QUERY = 5_000;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// Rows into domain values: every read of the core turns rows into `TextEntity` here.

/** The columns a read turns into a `TextEntity` (not `SELECT *`: the timestamps are never read). */
export const TEXT_COLUMNS = [
  'id',
  'kind',
  'developer_id',
  'name',
  'folder_id',
  'project_id',
  'block_id',
  'base_text_item_id',
  'component_id',
  'position',
  'text',
  'rich_text',
  'plurals',
  'notes',
  'tags',
  'status',
  'assignee_id',
  'character_limit',
  'integrated',
  'revision',
  'text_version',
] as const satisfies readonly (keyof TextColumns)[];

export interface TextVariableRow {
  text_id: number;
  variable_id: number;
}

/** The columns of `texts` a read needs: all but the workspace and the timestamps. */
export type TextColumns = Omit<TextRow, 'workspace_id' | 'created_at' | 'updated_at'>;

/**
 * A `texts` row as a component or text item, without its variant values and variables yet. A
 * row of the content columns only (`TextQuery.contentOnly`) leaves the others at defaults.
 * Written out for each kind rather than spread from a common part: a page of a large read
 * makes thousands of these.
 */
export function toEntity(row: TextColumns): TextEntity {
  const plurals = parseStoredPlurals(row.plurals);
  const tags = row.tags === '[]' ? [] : (JSON.parse(row.tags) as string[]);
  const revision = row.revision === undefined ? 0 : Number(row.revision);
  if (row.kind === 'component') {
    return {
      kind: 'component',
      id: row.id,
      developerId: row.developer_id,
      text: row.text,
      richText: row.rich_text,
      plurals,
      notes: row.notes,
      characterLimit: row.character_limit ?? null,
      status: row.status,
      assigneeId: row.assignee_id,
      tags,
      integrated: row.integrated === 1,
      variants: [],
      variableIds: [],
      revision,
      textVersion: row.text_version ?? 0,
      name: row.name ?? '',
      folderId: row.folder_id,
    };
  }
  return {
    kind: 'text_item',
    id: row.id,
    developerId: row.developer_id,
    text: row.text,
    richText: row.rich_text,
    plurals,
    notes: row.notes,
    characterLimit: row.character_limit ?? null,
    status: row.status,
    assigneeId: row.assignee_id,
    tags,
    integrated: row.integrated === 1,
    variants: [],
    variableIds: [],
    revision,
    textVersion: row.text_version ?? 0,
    projectId: row.project_id as number,
    blockId: row.block_id ?? null,
    position: row.position ?? 0,
    baseTextItemId: row.base_text_item_id ?? null,
    componentId: row.component_id,
  };
}

export const toVariantValue = (row: TextVariantRow): VariantValue => ({
  variantId: row.variant_id,
  text: row.text,
  richText: row.rich_text,
  plurals: parseStoredPlurals(row.plurals),
  status: row.status,
  assigneeId: row.assignee_id,
  notes: row.notes,
  characterLimit: row.character_limit,
  textVersion: row.text_version,
});

/** Groups the rows of three queries into entities, in memory, with maps rather than per-row queries. */
export function assembleEntities(
  texts: readonly TextColumns[],
  variants: readonly TextVariantRow[],
  variables: readonly TextVariableRow[],
): TextEntity[] {
  const byId = new Map<number, TextEntity>();
  const entities: TextEntity[] = [];
  for (const row of texts) {
    const entity = toEntity(row);
    byId.set(row.id, entity);
    entities.push(entity);
  }
  for (const value of variants) byId.get(value.text_id)?.variants.push(toVariantValue(value));
  for (const link of variables) byId.get(link.text_id)?.variableIds.push(link.variable_id);
  // The rows mostly come in order already: sort only the lists that are not.
  for (const entity of entities) {
    const { variants: values, variableIds } = entity;
    if (values.length > 1 && !ascending(values, (value) => value.variantId)) {
      values.sort((a, b) => a.variantId - b.variantId);
    }
    if (variableIds.length > 1 && !ascending(variableIds, (id) => id)) variableIds.sort((a, b) => a - b);
  }
  return entities;
}

function ascending<T>(list: readonly T[], key: (item: T) => number): boolean {
  for (let index = 1; index < list.length; index++) {
    if (key(list[index - 1] as T) > key(list[index] as T)) return false;
  }
  return true;
}

// The reader's SQL: the texts a request selects, and only those, in three queries that share one
// WHERE (the texts, their variant values, their listed variables), ordered by developer ID.

/** What SQL applies of a read's resolved filter (the reader makes it: `sqlSelection`). */
export interface SqlSelection {
  kind: TextKind;
  /** Text items: row ids of the projects and bases to read. */
  containerIds?: readonly number[];
  /** Components: folder row ids to read (null: the library root); undefined: every folder. */
  folderIds?: ReadonlySet<number | null>;
  integrated?: boolean;
  /** Only these texts (developer IDs). */
  developerIds?: readonly string[];
  /** Base statuses to keep; only when every text read is subject to the status filter. */
  statuses?: readonly string[];
  /** Base assignee to keep (null: unassigned); only with the same condition. */
  assigneeId?: number | null;
  /** The variant values to read: every one, or those of these variant row ids (none: base text only). */
  variantIds: 'all' | readonly number[];
  /** Only the columns of `CONTENT_COLUMNS` (`TextQuery.contentOnly`). */
  contentOnly?: boolean;
}

/**
 * What a file needs of a text, and what the filters read: a third fewer columns than a whole
 * read, which on SQLite is most of the cost of reading a page (every column of every row
 * becomes a property of a JavaScript object).
 */
const CONTENT_COLUMNS = [
  'id',
  'kind',
  'developer_id',
  'folder_id',
  'project_id',
  'component_id',
  'text',
  'rich_text',
  'plurals',
  'notes',
  'tags',
  'status',
  'assignee_id',
  'integrated',
] as const satisfies readonly (keyof TextColumns)[];

type Where = ExpressionBuilder<Database, 'texts'>;

/** The WHERE of a selection. */
function conditions(eb: Where, workspaceId: number, s: SqlSelection): Expression<SqlBool> {
  const col = (name: 'workspace_id' | 'kind' | 'project_id' | 'folder_id' | 'integrated' | 'status' | 'assignee_id') =>
    sql.ref(`texts.${name}`);
  const all: Expression<SqlBool>[] = [eb(col('workspace_id'), '=', workspaceId), eb(col('kind'), '=', s.kind)];
  if (s.containerIds) all.push(eb(col('project_id'), 'in', [...s.containerIds]));
  if (s.folderIds) {
    const ids = [...s.folderIds].filter((id): id is number => id !== null);
    const either: Expression<SqlBool>[] = [];
    if (ids.length > 0) either.push(eb(col('folder_id'), 'in', ids));
    if (s.folderIds.has(null)) either.push(eb(col('folder_id'), 'is', null));
    all.push(eb.or(either));
  }
  if (s.integrated !== undefined) all.push(eb(col('integrated'), '=', s.integrated ? 1 : 0));
  if (s.developerIds) all.push(eb(sql.ref('texts.developer_id'), 'in', [...s.developerIds]));
  if (s.statuses) all.push(eb(col('status'), 'in', [...s.statuses]));
  if (s.assigneeId !== undefined) {
    all.push(s.assigneeId === null ? eb(col('assignee_id'), 'is', null) : eb(col('assignee_id'), '=', s.assigneeId));
  }
  return eb.and(all);
}

/** Developer IDs compare by code unit, the same on both databases whatever their collation. */
export const compareDeveloperIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The selected texts with their variant values and variables, ordered by developer ID: read in
 * the pages of `selectionPages`, with a turn of the event loop between them, so that a read of a
 * large workspace never holds the loop for one long query (SQLite answers on it).
 */
export async function loadSelection(db: Executor, workspaceId: number, s: SqlSelection): Promise<TextEntity[]> {
  const out: TextEntity[] = [];
  for await (const page of selectionPages(db, workspaceId, s)) {
    for (const entity of page) out.push(entity);
    await nextTurn();
  }
  return out;
}

/** Text rows per page of a paged read: enough to amortise a query, few enough to render in one go. */
export const PAGE_SIZE = 1000;

/**
 * Text rows per page of texts read whole, by database. SQLite answers on the event loop, and a
 * page of 1,000 texts with their values takes about 20 ms there, which every other request would
 * wait for; a page of 250 keeps a read to a few milliseconds. PostgreSQL answers while the event
 * loop goes on, so its pages stay large.
 */
const wholePageSize = (db: Executor, s?: SqlSelection) =>
  answersOnEventLoop(db) ? (s?.contentOnly ? CONTENT_PAGE_SIZE_SQLITE : 250) : PAGE_SIZE;

/**
 * Content-only pages (the exports) on SQLite: a page of their fewer columns takes a few
 * milliseconds, and each page costs a query's preparation and a turn of its own.
 */
const CONTENT_PAGE_SIZE_SQLITE = 1000;

/** The variant values and variables of some texts, grouped with them into entities. */
async function withValues(db: Executor, rows: TextColumns[], s: SqlSelection): Promise<TextEntity[]> {
  const ids = rows.map((row) => row.id);
  const variantIds = s.variantIds;
  const [variants, variables] = await Promise.all([
    variantIds !== 'all' && variantIds.length === 0
      ? []
      : db
          .selectFrom('text_variants')
          .selectAll()
          .where('text_id', 'in', ids)
          .$if(variantIds !== 'all', (q) => q.where('variant_id', 'in', [...(variantIds as number[])]))
          .execute(),
    db.selectFrom('text_variables').select(['text_id', 'variable_id']).where('text_id', 'in', ids).execute() as Promise<
      TextVariableRow[]
    >,
  ]);
  return assembleEntities(rows, variants, variables);
}

/**
 * The selected texts page by page, ordered by developer ID by the database, each page with its
 * variant values and variables: memory holds one page, whatever the size of the selection. In a
 * PostgreSQL transaction (a snapshot) the pages are fetched from one cursor; elsewhere each page
 * continues after the last developer ID of the one before (the unique index on the workspace,
 * kind and developer ID serves both the order and the seek).
 */
export async function* selectionPages(
  db: Executor,
  workspaceId: number,
  s: SqlSelection,
  pageSize = wholePageSize(db, s),
): AsyncGenerator<TextEntity[]> {
  const select = (q: SelectQueryBuilder<Database, 'texts', object>) =>
    q.select(s.contentOnly ? CONTENT_COLUMNS : TEXT_COLUMNS) as SelectQueryBuilder<Database, 'texts', TextColumns>;
  for await (const rows of orderedPages(db, workspaceId, s, { columns: select, pageSize }))
    yield await withValues(db, rows, s);
}

/** The developer ID of a row, for the next page's seek. */
interface Ordered {
  developer_id: string;
}

/**
 * Rows of the selected texts, page by page in developer-ID order: from one cursor in a
 * PostgreSQL transaction, else each page continuing after the last developer ID of the one
 * before. `read.columns` adds the select list (and any join) to the texts query.
 */
async function* orderedPages<R extends Ordered>(
  db: Executor,
  workspaceId: number,
  s: SqlSelection,
  read: {
    columns: (q: SelectQueryBuilder<Database, 'texts', object>) => SelectQueryBuilder<Database, any, R>;
    pageSize: number;
  },
): AsyncGenerator<R[]> {
  const { columns, pageSize } = read;
  if (s.containerIds?.length === 0 || s.folderIds?.size === 0 || s.statuses?.length === 0) return;
  const byDeveloperId = codeUnitOrder(db, 'texts.developer_id');
  const query = (after: string | null) =>
    columns(db.selectFrom('texts').where((eb) => conditions(eb, workspaceId, s)))
      .$if(after !== null, (q) => q.where(byDeveloperId, '>', after))
      .orderBy(byDeveloperId);
  // In a PostgreSQL snapshot, one cursor; else each page seeks past the last one.
  const fromCursor = cursorPages<R>(db, query(null) as SelectQueryBuilder<Database, any, R>, pageSize);
  if (fromCursor) {
    yield* fromCursor;
    return;
  }
  let after: string | null = null;
  for (;;) {
    const rows = (await query(after).limit(pageSize).execute()) as R[];
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    after = (rows[rows.length - 1] as R).developer_id;
  }
}

/** The columns that say whether a text is selected, beside its keys (`keyPages`). */
export interface KeyRow extends Ordered {
  kind: TextKind;
  folder_id: number | null;
  project_id: number | null;
  component_id: number | null;
  integrated: number;
  tags: string;
  status: string;
  assignee_id: number | null;
}

/**
 * Key rows per page on SQLite: a project's texts lie apart in the table, so each row is a lookup
 * of its own; a page of 1,000 took up to 80 ms of the event loop at 200,000 texts, one of 250
 * takes a quarter of that.
 */
const KEY_PAGE_SIZE_SQLITE = 250;

/**
 * The selected texts page by page in developer-ID order (as `selectionPages`), each as the
 * narrow columns a filter looks at: no text, no values. A pass over a large selection's keys.
 */
export function keyPages(
  db: Executor,
  workspaceId: number,
  s: SqlSelection,
  pageSize = answersOnEventLoop(db) ? KEY_PAGE_SIZE_SQLITE : PAGE_SIZE,
) {
  const select = (q: SelectQueryBuilder<Database, 'texts', object>) =>
    q.select([
      'texts.developer_id',
      'texts.kind',
      'texts.folder_id',
      'texts.project_id',
      'texts.component_id',
      'texts.integrated',
      'texts.tags',
      'texts.status',
      'texts.assignee_id',
    ]);
  return orderedPages<KeyRow>(db, workspaceId, s, { columns: select as never, pageSize });
}

/** The part of a selection in one project or base, read in its custom order (`containerPages`). */
export interface ContainerRead {
  selection: SqlSelection;
  /** The project or base (row id). */
  containerId: number;
  /** The container's blocks (row ids) in block order. */
  blockIds: readonly number[];
}

/**
 * The selected texts of one project or base in its custom order, page by page: the texts of each
 * of `blockIds` (the container's blocks in block order), then those outside them (no block, or
 * one not listed), each part by position and row id, every page continuing after the last
 * position and row id of the one before. Memory holds one page, whatever the size of the project.
 */
export async function* containerPages(
  db: Executor,
  workspaceId: number,
  read: ContainerRead,
  pageSize = wholePageSize(db),
): AsyncGenerator<TextEntity[]> {
  const { selection: s, containerId, blockIds } = read;
  if (s.statuses?.length === 0) return;
  const parts: Array<number | null> = [...blockIds, null];
  for (const block of parts) {
    let after: { position: number; id: number } | null = null;
    for (;;) {
      const from: { position: number; id: number } | null = after;
      const rows = await db
        .selectFrom('texts')
        .select(TEXT_COLUMNS)
        .where((eb) => conditions(eb, workspaceId, { ...s, containerIds: [containerId] }))
        .where((eb) => {
          if (block !== null) return eb('texts.block_id', '=', block);
          const outside = [eb('texts.block_id', 'is', null)];
          if (blockIds.length > 0) outside.push(eb('texts.block_id', 'not in', [...blockIds]));
          return eb.or(outside);
        })
        .$if(from !== null, (q) =>
          q.where((eb) => {
            const { position, id } = from as { position: number; id: number };
            // `>=` first, so that the project's index on (project, position) gives a range.
            return eb.and([
              eb('texts.position', '>=', position),
              eb.or([eb('texts.position', '>', position), eb('texts.id', '>', id)]),
            ]);
          }),
        )
        .orderBy('texts.position')
        .orderBy('texts.id')
        .limit(pageSize)
        .execute();
      if (rows.length > 0) yield await withValues(db, rows, s);
      if (rows.length < pageSize) break;
      const last = rows[rows.length - 1] as (typeof rows)[number];
      after = { position: Number(last.position), id: Number(last.id) };
    }
  }
}

// Lookups, writes, and what other modules' changes do to texts.

type TextFilter = { developerIds?: readonly string[]; componentIds?: readonly number[]; rowIds?: readonly number[] };

async function loadWhere<K extends TextKind>(
  db: Executor,
  workspaceId: number,
  kind: K,
  where: TextFilter,
): Promise<TextOfKind<K>[]> {
  // By row id, the planner is kept off the (workspace, kind, developer ID) index (on SQLite it would
  // otherwise walk it over every text of the kind instead of looking the rows up).
  const byRowId = where.rowIds !== undefined;
  const texts = await db
    .selectFrom('texts')
    .select(TEXT_COLUMNS)
    .where(byRowId ? rowIdLookupColumn(db, 'workspace_id') : sql.ref('workspace_id'), '=', workspaceId)
    .where(byRowId ? rowIdLookupColumn(db, 'kind') : sql.ref('kind'), '=', kind)
    .$if(where.developerIds !== undefined, (q) => q.where('developer_id', 'in', where.developerIds as string[]))
    .$if(where.componentIds !== undefined, (q) => q.where('component_id', 'in', where.componentIds as number[]))
    .$if(where.rowIds !== undefined, (q) => q.where('id', 'in', where.rowIds as number[]))
    .execute();
  if (texts.length === 0) return [];
  // A whole set is joined on the workspace; a handful is looked up by id.
  const whole = where.developerIds === undefined && where.componentIds === undefined && where.rowIds === undefined;
  const textIds = texts.map((t) => t.id);
  const variants = whole
    ? await db
        .selectFrom('text_variants')
        .innerJoin('texts', 'texts.id', 'text_variants.text_id')
        .selectAll('text_variants')
        .where('texts.workspace_id', '=', workspaceId)
        .where('texts.kind', '=', kind)
        .execute()
    : await db.selectFrom('text_variants').selectAll().where('text_id', 'in', textIds).execute();
  const variables: TextVariableRow[] = whole
    ? await db
        .selectFrom('text_variables')
        .innerJoin('texts', 'texts.id', 'text_variables.text_id')
        .select(['text_variables.text_id', 'text_variables.variable_id'])
        .where('texts.workspace_id', '=', workspaceId)
        .where('texts.kind', '=', kind)
        .execute()
    : await db.selectFrom('text_variables').selectAll().where('text_id', 'in', textIds).execute();
  return assembleEntities(texts, variants, variables) as TextOfKind<K>[];
}

/** `loadWhere` over a list of keys, `IDS_PER_QUERY` at a time (`parts.filter` names the part). */
async function loadInParts<K extends TextKind, V>(
  db: Executor,
  workspaceId: number,
  kind: K,
  parts: { keys: readonly V[]; filter: (part: V[]) => TextFilter },
): Promise<TextOfKind<K>[]> {
  const { keys, filter } = parts;
  const out: TextOfKind<K>[] = [];
  for (const part of chunks([...new Set(keys)], IDS_PER_QUERY)) {
    appendAll(out, await loadWhere(db, workspaceId, kind, filter(part)));
  }
  return out;
}

/** The texts among `developerIds` that exist; the missing ones are simply absent. */
export const loadTextsByDeveloperIds = <K extends TextKind>(
  db: Executor,
  workspaceId: number,
  kind: K,
  developerIds: readonly string[],
): Promise<TextOfKind<K>[]> =>
  loadInParts(db, workspaceId, kind, { keys: developerIds, filter: (part) => ({ developerIds: part }) });

/** The texts with these row ids (of the kind); the missing ones are simply absent. */
export const loadTextsByRowIds = <K extends TextKind>(
  db: Executor,
  workspaceId: number,
  kind: K,
  rowIds: readonly number[],
): Promise<TextOfKind<K>[]> =>
  loadInParts(db, workspaceId, kind, { keys: rowIds, filter: (part) => ({ rowIds: part }) });

/** The text items that are linked instances of any of `componentIds`. */
export const loadInstances = (
  db: Executor,
  workspaceId: number,
  componentIds: readonly number[],
): Promise<TextOfKind<'text_item'>[]> =>
  loadInParts(db, workspaceId, 'text_item', { keys: componentIds, filter: (part) => ({ componentIds: part }) });

/** Every developer ID of one kind in the workspace: for generating unique ids. */
export async function listDeveloperIds(db: Executor, workspaceId: number, kind: TextKind): Promise<Set<string>> {
  const rows = await db
    .selectFrom('texts')
    .select('developer_id')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .execute();
  return new Set(rows.map((r) => r.developer_id));
}

/** The developer IDs among `developerIds` that a text of this kind has. */
export async function existingDeveloperIds(
  db: Executor,
  workspaceId: number,
  kind: TextKind,
  developerIds: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks([...new Set(developerIds)], IDS_PER_QUERY)) {
    const rows = await db
      .selectFrom('texts')
      .select('developer_id')
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', kind)
      .where('developer_id', 'in', part)
      .execute();
    for (const row of rows) found.add(row.developer_id);
  }
  return found;
}

/** The row id and revision of each text of this kind among `developerIds`: what their ETags are made of. */
export function textRevisions(db: Executor, workspaceId: number, kind: TextKind, developerIds: readonly string[]) {
  return db
    .selectFrom('texts')
    .select(['id', 'developer_id', 'revision'])
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .where('developer_id', 'in', [...developerIds])
    .execute();
}

/** Inserts texts in batches; answers developer ID -> row id (developer IDs are unique per kind). */
export async function insertTexts(db: Executor, rows: readonly NewTextRow[]): Promise<Map<string, number>> {
  const inserted = await bulkInsertObjects<{ id: number; developer_id: string }>(db, 'texts', rows, [
    'id',
    'developer_id',
  ]);
  return new Map(inserted.map((row) => [row.developer_id, row.id]));
}

export type NewVariantValueRow = Insertable<TextVariantsTable>;

export async function insertVariantValues(db: Executor, rows: readonly NewVariantValueRow[]): Promise<void> {
  await bulkInsertObjects(db, 'text_variants', rows);
}

export async function insertTextVariables(db: Executor, rows: readonly TextVariableRow[]): Promise<void> {
  await bulkInsertObjects(db, 'text_variables', rows);
}

/** The columns of the base text whose change makes the text's variant values outdated. */
const BASE_TEXT_COLUMNS = ['text', 'rich_text', 'plurals'] as const;

/**
 * A write that sets the base text, rich text or plural forms (and not `text_version` itself)
 * counts a new version of the base when any of them differs from what is stored: its variant
 * values written before are then outdated (docs/translation-state.md). Setting the same text
 * again is not a change.
 */
const versionBump = (changes: TextChanges) => {
  if (changes.text_version !== undefined) return {};
  const set = BASE_TEXT_COLUMNS.filter((column) => changes[column] !== undefined);
  if (set.length === 0) return {};
  const differs = sql.join(
    set.map((column) => sql`${sql.ref(`texts.${column}`)} is distinct from ${changes[column]}`),
    sql` or `,
  );
  return {
    text_version: sql<number>`case when ${differs} then "texts"."text_version" + 1 else "texts"."text_version" end`,
  };
};

/** Every change of a text stamps the revision of the write it is part of: its ETag changes. */
const stamped = (workspaceId: number, changes: TextChanges) => ({
  ...changes,
  ...versionBump(changes),
  revision: sql<number>`(select revision from workspaces where id = ${workspaceId})`,
});

/** The integer columns of `texts` a write may set; the others are text. */
const INTEGER_COLUMNS = new Set([
  'folder_id',
  'project_id',
  'block_id',
  'base_text_item_id',
  'component_id',
  'position',
  'assignee_id',
  'character_limit',
  'integrated',
  'text_version',
]);
/** Bound parameters per statement, under SQLite's limit of 32,766. */
const MAX_PARAMETERS = 30_000;

/**
 * Sets different columns on each text: one `UPDATE ... FROM (VALUES ...)` for every set of texts
 * that change the same columns (a batch PATCH is usually one), instead of a statement per text,
 * each stamping the write's revision. Every value is a bound parameter; PostgreSQL gets each
 * value's type, which it cannot infer inside `VALUES`.
 */
export async function updateTextsEach(
  db: Executor,
  workspaceId: number,
  updates: readonly { id: number; changes: TextChanges }[],
): Promise<void> {
  const byColumns = new Map<string, { id: number; changes: TextChanges }[]>();
  for (const update of updates) {
    const key = Object.keys(update.changes).join(',');
    if (key === '') continue;
    const list = byColumns.get(key);
    if (list) list.push(update);
    else byColumns.set(key, [update]);
  }
  const placeholder = typedPlaceholders(db);
  for (const [key, group] of byColumns) {
    const columns = key.split(',') as (keyof TextChanges)[];
    const names = ['id', ...columns];
    const types = names.map((name) => (name === 'id' || INTEGER_COLUMNS.has(name) ? 'integer' : 'text'));
    const bumped = BASE_TEXT_COLUMNS.filter((column) => columns.includes(column));
    const differs = bumped.map((column) => `"texts"."${column}" is distinct from v."${column}"`).join(' or ');
    // As `versionBump`: a new base text counts a new version, unless the update sets the version.
    const version =
      bumped.length > 0 && !columns.includes('text_version')
        ? [`"text_version" = case when ${differs} then "texts"."text_version" + 1 else "texts"."text_version" end`]
        : [];
    const assignments = [...columns.map((column) => `"${column}" = v."${column}"`), ...version].join(', ');
    const perStatement = Math.max(1, Math.floor((MAX_PARAMETERS - 2) / names.length));
    for (const part of chunks(group, perStatement)) {
      const parameters: unknown[] = [];
      const slot = (value: unknown, type: string) => {
        parameters.push(value);
        return placeholder(parameters.length, type);
      };
      const tuples = part.map(
        (u) =>
          `(${names.map((name, i) => slot(name === 'id' ? u.id : u.changes[name as keyof TextChanges], types[i] as string)).join(', ')})`,
      );
      const revision = slot(workspaceId, 'integer');
      const workspace = slot(workspaceId, 'integer');
      const statement =
        `with v (${names.map((name) => `"${name}"`).join(', ')}) as (values ${tuples.join(', ')}) ` +
        `update "texts" set ${assignments}, "revision" = (select "revision" from "workspaces" where "id" = ${revision}) ` +
        `from v where "texts"."id" = v."id" and "texts"."workspace_id" = ${workspace}`;
      await db.executeQuery(CompiledQuery.raw(statement, parameters));
    }
  }
}

/** Removes the values of one variant (or of every variant when `variantId` is null) from the texts. */
export async function deleteVariantValues(
  db: Executor,
  textIds: readonly number[],
  variantId: number | null,
): Promise<void> {
  for (const part of chunks(textIds, IDS_PER_QUERY)) {
    await db
      .deleteFrom('text_variants')
      .where('text_id', 'in', part)
      .$if(variantId !== null, (q) => q.where('variant_id', '=', variantId as number))
      .execute();
  }
}

export async function deleteTextVariables(db: Executor, textIds: readonly number[]): Promise<void> {
  for (const part of chunks(textIds, IDS_PER_QUERY)) {
    await db.deleteFrom('text_variables').where('text_id', 'in', part).execute();
  }
}

/** Their variant values and variable links go with them, by the foreign keys. */
export async function deleteTexts(db: Executor, workspaceId: number, ids: readonly number[]): Promise<void> {
  for (const part of chunks(ids, IDS_PER_QUERY)) {
    await db.deleteFrom('texts').where('workspace_id', '=', workspaceId).where('id', 'in', part).execute();
  }
}

/** For each of `variableIds` that text of the workspace uses, how many components and text items list it. */
export async function variableUsage(
  db: Executor,
  workspaceId: number,
  variableIds: readonly number[],
): Promise<Map<number, number>> {
  if (variableIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('text_variables')
    .innerJoin('texts', 'texts.id', 'text_variables.text_id')
    .select(['text_variables.variable_id', (eb) => eb.fn.countAll<string | number>().as('uses')])
    .where('texts.workspace_id', '=', workspaceId)
    .where('text_variables.variable_id', 'in', [...variableIds])
    .groupBy('text_variables.variable_id')
    .execute();
  return new Map(rows.map((r) => [r.variable_id, Number(r.uses)]));
}

/** A text's row id and kind: what the loaders need to load it whole. */
export interface TextRef {
  id: number;
  kind: TextKind;
}

/** Texts by row id, whatever their kind, in two loads at most. */
export async function loadTextsByRefs(
  db: Executor,
  workspaceId: number,
  refs: readonly TextRef[],
): Promise<TextEntity[]> {
  const out: TextEntity[] = [];
  for (const kind of ['component', 'text_item'] as const) {
    const ids = refs.filter((r) => r.kind === kind).map((r) => r.id);
    if (ids.length > 0) appendAll(out, await loadTextsByRowIds(db, workspaceId, kind, ids));
  }
  return out;
}

/** Texts whose base or any variant value carries one of `statuses`. */
export async function textsWithStatuses(
  db: Executor,
  workspaceId: number,
  statuses: readonly string[],
): Promise<TextRef[]> {
  if (statuses.length === 0) return [];
  return db
    .selectFrom('texts')
    .select(['id', 'kind'])
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        eb('status', 'in', [...statuses]),
        eb(
          'id',
          'in',
          eb
            .selectFrom('text_variants')
            .select('text_id')
            .where('status', 'in', [...statuses]),
        ),
      ]),
    )
    .execute();
}

/** Sets `column` to `to` wherever a text or a variant value of the workspace has `from` in it. */
async function replaceInTexts(
  db: Executor,
  workspaceId: number,
  replace: { column: 'status' | 'assignee_id'; from: string | number; to: string | null },
): Promise<void> {
  const { column, from, to } = replace;
  const set = { [column]: to } as Pick<TextChanges, 'status' | 'assignee_id'>;
  await db
    .updateTable('texts')
    .set(stamped(workspaceId, set))
    .where('workspace_id', '=', workspaceId)
    .where(column, '=', from)
    .execute();
  await db
    .updateTable('text_variants')
    .set(set)
    .where(column, '=', from)
    .where('text_id', 'in', (eb) => eb.selectFrom('texts').select('id').where('workspace_id', '=', workspaceId))
    .execute();
}

/** Sets `to` wherever a text or a variant value of the workspace carries `from`. */
export const reassignStatus = (db: Executor, workspaceId: number, from: string, to: string): Promise<void> =>
  replaceInTexts(db, workspaceId, { column: 'status', from, to });

/** Texts of the workspace assigned to the user, on the base text or on any variant value. */
export async function textsAssignedTo(db: Executor, workspaceId: number, userId: number): Promise<TextRef[]> {
  return db
    .selectFrom('texts')
    .select(['id', 'kind'])
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        eb('assignee_id', '=', userId),
        eb('id', 'in', eb.selectFrom('text_variants').select('text_id').where('assignee_id', '=', userId)),
      ]),
    )
    .execute();
}

/** Clears the user as assignee everywhere in the workspace. */
export const unassignUser = (db: Executor, workspaceId: number, userId: number): Promise<void> =>
  replaceInTexts(db, workspaceId, { column: 'assignee_id', from: userId, to: null });

/** Texts of the workspace in any of the given folders, blocks, containers, or with a value of the variants. */
export async function textsWhere(
  db: Executor,
  workspaceId: number,
  where: {
    folderIds?: readonly number[];
    blockIds?: readonly number[];
    containerIds?: readonly number[];
    variantIds?: readonly number[];
    baseTextItemIds?: readonly number[];
  },
): Promise<TextRef[]> {
  let query = db.selectFrom('texts').select(['id', 'kind']).where('workspace_id', '=', workspaceId);
  if (where.folderIds) query = query.where('kind', '=', 'component').where('folder_id', 'in', [...where.folderIds]);
  if (where.blockIds) query = query.where('kind', '=', 'text_item').where('block_id', 'in', [...where.blockIds]);
  if (where.containerIds) {
    query = query.where('kind', '=', 'text_item').where('project_id', 'in', [...where.containerIds]);
  }
  if (where.baseTextItemIds) {
    if (where.baseTextItemIds.length === 0) return [];
    query = query.where('base_text_item_id', 'in', [...where.baseTextItemIds]);
  }
  if (where.variantIds) {
    const variantIds = [...where.variantIds];
    query = query.where('id', 'in', (eb) =>
      eb.selectFrom('text_variants').select('text_id').where('variant_id', 'in', variantIds),
    );
  }
  return query.execute();
}

/** Sets columns on texts by row id. */
export async function updateTexts(
  db: Executor,
  workspaceId: number,
  ids: readonly number[],
  changes: TextChanges,
): Promise<void> {
  for (const part of chunks(ids, IDS_PER_QUERY)) {
    await db
      .updateTable('texts')
      .set(stamped(workspaceId, changes))
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', part)
      .execute();
  }
}

/** Fields set on texts by `updateTextFields`. */
export interface TextFieldsUpdate {
  /** The texts (row ids). */
  ids: readonly number[];
  changes: TextFieldChanges;
  /** Set as `updated_at` when given. */
  updatedAt?: string;
}

/** Sets fields of texts by row id (and `updated_at` when given). */
export const updateTextFields = (db: Executor, workspaceId: number, update: TextFieldsUpdate) => {
  const { ids, changes, updatedAt } = update;
  return updateTexts(db, workspaceId, ids, { ...textColumns(changes), ...(updatedAt && { updated_at: updatedAt }) });
};

/** Developer ID -> row id of the text items among `developerIds` that the container (a base) holds. */
export async function itemsOfContainer(
  db: Executor,
  workspaceId: number,
  containerId: number,
  developerIds: readonly string[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const part of chunks([...new Set(developerIds)], IDS_PER_QUERY)) {
    const rows = await db
      .selectFrom('texts')
      .select(['id', 'developer_id'])
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', 'text_item')
      .where('project_id', '=', containerId)
      .where('developer_id', 'in', part)
      .execute();
    for (const row of rows) found.set(row.developer_id, row.id);
  }
  return found;
}

/** Developer IDs of texts by row id. */
export async function developerIdsByRowIds(
  db: Executor,
  workspaceId: number,
  ids: readonly number[],
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const part of chunks([...new Set(ids)], IDS_PER_QUERY)) {
    const rows = await db
      .selectFrom('texts')
      .select(['id', 'developer_id'])
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', part)
      .execute();
    for (const row of rows) out.set(row.id, row.developer_id);
  }
  return out;
}

/** The text items that derive from any of the base text items `ids`. */
export async function derivedItems(db: Executor, workspaceId: number, ids: readonly number[]): Promise<TextItem[]> {
  const refs = await textsWhere(db, workspaceId, { baseTextItemIds: ids });
  return loadTextsByRowIds(
    db,
    workspaceId,
    'text_item',
    refs.map((r) => r.id),
  );
}

// Linked instances: a text item published to the library, or linked to a component, reads its
// text, rich text, plurals and variant text through from the component; its status, assignee,
// notes, tags, limits, integrated flag and block stay its own. What they show (`showInstances`,
// after every load of text items that may be instances), then detaching and relinking them.

/**
 * The instance as its records show it: the component's text, rich text and plurals; for each of
 * the component's variant values, the instance's own value of that variant (status, assignee,
 * notes, limit) with the component's text, or a copy of the component's value when the instance
 * has none; instance values of variants the component lacks stay as they are. The component's
 * listed variables join the instance's, so its placeholders resolve.
 */
export function readThrough(instance: TextItem, component: Component): TextItem {
  // The instance shows the component's base text, so its version is the component's. A value of
  // a variant the component lacks keeps the state it has against the instance's own base.
  const version = component.textVersion ?? 0;
  const restamped = (value: VariantValue): VariantValue => ({
    ...value,
    textVersion: translationStateOf(instance, value) === 'outdated' ? version - 1 : version,
  });
  const own = new Map(instance.variants.map((v) => [v.variantId, restamped(v)]));
  for (const value of component.variants) {
    const mine = own.get(value.variantId);
    const { text, richText, plurals, textVersion } = value;
    own.set(value.variantId, mine ? { ...mine, text, richText, plurals, textVersion } : { ...value });
  }
  const variants: VariantValue[] = [...own.values()].sort((a, b) => a.variantId - b.variantId);
  const variableIds = [...new Set([...instance.variableIds, ...component.variableIds])].sort((a, b) => a - b);
  return {
    ...instance,
    text: component.text,
    richText: component.richText,
    plurals: component.plurals,
    textVersion: version,
    variants,
    variableIds,
  };
}

export interface ShownText {
  /** The text as its records show it (`readThrough` for an instance). */
  entity: TextItem;
  /** The component an instance reads through from. */
  component?: Component;
}

/**
 * Text items as their records show them, loading the components of the instances among them
 * with their values of `variantIds` (the values the items were read with).
 */
export async function showInstances(
  db: Executor,
  workspaceId: number,
  items: readonly TextItem[],
  variantIds: 'all' | readonly number[] = 'all',
): Promise<ShownText[]> {
  const componentIds = items.flatMap((e) => e.componentId ?? []);
  if (componentIds.length === 0) return items.map((entity) => ({ entity }));
  const loaded = await loadTextsByRowIds(db, workspaceId, 'component', componentIds);
  if (variantIds !== 'all') {
    const wanted = new Set(variantIds);
    for (const component of loaded) component.variants = component.variants.filter((v) => wanted.has(v.variantId));
  }
  const components = new Map(loaded.map((c) => [c.id, c]));
  return items.map((item) => {
    const component = item.componentId === null ? undefined : components.get(item.componentId);
    return component ? { entity: readThrough(item, component), component } : { entity: item };
  });
}

/**
 * Detaches the linked instances of components that are about to be deleted (linked instances keep their text
 * and are detached): each keeps exactly what it showed
 * (`readThrough`), now stored as its own.
 */
export async function detachInstances(
  db: Executor,
  workspaceId: number,
  components: readonly Component[],
): Promise<{ before: TextItem; after: TextItem }[]> {
  const instances = await loadInstances(
    db,
    workspaceId,
    components.map((c) => c.id),
  );
  return detach(db, workspaceId, instances, new Map(components.map((c) => [c.id, c])));
}

/**
 * Detaches some linked instances (`POST /v2/textItems/instances/detach`), as a component delete
 * does: each keeps what it showed, stored as its own. `instances` are as stored, each with a
 * `componentId`.
 */
export async function detachTextItems(
  db: Executor,
  workspaceId: number,
  instances: readonly TextItem[],
): Promise<{ before: TextItem; after: TextItem }[]> {
  const componentIds = [...new Set(instances.flatMap((i) => i.componentId ?? []))];
  const components = await loadTextsByRowIds(db, workspaceId, 'component', componentIds);
  return detach(db, workspaceId, instances, new Map(components.map((c) => [c.id, c])));
}

async function detach(
  db: Executor,
  workspaceId: number,
  instances: readonly TextItem[],
  byId: ReadonlyMap<number, Component>,
): Promise<{ before: TextItem; after: TextItem }[]> {
  if (instances.length === 0) return [];
  const updatedAt = now();
  const variantRows = [];
  const variableRows = [];
  const detached: { before: TextItem; after: TextItem }[] = [];
  for (const instance of instances) {
    const shown = readThrough(instance, byId.get(instance.componentId as number) as Component);
    detached.push({ before: shown, after: { ...shown, componentId: null } });
    const { text, richText, plurals, textVersion } = shown;
    // The shown version and values' versions are kept: each value keeps the state it showed.
    await updateTextFields(db, workspaceId, {
      ids: [instance.id],
      changes: { text, richText, plurals, textVersion, componentId: null },
      updatedAt,
    });
    for (const value of shown.variants) variantRows.push(variantValueRow(instance.id, value));
    for (const variableId of shown.variableIds) variableRows.push({ text_id: instance.id, variable_id: variableId });
  }
  const instanceIds = instances.map((i) => i.id);
  await deleteVariantValues(db, instanceIds, null);
  await insertVariantValues(db, variantRows);
  await deleteTextVariables(db, instanceIds);
  await insertTextVariables(db, variableRows);
  return detached;
}

/**
 * Links plain text items to components again (a restore undoing a detach): each shows its
 * component's text, rich text and plurals again, keeping its own fields and variant values.
 */
export async function relinkTextItems(
  db: Executor,
  workspaceId: number,
  links: readonly { item: TextItem; component: Component }[],
): Promise<{ before: TextItem; after: TextItem }[]> {
  const updatedAt = now();
  const linked: { before: TextItem; after: TextItem }[] = [];
  for (const { item, component } of links) {
    const { text, richText, plurals } = component;
    await updateTextFields(db, workspaceId, {
      ids: [item.id],
      changes: { text, richText, plurals, componentId: component.id },
      updatedAt,
    });
    linked.push({ before: item, after: readThrough({ ...item, componentId: component.id }, component) });
  }
  return linked;
}

// Domain values into columns: every write of the core turns its values into rows here.

/**
 * The `text_variants` row of a variant value; a value without its own `textVersion` is being
 * written now, against the base text's version `baseVersion`.
 */
export const variantValueRow = (textId: number, value: VariantValue, baseVersion = 0) => ({
  text_id: textId,
  variant_id: value.variantId,
  text: value.text,
  rich_text: value.richText,
  plurals: serializePlurals(value.plurals),
  status: value.status,
  assignee_id: value.assigneeId,
  notes: value.notes,
  character_limit: value.characterLimit,
  text_version: value.textVersion ?? baseVersion,
});

export type TextChanges = Partial<Omit<TextRow, 'id' | 'workspace_id' | 'kind' | 'created_at'>>;

/** The columns of changed fields (only those given). */
export function textColumns(changes: TextFieldChanges): TextChanges {
  const out: TextChanges = {};
  const set = <K extends keyof TextChanges>(column: K, value: TextChanges[K] | undefined) => {
    if (value !== undefined) out[column] = value;
  };
  set('developer_id', changes.developerId);
  set('text', changes.text);
  set('rich_text', changes.richText);
  if (changes.plurals !== undefined) out.plurals = serializePlurals(changes.plurals);
  set('notes', changes.notes);
  set('character_limit', changes.characterLimit);
  set('status', changes.status);
  set('assignee_id', changes.assigneeId);
  if (changes.tags !== undefined) out.tags = JSON.stringify(changes.tags);
  if (changes.integrated !== undefined) out.integrated = changes.integrated ? 1 : 0;
  set('name', changes.name);
  set('folder_id', changes.folderId);
  set('project_id', changes.projectId);
  set('block_id', changes.blockId);
  set('position', changes.position);
  set('base_text_item_id', changes.baseTextItemId);
  set('component_id', changes.componentId);
  set('text_version', changes.textVersion);
  return out;
}

/** The `texts` row of a new text; every row has the same columns, for multi-row inserts. */
export function newTextRow(workspaceId: number, text: NewText, at: string): NewTextRow {
  const component = text.kind === 'component' ? text : null;
  const item = text.kind === 'text_item' ? text : null;
  return {
    workspace_id: workspaceId,
    kind: text.kind,
    developer_id: text.developerId,
    name: component?.name ?? null,
    folder_id: component?.folderId ?? null,
    project_id: item?.projectId ?? null,
    block_id: item?.blockId ?? null,
    base_text_item_id: item?.baseTextItemId ?? null,
    component_id: item?.componentId ?? null,
    position: item?.position ?? 0,
    text: text.text,
    rich_text: text.richText,
    plurals: serializePlurals(text.plurals),
    notes: text.notes,
    tags: JSON.stringify(text.tags),
    status: text.status,
    assignee_id: text.assigneeId,
    character_limit: text.characterLimit,
    integrated: text.integrated ? 1 : 0,
    text_version: text.textVersion ?? 0,
    created_at: at,
    updated_at: at,
  };
}
