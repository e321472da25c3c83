import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

/**
 * Suggestions: proposed changes to a text's content, reviewed before they apply
 * (docs/suggestions.md). Like a comment, a suggestion names its text by row id without a foreign
 * key (text ids are never reused, and a deleted text's suggestions stay readable, closed as
 * `obsolete`) and keeps the text's kind and developer ID. It keeps what it proposes
 * (`proposed_*`, as sent, with `rich_text` set when the text is HTML), the content it was made
 * against (`base_*`) and that content's ETag (`base_etag`), which an accept sends as If-Match.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('suggestions'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('developer_id', 'text', (col) => col.notNull())
    .addColumn('record_kind', 'text', (col) => col.notNull())
    .addColumn('text_id', 'integer')
    .addColumn('record_developer_id', 'text', (col) => col.notNull())
    .addColumn('project_id', 'integer')
    .addColumn('variant_id', 'integer')
    .addColumn('variant_developer_id', 'text')
    .addColumn('author_id', 'integer')
    .addColumn('author_email', 'text', (col) => col.notNull())
    .addColumn('note', 'text')
    .addColumn('rich_text', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('proposed_text', 'text')
    .addColumn('proposed_plurals', 'text')
    .addColumn('base_etag', 'text', (col) => col.notNull())
    .addColumn('base_text', 'text')
    .addColumn('base_rich_text', 'text')
    .addColumn('base_plurals', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('decision_note', 'text')
    .addUniqueConstraint('suggestions_workspace_developer_id', ['workspace_id', 'developer_id'])
    .execute();
  // A text's suggestions and a project's, each in creation order.
  await db.schema
    .createIndex('suggestions_text')
    .on('suggestions')
    .columns(['workspace_id', 'text_id', 'id'])
    .execute();
  await db.schema
    .createIndex('suggestions_project')
    .on('suggestions')
    .columns(['workspace_id', 'project_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('suggestions').ifExists().execute();
}
