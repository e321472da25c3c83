import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { answersOnEventLoop, codeUnitOrder, cursorPages } from '../../db/query-plan.js';
import type { Database, Executor } from '../../db/schema.js';
import { nextTurn } from '../../shared/next-turn.js';
import { assembleEntities, type TextColumns, type TextVariableRow } from './entities.js';
import { TEXT_COLUMNS } from './texts.repository.js';
import type { TextEntity, TextKind } from './texts.types.js';

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
): AsyncGenerator<R[]> {
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
  return orderedPages<KeyRow>(db, workspaceId, s, select as never, pageSize);
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
  s: SqlSelection,
  containerId: number,
  blockIds: readonly number[],
  pageSize = wholePageSize(db),
): AsyncGenerator<TextEntity[]> {
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
