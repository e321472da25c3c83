import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * The translation memory's index (docs/translation-memory.md): one row per text that has a value
 * in some variant, holding its base text (`source`). PostgreSQL finds similar sources with
 * pg_trgm's GIN index; SQLite has no trigram index of its own, so each source's MinHash band
 * keys (src/text/trigrams.ts) are rows of `translation_memory_bands`, looked up by the query's. The rows are built by the
 * search index's worker from the same queue (src/db/search-index.ts): every change of a text or
 * of its values queues the text already. Every text there is now is queued once, so the memory
 * is built in the background after the upgrade.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create table translation_memory (
      text_id integer primary key references texts(id) on delete cascade,
      workspace_id integer not null,
      source text not null,
      grams integer not null
    )`.execute(db);
    // No index on the workspace: the planner would read every text of it rather than the GIN
    // index (the search index's lesson); the workspace is checked on the rows found.
    await sql`create index translation_memory_source on translation_memory using gin (source gin_trgm_ops)`.execute(db);
    await sql`insert into text_search_queue (text_id) select id from texts on conflict do nothing`.execute(db);
    return;
  }
  await sql`create table translation_memory (
    text_id integer primary key,
    workspace_id integer not null,
    source text not null,
    grams integer not null
  )`.execute(db);
  await sql`create table translation_memory_bands (
    workspace_id integer not null,
    band integer not null,
    text_id integer not null,
    primary key (workspace_id, band, text_id)
  ) without rowid`.execute(db);
  await sql`create index translation_memory_bands_text on translation_memory_bands (text_id)`.execute(db);
  await sql`create trigger texts_translation_memory_delete after delete on texts begin
    delete from translation_memory where text_id = old.id;
    delete from translation_memory_bands where text_id = old.id;
  end`.execute(db);
  await sql`insert or ignore into text_search_queue (text_id) select id from texts`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop table if exists translation_memory`.execute(db);
    return;
  }
  await sql`drop trigger if exists texts_translation_memory_delete`.execute(db);
  await sql`drop table if exists translation_memory_bands`.execute(db);
  await sql`drop table if exists translation_memory`.execute(db);
}
