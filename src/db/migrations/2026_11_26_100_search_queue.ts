import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * The search index is rebuilt once per text per write instead of once per row written. Until now
 * a trigger rebuilt a text's document for every row of `texts` and `text_variants` written: a
 * batch create of 1,000 texts with 3 variant values each built 4,000 documents (and removed 3,000,
 * which FTS5 does by tokenising the old document again), most of the cost of the write. Now the
 * triggers only queue the text's id in `text_search_queue`, and the write path rebuilds the
 * documents of the queued texts in one statement before it commits (`refreshSearchIndex`), so the
 * index still changes in the transaction of the write, whatever the write.
 *
 * SQLite: row triggers queue the id (`insert or ignore`). PostgreSQL: statement triggers with
 * transition tables queue every id of the statement at once. Deleting a text still removes its
 * document at once (SQLite's trigger; PostgreSQL's foreign key). The index already matches the
 * texts, so no row is converted; the queue starts empty.
 */
const SQLITE_DOCUMENT = (id: string) => `
  select t.id, t.workspace_id,
    t.developer_id || ' ' || replace(replace(replace(t.developer_id, '-', ' '), '_', ' '), '.', ' ')
      || ' ' || coalesce(t.name, '') || ' ' || t.text || ' ' || t.notes || ' ' || t.tags
      || ' ' || coalesce((select group_concat(v.text || ' ' || v.notes, ' ') from text_variants v where v.text_id = t.id), '')
  from texts t where t.id = ${id}`;

const SQLITE_ROW_TRIGGERS = [
  'texts_search_insert',
  'texts_search_update',
  'text_variants_search_insert',
  'text_variants_search_update',
  'text_variants_search_delete',
];

async function upSqlite(db: Kysely<any>): Promise<void> {
  await sql`create table text_search_queue (text_id integer primary key)`.execute(db);
  for (const name of SQLITE_ROW_TRIGGERS) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  const queue = (id: string) => `insert or ignore into text_search_queue (text_id) values (${id});`;
  const triggers = [
    `create trigger texts_search_insert after insert on texts begin ${queue('new.id')} end`,
    `create trigger texts_search_update after update of developer_id, name, text, notes, tags on texts begin ${queue('new.id')} end`,
    `create trigger text_variants_search_insert after insert on text_variants begin ${queue('new.text_id')} end`,
    `create trigger text_variants_search_update after update of text, notes on text_variants begin ${queue('new.text_id')} end`,
    `create trigger text_variants_search_delete after delete on text_variants begin ${queue('old.text_id')} end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);
}

async function downSqlite(db: Kysely<any>): Promise<void> {
  for (const name of SQLITE_ROW_TRIGGERS) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  const refresh = (id: string) =>
    `delete from text_search where rowid = ${id}; insert into text_search (rowid, workspace_id, document) ${SQLITE_DOCUMENT(id)};`;
  const triggers = [
    `create trigger texts_search_insert after insert on texts begin ${refresh('new.id')} end`,
    `create trigger texts_search_update after update of developer_id, name, text, notes, tags on texts begin ${refresh('new.id')} end`,
    `create trigger text_variants_search_insert after insert on text_variants begin ${refresh('new.text_id')} end`,
    `create trigger text_variants_search_update after update of text, notes on text_variants begin ${refresh('new.text_id')} end`,
    `create trigger text_variants_search_delete after delete on text_variants begin ${refresh('old.text_id')} end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);
  await sql`drop table if exists text_search_queue`.execute(db);
}

/** One function per statement trigger: PostgreSQL takes transition tables for one event only. */
/** The searchable columns: a statement that changes none of them queues nothing. */
const TEXT_COLUMNS = 'id, developer_id, name, text, notes, tags';
const VALUE_COLUMNS = 'text_id, variant_id, text, notes';

/** One function per statement trigger: PostgreSQL takes transition tables for one event only. */
const PG_QUEUES: { name: string; table: string; event: string; rows: string; ids: string }[] = [
  {
    name: 'texts_search_queue_insert',
    table: 'texts',
    event: 'insert',
    rows: 'new table as new_rows',
    ids: 'select id from new_rows',
  },
  {
    name: 'texts_search_queue_update',
    table: 'texts',
    event: 'update',
    rows: 'old table as old_rows new table as new_rows',
    ids: `select id from (select ${TEXT_COLUMNS} from new_rows except select ${TEXT_COLUMNS} from old_rows) changed`,
  },
  {
    name: 'text_variants_search_queue_insert',
    table: 'text_variants',
    event: 'insert',
    rows: 'new table as new_rows',
    ids: 'select distinct text_id from new_rows',
  },
  {
    name: 'text_variants_search_queue_update',
    table: 'text_variants',
    event: 'update',
    rows: 'old table as old_rows new table as new_rows',
    ids: `select text_id from (select ${VALUE_COLUMNS} from new_rows except select ${VALUE_COLUMNS} from old_rows) changed
      union select text_id from (select ${VALUE_COLUMNS} from old_rows except select ${VALUE_COLUMNS} from new_rows) gone`,
  },
  {
    name: 'text_variants_search_queue_delete',
    table: 'text_variants',
    event: 'delete',
    rows: 'old table as old_rows',
    ids: 'select distinct text_id from old_rows',
  },
];

async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`create table text_search_queue (text_id integer primary key)`.execute(db);
  await sql`drop trigger if exists texts_search on texts`.execute(db);
  await sql`drop trigger if exists text_variants_search on text_variants`.execute(db);
  for (const q of PG_QUEUES) {
    await sql
      .raw(`create function ${q.name}() returns trigger language plpgsql as $$
        begin
          insert into text_search_queue (text_id) ${q.ids} on conflict do nothing;
          return null;
        end $$`)
      .execute(db);
    await sql
      .raw(
        `create trigger ${q.name} after ${q.event} on ${q.table} referencing ${q.rows} for each statement execute function ${q.name}()`,
      )
      .execute(db);
  }
}

async function downPostgres(db: Kysely<any>): Promise<void> {
  for (const q of PG_QUEUES) {
    await sql.raw(`drop trigger if exists ${q.name} on ${q.table}`).execute(db);
    await sql.raw(`drop function if exists ${q.name}()`).execute(db);
  }
  // The row triggers of 2026_11_25_703, whose functions that migration left in place.
  await sql`create trigger texts_search after insert or update of developer_id, name, text, notes, tags on texts
    for each row execute function texts_search_trigger()`.execute(db);
  await sql`create trigger text_variants_search after insert or update of text, notes or delete on text_variants
    for each row execute function text_variants_search_trigger()`.execute(db);
  await sql`drop table if exists text_search_queue`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') await upPostgres(db);
  else await upSqlite(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') await downPostgres(db);
  else await downSqlite(db);
}
