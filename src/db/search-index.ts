import { sql } from 'kysely';
import { dialectOf } from './dialect.js';
import type { Executor } from './schema.js';
import { indexTranslationMemory } from './translation-memory-index.js';

export { tidyTranslationMemory } from './translation-memory-index.js';

/*
 * The search index of the texts (tables and triggers from migrations 2026_11_25_703 and
 * 2026_11_26_100, src/db/migrations/): an FTS5
 * table on SQLite, a tsvector column on PostgreSQL. Its SQL differs throughout, so it lives here;
 * the texts core (src/modules/texts/search.repository.ts) ranks, schedules and answers searches.
 * The translation memory's rows are rebuilt with the documents, from the same queue
 * (src/db/translation-memory-index.ts).
 */

/**
 * The first `limit` texts of the workspace whose document holds every word as a word prefix (the
 * words are letters and digits only), with the document's text for ranking: FTS5's `match` on
 * SQLite, a `tsquery` of prefixes on PostgreSQL. Unranked: the caller ranks them the same way on
 * both databases.
 */
export async function searchCandidates(
  db: Executor,
  workspaceId: number,
  words: readonly string[],
  limit: number,
): Promise<{ id: number; document: string }[]> {
  const { rows } =
    dialectOf(db) === 'postgres'
      ? await sql<{ id: number; document: string }>`
          select t.id, ${POSTGRES_DOCUMENT_TEXT} as document
          from text_search s
            join texts t on t.id = s.text_id,
            to_tsquery('simple', ${words.map((w) => `${w}:*`).join(' & ')}) as q(query)
          where s.workspace_id = ${workspaceId} and s.document @@ q.query
          limit ${limit}`.execute(db)
      : await sql<{ id: number; document: string }>`
          select rowid as id, document from text_search
          where text_search match ${words.map((w) => `"${w}"*`).join(' ')} and workspace_id = ${workspaceId}
          limit ${limit}`.execute(db);
  return rows;
}

/**
 * Every text of the workspace whose document holds every word as a word prefix, as row ids,
 * unranked and unlimited: a filter (the app's list) rather than a search.
 */
export async function searchMatchIds(db: Executor, workspaceId: number, words: readonly string[]): Promise<number[]> {
  const { rows } =
    dialectOf(db) === 'postgres'
      ? await sql<{ id: number }>`
          select s.text_id as id from text_search s,
            to_tsquery('simple', ${words.map((w) => `${w}:*`).join(' & ')}) as q(query)
          where s.workspace_id = ${workspaceId} and s.document @@ q.query`.execute(db)
      : await sql<{ id: number }>`
          select rowid as id from text_search
          where text_search match ${words.map((w) => `"${w}"*`).join(' ')} and workspace_id = ${workspaceId}`.execute(
          db,
        );
  return rows.map((r) => Number(r.id));
}

/** A text's document: its developer ID as it is and split at `-`, `_` and `.`, then its texts. */
const SQLITE_DOCUMENT = sql`t.developer_id || ' ' || replace(replace(replace(t.developer_id, '-', ' '), '_', ' '), '.', ' ')
  || ' ' || coalesce(t.name, '') || ' ' || t.text || ' ' || t.notes || ' ' || t.tags
  || ' ' || coalesce((select group_concat(v.text || ' ' || v.notes, ' ') from text_variants v where v.text_id = t.id), '')`;
/** The text of a document as SQLite's index stores it (searchTexts ranks it). */
const POSTGRES_DOCUMENT_TEXT = sql`t.developer_id || ' ' || translate(t.developer_id, '-_.', '   ') || ' ' || coalesce(t.name, '') || ' '
  || t.text || ' ' || t.notes || ' ' || t.tags || ' '
  || coalesce((select string_agg(v.text || ' ' || v.notes, ' ') from text_variants v where v.text_id = t.id), '')`;
const POSTGRES_DOCUMENT = sql`to_tsvector('simple', ${POSTGRES_DOCUMENT_TEXT})`;

/**
 * Rebuilds the documents of every queued text, in the caller's transaction, and empties the
 * queue: a restore calls it so that the workspace it wrote is searchable when it commits.
 */
export async function refreshSearchIndex(db: Executor): Promise<void> {
  // A page at a time: a restore may have queued a million texts.
  while ((await indexQueued(db, REFRESH_BATCH)) > 0);
}
const REFRESH_BATCH = 2000;

/**
 * Builds the documents of a workspace's texts, a page of texts by id per statement, and takes
 * them off the queue: what a restore calls before it commits, so that the workspace it wrote is
 * searchable at once. Working off the queue instead would, in one transaction of a million texts,
 * scan past every queue row it had already deleted (still in the index until the transaction
 * ends) for each page: quadratic. The restored texts are new, so they have no document yet.
 */
export async function indexWorkspaceTexts(db: Executor, workspaceId: number): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  // `+`: off the workspace's index, which both databases would read and sort for every page.
  const scope = sql`+workspace_id`;
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number }>`select id from texts where ${scope} = ${workspaceId} and id > ${after}
      order by id limit ${REFRESH_BATCH}`.execute(db);
    const last = rows[rows.length - 1];
    if (last === undefined) return;
    const [from, to] = [Number(rows[0]?.id), Number(last.id)];
    if (postgres) {
      await sql`insert into text_search (text_id, workspace_id, document)
        select t.id, t.workspace_id, ${POSTGRES_DOCUMENT} from texts t
        where t.workspace_id = ${workspaceId} and t.id between ${from} and ${to}`.execute(db);
      const ids = rows.map((row) => Number(row.id));
      await sql`delete from text_search_queue where text_id = any(${ids}::integer[])`.execute(db);
      await indexTranslationMemory(db, ids);
    } else {
      await sql`insert into text_search (rowid, workspace_id, document)
        select t.id, t.workspace_id, ${SQLITE_DOCUMENT} from texts t
        where +t.workspace_id = ${workspaceId} and t.id between ${from} and ${to}`.execute(db);
      await sql`delete from text_search_queue where text_id in (select id from texts
        where +workspace_id = ${workspaceId} and id between ${from} and ${to})`.execute(db);
      await indexTranslationMemory(
        db,
        rows.map((row) => Number(row.id)),
      );
    }
    after = to;
  }
}

/**
 * Takes up to `batch` texts off the queue and rebuilds their documents, in the caller's
 * transaction. Answers how many it took. A deleted text's document is already gone (SQLite's
 * trigger, PostgreSQL's foreign key); its queued id rebuilds nothing.
 */
export async function indexQueued(db: Executor, batch: number): Promise<number> {
  if (dialectOf(db) === 'postgres') {
    // A text another transaction is taking off the queue waits for it, then is gone from here.
    const { rows } = await sql<{ text_id: number }>`delete from text_search_queue
      where text_id in (select text_id from text_search_queue order by text_id limit ${batch})
      returning text_id`.execute(db);
    if (rows.length === 0) return 0;
    const ids = rows.map((row) => row.text_id);
    // The documents' foreign key takes a share lock on each text. A writer holding one of them
    // (deleting it) while it waits for this transaction's queue rows would be a deadlock, so the
    // locks are taken first and never waited for: this pass gives way and is tried again.
    await sql`select id from texts where id = any(${ids}::integer[]) order by id for key share nowait`.execute(db);
    await sql`delete from text_search where text_id = any(${ids}::integer[])`.execute(db);
    await sql`insert into text_search (text_id, workspace_id, document)
      select t.id, t.workspace_id, ${POSTGRES_DOCUMENT} from texts t where t.id = any(${ids}::integer[])`.execute(db);
    await indexTranslationMemory(db, ids);
    return ids.length;
  }
  const { rows } = await sql<{
    text_id: number;
  }>`select text_id from text_search_queue order by text_id limit ${batch}`.execute(db);
  if (rows.length === 0) return 0;
  const ids = JSON.stringify(rows.map((row) => row.text_id));
  await sql`delete from text_search where rowid in (select value from json_each(${ids}))`.execute(db);
  await sql`insert into text_search (rowid, workspace_id, document)
    select t.id, t.workspace_id, ${SQLITE_DOCUMENT} from texts t where t.id in (select value from json_each(${ids}))`.execute(
    db,
  );
  await sql`delete from text_search_queue where text_id in (select value from json_each(${ids}))`.execute(db);
  await indexTranslationMemory(
    db,
    rows.map((row) => row.text_id),
  );
  return rows.length;
}

/**
 * Texts indexed per transaction when the queue is worked off, with a turn of the event loop
 * between. On SQLite a batch is one synchronous block of the event loop: FTS5 tokenises the
 * documents in the insert and writes its index (with the prefix indexes) in the commit, which
 * for 1,000 texts took 100 to 270 ms on a busy machine, after an import of 200,000 keys; 250
 * keep each batch to a few tens of milliseconds. On PostgreSQL the work is the database's, and
 * the event loop only waits for it.
 */
export function indexBatchSize(db: Executor): number {
  return dialectOf(db) === 'postgres' ? 1000 : 250;
}
