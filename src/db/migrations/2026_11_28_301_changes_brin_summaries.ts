import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * PostgreSQL only: the change log's BRIN index on `at` asked autovacuum to summarise each range
 * of pages as it filled (`autosummarize`). Under a burst of batch writes those requests outran
 * autovacuum, and each one it dropped wrote a line to the database server's log ("request for
 * BRIN range summarization ... was not recorded"). A range is now summarised by the next vacuum
 * of the table (inserts alone start one); until then the retention reads its pages, as it reads
 * any range not yet summarised.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter index changes_at set (autosummarize = off)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter index changes_at set (autosummarize = on)`.execute(db);
}
