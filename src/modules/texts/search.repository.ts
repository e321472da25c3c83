import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { Database, Executor } from '../../db/schema.js';
import { nextTurn } from '../../shared/next-turn.js';
import type { TextKind } from './texts.types.js';

/** A text a search found: enough to list it and open it. */
export interface FoundText {
  id: number;
  kind: TextKind;
  developerId: string;
  name: string | null;
  text: string;
  /** Row ids; the caller names them. */
  folderId: number | null;
  projectId: number | null;
}

const MAX_WORDS = 8;
const CANDIDATES = 500;

/** The words of a query as the index tokenises them: letters and digits, lower-cased. */
export function searchWords(q: string): string[] {
  const words =
    q
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/**
 * Texts of the workspace whose document (developer ID, name, text, notes, tags, and the text and
 * notes of every variant value) holds every word as a word prefix, best match first. The index is
 * kept by `createSearchIndexer`; call its `upToDate` first. The query's words are letters and digits
 * only and travel as one bound parameter, so no search syntax comes from the request.
 */
export async function searchTexts(db: Executor, workspaceId: number, q: string, limit: number): Promise<FoundText[]> {
  const words = searchWords(q);
  if (words.length === 0) return [];
  const columns = sql`t.id, t.kind, t.developer_id, t.name, t.text, t.folder_id, t.project_id`;
  // Ranking every match of a common word costs time in proportion to the workspace's size: the
  // best `limit` are chosen among the first CANDIDATES matches, which for any query that narrows
  // the texts down (the usual search) is all of them. The candidates' documents are ranked here, the same way on both databases (a backup moved
  // from one to the other answers the same), rather than by FTS5's bm25 or PostgreSQL's ts_rank:
  // bm25 counts, for each word, every document of the table that holds it (its rarity), which
  // for a common word costs more than the search itself.
  const { rows: candidates } =
    dialectOf(db) === 'postgres'
      ? await sql<{ id: number; document: string }>`
          select t.id, ${POSTGRES_DOCUMENT_TEXT} as document
          from text_search s
            join texts t on t.id = s.text_id,
            to_tsquery('simple', ${words.map((w) => `${w}:*`).join(' & ')}) as q(query)
          where s.workspace_id = ${workspaceId} and s.document @@ q.query
          limit ${CANDIDATES}`.execute(db)
      : await sql<{ id: number; document: string }>`
          select rowid as id, document from text_search
          where text_search match ${words.map((w) => `"${w}"*`).join(' ')} and workspace_id = ${workspaceId}
          limit ${CANDIDATES}`.execute(db);
  if (candidates.length === 0) return [];
  const best = rankDocuments(candidates, words).slice(0, limit);
  const { rows } = await sql<Row>`select ${columns} from texts t
      where t.id in (${sql.join(best.map((c) => c.id))})`.execute(db);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return best.flatMap((c) => {
    const row = byId.get(Number(c.id));
    return row ? [found(row)] : [];
  });
}

const NON_ASCII = /[\u0080-\uffff]/;
// The combining accents the index's tokenizer removes (its remove_diacritics covers Latin letters).
const MARKS = /[\u0300-\u036f]/g;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** Folds a text as the SQLite index's tokenizer does: lower case, accents removed. */
const fold = (text: string) =>
  NON_ASCII.test(text) ? text.normalize('NFD').replace(MARKS, '').toLowerCase() : text.toLowerCase();

function isWordCharacter(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (Number.isNaN(code)) return false;
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 97 && code <= 122);
  return WORD_CHARACTER.test(text[at] ?? '');
}

/**
 * Orders documents best first: each word scores 2 for every word of the document it equals and 1
 * for every one it only begins, the sum divided by the log of the document's length. Ties go by
 * developer ID, the document's first word as the index stores it. A plain scan of each document
 * (no tokenising), since it runs over every candidate.
 */
export function rankDocuments<T extends { document: string }>(documents: readonly T[], words: readonly string[]): T[] {
  const folded = words.map(fold);
  const scored = documents.map((candidate) => {
    const text = fold(candidate.document);
    let hits = 0;
    for (const word of folded) {
      for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) {
        if (at > 0 && isWordCharacter(text, at - 1)) continue;
        hits += isWordCharacter(text, at + word.length) ? 1 : 2;
      }
    }
    const space = candidate.document.indexOf(' ');
    return {
      candidate,
      score: hits / Math.log2(8 + text.length),
      developerId: space < 0 ? candidate.document : candidate.document.slice(0, space),
    };
  });
  scored.sort((a, b) =>
    b.score !== a.score
      ? b.score - a.score
      : a.developerId < b.developerId
        ? -1
        : a.developerId > b.developerId
          ? 1
          : 0,
  );
  return scored.map((s) => s.candidate);
}

const found = (r: Row): FoundText => ({
  id: Number(r.id),
  kind: r.kind,
  developerId: r.developer_id,
  name: r.name,
  text: r.text,
  folderId: r.folder_id,
  projectId: r.project_id,
});

interface Row {
  id: number;
  kind: TextKind;
  developer_id: string;
  name: string | null;
  text: string;
  folder_id: number | null;
  project_id: number | null;
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
    } else {
      await sql`insert into text_search (rowid, workspace_id, document)
        select t.id, t.workspace_id, ${SQLITE_DOCUMENT} from texts t
        where +t.workspace_id = ${workspaceId} and t.id between ${from} and ${to}`.execute(db);
      await sql`delete from text_search_queue where text_id in (select id from texts
        where +workspace_id = ${workspaceId} and id between ${from} and ${to})`.execute(db);
    }
    after = to;
  }
}

/**
 * Takes up to `batch` texts off the queue and rebuilds their documents, in the caller's
 * transaction. Answers how many it took. A deleted text's document is already gone (SQLite's
 * trigger, PostgreSQL's foreign key); its queued id rebuilds nothing.
 */
async function indexQueued(db: Executor, batch: number): Promise<number> {
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
const INDEX_BATCH = { sqlite: 250, postgres: 1000 } as const;
/**
 * The queue is worked off once writes have paused this long, with none under way in this process,
 * so that a burst of writes (an import, a script updating texts one request at a time) indexes
 * each text once, at the end, and the indexing does not take the cores from the burst's next write...
 */
const INDEX_IDLE_MS = 50;
/**
 * ...or once the oldest write not yet indexed is this old, in a burst that does not pause. Until
 * then a background pass also stops between batches for a write under way. The bound is what a
 * search in the middle of a burst may have to index first: at most this long of writes.
 */
const INDEX_MAX_DELAY_MS = 5000;

export interface SearchIndexerOptions {
  /** Whether a write is under way in this process: the background pass waits until none is. */
  writing?: () => boolean;
  /** The longest delay (`INDEX_MAX_DELAY_MS` unless given: a test shortens it). */
  maxDelayMs?: number;
  /**
   * The time and the timers the scheduling reads: the system's unless given. Only tests give
   * another (one they move by hand, so that they assert what the indexer did at a given moment
   * instead of sleeping); the server never does, so in production this is the system clock.
   */
  clock?: IndexerClock;
}

/** What the scheduling needs of a clock: the time in milliseconds and a timer that can be cleared. */
export interface IndexerClock {
  now(): number;
  /** Runs `run` once in `ms`; must not keep the process alive. */
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const systemClock: IndexerClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/**
 * Keeps the search index up to date outside the writes. The database's triggers queue the id of
 * every text a write changes, in the write's transaction (migration 2026_11_26_100); the queue
 * is worked off in the background once writes pause (`scheduled`), a batch per transaction, and
 * `upToDate` works off whatever is left before a search reads the index. So a search sees every
 * write committed before it began, on this server or another one, and a write does not pay for
 * tokenising its texts. Texts that change again before they are indexed are indexed once.
 */
export function createSearchIndexer(db: Kysely<Database>, options: SearchIndexerOptions = {}) {
  const writing = options.writing ?? (() => false);
  const maxDelay = options.maxDelayMs ?? INDEX_MAX_DELAY_MS;
  const clock = options.clock ?? systemClock;
  /** Write requests under way (`hold`), from their first byte: parsing and checking a batch takes a while too. */
  let held = 0;
  /** When a write request last arrived or ended, or a write was told: writes pause once this is `INDEX_IDLE_MS` old. */
  let activeAt = 0;
  const busy = () => writing() || held > 0;
  /** Whether writes have paused: none under way, none in the last `INDEX_IDLE_MS`. */
  const idle = () => !busy() && clock.now() - activeAt >= INDEX_IDLE_MS;
  let running: Promise<boolean> = Promise.resolve(true);
  let timer: unknown = null;
  /** When the oldest write not yet worked off was told (null: none), for the longest delay. */
  let pendingSince: number | null = null;
  /** When the latest write was told. */
  let toldAt = 0;
  let stopped = false;
  const overdue = () => pendingSince !== null && clock.now() >= pendingSince + maxDelay;

  /**
   * Works the queue off, a batch per transaction. In the background (`giveWay`) it stops before a
   * batch while a write is under way, unless the oldest write waiting is overdue. Answers whether
   * it left the queue empty.
   */
  const batch = INDEX_BATCH[dialectOf(db)];
  const workOff = async (giveWay: boolean): Promise<boolean> => {
    for (;;) {
      if (giveWay && (stopped || (!idle() && !overdue()))) return false;
      const empty = (await sql`select 1 as queued from text_search_queue limit 1`.execute(db)).rows.length === 0;
      if (empty) return true;
      const taken = await db
        .transaction()
        .execute((trx) => indexQueued(trx, batch))
        .catch(async (error: unknown) => {
          // A text a writer holds (PostgreSQL's lock_not_available, above): after it commits.
          if ((error as { code?: unknown }).code !== '55P03') throw error;
          await new Promise((resolve) => setTimeout(resolve, 20));
          return batch;
        });
      if (taken < batch) return true;
      await nextTurn();
    }
  };
  // One pass at a time in this process; a caller waits for the pass under way, then for its own.
  const pass = (giveWay: boolean) => {
    const next = () => workOff(giveWay);
    running = running.then(next, next);
    return running;
  };
  /** After a pass that began at `began` emptied the queue: writes told since may have queued texts after it looked. */
  const emptiedAt = (began: number) => {
    pendingSince = toldAt >= began ? began : null;
  };
  /** The background pass: a pass that gave way to a write tries again once writes pause. */
  const background = async () => {
    const began = clock.now();
    let emptied: boolean;
    try {
      emptied = await pass(true);
    } catch {
      // A pass that fails (the database going away) leaves the queue to the next write's pass or
      // the next search, rather than trying again at once.
      return;
    }
    if (emptied) emptiedAt(began);
    else if (timer === null && !stopped) arm();
  };
  /**
   * Waits for writes to pause: a write under way here or a moment ago (the next request of a
   * burst, which commits its own texts soon) puts the pass off again, up to the longest delay.
   */
  const arm = () => {
    const now = clock.now();
    // Until writes have paused long enough, or (a write under way) a moment from now to look again.
    const pause = Math.max(INDEX_IDLE_MS / 5, activeAt + INDEX_IDLE_MS - now);
    const due = (pendingSince ?? now) + maxDelay - now;
    timer = clock.setTimeout(
      () => {
        timer = null;
        if (stopped) return;
        if (!idle() && !overdue()) {
          arm();
          return;
        }
        void background();
      },
      Math.max(0, Math.min(pause, due)),
    );
  };

  return {
    /** Every text changed by a write committed before the call is indexed when this settles. */
    async upToDate(): Promise<void> {
      const began = clock.now();
      await pass(false);
      emptiedAt(began);
    },
    /**
     * Puts the background pass off while a write request is under way, until the answer is called
     * (again, a no-op): the HTTP layer holds from a write request's arrival to its response.
     */
    hold(): () => void {
      held += 1;
      activeAt = clock.now();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held -= 1;
        activeAt = clock.now();
      };
    },
    /** Called after every write: the queue is worked off when writes pause, off the request's path. */
    scheduled(): void {
      if (stopped) return;
      toldAt = clock.now();
      activeAt = toldAt;
      pendingSince ??= toldAt;
      if (timer !== null) clock.clearTimeout(timer);
      arm();
    },
    /** No pass is started in the background after this (`upToDate` still works off the queue); answers once the pass under way, if any, has ended. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      await running.catch(() => {});
    },
  };
}

export type SearchIndexer = ReturnType<typeof createSearchIndexer>;
