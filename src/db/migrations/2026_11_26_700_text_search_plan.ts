import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * Faster searches of several words (see docs/search.md).
 *
 * SQLite: prefix indexes for the first 1 to 6 characters of every word (they were 1 to 3). A word
 * of the query that is not in a prefix index is looked up by merging the lists of every indexed
 * word it begins, in memory, before anything else: `ecran` in a workspace where every text has
 * `écran` is a list of 100,000 entries built for each search, even when the next word matches one
 * text. From a prefix index the same word is one list that the search skips through. The index
 * grows by about 45% (30 to 43 MB for 100,000 texts). FTS5 cannot change the option of a table,
 * so the table is made again under the same name with the documents it held; the triggers that
 * name it (2026_11_25_703, 2026_11_26_100) find it again, whatever order those ran in.
 *
 * PostgreSQL: no index on the workspace of the documents. The planner combined it with the text
 * index (a BitmapAnd), reading one entry per text of the workspace on every search before a
 * single match was found; the text index alone narrows the rows down, the workspace is checked on
 * the rows it found, and rows leave with their text by a foreign key, so no delete needs it.
 */
async function rebuildSqlite(db: Kysely<any>, prefix: string): Promise<void> {
  await sql`create temp table text_search_copy as select rowid as id, workspace_id, document from text_search`.execute(
    db,
  );
  await sql`drop table text_search`.execute(db);
  await sql
    .raw(
      `create virtual table text_search using fts5(workspace_id unindexed, document, tokenize = 'unicode61 remove_diacritics 2', prefix = '${prefix}')`,
    )
    .execute(db);
  await sql`insert into text_search (rowid, workspace_id, document)
    select id, workspace_id, document from temp.text_search_copy`.execute(db);
  await sql`drop table temp.text_search_copy`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`drop index if exists text_search_workspace`.execute(db);
  else await rebuildSqlite(db, '1 2 3 4 5 6');
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`create index if not exists text_search_workspace on text_search (workspace_id)`.execute(db);
  } else await rebuildSqlite(db, '1 2 3');
}
