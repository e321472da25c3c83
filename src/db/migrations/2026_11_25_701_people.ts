import type { Kysely } from 'kysely';

/**
 * People who sign in, not only keys: a role and a password per user, sessions kept in the
 * database (so every server sees them), and one-time links that set a password.
 * Users that existed before roles could do everything through their keys: they stay admins.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (col) => col.notNull().defaultTo('admin'))
    .execute();
  await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();

  await db.schema
    .createTable('sessions')
    // The SHA-256 of the cookie's value: a stolen database cannot be replayed as cookies.
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('password_links')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('password_links_user').on('password_links').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('password_links').ifExists().execute();
  await db.schema.dropTable('sessions').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('password_hash').execute();
  await db.schema.alterTable('users').dropColumn('role').execute();
}
