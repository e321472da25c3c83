import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DatabaseConfig, parseDatabaseUrl } from '../../src/config.js';

/**
 * The database the suite runs on: PostgreSQL when DATABASE_URL names one (CI's second run), else a
 * fresh SQLite file per test file. Tests isolate themselves by creating their own workspace.
 */
export function testDatabaseConfig(): DatabaseConfig {
  const fromEnv = parseDatabaseUrl(process.env.DATABASE_URL);
  if (fromEnv.kind === 'postgres') return fromEnv;
  return { kind: 'sqlite', path: join(mkdtempSync(join(tmpdir(), 'copydesk-test-')), 'test.db') };
}

export const onPostgres = () => parseDatabaseUrl(process.env.DATABASE_URL).kind === 'postgres';
