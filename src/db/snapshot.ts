import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database, Executor } from './schema.js';

/**
 * A consistent read spread over many queries and event-loop turns: every query sees the database
 * as it was when the snapshot's first query ran, whatever commits meanwhile. The export engine
 * reads a large selection page by page through one, so a file never mixes two revisions.
 */
export interface ReadSnapshot {
  /** Runs queries in the snapshot; read-only. */
  readonly db: Executor;
  /** Ends the snapshot; safe to call more than once. */
  close(): Promise<void>;
}

export type OpenSnapshot = () => Promise<ReadSnapshot>;

/**
 * SQLite: a connection of its own per snapshot, read-only, in a transaction. With WAL, it reads
 * its snapshot while the server's connection keeps writing, and the server's other requests never
 * queue behind it (they would if the snapshot were a transaction on the shared connection). An
 * in-memory database has no second connection: there the snapshot is the shared connection, read
 * query by query.
 */
export function sqliteSnapshots(path: string, shared: Kysely<Database>): OpenSnapshot {
  if (path === ':memory:' || path === '') return async () => ({ db: shared, close: async () => {} });
  return async () => {
    const connection = new SQLite(path, { readonly: true, fileMustExist: true });
    connection.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
    let open = true;
    try {
      await sql`begin`.execute(db);
    } catch (error) {
      connection.close();
      throw error;
    }
    return {
      db,
      async close() {
        if (!open) return;
        open = false;
        try {
          await sql`commit`.execute(db);
        } finally {
          await db.destroy();
        }
      },
    };
  };
}

/**
 * PostgreSQL: a `REPEATABLE READ READ ONLY` transaction on a pooled connection. A snapshot holds
 * its connection while its reader reads, so at most `limit` snapshots are open at once (the rest
 * wait their turn) and slow readers can never take the pool from every other request.
 */
export function postgresSnapshots(db: Kysely<Database>, limit: number): OpenSnapshot {
  let open = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    open -= 1;
    waiting.shift()?.();
  };
  return async () => {
    while (open >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    open += 1;
    let trx: Awaited<ReturnType<ReturnType<Kysely<Database>['startTransaction']>['execute']>>;
    try {
      trx = await db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
    } catch (error) {
      release();
      throw error;
    }
    let closed = false;
    return {
      db: trx,
      async close() {
        if (closed) return;
        closed = true;
        try {
          await trx.commit().execute();
        } finally {
          release();
        }
      },
    };
  };
}
