import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { withIdColumn } from '../dialect.js';

/**
 * Email: the outbox the mail worker sends from (written in the transaction of the change that
 * causes the email), each user's email preference, and the key that signs unsubscribe links.
 * The key is made here, once, so that every server on the database signs and checks alike.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('email_outbox'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('to_address', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('body_text', 'text', (col) => col.notNull())
    .addColumn('body_html', 'text')
    .addColumn('message_id', 'text', (col) => col.notNull().unique())
    .addColumn('unsubscribe_url', 'text')
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('due_at', 'text', (col) => col.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  // The worker's claim reads only the queue: emails still to send, by due time.
  await db.schema
    .createIndex('email_outbox_queue')
    .on('email_outbox')
    .columns(['due_at', 'id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  // The digest pass reads only the held emails, by due time.
  await db.schema
    .createIndex('email_outbox_held')
    .on('email_outbox')
    .columns(['due_at', 'user_id'])
    .where(sql.ref('state'), '=', 'held')
    .execute();
  await db.schema.createIndex('email_outbox_user').on('email_outbox').column('user_id').execute();
  await db.schema.createIndex('email_outbox_workspace').on('email_outbox').columns(['workspace_id', 'id']).execute();

  await db.schema
    .createTable('email_preferences')
    .addColumn('user_id', 'integer', (col) => col.primaryKey().notNull().references('users.id').onDelete('cascade'))
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('email_signing_key')
    .addColumn('id', 'integer', (col) => col.primaryKey().notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .execute();
  await db
    .insertInto('email_signing_key')
    .values({ id: 1, key: randomBytes(32).toString('base64url') })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['email_signing_key', 'email_preferences', 'email_outbox']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
