import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * The translation memory on PostgreSQL looks candidates up by MinHash band keys, as SQLite does
 * (docs/translation-memory.md): pg_trgm's GIN index let through tens of thousands of texts made of
 * common words, each rechecked, for a few dozen kept. The GIN index is dropped (the similarity is
 * scored in the server); the extension stays, harmless. Every text is queued once so that the
 * search index's worker builds its band rows in the background, as the first migration did.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`create table translation_memory_bands (
    workspace_id integer not null,
    band bigint not null,
    text_id integer not null references texts(id) on delete cascade,
    primary key (workspace_id, band, text_id)
  )`.execute(db);
  // Vacuumed after every 2% of rows inserted rather than PostgreSQL's 20%: a lookup reads the
  // primary key alone (an index-only scan) only where the visibility map says the pages are all
  // visible; right after 100,000 texts were indexed, the heap reads took most of a lookup's time.
  await sql`alter table translation_memory_bands set (autovacuum_vacuum_insert_scale_factor = 0.02)`.execute(db);
  await sql`create index translation_memory_bands_text on translation_memory_bands (text_id)`.execute(db);
  await sql`drop index if exists translation_memory_source`.execute(db);
  await sql`insert into text_search_queue (text_id) select id from texts on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop table if exists translation_memory_bands`.execute(db);
  await sql`create index if not exists translation_memory_source on translation_memory using gin (source gin_trgm_ops)`.execute(
    db,
  );
}
