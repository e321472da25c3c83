import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import { memoryCandidates } from '../../db/translation-memory-index.js';
import { trigramSimilarity, trigramsOf } from '../../text/trigrams.js';
import type { TextKind } from './texts.types.js';

/**
 * The translation memory's matches (docs/translation-memory.md): texts of the workspace whose base
 * text is like a given one and that have a value in one of the variants asked for. The databases
 * find candidates (src/db/translation-memory-index.ts); they are scored here, the same way on
 * both, with pg_trgm's similarity.
 */

export interface MemoryMatch {
  /** 100 for an identical base text; otherwise the similarity in percent, at most 99. */
  score: number;
  exact: boolean;
  /** The text the match comes from: enough to name it and show it. */
  kind: TextKind;
  developerId: string;
  /** Components only. */
  name: string | null;
  /** Its base text. */
  source: string;
  /** Row ids; the caller names them. */
  folderId: number | null;
  projectId: number | null;
  /** Its value in the first of the variants asked for that it has one in. */
  value: { variantId: number; text: string; richText: string | null; status: string };
}

export interface MemoryRequest {
  /** The base text to find matches for. */
  source: string;
  /** Variant row ids, in order of preference (the target variant first). */
  variantIds: readonly number[];
  excludeTextId: number | null;
  /** The lowest score answered, in percent. */
  minScore: number;
  limit: number;
}

/** Candidates scored per request: the most similar are among them (docs/translation-memory.md). */
const CANDIDATES = 200;

interface TextRow {
  id: number;
  kind: TextKind;
  developer_id: string;
  name: string | null;
  text: string;
  folder_id: number | null;
  project_id: number | null;
}

interface ValueRow {
  text_id: number;
  variant_id: number;
  text: string;
  rich_text: string | null;
  status: string;
}

export async function findMemoryMatches(
  db: Executor,
  workspaceId: number,
  request: MemoryRequest,
): Promise<MemoryMatch[]> {
  const grams = trigramsOf(request.source);
  if (grams.size === 0 || request.variantIds.length === 0) return [];
  const minSimilarity = request.minScore / 100;
  const candidates = await memoryCandidates(db, {
    workspaceId,
    source: request.source,
    minSimilarity,
    variantIds: request.variantIds,
    excludeTextId: request.excludeTextId,
    limit: CANDIDATES,
  });
  const scored = candidates
    .map((c) => ({
      id: c.id,
      exact: c.source === request.source,
      similarity: trigramSimilarity(grams, trigramsOf(c.source)),
    }))
    .filter((c) => c.exact || c.similarity >= minSimilarity)
    .sort((a, b) => Number(b.exact) - Number(a.exact) || b.similarity - a.similarity || a.id - b.id);
  // A few more than asked: identical matches (linked instances, copies) are answered once.
  const best = scored.slice(0, request.limit * 4);
  if (best.length === 0) return [];
  const ids = sql.join(best.map((c) => c.id));
  // `+`: by row id, off the workspace's index, which SQLite's planner would otherwise walk.
  const [{ rows: texts }, { rows: values }] = await Promise.all([
    sql<TextRow>`select t.id, t.kind, t.developer_id, t.name, t.text, t.folder_id, t.project_id from texts t
      where +t.workspace_id = ${workspaceId} and t.id in (${ids})`.execute(db),
    sql<ValueRow>`select v.text_id, v.variant_id, v.text, v.rich_text, v.status from text_variants v
      where v.text_id in (${ids}) and v.variant_id in (${sql.join(request.variantIds)}) and v.text <> ''`.execute(db),
  ]);
  const byId = new Map(texts.map((t) => [Number(t.id), t]));
  const preference = new Map(request.variantIds.map((id, rank) => [id, rank]));
  const chosenValue = new Map<number, ValueRow>();
  for (const value of values) {
    const held = chosenValue.get(Number(value.text_id));
    const rank = (v: ValueRow) => preference.get(Number(v.variant_id)) ?? Number.POSITIVE_INFINITY;
    if (!held || rank(value) < rank(held)) chosenValue.set(Number(value.text_id), value);
  }
  const seen = new Set<string>();
  const matches: MemoryMatch[] = [];
  for (const c of best) {
    const text = byId.get(c.id);
    const value = chosenValue.get(c.id);
    if (!text || !value) continue;
    const key = JSON.stringify([text.text, value.text]);
    if (seen.has(key)) continue;
    seen.add(key);
    matches.push({
      score: c.exact ? 100 : Math.min(99, Math.floor(c.similarity * 100)),
      exact: c.exact,
      kind: text.kind,
      developerId: text.developer_id,
      name: text.name,
      source: text.text,
      folderId: text.folder_id === null ? null : Number(text.folder_id),
      projectId: text.project_id === null ? null : Number(text.project_id),
      value: {
        variantId: Number(value.variant_id),
        text: value.text,
        richText: value.rich_text,
        status: value.status,
      },
    });
    if (matches.length === request.limit) break;
  }
  return matches;
}
