import type { Kysely } from 'kysely';

/**
 * The workspace revision of each text's last change: with the row id, the text's ETag, which
 * `If-Match` on PATCH checks so that two people editing one text cannot overwrite each other
 * unknowingly. 0 until the text is first changed (its row id still tells texts apart).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('texts')
    .addColumn('revision', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('texts').dropColumn('revision').execute();
}
