import type { Kysely } from 'kysely';

/**
 * Each stored run of export fragments keeps its texts' digest (their `<row id>:<stamp>` in
 * order), which an export compares with the digest the database gives for the run's range: a
 * run placed unchanged is then never taken apart. Runs stored before have none; their digest
 * is computed from their entries, as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('export_fragment_runs').addColumn('stamps', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('export_fragment_runs').dropColumn('stamps').execute();
}
