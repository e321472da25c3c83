import { CompiledQuery, type Insertable, sql } from 'kysely';
import { bulkInsertObjects } from '../../db/bulk-insert.js';
import { rowIdLookupColumn, typedPlaceholders } from '../../db/query-plan.js';
import type { Executor } from '../../db/schema.js';
import type { NewTextRow, TextVariantsTable } from '../../db/schema.texts.js';
import { appendAll } from '../../shared/arrays.js';
import { assembleEntities, type TextChanges, type TextColumns, type TextVariableRow, textColumns } from './entities.js';
import type { TextEntity, TextFieldChanges, TextItem, TextKind, TextOfKind } from './texts.types.js';

/**
 * SQL of the texts shared core: reads load whole sets of texts in three queries (texts, their
 * variant values, their listed variables) and writes go in multi-row batches.
 */

/** Ids per `in (...)` list, leaving room for the other parameters of the statement. */
const IDS_PER_QUERY = 5_000;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

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

/** `loadWhere` over a list of keys, `IDS_PER_QUERY` at a time (`filter` names the part). */
async function loadInParts<K extends TextKind, V>(
  db: Executor,
  workspaceId: number,
  kind: K,
  keys: readonly V[],
  filter: (part: V[]) => TextFilter,
): Promise<TextOfKind<K>[]> {
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
): Promise<TextOfKind<K>[]> => loadInParts(db, workspaceId, kind, developerIds, (part) => ({ developerIds: part }));

/** The texts with these row ids (of the kind); the missing ones are simply absent. */
export const loadTextsByRowIds = <K extends TextKind>(
  db: Executor,
  workspaceId: number,
  kind: K,
  rowIds: readonly number[],
): Promise<TextOfKind<K>[]> => loadInParts(db, workspaceId, kind, rowIds, (part) => ({ rowIds: part }));

/** The text items that are linked instances of any of `componentIds`. */
export const loadInstances = (
  db: Executor,
  workspaceId: number,
  componentIds: readonly number[],
): Promise<TextOfKind<'text_item'>[]> =>
  loadInParts(db, workspaceId, 'text_item', componentIds, (part) => ({ componentIds: part }));

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
  column: 'status' | 'assignee_id',
  from: string | number,
  to: string | null,
): Promise<void> {
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
  replaceInTexts(db, workspaceId, 'status', from, to);

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
  replaceInTexts(db, workspaceId, 'assignee_id', userId, null);

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

/** Sets fields of texts by row id (and `updated_at` when given). */
export const updateTextFields = (
  db: Executor,
  workspaceId: number,
  ids: readonly number[],
  changes: TextFieldChanges,
  updatedAt?: string,
) => updateTexts(db, workspaceId, ids, { ...textColumns(changes), ...(updatedAt && { updated_at: updatedAt }) });

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
