import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { type DatabaseConfig, parseDatabaseUrl } from '../../src/config.js';

/** A SQLite file in a fresh temporary folder, removed after the test file. */
export function tempSqlitePath(prefix = 'copydesk-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'test.db');
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

export const onPostgres = () => parseDatabaseUrl(process.env.DATABASE_URL).kind === 'postgres';
