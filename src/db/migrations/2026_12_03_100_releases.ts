import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

/**
 * Releases (docs/releases.md): texts frozen under a name. A release's content is stored
 * content-addressed: `release_contents` holds each distinct JSON document once per workspace
 * (a frozen text, or the workspace as the texts referred to it), keyed by its SHA-256; a release
 * lists its documents in order (`release_texts`). Two releases that share a text share its row.
 * Distributions: read-only delivery tokens (stored as SHA-256, like API keys), limited to
 * projects and formats, serving the release last published to them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('release_contents'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('hash', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addUniqueConstraint('release_contents_workspace_hash', ['workspace_id', 'hash'])
    .execute();
  await withIdColumn(db, db.schema.createTable('releases'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('filter', 'text', (col) => col.notNull())
    .addColumn('basis_hash', 'text', (col) => col.notNull())
    .addColumn('content_hash', 'text', (col) => col.notNull())
    .addColumn('components', 'integer', (col) => col.notNull())
    .addColumn('text_items', 'integer', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('releases_workspace_name', ['workspace_id', 'name'])
    .execute();
  await db.schema
    .createTable('release_texts')
    .addColumn('release_id', 'integer', (col) => col.notNull().references('releases.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('hash', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('release_texts_pk', ['release_id', 'seq'])
    .execute();
  await withIdColumn(db, db.schema.createTable('distributions'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('projects', 'text', (col) => col.notNull())
    .addColumn('formats', 'text', (col) => col.notNull())
    .addColumn('release_id', 'integer', (col) => col.references('releases.id'))
    .addColumn('published_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('distributions_workspace_name', ['workspace_id', 'name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('distributions').ifExists().execute();
  await db.schema.dropTable('release_texts').ifExists().execute();
  await db.schema.dropTable('releases').ifExists().execute();
  await db.schema.dropTable('release_contents').ifExists().execute();
}
