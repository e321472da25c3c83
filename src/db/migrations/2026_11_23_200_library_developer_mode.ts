import type { Kysely } from 'kysely';

/**
 * Whether the deprecated v0 and v1 APIs may read and write the component library, per workspace.
 * On by default, so a workspace created before this setting existed keeps its library reachable.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('workspaces')
    .addColumn('library_developer_mode', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('workspaces').dropColumn('library_developer_mode').execute();
}
