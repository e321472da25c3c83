import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * PostgreSQL only: inserting texts queued their ids with `on conflict do nothing`, an insert that
 * first reserves its key in the queue's index and checks it, for every row. A new text's id is
 * never queued (ids come from the table's identity and are not given again), so the queue is only
 * probed for it: an id already there is not inserted again. Measured on a batch of 1,000 texts:
 * the trigger took about 2.7 ms of the insert's 15, now about 1.5 (docs/history.md, "What a write
 * costs"). The update trigger keeps `on conflict`: an updated text is often queued already.
 */
const setInsertQueue = (db: Kysely<any>, ids: string) =>
  sql
    .raw(`create or replace function texts_search_queue_insert() returns trigger language plpgsql as $$
      begin
        insert into text_search_queue (text_id) ${ids};
        return null;
      end $$`)
    .execute(db);

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await setInsertQueue(
    db,
    'select n.id from new_rows n where not exists (select 1 from text_search_queue q where q.text_id = n.id)',
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await setInsertQueue(db, 'select id from new_rows on conflict do nothing');
}
