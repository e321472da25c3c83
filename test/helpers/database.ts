import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
