import {
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { dialectOf } from '../../db/dialect.js';
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

/**
 * The WHERE of a selection. With `unindexed` (SQLite, when the rows are looked up by row id), the
 * columns are written `+texts.column`, which SQLite reads as "use no index for this term": given
 * `texts.id in (...)` as well, it would otherwise walk the (workspace, kind, developer ID) index
 * over every text of the kind, tens of milliseconds at 200,000 texts, instead of looking the rows up.
 */
function conditions(eb: Where, workspaceId: number, s: SqlSelection, unindexed = false): Expression<SqlBool> {
  const col = (name: 'workspace_id' | 'kind' | 'project_id' | 'folder_id' | 'integrated' | 'status' | 'assignee_id') =>
    unindexed ? sql.raw(`+texts.${name}`) : sql.ref(`texts.${name}`);
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
  dialectOf(db) === 'postgres' ? PAGE_SIZE : s?.contentOnly ? CONTENT_PAGE_SIZE_SQLITE : 250;

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
  range?: KeyRange,
): AsyncGenerator<R[]> {
  if (s.containerIds?.length === 0 || s.folderIds?.size === 0 || s.statuses?.length === 0) return;
  const postgres = dialectOf(db) === 'postgres';
  const byDeveloperId = postgres ? sql`texts.developer_id collate "C"` : sql`texts.developer_id`;
  const query = (after: string | null) =>
    columns(db.selectFrom('texts').where((eb) => conditions(eb, workspaceId, s)))
      .$if(range !== undefined, (q) => q.where(inRange(byDeveloperId, range as KeyRange)))
      .$if(after !== null, (q) => q.where(byDeveloperId, '>', after))
      .orderBy(byDeveloperId);
  if (postgres && db.isTransaction) {
    cursors += 1;
    const cursor = sql.id(`texts_page_${cursors}`);
    await sql`declare ${cursor} no scroll cursor for ${query(null)}`.execute(db);
    try {
      for (;;) {
        const { rows } = await sql<R>`fetch ${sql.lit(pageSize)} from ${cursor}`.execute(db);
        if (rows.length > 0) yield rows;
        if (rows.length < pageSize) return;
      }
    } finally {
      await sql`close ${cursor}`.execute(db);
    }
  }
  let after: string | null = null;
  for (;;) {
    const rows = (await query(after).limit(pageSize).execute()) as R[];
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    after = (rows[rows.length - 1] as R).developer_id;
  }
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

/** Parts per digest query on SQLite: about 8,000 texts, a few milliseconds on the event loop at a time. */
const PARTS_PER_QUERY = 32;

/**
 * The selected texts' count and stamps in each part of the key space that `ranges` cut (see
 * `keyParts`; on SQLite, of a part between two ranges only whether it holds a text: a count of 0
 * or 1 and no stamps), aggregated by the database (one row per part, none per text), with the stamps as
 * `stampPages` makes them: the text's revision, and for a linked instance its component's row id
 * and revision. On SQLite each part is a seek on the (workspace, kind, developer ID) index; on
 * PostgreSQL, whose index follows the database's collation rather than code-unit order, one pass
 * over the selection puts each text in its part (`width_bucket` in the "C" collation).
 */
export async function stampDigests(
  db: Executor,
  workspaceId: number,
  s: SqlSelection,
  ranges: readonly { first: string; last: string }[],
): Promise<StampDigest[]> {
  const parts = keyParts(ranges);
  const out = parts.map((): StampDigest => ({ count: 0, stamps: '' }));
  if (s.containerIds?.length === 0 || s.folderIds?.size === 0 || s.statuses?.length === 0) return out;
  const postgres = dialectOf(db) === 'postgres';
  const key = postgres ? sql`texts.developer_id collate "C"` : sql`texts.developer_id`;
  const stamp = sql<string>`cast(texts.id as text) || ':' || cast(texts.revision as text) || case
    when texts.component_id is null then ''
    else '/' || cast(texts.component_id as text) || '.' || coalesce((select cast(c.revision as text) from texts c
      where c.id = texts.component_id and c.workspace_id = texts.workspace_id), '') end`;
  const set = (part: number, stamps: string | null) => {
    out[part] = { count: stamps ? stamps.split(',').length : 0, stamps: stamps ?? '' };
  };
  if (postgres) {
    const firsts = ranges.map((range) => range.first);
    const lasts = ranges.map((range) => range.last);
    // Bucket b: the keys from range b's first (1-based; 0 before the first range) to the next one's.
    const bucket = ranges.length === 0 ? sql<number>`0` : sql<number>`width_bucket(${key}, ${firsts}::text[])`;
    const texts = db
      .selectFrom('texts')
      .where((eb) => conditions(eb, workspaceId, s))
      .select([stamp.as('stamp'), sql<string>`texts.developer_id`.as('key'), bucket.as('b')]);
    const part = sql<number>`case when t.b = 0 then 0
      when t.key collate "C" <= (${lasts}::text[])[t.b] then 2 * t.b - 1 else 2 * t.b end`;
    const rows = await db
      .selectFrom(texts.as('t'))
      .select([part.as('part'), sql<string>`string_agg(t.stamp, ',' order by t.key collate "C")`.as('stamps')])
      .groupBy(sql`1`)
      .execute();
    for (const row of rows) set(Number(row.part), row.stamps);
    return out;
  }
  for (let from = 0; from < parts.length; from += PARTS_PER_QUERY) {
    // SQLite answers on the event loop: other requests get a turn between queries.
    if (from > 0) await nextTurn();
    const batch = parts.slice(from, from + PARTS_PER_QUERY);
    const source = sql<{ i: number; lo: string; hi: string; inc: number }>`(select cast(key as integer) as i,
      value ->> 0 as lo, value ->> 1 as hi, value ->> 2 as inc, value ->> 3 as gap
      from json_each(${JSON.stringify(batch.map((r, i) => [r.lo, r.hi, r.inclusive ? 1 : 0, (from + i) % 2 === 0 ? 1 : 0]))}))`;
    const within = sql<SqlBool>`${key} >= r.lo and ${key} <= r.hi and (r.inc = 1 or (${key} <> r.lo and ${key} <> r.hi))`;
    // One subquery per part, run as a seek on the (workspace, kind, developer ID) index, which
    // visits the texts in developer-ID order. The concatenation has no ORDER BY of its own: SQLite
    // would sort again what the index already gives in order (a temporary B-tree per part, half
    // the query's time). Should it ever concatenate in another order, the digest differs from the
    // stored run's and the range is read text by text: slower, never wrong.
    // A part between two ranges (even index) needs only whether it holds a text: its texts are
    // read page by page anyway. Concatenating its stamps would be one synchronous query over
    // every text of a first export (no ranges yet), a second or more at 200,000 texts.
    const rows = await db
      .selectFrom(source.as('r'))
      .select((eb) => {
        const inPart = eb
          .selectFrom('texts')
          .where((inner) => conditions(inner as unknown as Where, workspaceId, s))
          .where(within);
        const any = inPart.select(sql<string>`''`.as('stamps')).limit(1);
        const all = inPart.select(sql<string>`group_concat(${stamp}, ',')`.as('stamps'));
        return [
          sql<number>`r.i`.as('i'),
          sql<string | null>`case when r.gap = 1 then (${any}) else (${all}) end`.as('stamps'),
        ];
      })
      .execute();
    for (const row of rows) {
      const part = from + Number(row.i);
      if (part % 2 === 0) out[part] = { count: row.stamps === null ? 0 : 1, stamps: '' };
      else set(part, row.stamps as string | null);
    }
  }
  return out;
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
    if (from > 0 && dialectOf(db) !== 'postgres') await nextTurn();
    const part = ids.slice(from, from + pageSize);
    const rows = await db
      .selectFrom('texts')
      .select(TEXT_COLUMNS)
      .where((eb) => conditions(eb, workspaceId, s, dialectOf(db) === 'sqlite'))
      .where('texts.id', 'in', part)
      .execute();
    if (rows.length > 0) for (const text of await withValues(db, rows, s)) out.push(text);
  }
  return out;
}

/** Cursor names, unique within the process (and so within any transaction). */
let cursors = 0;

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
