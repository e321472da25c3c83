import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseConfig, parseDatabaseUrl } from '../../src/config.js';

/**
 * Temporary folders made for the current test file, removed after it by `test/helpers/per-file.ts`
 * (registered there rather than here: test files share this module within a worker, and a folder
 * asked for inside a test could not register a hook of its own).
 */
const folders: string[] = [];

/** A SQLite file in a fresh temporary folder, removed after the test file. */
export function tempSqlitePath(prefix = 'copydesk-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return join(dir, 'test.db');
}

/** Removes the folders `tempSqlitePath` made so far (after each test file). */
export function removeTempFolders(): void {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A fresh SQLite file with every migration applied, removed after the test file: a copy of the
 * template the global setup migrated once (`test/helpers/global-setup.ts`), which costs a file
 * copy instead of running the migrations again. Without a template (a configuration without that
 * setup) the file is left empty, for `setupApp`'s `migrateToLatest` to fill.
 */
export function migratedSqlitePath(prefix = 'copydesk-test-'): string {
  const path = tempSqlitePath(prefix);
  const template = inject('sqliteTemplate');
  if (template) {
    copyFileSync(template, path);
    if (existsSync(`${template}-wal`)) copyFileSync(`${template}-wal`, `${path}-wal`);
  }
  return path;
}

/**
 * The database the suite runs on: PostgreSQL when DATABASE_URL names one (CI's second run), else a
 * fresh SQLite file per test file. Tests isolate themselves by creating their own workspace.
 */
export function testDatabaseConfig(): DatabaseConfig {
  const fromEnv = parseDatabaseUrl(process.env.DATABASE_URL);
  if (fromEnv.kind === 'postgres') return fromEnv;
  return { kind: 'sqlite', path: tempSqlitePath() };
}

/** `testDatabaseConfig`, with the SQLite file already migrated (`migratedSqlitePath`). */
export function migratedTestDatabaseConfig(): DatabaseConfig {
  const fromEnv = parseDatabaseUrl(process.env.DATABASE_URL);
  if (fromEnv.kind === 'postgres') return fromEnv;
  return { kind: 'sqlite', path: migratedSqlitePath() };
}

export const onPostgres = () => parseDatabaseUrl(process.env.DATABASE_URL).kind === 'postgres';

/**
 * On PostgreSQL, a database of its own, made on DATABASE_URL's server; `drop` removes it. For a
 * test that needs what the suite's shared database cannot give: an empty database (a server's
 * first start), or one no other test file's server works on (the search indexers of all the
 * files running at once share the shared database's queue).
 */
export async function scratchPostgres(prefix = 'copydesk_e2e'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(String(process.env.DATABASE_URL));
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // Waits for the connections still closing (a pool's `end()` returns before its sockets have
    // closed): forcing the drop meanwhile would end them with an error their clients no longer
    // listen for, an unhandled error in the test's process. Forced only after 10 s.
    drop: async () => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      try {
        for (const until = Date.now() + 10_000; ; ) {
          try {
            await client.query(`drop database if exists ${name}`);
            return;
          } catch (error) {
            // 55006: the database is being accessed by other users.
            if ((error as { code?: string }).code !== '55006' || Date.now() > until) break;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
