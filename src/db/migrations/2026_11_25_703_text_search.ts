import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * The search index of components and text items: one document per text with its developer ID,
 * name, base text, notes, tags and the text and notes of every variant value. Database triggers
 * keep it in step with `texts` and `text_variants` inside the very transaction that changes them,
 * whatever the write (an update, a cascade, an import), so the index can never lag the text.
 * SQLite: FTS5 with the unicode61 tokenizer (accents folded). PostgreSQL: a `tsvector` with the
 * `simple` configuration (no stemming, as the texts are in every language) and a GIN index.
 */
const SQLITE_DOCUMENT = (id: string) => `
  select t.id, t.workspace_id,
    t.developer_id || ' ' || replace(replace(replace(t.developer_id, '-', ' '), '_', ' '), '.', ' ')
      || ' ' || coalesce(t.name, '') || ' ' || t.text || ' ' || t.notes || ' ' || t.tags
      || ' ' || coalesce((select group_concat(v.text || ' ' || v.notes, ' ') from text_variants v where v.text_id = t.id), '')
  from texts t where t.id = ${id}`;

async function upSqlite(db: Kysely<any>): Promise<void> {
  await sql`create virtual table text_search using fts5(workspace_id unindexed, document, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3')`.execute(
    db,
  );
  const refresh = (id: string) =>
    `delete from text_search where rowid = ${id}; insert into text_search (rowid, workspace_id, document) ${SQLITE_DOCUMENT(id)};`;
  const triggers = [
    `create trigger texts_search_insert after insert on texts begin ${refresh('new.id')} end`,
    `create trigger texts_search_update after update of developer_id, name, text, notes, tags on texts begin ${refresh('new.id')} end`,
    'create trigger texts_search_delete after delete on texts begin delete from text_search where rowid = old.id; end',
    `create trigger text_variants_search_insert after insert on text_variants begin ${refresh('new.text_id')} end`,
    `create trigger text_variants_search_update after update of text, notes on text_variants begin ${refresh('new.text_id')} end`,
    `create trigger text_variants_search_delete after delete on text_variants begin ${refresh('old.text_id')} end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);
  await sql.raw(`insert into text_search (rowid, workspace_id, document) ${SQLITE_DOCUMENT('t.id')}`).execute(db);
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`create table text_search (
    text_id integer primary key references texts(id) on delete cascade,
    workspace_id integer not null,
    document tsvector not null
  )`.execute(db);
  await sql`create index text_search_document on text_search using gin (document)`.execute(db);
  await sql`create index text_search_workspace on text_search (workspace_id)`.execute(db);
  await sql`create function text_search_refresh(target integer) returns void language plpgsql as $$
    begin
      delete from text_search where text_id = target;
      insert into text_search (text_id, workspace_id, document)
      select t.id, t.workspace_id, to_tsvector('simple',
        t.developer_id || ' ' || translate(t.developer_id, '-_.', '   ') || ' ' || coalesce(t.name, '') || ' '
        || t.text || ' ' || t.notes || ' ' || t.tags || ' '
        || coalesce((select string_agg(v.text || ' ' || v.notes, ' ') from text_variants v where v.text_id = t.id), ''))
      from texts t where t.id = target;
    end $$`.execute(db);
  await sql`create function texts_search_trigger() returns trigger language plpgsql as $$
    begin
      perform text_search_refresh(new.id);
      return null;
    end $$`.execute(db);
  await sql`create function text_variants_search_trigger() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then perform text_search_refresh(old.text_id);
      else perform text_search_refresh(new.text_id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger texts_search after insert or update of developer_id, name, text, notes, tags on texts
    for each row execute function texts_search_trigger()`.execute(db);
  await sql`create trigger text_variants_search after insert or update of text, notes or delete on text_variants
    for each row execute function text_variants_search_trigger()`.execute(db);
  await sql`insert into text_search (text_id, workspace_id, document)
    select t.id, t.workspace_id, to_tsvector('simple',
      t.developer_id || ' ' || translate(t.developer_id, '-_.', '   ') || ' ' || coalesce(t.name, '') || ' '
      || t.text || ' ' || t.notes || ' ' || t.tags || ' '
      || coalesce((select string_agg(v.text || ' ' || v.notes, ' ') from text_variants v where v.text_id = t.id), ''))
    from texts t`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') await upPostgres(db);
  else await upSqlite(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop trigger if exists text_variants_search on text_variants`.execute(db);
    await sql`drop trigger if exists texts_search on texts`.execute(db);
    await sql`drop table if exists text_search`.execute(db);
    await sql`drop function if exists text_variants_search_trigger()`.execute(db);
    await sql`drop function if exists texts_search_trigger()`.execute(db);
    await sql`drop function if exists text_search_refresh(integer)`.execute(db);
    return;
  }
  for (const name of [
    'texts_search_insert',
    'texts_search_update',
    'texts_search_delete',
    'text_variants_search_insert',
    'text_variants_search_update',
    'text_variants_search_delete',
  ]) {
    await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await sql`drop table if exists text_search`.execute(db);
}
