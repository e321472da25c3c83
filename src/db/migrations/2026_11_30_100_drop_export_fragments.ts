import { type Kysely, sql } from 'kysely';
import { dialectOf, withIdColumn } from '../dialect.js';

/**
 * Exports no longer keep rendered fragments in the database (docs/exports.md): every export
 * renders its texts, and the bytes of a complete export are kept in memory only. The two tables
 * held derived data alone, so they go with everything in them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('export_fragment_runs').ifExists().execute();
  await db.schema.dropTable('export_fragment_sets').ifExists().execute();
}

/** The tables as the last version of the store left them, empty. */
export async function down(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('export_fragment_sets'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('export_fragment_sets_key', ['workspace_id', 'key'])
    .execute();
  await withIdColumn(db, db.schema.createTable('export_fragment_runs'))
    .addColumn('set_id', 'integer', (col) => col.notNull().references('export_fragment_sets.id').onDelete('cascade'))
    .addColumn('first_key', 'text', (col) => col.notNull())
    .addColumn('last_key', 'text', (col) => col.notNull())
    .addColumn('entries', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('deflated', dialectOf(db) === 'postgres' ? sql`bytea` : sql`blob`)
    .addColumn('crc', 'integer')
    .addColumn('size', 'integer')
    .addColumn('stamps', 'text')
    .execute();
  await db.schema.createIndex('export_fragment_runs_set_idx').on('export_fragment_runs').column('set_id').execute();
}
