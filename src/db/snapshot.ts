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

/** Idle read connections kept for the next snapshot: opening one and preparing its statements costs. */
const IDLE_READERS = 4;

/**
 * SQLite: a read-only connection of its own per snapshot, in a transaction. With WAL, it reads
 * its snapshot while the server's connection keeps writing, and the server's other requests never
 * queue behind it (they would if the snapshot were a transaction on the shared connection). A few
 * idle connections are kept, with their prepared statements. An in-memory database has no second
 * connection: there the snapshot is the shared connection, read query by query.
 */
export function sqliteSnapshots(
  path: string,
  shared: Kysely<Database>,
  statements: (connection: SQLite.Database) => ConstructorParameters<typeof SqliteDialect>[0]['database'],
): OpenSnapshot & { closeAll(): Promise<void> } {
  const idle: Kysely<Database>[] = [];
  let closed = false;
  const connect = () => {
    const connection = new SQLite(path, { readonly: true, fileMustExist: true });
    connection.pragma('busy_timeout = 5000');
    return new Kysely<Database>({ dialect: new SqliteDialect({ database: statements(connection) as never }) });
  };
  const open = async (): Promise<ReadSnapshot> => {
    if (path === ':memory:' || path === '') return { db: shared, close: async () => {} };
    const db = idle.pop() ?? connect();
    try {
      await sql`begin`.execute(db);
    } catch (error) {
      await db.destroy();
      throw error;
    }
    let done = false;
    return {
      db,
      async close() {
        if (done) return;
        done = true;
        try {
          await sql`commit`.execute(db);
        } catch (error) {
          await db.destroy();
          throw error;
        }
        if (!closed && idle.length < IDLE_READERS) idle.push(db);
        else await db.destroy();
      },
    };
  };
  return Object.assign(open, {
    async closeAll() {
      closed = true;
      await Promise.all(idle.splice(0).map((db) => db.destroy()));
    },
  });
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
