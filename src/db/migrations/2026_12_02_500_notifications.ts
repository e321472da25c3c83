import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

/**
 * In-app notifications and follows (docs/notifications.md). Both are a user's own state, not the
 * workspace's content: rows go with their user (foreign key, cascade). A notification names its
 * text by row id without a foreign key (text ids are never reused, and a notification outlives a
 * deleted text), and keeps the developer IDs it had then, shown as they are now while the text
 * exists. `follows` holds one row per user and text they follow, whatever made them follow it
 * (`reason`: created it, was assigned it, or asked).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('notifications'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('record_kind', 'text', (col) => col.notNull())
    .addColumn('text_id', 'integer')
    .addColumn('record_developer_id', 'text', (col) => col.notNull())
    .addColumn('project_developer_id', 'text')
    .addColumn('variant_developer_id', 'text')
    .addColumn('thread_id', 'text')
    .addColumn('comment_id', 'text')
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('detail', 'text')
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('read_at', 'text')
    .execute();
  // A user's notifications newest first; their unread ones, counted.
  await db.schema
    .createIndex('notifications_user')
    .on('notifications')
    .columns(['workspace_id', 'user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('notifications_unread')
    .on('notifications')
    .columns(['workspace_id', 'user_id', 'read_at'])
    .execute();

  await withIdColumn(db, db.schema.createTable('follows'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('record_kind', 'text', (col) => col.notNull())
    .addColumn('text_id', 'integer', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    // A text's followers (at notification time), one row per user.
    .addUniqueConstraint('follows_text_user', ['workspace_id', 'text_id', 'user_id'])
    .execute();
  await db.schema.createIndex('follows_user').on('follows').columns(['workspace_id', 'user_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('follows').ifExists().execute();
  await db.schema.dropTable('notifications').ifExists().execute();
}
