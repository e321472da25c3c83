import { type Kysely, sql } from 'kysely';

/**
 * Who has which text open (docs/events.md#presence), when no Redis is configured: one row per
 * browser tab (`client_id`) of a user, kept while the tab's heartbeat keeps moving `expires_at`
 * (milliseconds since the epoch) forward. Rows are passing state, not content: they go with their
 * workspace, are never backed up, and an expired one is ignored, then deleted by the next write.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('presence')
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('client_id', 'text', (col) => col.notNull())
    .addColumn('record_kind', 'text', (col) => col.notNull())
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('presence_pk', ['workspace_id', 'email', 'client_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists presence`.execute(db);
}
