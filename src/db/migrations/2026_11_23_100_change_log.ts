import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

/** The change log under every write (history, webhooks and cache invalidation read it). */
export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('changes'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('key_id', 'text')
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('record_ref', 'text', (col) => col.notNull())
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('variant_id', 'text')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('fields', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('changes_workspace_id').on('changes').columns(['workspace_id', 'id']).execute();
  await db.schema
    .createIndex('changes_workspace_record')
    .on('changes')
    .columns(['workspace_id', 'kind', 'developer_id'])
    .execute();
  await db.schema.createIndex('changes_workspace_ref').on('changes').columns(['workspace_id', 'record_ref']).execute();
  await db.schema.createIndex('changes_at').on('changes').column('at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('changes').ifExists().execute();
}
