import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

/**
 * The exports' fragments kept in runs (docs/exports.md#fragments): one row per run of texts
 * consecutive in developer-ID order, holding their fragments' bytes end to end and, per text,
 * its row id, stamp, developer ID and what placing it needs. An export then reads a few rows
 * instead of one per text. The per-text table goes: it is derived data, and the first export of
 * each rendering fills the new one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('export_fragments').execute();
  await withIdColumn(db, db.schema.createTable('export_fragment_runs'))
    .addColumn('set_id', 'integer', (col) => col.notNull().references('export_fragment_sets.id').onDelete('cascade'))
    .addColumn('first_key', 'text', (col) => col.notNull())
    .addColumn('last_key', 'text', (col) => col.notNull())
    .addColumn('entries', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('export_fragment_runs_set_idx').on('export_fragment_runs').column('set_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('export_fragment_runs').execute();
  await db.schema
    .createTable('export_fragments')
    .addColumn('set_id', 'integer', (col) => col.notNull().references('export_fragment_sets.id').onDelete('cascade'))
    .addColumn('text_id', 'integer', (col) => col.notNull())
    .addColumn('stamp', 'text', (col) => col.notNull())
    .addColumn('body', 'text')
    .addColumn('meta', 'text')
    .addPrimaryKeyConstraint('export_fragments_pk', ['set_id', 'text_id'])
    .execute();
  await db.schema.createIndex('export_fragments_text_idx').on('export_fragments').column('text_id').execute();
}
