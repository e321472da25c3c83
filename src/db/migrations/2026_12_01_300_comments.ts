import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

/**
 * Comments on texts (docs/comments.md). A comment names its text by row id without a foreign key:
 * text ids are never reused (autoincrement, identity), and a text's deletion must keep its threads
 * readable, so the row also keeps the text's kind and developer ID, stamped with the last one when
 * the text goes (`record_deleted`). `thread_id` is the thread's first comment (null on that
 * first comment itself), which carries the thread's resolution. `mentions` is the JSON array of
 * the mentioned users' emails as written; `comment_mentions` indexes it for "mentions me".
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('comments'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('thread_id', 'integer')
    .addColumn('record_kind', 'text', (col) => col.notNull())
    .addColumn('text_id', 'integer')
    .addColumn('record_developer_id', 'text', (col) => col.notNull())
    .addColumn('record_deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('project_id', 'integer')
    .addColumn('variant_id', 'integer')
    .addColumn('variant_developer_id', 'text')
    .addColumn('author_id', 'integer')
    .addColumn('author_email', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('mentions', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('range_start', 'integer')
    .addColumn('range_end', 'integer')
    .addColumn('range_quote', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('edited_at', 'text')
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text')
    .addUniqueConstraint('comments_workspace_developer_id', ['workspace_id', 'developer_id'])
    .execute();
  // A record's comments, a project's, a thread's: each in creation order.
  await db.schema.createIndex('comments_text').on('comments').columns(['workspace_id', 'text_id', 'id']).execute();
  await db.schema
    .createIndex('comments_project')
    .on('comments')
    .columns(['workspace_id', 'project_id', 'id'])
    .execute();
  await db.schema.createIndex('comments_thread').on('comments').columns(['thread_id', 'id']).execute();

  await db.schema
    .createTable('comment_mentions')
    .addColumn('comment_id', 'integer', (col) => col.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('comment_mentions_pk', ['comment_id', 'email'])
    .execute();
  await db.schema
    .createIndex('comment_mentions_user')
    .on('comment_mentions')
    .columns(['workspace_id', 'email', 'comment_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('comment_mentions').ifExists().execute();
  await db.schema.dropTable('comments').ifExists().execute();
}
