import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { DialectName } from './dialect.js';
import type { Database } from './schema.js';

export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** A cheap round trip, for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

// PostgreSQL returns int8 (count(*), sums) as strings; every such value here fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      async ping() {
        await pool.query('select 1');
      },
      async close() {
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    db,
    dialect: 'sqlite',
    async ping() {
      sqlite.prepare('select 1').get();
    },
    async close() {
      await db.destroy();
      // Kysely closes the connection only if it ever opened it.
      if (sqlite.open) sqlite.close();
    },
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement anew; preparing costs more than running a small indexed query,
 * so prepared statements are kept by SQL text (bounded, least recently used out first).
 */
function withStatementCache(sqlite: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement;
    },
    close() {
      cache.clear();
      if (sqlite.open) sqlite.close();
    },
  };
}
