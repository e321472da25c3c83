import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { onPostgres, tempSqlitePath } from '../helpers/database.js';
import { waitFor } from '../helpers/wait.js';

describe.skipIf(onPostgres())('the SQLite write-ahead log', () => {
  it('is copied into the database file once writes pause (by its own thread)', async () => {
    const path = tempSqlitePath();
    const database = openDatabase({ kind: 'sqlite', path });
    try {
      // The migrations' writes stay in the WAL (no commit checkpoints it).
      await migrateToLatest(database.db);
      const before = statSync(path).size;
      await waitFor(() => statSync(path).size !== before, 'the database file to grow');
      expect(statSync(path).size).toBeGreaterThan(before);
    } finally {
      await database.close();
    }
  });
});
