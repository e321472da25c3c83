import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/** On PostgreSQL, migrate once before the test files start in parallel. */
export default async function setup(): Promise<void> {
  const config = parseDatabaseUrl(process.env.DATABASE_URL);
  if (config.kind !== 'postgres') return;
  const database = openDatabase(config);
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
}
