import { type Kysely, sql } from 'kysely';

/**
 * Each change row names the workspace revision its write made, so the changes of one write can be
 * read together (`GET /v2/history?revision=N`) and undone together (`POST /v2/history/restore`).
 * Rows written before this have none (null). The index serves both lookups by revision.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('changes').addColumn('revision', 'bigint').execute();
  await db.schema
    .createIndex('changes_workspace_revision')
    .on('changes')
    .columns(['workspace_id', 'revision'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists changes_workspace_revision`.execute(db);
  await db.schema.alterTable('changes').dropColumn('revision').execute();
}
