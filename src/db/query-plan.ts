import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql, type TransactionBuilder } from 'kysely';
import { dialectOf } from './dialect.js';
import type { Database, Executor } from './schema.js';

/*
 * How a query is written for the database it runs on, behind names that say why. Repositories
 * call these instead of asking which database they are on: the differences between SQLite and
 * PostgreSQL stay in src/db/, and each is explained once, here.
 */

/**
 * A column in the terms of a query that looks rows up by row id (`id in (...)`). On SQLite it is
 * written `+column` (a code constant, e.g. `texts.kind`), which its planner reads as "use no index
 * for this term": given the other terms of a texts query, it would otherwise walk the (workspace,
 * kind, developer ID) index over every text of the kind (tens of milliseconds at 200,000 texts,
 * far more at 1,000,000; docs/scale.md) instead of looking the rows up by id. PostgreSQL's planner
 * takes the primary key by itself, so there the column is referenced as it is.
 */
export function rowIdLookupColumn(db: Executor, column: string): RawBuilder<unknown> {
  return dialectOf(db) === 'sqlite' ? sql.raw(`+${column}`) : sql.ref(column);
}

/**
 * Whether the database answers on the event loop: SQLite (better-sqlite3 runs each query
 * synchronously), so a long read is best cut into short queries with a turn of the loop between
 * them. PostgreSQL answers while the event loop goes on.
 */
export function answersOnEventLoop(db: Executor): boolean {
  return dialectOf(db) === 'sqlite';
}

/**
 * A text column compared by code unit, the order developer IDs sort in (`codeUnitOrder(db,
 * 'texts.developer_id')`, a code constant): SQLite's default (binary) collation already is;
 * PostgreSQL's follows the database's collation, so there it is compared `collate "C"`.
 */
export function codeUnitOrder(db: Executor, column: string): RawBuilder<unknown> {
  return dialectOf(db) === 'postgres' ? sql.raw(`${column} collate "C"`) : sql.raw(column);
}

/** Cursor names, unique within the process (and so within any transaction). */
let cursors = 0;

/**
 * The rows of `query` page by page from one server-side cursor, when the database offers one for
 * it: inside a PostgreSQL transaction (a snapshot). Null elsewhere; the caller then pages by key.
 */
export function cursorPages<R>(
  db: Executor,
  query: SelectQueryBuilder<Database, any, R>,
  pageSize: number,
): AsyncGenerator<R[]> | null {
  if (dialectOf(db) !== 'postgres' || !db.isTransaction) return null;
  return (async function* () {
    cursors += 1;
    const cursor = sql.id(`texts_page_${cursors}`);
    await sql`declare ${cursor} no scroll cursor for ${query}`.execute(db);
    try {
      for (;;) {
        const { rows } = await sql<R>`fetch ${sql.lit(pageSize)} from ${cursor}`.execute(db);
        if (rows.length > 0) yield rows;
        if (rows.length < pageSize) return;
      }
    } finally {
      await sql`close ${cursor}`.execute(db);
    }
  })();
}

/**
 * The placeholders of a raw statement's bound parameters, numbered as they are added: `$n::type`
 * on PostgreSQL, which cannot infer a parameter's type inside `VALUES`, and `?` on SQLite.
 */
export function typedPlaceholders(db: Executor): (index: number, type: string) => string {
  return dialectOf(db) === 'postgres' ? (index, type) => `$${index}::${type}` : () => '?';
}

/**
 * A pick of rows that concurrent workers share out: on PostgreSQL `FOR UPDATE SKIP LOCKED`, so
 * each worker picks rows no other is taking, without waiting; on SQLite, whose one writer makes
 * the caller's conditional update atomic, the query as it is.
 */
export function skippingLockedRows<Q extends SelectQueryBuilder<any, any, any>>(db: Executor, query: Q): Q {
  return dialectOf(db) === 'postgres' ? (query.forUpdate().skipLocked() as Q) : query;
}

/**
 * A transaction that reads one consistent state of the database from its first query to its
 * last: `repeatable read` on PostgreSQL; on SQLite every transaction already does.
 */
export function consistentReadTransaction(db: Kysely<Database>): TransactionBuilder<Database> {
  const builder = db.transaction();
  return dialectOf(db) === 'postgres' ? builder.setIsolationLevel('repeatable read') : builder;
}
