import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
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
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const server = await buildServer();
  project.provide('serverEntry', server.entry);
  try {
    return await migrate(project, server.remove);
  } catch (error) {
    server.remove();
    throw error;
  }
}

async function migrate(project: TestProject, removeServer: () => void): Promise<() => void> {
  const config = parseDatabaseUrl(process.env.DATABASE_URL);
  if (config.kind === 'postgres') {
    const database = openDatabase(config);
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }
    project.provide('sqliteTemplate', null);
    return removeServer;
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
