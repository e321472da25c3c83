import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * A batch create of 1,000 texts with 3 variant values each fired the search queue's trigger
 * 4,000 times (once per text, once per value) to queue 1,000 ids. A variant value is never
 * written without its text: a new text is queued by its own insert, and every change of an
 * existing text's values stamps the text's revision in the same transaction (the rule its ETag
 * rests on). So the texts' update trigger now also watches `revision`, and inserting a variant
 * value queues nothing by itself. Updates and deletes of values keep their triggers.
 */

const SQLITE_TEXT_COLUMNS = 'developer_id, name, text, notes, tags';
const PG_TEXT_COLUMNS = 'id, developer_id, name, text, notes, tags';

const queueSqlite = (id: string) => `insert or ignore into text_search_queue (text_id) values (${id});`;

async function setPgTextUpdateQueue(db: Kysely<any>, columns: string): Promise<void> {
  await sql
    .raw(`create or replace function texts_search_queue_update() returns trigger language plpgsql as $$
      begin
        insert into text_search_queue (text_id)
          select id from (select ${columns} from new_rows except select ${columns} from old_rows) changed
          on conflict do nothing;
        return null;
      end $$`)
    .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await setPgTextUpdateQueue(db, `${PG_TEXT_COLUMNS}, revision`);
    await sql`drop trigger if exists text_variants_search_queue_insert on text_variants`.execute(db);
    await sql`drop function if exists text_variants_search_queue_insert()`.execute(db);
    return;
  }
  await sql`drop trigger if exists texts_search_update`.execute(db);
  await sql
    .raw(
      `create trigger texts_search_update after update of ${SQLITE_TEXT_COLUMNS}, revision on texts begin ${queueSqlite('new.id')} end`,
    )
    .execute(db);
  await sql`drop trigger if exists text_variants_search_insert`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await setPgTextUpdateQueue(db, PG_TEXT_COLUMNS);
    await sql
      .raw(`create function text_variants_search_queue_insert() returns trigger language plpgsql as $$
        begin
          insert into text_search_queue (text_id) select distinct text_id from new_rows on conflict do nothing;
          return null;
        end $$`)
      .execute(db);
    await sql
      .raw(
        'create trigger text_variants_search_queue_insert after insert on text_variants referencing new table as new_rows for each statement execute function text_variants_search_queue_insert()',
      )
      .execute(db);
    return;
  }
  await sql`drop trigger if exists texts_search_update`.execute(db);
  await sql
    .raw(
      `create trigger texts_search_update after update of ${SQLITE_TEXT_COLUMNS} on texts begin ${queueSqlite('new.id')} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger text_variants_search_insert after insert on text_variants begin ${queueSqlite('new.text_id')} end`,
    )
    .execute(db);
}
