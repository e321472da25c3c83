import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { type Driver, Kysely, PostgresDialect, SqliteDialect, type SqliteDialectConfig } from 'kysely';
import type PgModule from 'pg';
import type { DatabaseConfig } from '../config.js';
import { type ChangeEvents, type ChangeFeed, type ChangeFeedOptions, startChangeFeed } from './change-feed.js';
import { copyingPool } from './copy-in.js';
import type { DialectName } from './dialect.js';
import { registerSyncReader } from './prepared.js';
import type { Database } from './schema.js';
import { type OpenSnapshot, postgresSnapshots, sqliteSnapshots } from './snapshot.js';
import { WriteThread, WriteThreadDriver } from './write-thread.js';

export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** A cheap round trip, for readiness checks. */
  ping(): Promise<void>;
  /**
   * A token that changes whenever any connection commits a write, read after this call was made
   * (see `readAfterCall`); null where no cheap one exists (PostgreSQL). Lets per-request lookups
   * be memoised without ever serving a stale one. The promise gives null once the database is closed.
   */
  changeToken(): Promise<string | null> | null;
  /** A consistent read over many queries, for reads too large to make in one (src/db/snapshot.ts). */
  snapshot: OpenSnapshot;
  /**
   * PostgreSQL: listens for the changes other processes commit (see `startChangeFeed`) until
   * `close`. SQLite: null, as `changeToken` already sees them.
   */
  watchChanges(events: ChangeEvents, options?: ChangeFeedOptions): ChangeFeed | null;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** `pg` is loaded only when PostgreSQL is used: a SQLite server starts faster without it. */
function loadPg(): typeof PgModule {
  const pg = require('pg') as typeof PgModule;
  // PostgreSQL returns int8 (count(*), sums) as strings; every such value here fits a JS number.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
  return pg;
}

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.kind === 'postgres') {
    const pg = loadPg();
    // A database that does not answer fails a start (or a request) in seconds, not never.
    const pool = new pg.Pool({ connectionString: config.url, max: POOL_SIZE, connectionTimeoutMillis: 10_000 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: copyingPool(pool) }) });
    const feeds = new Set<ChangeFeed>();
    return {
      db,
      dialect: 'postgres',
      snapshot: postgresSnapshots(db, Math.max(1, Math.floor(POOL_SIZE / 2))),
      async ping() {
        await pool.query('select 1');
      },
      changeToken: () => null,
      watchChanges(events, options) {
        const feed = startChangeFeed(pg, config.url, events, options);
        feeds.add(feed);
        return feed;
      },
      async close() {
        await Promise.all([...feeds].map((feed) => feed.close()));
        await db.destroy();
        // Kysely ends the pool only if it ever used it.
        if (!pool.ended) await pool.end();
      },
    };
  }
  if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
  const sqlite = new SQLite(config.path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const statements = withStatementCache(sqlite);
  const checkpoints = checkpointWhenIdle(sqlite, statements, config.path);
  // Transactions begun inside `onWriteThread` (an import) run on a connection of their own in a
  // worker thread, set up as this one (src/db/write-thread.ts); an in-memory database has no other.
  const thread = config.path === ':memory:' ? null : new WriteThread(config.path, WRITE_THREAD_PRAGMAS);
  const db = new Kysely<Database>({
    dialect: new WriteThreadDialect({ database: statements }, thread, () => {
      statements.writes += 1;
    }),
  });
  const snapshots = sqliteSnapshots(config.path, db, withStatementCache);
  // `data_version` moves when another connection commits; our own writes are counted as prepared.
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const changeToken = readAfterCall(() => (sqlite.open ? `${dataVersion.get() as number}:${statements.writes}` : null));
  registerSyncReader(db, {
    available: () => sqlite.open && !sqlite.inTransaction,
    // biome-ignore lint/plugin/no-spread-call: better-sqlite3 takes bound values as arguments; their number is bounded by the SQL's placeholders
    all: (sql, parameters) => statements.prepare(sql).all(...parameters),
  });
  return {
    db,
    dialect: 'sqlite',
    snapshot: snapshots,
    async ping() {
      sqlite.prepare('select 1').get();
    },
    // A commit another process acknowledged before a request began is always seen, so a key
    // lookup or revision is never reused past it.
    changeToken: () => (sqlite.open ? changeToken() : null),
    watchChanges: () => null,
    async close() {
      await checkpoints.stop();
      await snapshots.closeAll();
      await db.destroy();
      // Kysely closes the connection only if it ever opened it.
      if (sqlite.open) sqlite.close();
    },
  };
}

const POOL_SIZE = 10;

/** The write thread's connection, as the server's: `wal_autocheckpoint` as `checkpointWhenIdle` sets it. */
const WRITE_THREAD_PRAGMAS = [
  'foreign_keys = ON',
  'busy_timeout = 5000',
  'synchronous = NORMAL',
  'wal_autocheckpoint = 0',
];

/** Kysely's SQLite dialect with its driver's transactions able to run on the write thread. */
class WriteThreadDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly thread: WriteThread | null,
    private readonly committed: () => void,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new WriteThreadDriver(super.createDriver(), this.thread, this.committed);
  }
}

/**
 * A value read once for every caller that asked before the read ran. Each call gets a read that
 * begins after the call, never one made earlier, so a token asked for once a request has arrived
 * reflects every commit acknowledged before it arrived. The read runs in the event loop's check
 * phase: the requests Node parsed in the same pass over the ready sockets (many, under load)
 * share one `PRAGMA data_version` instead of one each (which costs file-lock system calls on the
 * shared-memory index, 10-20 µs on a busy machine, a tenth of a 304).
 */
function readAfterCall<T>(read: () => T): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= new Promise<T>((resolve, reject) => {
      setImmediate(() => {
        // Whoever asks from here on waits for a later read.
        pending = null;
        try {
          resolve(read());
        } catch (error) {
          reject(error);
        }
      });
    });
    return pending;
  };
}

/**
 * A checkpoint at least this often while writes go on without a pause, so that the WAL stays a
 * few seconds of writes long under sustained writes too.
 */
const BUSY_CHECKPOINT_MS = 5_000;
const IDLE_CHECK_MS = 250;

/**
 * By default the commit that takes the WAL past 1,000 pages (4 MB) copies it into the database
 * file before it returns: with batch writes of several megabytes (a POST of 1,000 text items and
 * its change log) nearly every write request paid for a checkpoint, and every page it had in
 * common with the previous write was copied again. Then a commit did it itself past 40 MB, which
 * after a large write (an import of 200,000 keys: a WAL of hundreds of megabytes) held the event
 * loop for a second in the commit. So no commit checkpoints (`wal_autocheckpoint = 0`): the WAL
 * is checkpointed when no statement has written for a while, and every `BUSY_CHECKPOINT_MS`
 * under sustained writes.
 *
 * The checkpoint runs on a connection of its own in a worker thread: it copies pages and waits
 * for the disk to sync (60 ms was measured on a busy machine, a second after a large import),
 * which on the event loop would hold up every request meanwhile, as it did the reads issued
 * during an export that follows a write. A PASSIVE checkpoint never waits for the writer, and
 * the writer never waits for it. A file database only; an in-memory one has no WAL.
 */
function checkpointWhenIdle(sqlite: SQLite.Database, statements: { writes: number }, path: string) {
  sqlite.pragma('wal_autocheckpoint = 0');
  let seen = statements.writes;
  let checkpointed = seen;
  let checkpointedAt = Date.now();
  let worker: Worker | null = null;
  const timer = setInterval(() => {
    const writes = statements.writes;
    const idle = writes === seen;
    seen = writes;
    if (writes === checkpointed || !sqlite.open || path === ':memory:') return;
    if (!idle && Date.now() - checkpointedAt < BUSY_CHECKPOINT_MS) return;
    if (!worker) {
      const started = checkpointWorker(path);
      // A thread that died (it never should) is started again at the next idle moment.
      started.once('exit', () => {
        if (worker === started) worker = null;
      });
      worker = started;
    }
    // PASSIVE: never waits for readers or writers (of this or another process).
    worker.postMessage('checkpoint');
    checkpointed = writes;
    checkpointedAt = Date.now();
  }, IDLE_CHECK_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await worker?.terminate();
    },
  };
}

/** The thread that checkpoints: its own connection to the file, one PASSIVE checkpoint a message. */
function checkpointWorker(path: string): Worker {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const db = new (require(workerData.driver))(workerData.path, { fileMustExist: true });
     db.pragma('busy_timeout = 0');
     parentPort.on('message', () => {
       try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
     });`,
    { eval: true, workerData: { path, driver: require.resolve('better-sqlite3') } },
  );
  worker.unref();
  // A checkpoint that cannot run now is done by a later one, or by a commit past the limit.
  worker.on('error', () => {});
  return worker;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement anew; preparing costs more than running a small indexed query,
 * so prepared statements are kept by SQL text (bounded, least recently used out first).
 */
function withStatementCache(sqlite: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    /** Statements that write, prepared for running: each is about to change the database. */
    writes: 0,
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      if (!statement.reader) this.writes += 1;
      return statement;
    },
    close() {
      cache.clear();
      if (sqlite.open) sqlite.close();
    },
  };
}
