import {
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { keyPartDigests } from '../../db/key-parts.js';
import { answersOnEventLoop, codeUnitOrder, cursorPages, rowIdLookupColumn } from '../../db/query-plan.js';
import type { Database, Executor } from '../../db/schema.js';
import { nextTurn } from '../../shared/next-turn.js';
import { assembleEntities, type TextColumns, type TextVariableRow } from './entities.js';
import { TEXT_COLUMNS } from './texts.repository.js';
import {
  type KeyRange,
  keyParts,
  type StampDigest,
  type TextEntity,
  type TextKind,
  type TextStamp,
} from './texts.types.js';

/**
 * The SQL of a read: the texts a request selects, and only those, in three queries that share
 * one WHERE (the texts, their variant values, their listed variables), ordered by developer ID.
 */
export interface SqlSelection {
  kind: TextKind;
  /** Text items: row ids of the projects and bases to read. */
  containerIds?: readonly number[];
  /** Components: folder row ids to read (null: the library root); undefined: every folder. */
  folderIds?: ReadonlySet<number | null>;
  integrated?: boolean;
  /** Base statuses to keep; only when every text read is subject to the status filter. */
  statuses?: readonly string[];
  /** Base assignee to keep (null: unassigned); only with the same condition. */
  assigneeId?: number | null;
  /** The variant values to read: every one, or those of these variant row ids (none: base text only). */
  variantIds: 'all' | readonly number[];
}

type Where = ExpressionBuilder<Database, 'texts'>;

/**
 * The WHERE of a selection. With `byRowId` (the database of a query that also looks the rows up
 * by row id), the columns are written for that lookup (`rowIdLookupColumn`: `+texts.column` on
 * SQLite, so that it looks the rows up instead of walking the (workspace, kind, developer ID)
 * index over every text of the kind).
 */
function conditions(eb: Where, workspaceId: number, s: SqlSelection, byRowId?: Executor): Expression<SqlBool> {
  const col = (name: 'workspace_id' | 'kind' | 'project_id' | 'folder_id' | 'integrated' | 'status' | 'assignee_id') =>
    byRowId ? rowIdLookupColumn(byRowId, `texts.${name}`) : sql.ref(`texts.${name}`);
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
const wholePageSize = (db: Executor) => (answersOnEventLoop(db) ? 250 : PAGE_SIZE);

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
  pageSize = wholePageSize(db),
): AsyncGenerator<TextEntity[]> {
  const select = (q: SelectQueryBuilder<Database, 'texts', object>) => q.select(TEXT_COLUMNS);
  for await (const rows of orderedPages(db, workspaceId, s, select, pageSize)) yield await withValues(db, rows, s);
}

/** The developer ID of a row, for the next page's seek. */
interface Ordered {
  developer_id: string;
}

/**
 * Rows of the selected texts, page by page in developer-ID order: from one cursor in a
 * PostgreSQL transaction, else each page continuing after the last developer ID of the one
 * before. `columns` adds the select list (and any join) to the texts query.
 */
async function* orderedPages<R extends Ordered>(
  db: Executor,
  workspaceId: number,
  s: SqlSelection,
  columns: (q: SelectQueryBuilder<Database, 'texts', object>) => SelectQueryBuilder<Database, any, R>,
  pageSize: number,
  range?: KeyRange,
): AsyncGenerator<R[]> {
  if (s.containerIds?.length === 0 || s.folderIds?.size === 0 || s.statuses?.length === 0) return;
  const byDeveloperId = codeUnitOrder(db, 'texts.developer_id');
  const query = (after: string | null) =>
    columns(db.selectFrom('texts').where((eb) => conditions(eb, workspaceId, s)))
      .$if(range !== undefined, (q) => q.where(inRange(byDeveloperId, range as KeyRange)))
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
 * The selected texts page by page in developer-ID order (as `selectionPages`), each as the
 * narrow columns a filter looks at: no text, no values. A pass over a large selection's keys.
 */
export function keyPages(db: Executor, workspaceId: number, s: SqlSelection, pageSize = PAGE_SIZE) {
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
  return orderedPages<KeyRow>(db, workspaceId, s, select as never, pageSize);
}

interface StampRow extends Ordered {
  id: number | string;
  revision: number | string;
  component_id: number | null;
}

/**
 * The selected texts' stamps page by page in developer-ID order (as `selectionPages`): the
 * texts' own revisions and, for linked instances, their components' (read for the page's
 * instances only; most pages have none). No text, no values.
 */
export async function* stampPages(
  db: Executor,
  workspaceId: number,
  s: SqlSelection,
  pageSize = PAGE_SIZE,
  range?: KeyRange,
): AsyncGenerator<TextStamp[]> {
  const select = (q: SelectQueryBuilder<Database, 'texts', object>) =>
    q.select(['texts.id', 'texts.developer_id', 'texts.revision', 'texts.component_id']);
  for await (const rows of orderedPages<StampRow>(db, workspaceId, s, select, pageSize, range)) {
    const componentIds = [...new Set(rows.flatMap((row) => (row.component_id === null ? [] : [row.component_id])))];
    const components =
      componentIds.length === 0
        ? new Map<number, string>()
        : new Map(
            (
              await db
                .selectFrom('texts')
                .select(['id', 'revision'])
                .where('workspace_id', '=', workspaceId)
                .where('id', 'in', componentIds)
                .execute()
            ).map((row) => [Number(row.id), String(row.revision)]),
          );
    yield rows.map((row) => ({
      id: Number(row.id),
      developerId: row.developer_id,
      stamp:
        row.component_id === null
          ? String(row.revision)
          : `${row.revision}/${row.component_id}.${components.get(row.component_id) ?? ''}`,
    }));
  }
}

/** The developer ID (an expression of it) in a key range. */
function inRange(key: RawBuilder<unknown>, range: KeyRange, lo: unknown = range.lo, hi: unknown = range.hi) {
  const within = sql<SqlBool>`${key} >= ${lo} and ${key} <= ${hi}`;
  return range.inclusive ? within : sql<SqlBool>`${within} and ${key} <> ${lo} and ${key} <> ${hi}`;
}

/**
 * The selected texts' count and stamps in each part of the key space that `ranges` cut (see
 * `keyParts`; of a part between two ranges the count may only say whether it holds a text: 0 or
 * 1, and no stamps), aggregated by the database (one row per part, none per text), with the
 * stamps as `stampPages` makes them: the text's revision, and for a linked instance its
 * component's row id and revision. How each database aggregates is `keyPartDigests`'s business.
 */
export async function stampDigests(
  db: Executor,
  workspaceId: number,
  s: SqlSelection,
  ranges: readonly { first: string; last: string }[],
): Promise<StampDigest[]> {
  const parts = keyParts(ranges);
  if (s.containerIds?.length === 0 || s.folderIds?.size === 0 || s.statuses?.length === 0) {
    return parts.map((): StampDigest => ({ count: 0, stamps: '' }));
  }
  const stamp = sql<string>`cast(texts.id as text) || ':' || cast(texts.revision as text) || case
    when texts.component_id is null then ''
    else '/' || cast(texts.component_id as text) || '.' || coalesce((select cast(c.revision as text) from texts c
      where c.id = texts.component_id and c.workspace_id = texts.workspace_id), '') end`;
  return keyPartDigests(db, { parts, ranges, where: (eb) => conditions(eb, workspaceId, s), stamp });
}

/** The selected texts among these row ids, with the selection's values, in no particular order. */
export async function textsByRowIds(
  db: Executor,
  workspaceId: number,
  s: SqlSelection,
  ids: readonly number[],
): Promise<TextEntity[]> {
  const out: TextEntity[] = [];
  const pageSize = wholePageSize(db);
  for (let from = 0; from < ids.length; from += pageSize) {
    // SQLite answers on the event loop: other requests get a turn between pages.
    if (from > 0 && answersOnEventLoop(db)) await nextTurn();
    const part = ids.slice(from, from + pageSize);
    const rows = await db
      .selectFrom('texts')
      .select(TEXT_COLUMNS)
      .where((eb) => conditions(eb, workspaceId, s, db))
      .where('texts.id', 'in', part)
      .execute();
    if (rows.length > 0) for (const text of await withValues(db, rows, s)) out.push(text);
  }
  return out;
}

/** Every selected text of one project or base, ordered by position and row id by the database. */
export async function containerTexts(
  db: Executor,
  workspaceId: number,
  s: SqlSelection,
  containerId: number,
): Promise<TextEntity[]> {
  if (s.statuses?.length === 0) return [];
  const rows = await db
    .selectFrom('texts')
    .select(TEXT_COLUMNS)
    .where((eb) => conditions(eb, workspaceId, { ...s, containerIds: [containerId] }))
    .orderBy('texts.position')
    .orderBy('texts.id')
    .execute();
  return rows.length === 0 ? [] : withValues(db, rows, s);
}
