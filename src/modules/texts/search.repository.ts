import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { Executor } from '../../db/schema.js';
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
 * kept by database triggers (migration 2026_11_25_703). The query's words are letters and digits
 * only and travel as one bound parameter, so no search syntax comes from the request.
 */
export async function searchTexts(db: Executor, workspaceId: number, q: string, limit: number): Promise<FoundText[]> {
  const words = searchWords(q);
  if (words.length === 0) return [];
  const columns = sql`t.id, t.kind, t.developer_id, t.name, t.text, t.folder_id, t.project_id`;
  // Ranking every match of a common word costs time in proportion to the workspace's size: the
  // best `limit` are chosen among the first CANDIDATES matches, which for any query that narrows
  // the texts down (the usual search) is all of them.
  const query =
    dialectOf(db) === 'postgres'
      ? sql<Row>`select ${columns} from (
            select text_id, ts_rank(document, q.query) as score
            from text_search, to_tsquery('simple', ${words.map((w) => `${w}:*`).join(' & ')}) as q(query)
            where workspace_id = ${workspaceId} and document @@ q.query
            limit ${CANDIDATES}
          ) c join texts t on t.id = c.text_id
          order by c.score desc, t.developer_id
          limit ${limit}`
      : sql<Row>`select ${columns} from (
            select rowid as text_id, rank from text_search
            where text_search match ${words.map((w) => `"${w}"*`).join(' ')} and workspace_id = ${workspaceId}
            limit ${CANDIDATES}
          ) c join texts t on t.id = c.text_id
          order by c.rank, t.developer_id
          limit ${limit}`;
  const { rows } = await query.execute(db);
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    developerId: r.developer_id,
    name: r.name,
    text: r.text,
    folderId: r.folder_id,
    projectId: r.project_id,
  }));
}

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
const POSTGRES_DOCUMENT = sql`to_tsvector('simple',
  t.developer_id || ' ' || translate(t.developer_id, '-_.', '   ') || ' ' || coalesce(t.name, '') || ' '
  || t.text || ' ' || t.notes || ' ' || t.tags || ' '
  || coalesce((select string_agg(v.text || ' ' || v.notes, ' ') from text_variants v where v.text_id = t.id), ''))`;

/**
 * Rebuilds the documents of the texts whose searchable columns changed in this transaction. The
 * database's triggers queue their ids in `text_search_queue` (migration 2026_11_26_100); the write
 * path calls this before every commit, so each text's document is built once per write, however
 * many of its rows the write touched, and the index still changes with the text. A deleted text's
 * document is already gone; its queued id rebuilds nothing.
 */
export async function refreshSearchIndex(db: Executor): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    // Only the ids this transaction takes off the queue: another writer's are not ours to clear.
    const { rows } = await sql<{ text_id: number }>`delete from text_search_queue returning text_id`.execute(db);
    if (rows.length === 0) return;
    const ids = rows.map((row) => row.text_id);
    await sql`delete from text_search where text_id = any(${ids}::integer[])`.execute(db);
    await sql`insert into text_search (text_id, workspace_id, document)
      select t.id, t.workspace_id, ${POSTGRES_DOCUMENT} from texts t where t.id = any(${ids}::integer[])`.execute(db);
    return;
  }
  // One writer at a time: the queue holds this transaction's ids only.
  const queued = await sql<{ queued: number }>`select exists (select 1 from text_search_queue) as queued`.execute(db);
  if (!queued.rows[0]?.queued) return;
  await sql`delete from text_search where rowid in (select text_id from text_search_queue)`.execute(db);
  await sql`insert into text_search (rowid, workspace_id, document)
    select t.id, t.workspace_id, ${SQLITE_DOCUMENT} from texts t where t.id in (select text_id from text_search_queue)`.execute(
    db,
  );
  await sql`delete from text_search_queue`.execute(db);
}
