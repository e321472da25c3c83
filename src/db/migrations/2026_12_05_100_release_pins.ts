import type { Kysely } from 'kysely';

/**
 * A project's pinned release (docs/releases.md#pins): the release an API key's v2 reads and
 * exports of the project answer when they name none, so that every puller of a team builds from
 * it. One pin per project; a pinned release cannot be deleted, a deleted project loses its pin.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('release_pins')
    .addColumn('project_id', 'integer', (col) => col.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('workspace_id', 'integer', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('release_id', 'integer', (col) => col.notNull().references('releases.id'))
    .addColumn('pinned_by', 'text', (col) => col.notNull())
    .addColumn('pinned_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('release_pins_workspace').on('release_pins').column('workspace_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('release_pins').ifExists().execute();
}
