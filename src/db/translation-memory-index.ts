import { sql } from 'kysely';
import { minhashBands, trigramsOf } from '../text/trigrams.js';
import { dialectOf } from './dialect.js';
import type { Executor } from './schema.js';

/*
 * The translation memory's index (migrations 2026_12_03_100 and 2026_12_04_100,
 * docs/translation-memory.md): one row per text that has a value in some variant, with its base
 * text as `source`, and the MinHash band keys of that source (src/text/trigrams.ts) in
 * `translation_memory_bands`, on both databases: the same keys find the same candidates, so both
 * rank alike. They answer candidates only: the texts core scores them (src/text/trigrams.ts).
 */

/** A text whose source may be similar enough, with that source for scoring. */
export interface MemoryCandidate {
  id: number;
  source: string;
}

export interface MemoryQuery {
  workspaceId: number;
  source: string;
  /** The lowest similarity (0 to 1) the caller will answer. */
  minSimilarity: number;
  /** Row ids of the variants a candidate must have a non-empty value in (at least one of them). */
  variantIds: readonly number[];
  /** A text that is not a candidate (the one being translated), or null. */
  excludeTextId: number | null;
  /** At most this many candidates, those sharing most band keys with the query first. */
  limit: number;
}

/**
 * Rebuilds the memory rows of these texts, in the caller's transaction: what the search index's
 * worker calls for each batch it takes off the queue, and a restore for every text it wrote. A
 * text without a value in any variant, or with an empty base text, has no row.
 */
export async function indexTranslationMemory(db: Executor, textIds: readonly number[]): Promise<void> {
  if (textIds.length === 0) return;
  const postgres = dialectOf(db) === 'postgres';
  const ids = [...textIds];
  const idList = JSON.stringify(ids);
  if (postgres) {
    await sql`delete from translation_memory where text_id = any(${ids}::integer[])`.execute(db);
    await sql`delete from translation_memory_bands where text_id = any(${ids}::integer[])`.execute(db);
  } else {
    await sql`delete from translation_memory where text_id in (select value from json_each(${idList}))`.execute(db);
    await sql`delete from translation_memory_bands where text_id in (select value from json_each(${idList}))`.execute(
      db,
    );
  }
  const inIds = postgres ? sql`t.id = any(${ids}::integer[])` : sql`t.id in (select value from json_each(${idList}))`;
  const { rows } = await sql<{ id: number; workspace_id: number; text: string }>`
    select t.id, t.workspace_id, t.text from texts t
    where ${inIds} and t.text <> ''
      and exists (select 1 from text_variants v where v.text_id = t.id and v.text <> '')`.execute(db);
  const entries = rows.flatMap((row) => {
    const grams = trigramsOf(row.text);
    return grams.size === 0
      ? []
      : [{ id: Number(row.id), workspaceId: Number(row.workspace_id), source: row.text, grams }];
  });
  if (entries.length === 0) return;
  const bandRows = entries.flatMap((e) => minhashBands(e.grams).map((band) => [e.workspaceId, band, e.id] as const));
  if (postgres) {
    await sql`insert into translation_memory (text_id, workspace_id, source, grams)
      select * from unnest(${entries.map((e) => e.id)}::integer[], ${entries.map((e) => e.workspaceId)}::integer[],
        ${entries.map((e) => e.source)}::text[], ${entries.map((e) => e.grams.size)}::integer[])`.execute(db);
    for (let at = 0; at < bandRows.length; at += BAND_ROWS_PER_INSERT) {
      const part = bandRows.slice(at, at + BAND_ROWS_PER_INSERT);
      await sql`insert into translation_memory_bands (workspace_id, band, text_id)
        select * from unnest(${part.map((r) => r[0])}::integer[], ${part.map((r) => String(r[1]))}::bigint[],
          ${part.map((r) => r[2])}::integer[])
        on conflict do nothing`.execute(db);
    }
    return;
  }
  const memory = JSON.stringify(entries.map((e) => [e.id, e.workspaceId, e.source, e.grams.size]));
  await sql`insert into translation_memory (text_id, workspace_id, source, grams)
    select value ->> 0, value ->> 1, value ->> 2, value ->> 3 from json_each(${memory})`.execute(db);
  for (let at = 0; at < bandRows.length; at += BAND_ROWS_PER_INSERT) {
    const part = JSON.stringify(bandRows.slice(at, at + BAND_ROWS_PER_INSERT));
    await sql`insert or ignore into translation_memory_bands (workspace_id, band, text_id)
      select value ->> 0, value ->> 1, value ->> 2 from json_each(${part})`.execute(db);
  }
}
const BAND_ROWS_PER_INSERT = 20_000;

/**
 * After many texts were indexed: on PostgreSQL, `VACUUM (ANALYZE)` of the memory's tables. A
 * lookup reads its band rows from the index alone only where the table's visibility map says
 * their pages hold no row it must check, which a vacuum records; until then it reads the table's
 * pages as well (106 of 114 ms of a common-words lookup at 100,000 texts, 28 ms after a vacuum).
 * Autovacuum does this on its own where it is on, but not everywhere (it can be turned off, and
 * it waits for its thresholds), so the indexer asks for it once a backlog is worked off. Outside
 * a transaction (VACUUM cannot run in one). SQLite reads its index alone always: nothing to do.
 */
export async function tidyTranslationMemory(db: Executor): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`vacuum (analyze) translation_memory_bands, translation_memory`.execute(db);
}

/**
 * The texts of the workspace whose source may be at least `minSimilarity` like the query's and
 * that have a value in one of the variants: those that share a MinHash band key with the query
 * (src/text/trigrams.ts). A source as similar as the API lets a caller ask for (40%) shares one
 * with a chance of 0.88 or more, 0.986 at 50%, and an identical one always; a dissimilar one
 * rarely. Those sharing most keys are read, up to MAX_BANDED, and lengths outside what the
 * similarity allows are skipped. The same SQL on both databases but for how a list is bound.
 * (PostgreSQL used pg_trgm's GIN index before: it rechecked 16,758 texts of common words to keep
 * 26, p95 337 ms at 100,000 texts.)
 */
export async function memoryCandidates(db: Executor, query: MemoryQuery): Promise<MemoryCandidate[]> {
  const { workspaceId, source, minSimilarity, limit } = query;
  if (query.variantIds.length === 0) return [];
  const exclude = query.excludeTextId ?? -1;
  const grams = trigramsOf(source);
  if (grams.size === 0) return [];
  const keys = minhashBands(grams);
  const postgres = dialectOf(db) === 'postgres';
  const inBands = postgres
    ? sql`band = any(${keys.map(String)}::bigint[])`
    : sql`band in (select value from json_each(${JSON.stringify(keys)}))`;
  const inVariants = postgres
    ? sql`v.variant_id = any(${[...query.variantIds]}::integer[])`
    : sql`v.variant_id in (select value from json_each(${JSON.stringify(query.variantIds)}))`;
  const { rows } = await sql<MemoryCandidate>`select c.text_id as id, m.source
    from (select text_id, count(*) as shared from translation_memory_bands
      where workspace_id = ${workspaceId} and ${inBands}
      group by text_id order by shared desc, text_id limit ${MAX_BANDED}) c
    join translation_memory m on m.text_id = c.text_id
    where m.grams between ${Math.ceil(minSimilarity * grams.size - 1e-9)} and ${Math.floor(grams.size / minSimilarity + 1e-9)}
      and m.text_id <> ${exclude}
      and exists (select 1 from text_variants v where v.text_id = m.text_id and ${inVariants} and v.text <> '')
    order by c.shared desc, c.text_id
    limit ${limit}`.execute(db);
  return rows.map((row) => ({ id: Number(row.id), source: row.source }));
}

/** Texts sharing a band key that are read at most, those sharing most first. */
const MAX_BANDED = 400;
