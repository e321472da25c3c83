import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * Fewer and narrower index entries for every change written (a batch of 1,000 records writes 1,000
 * rows of the log, each under every index of `changes`); see docs/history.md, "What a write costs".
 *
 * - A developer ID is looked up with or without its kind: `(workspace_id, developer_id)` serves
 *   both (the kind is checked on the few rows found), where `(workspace_id, kind, developer_id)`
 *   served a lookup without a kind by reading every entry of the workspace.
 * - PostgreSQL: the primary key is `(workspace_id, id)`, the order every read of the log follows
 *   (pages of history, a write's own ids, a webhook's ranges), instead of `id` alone beside an
 *   index on `(workspace_id, id)`: one index fewer. Ids still come from the table's identity, one
 *   sequence, so they stay distinct.
 * - PostgreSQL: the retention's `at < cutoff` reads a BRIN index: rows are appended in time
 *   order, so a summary per range of pages finds them, and a write adds nothing to it (autovacuum
 *   summarises each range of pages once it fills). SQLite has no BRIN, and its rows are keyed by
 *   `id`: there, only the developer ID index changes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists changes_workspace_record`.execute(db);
  await db.schema
    .createIndex('changes_workspace_developer')
    .on('changes')
    .columns(['workspace_id', 'developer_id'])
    .execute();
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter table changes drop constraint changes_pkey`.execute(db);
  await sql`alter table changes add constraint changes_pkey primary key (workspace_id, id)`.execute(db);
  await sql`drop index if exists changes_workspace_id`.execute(db);
  await sql`drop index if exists changes_at`.execute(db);
  await sql`create index changes_at on changes using brin (at) with (autosummarize = on)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop index if exists changes_at`.execute(db);
    await sql`create index changes_at on changes (at)`.execute(db);
    await sql`create index changes_workspace_id on changes (workspace_id, id)`.execute(db);
    await sql`alter table changes drop constraint changes_pkey`.execute(db);
    await sql`alter table changes add constraint changes_pkey primary key (id)`.execute(db);
  }
  await sql`drop index if exists changes_workspace_developer`.execute(db);
  await db.schema
    .createIndex('changes_workspace_record')
    .on('changes')
    .columns(['workspace_id', 'kind', 'developer_id'])
    .execute();
}
