import { type Kysely, sql } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import {
  indexBatchSize,
  indexQueued,
  searchCandidates,
  searchMatchIds,
  tidyTranslationMemory,
} from '../../db/search-index.js';
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

export { indexWorkspaceTexts, refreshSearchIndex } from '../../db/search-index.js';

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
  const candidates = await searchCandidates(db, workspaceId, words, CANDIDATES);
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

/**
 * The row ids of every text of the workspace that a search for `q` finds (each word a word prefix
 * of its document), unranked; null when `q` has no word to search for (no restriction).
 */
export async function searchTextIds(db: Executor, workspaceId: number, q: string): Promise<ReadonlySet<number> | null> {
  const words = searchWords(q);
  if (words.length === 0) return null;
  return new Set(await searchMatchIds(db, workspaceId, words));
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

/**
 * Texts indexed before a pass that empties the queue tidies the translation memory's tables
 * (src/db/translation-memory-index.ts): an import or a restore, not an ordinary day's edits.
 */
const TIDY_AFTER_TEXTS = 5000;

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
  const batch = indexBatchSize(db);
  /** Texts indexed since the memory's tables were last tidied (`tidyTranslationMemory`). */
  let untidied = 0;
  const workOff = async (giveWay: boolean): Promise<boolean> => {
    for (;;) {
      if (giveWay && (stopped || (!idle() && !overdue()))) return false;
      const empty = (await sql`select 1 as queued from text_search_queue limit 1`.execute(db)).rows.length === 0;
      if (empty) {
        if (untidied >= TIDY_AFTER_TEXTS) {
          untidied = 0;
          // Only lookups' speed depends on it: a vacuum refused (a role without the right, a
          // server shutting down) must not fail the search or lookup waiting for this pass.
          await tidyTranslationMemory(db).catch(() => {});
        }
        return true;
      }
      await db
        .transaction()
        .execute(async (trx) => {
          untidied += await indexQueued(trx, batch);
        })
        .catch(async (error: unknown) => {
          // A text a writer holds (PostgreSQL's lock_not_available, above): after it commits.
          if ((error as { code?: unknown }).code !== '55P03') throw error;
          await new Promise((resolve) => setTimeout(resolve, 20));
        });
      // A batch of fewer texts does not mean the queue is empty: on PostgreSQL another server's
      // pass may hold the first rows this one looked at, which it skips once that pass commits,
      // while later rows are still queued. The check at the top of the loop says when it is empty.
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
