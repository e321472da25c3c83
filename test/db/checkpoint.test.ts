import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { onPostgres, tempSqlitePath } from '../helpers/database.js';

describe.skipIf(onPostgres())('the SQLite write-ahead log', () => {
  it('is copied into the database file once writes pause (by its own thread)', async () => {
    const path = tempSqlitePath();
    const database = openDatabase({ kind: 'sqlite', path });
    try {
      // The migrations' writes stay in the WAL (no commit checkpoints it).
      await migrateToLatest(database.db);
      const before = statSync(path).size;
      const deadline = Date.now() + 10_000;
      while (statSync(path).size === before && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(statSync(path).size).toBeGreaterThan(before);
    } finally {
      await database.close();
    }
  });
});
