import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

/**
 * The exports' fragment store (docs/exports.md#fragments): per workspace and rendering (format,
 * variant, options and everything global a rendering depends on, as one key), the rendered
 * fragment of each text, stamped with what the text was when it was rendered. Derived data: it
 * can be dropped at any time, and a backup leaves it out.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('export_fragment_sets'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('export_fragment_sets_key', ['workspace_id', 'key'])
    .execute();
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

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('export_fragments').execute();
  await db.schema.dropTable('export_fragment_sets').execute();
}
