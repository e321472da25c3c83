import { type Kysely, sql } from 'kysely';

/**
 * A variant's values in text order: `GET /variants?projectIds[]=...` of the v0/v1 APIs walks one
 * variant's values page by page (`text_id` after the last one seen) until one is on a text of
 * the projects. The index on `variant_id` alone finds the values but not in that order, so each
 * page would sort all of the variant's values again (every value of a million texts' French).
 * This index gives the order and the seek, and holds `text_id` itself, so the page is read from
 * the index alone. It covers every use of the old one (its first column), which is dropped.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists text_variants_variant_text on text_variants (variant_id, text_id)`.execute(db);
  await sql`drop index if exists text_variants_variant_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists text_variants_variant_idx on text_variants (variant_id)`.execute(db);
  await sql`drop index if exists text_variants_variant_text`.execute(db);
}
