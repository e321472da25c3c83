import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { TestProject } from 'vitest/node';
import { parseDatabaseUrl } from '../../src/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { buildServer } from './server-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated SQLite database that each test file's database is copied from (SQLite runs only). */
    sqliteTemplate: string | null;
  }
}

/**
 * Before the test files start in parallel: compiles the server for the tests that start it as a
 * process (`server-build.ts`), and migrates once: on PostgreSQL the database the files share; on
 * SQLite a template file that `setupApp` copies for each test file instead of running every
 * migration again. Answers the teardown, which removes what it made.
 *
 * On PostgreSQL the run's database commits without waiting for the write-ahead log to reach the
 * disk (`synchronous_commit = off` for the connections opened after this, the servers the tests
 * start included): a commit is visible to every other connection at once all the same, and only
 * a crash of the database server itself could lose the last ones, which no test does. Each write
 * then costs no disk flush: thousands of them in a run, several milliseconds each on a busy disk.
 * The teardown resets the setting.
 */
export default async function setup(project: TestProject): Promise<() => void | Promise<void>> {
  const server = await buildServer();
  project.provide('serverEntry', server.entry);
  try {
    return await migrate(project, server.remove);
  } catch (error) {
    server.remove();
    throw error;
  }
}

/** Sets (or resets) `synchronous_commit` for the database's new connections; a role that may not is left as it is. */
async function synchronousCommit({ db }: DatabaseHandle, value: 'off' | 'reset'): Promise<void> {
  try {
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
    const name = sql.id(rows[0]?.name ?? '');
    if (value === 'off') await sql`alter database ${name} set synchronous_commit = off`.execute(db);
    else await sql`alter database ${name} reset synchronous_commit`.execute(db);
  } catch (error) {
    console.warn(`synchronous_commit left as it is: ${(error as Error).message}`);
  }
}

async function migrate(project: TestProject, removeServer: () => void): Promise<() => void | Promise<void>> {
  const config = parseDatabaseUrl(process.env.DATABASE_URL);
  if (config.kind === 'postgres') {
    const database = openDatabase(config);
    try {
      await migrateToLatest(database.db);
      await synchronousCommit(database, 'off');
    } finally {
      await database.close();
    }
    project.provide('sqliteTemplate', null);
    return async () => {
      const database = openDatabase(config);
      try {
        await synchronousCommit(database, 'reset');
      } finally {
        await database.close();
        removeServer();
      }
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-template-'));
  const path = join(dir, 'template.db');
  const database = openDatabase({ kind: 'sqlite', path });
  try {
    await migrateToLatest(database.db);
  } finally {
    // The last connection to close checkpoints the write-ahead log into the file.
    await database.close();
  }
  project.provide('sqliteTemplate', path);
  return () => {
    rmSync(dir, { recursive: true, force: true });
    removeServer();
  };
}
