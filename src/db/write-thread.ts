/**
 * SQLite transactions run on a connection of their own in a worker thread, for a write too large
 * to run on the event loop (an import of 200,000 keys: see docs/import.md, "Large files").
 *
 * better-sqlite3 is synchronous: every statement of a transaction on the server's connection holds
 * the event loop while it runs, and so does its `COMMIT`, which for a transaction of hundreds of
 * megabytes of write-ahead log writes the pages still in the cache and reads the log back to
 * checksum it (80 to 180 ms of CPU and up to half a second of wall time, whatever the page
 * cache's size). A transaction begun inside `onWriteThread` sends its statements, its `COMMIT`
 * and its `ROLLBACK` to the write thread instead, and the event loop only waits for the answers.
 *
 * The server's connection is held meanwhile (Kysely's SQLite driver has one connection behind a
 * mutex), exactly as during a transaction on it: every other query through Kysely queues,
 * asynchronously, until the transaction ends, so this process never tries to write while the
 * thread holds the write lock. Reads that skip Kysely (`registerSyncReader`) read the last
 * committed state, as any reader beside a writer does in WAL mode.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from 'kysely';

const require = createRequire(import.meta.url);
/** Whether the transaction `onWriteThread` stands for is yet to begin. */
const ownThread = new AsyncLocalStorage<{ pending: boolean }>();

/**
 * Runs `work` with the first transaction it begins (its write, through the write path) on the
 * write thread, where there is one (a SQLite file); elsewhere (PostgreSQL, an in-memory database)
 * as usual. Only that one: work that `work` sets going and that outlives it (a timer set when the
 * write committed, such as the search indexer's) keeps this async context, and runs as usual.
 */
export function onWriteThread<T>(work: () => Promise<T>): Promise<T> {
  return ownThread.run({ pending: true }, work);
}

/** What the thread answers for one statement. */
type Answer =
  | { id: number; rows: unknown[] | null; changes: number; lastInsertRowid: number | bigint }
  | { id: number; error: { message: string; code: string | undefined } };

/**
 * The thread: its own connection to the file, set up as the server's (foreign keys, no
 * checkpoint in a commit), one statement a message. Statements are prepared once by SQL text.
 */
const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const db = new (require(workerData.driver))(workerData.path, { fileMustExist: true });
for (const pragma of workerData.pragmas) db.pragma(pragma);
const cache = new Map();
const prepare = (sql) => {
  let statement = cache.get(sql);
  if (statement) cache.delete(sql);
  else {
    statement = db.prepare(sql);
    if (cache.size >= 500) cache.delete(cache.keys().next().value);
  }
  cache.set(sql, statement);
  return statement;
};
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    // A rollback after a failed begin or commit finds nothing to roll back: not an error.
    if (sql === 'rollback' && !db.inTransaction) {
      parentPort.postMessage({ id, rows: null, changes: 0, lastInsertRowid: 0 });
      return;
    }
    const statement = prepare(sql);
    if (statement.reader) {
      parentPort.postMessage({ id, rows: statement.all(parameters), changes: 0, lastInsertRowid: 0 });
    } else {
      const { changes, lastInsertRowid } = statement.run(parameters);
      parentPort.postMessage({ id, rows: null, changes, lastInsertRowid });
    }
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});`;

/**
 * The write thread of one database file, started on first use and ended by `close` (the next
 * `query` starts another); `query` runs one statement there.
 */
export class WriteThread {
  #thread: { worker: Worker; pending: Map<number, Waiting> } | null = null;
  #next = 0;

  constructor(
    private readonly path: string,
    private readonly pragmas: readonly string[],
  ) {}

  async query<R>(sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    const { worker, pending } = this.#started();
    const id = ++this.#next;
    const answer = await new Promise<Answer>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      if (pending.size === 1) worker.ref();
      worker.postMessage({ id, sql, parameters });
    });
    if ('error' in answer) {
      const { message, code } = answer.error;
      // The driver's own error, so that callers tell a unique violation (`code`) as from the connection.
      throw code === undefined ? new Error(message) : new SQLite.SqliteError(message, code);
    }
    if (answer.rows !== null) return { rows: answer.rows.map(asBuffers) as R[] };
    return { rows: [], numAffectedRows: BigInt(answer.changes), insertId: BigInt(answer.lastInsertRowid) };
  }

  async close(): Promise<void> {
    const thread = this.#thread;
    this.#thread = null;
    await thread?.worker.terminate();
  }

  #started(): { worker: Worker; pending: Map<number, Waiting> } {
    if (this.#thread) return this.#thread;
    const worker = new Worker(THREAD_CODE, {
      eval: true,
      workerData: { path: this.path, pragmas: this.pragmas, driver: require.resolve('better-sqlite3') },
    });
    const pending = new Map<number, Waiting>();
    // Only a statement under way keeps the process alive.
    worker.unref();
    worker.on('message', (answer: Answer) => {
      const waiting = pending.get(answer.id);
      pending.delete(answer.id);
      if (pending.size === 0) worker.unref();
      waiting?.resolve(answer);
    });
    // A thread that ended or died fails what it was running (nothing, once closed), which SQLite
    // rolls back as its connection closes; the next transaction starts another.
    const died = (error: Error) => {
      if (this.#thread?.worker === worker) this.#thread = null;
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`the SQLite write thread exited (${code})`)));
    this.#thread = { worker, pending };
    return this.#thread;
  }
}

interface Waiting {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
}

/** Blobs come back from the thread as Uint8Array; the driver gives Buffers. */
function asBuffers(row: unknown): unknown {
  if (typeof row !== 'object' || row === null) return row;
  const record = row as Record<string, unknown>;
  for (const key in record) {
    const value = record[key];
    if (value instanceof Uint8Array && !Buffer.isBuffer(value)) {
      record[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }
  return row;
}

/** The server's connection, or the write thread while a transaction of `onWriteThread` is open on it. */
class SwitchingConnection implements DatabaseConnection {
  thread: WriteThread | null = null;

  constructor(readonly local: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.thread ? this.thread.query<R>(query.sql, query.parameters) : this.local.executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (!this.thread) {
      yield* this.local.streamQuery<R>(query, chunkSize);
      return;
    }
    const { rows } = await this.thread.query<R>(query.sql, query.parameters);
    for (const row of rows) yield { rows: [row] };
  }
}

/**
 * Kysely's SQLite driver, with the transactions begun inside `onWriteThread` run on `thread`.
 * `committed` is told after each commit there (the server counts its writes).
 */
export class WriteThreadDriver implements Driver {
  #connection: SwitchingConnection | null = null;

  constructor(
    private readonly inner: Driver,
    private readonly thread: WriteThread | null,
    private readonly committed: () => void,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const local = await this.inner.acquireConnection();
    if (this.#connection?.local !== local) this.#connection = new SwitchingConnection(local);
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const switching = connection as SwitchingConnection;
    const own = ownThread.getStore();
    if (this.thread && own?.pending) {
      own.pending = false;
      switching.thread = this.thread;
      try {
        // The write lock at once: the thread waits for it (busy_timeout), the event loop does not.
        await this.thread.query('begin immediate', []);
      } catch (error) {
        // No transaction to end: the thread ends here (the next one starts another).
        switching.thread = null;
        void this.thread.close();
        throw error;
      }
      return;
    }
    await this.inner.beginTransaction(connection, settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.inner.commitTransaction(connection);
    if ((connection as SwitchingConnection).thread) this.committed();
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]) {
    return this.inner.savepoint!(connection, name, compile);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2],
  ) {
    return this.inner.rollbackToSavepoint!(connection, name, compile);
  }

  releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2],
  ) {
    return this.inner.releaseSavepoint!(connection, name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const switching = connection as SwitchingConnection;
    // The thread ends with its transaction (a large write is rare; between two, it would hold its
    // heap and page cache for nothing), and a transaction it still had open is rolled back as its
    // connection closes.
    if (switching.thread) void switching.thread.close();
    switching.thread = null;
    await this.inner.releaseConnection(switching.local);
  }

  async destroy(): Promise<void> {
    await this.thread?.close();
    await this.inner.destroy();
  }
}
