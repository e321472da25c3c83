import type { Kysely } from 'kysely';

/**
 * Translation state: whether a variant value still translates its text's base. `texts.text_version`
 * counts the changes of the base text (its text, rich text or plural forms); a variant value keeps
 * the version of the base it was written against. A value whose version is below its text's is
 * outdated. Both start at 0, so every existing value counts as up to date.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('texts')
    .addColumn('text_version', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('text_variants')
    .addColumn('text_version', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('text_variants').dropColumn('text_version').execute();
  await db.schema.alterTable('texts').dropColumn('text_version').execute();
}
