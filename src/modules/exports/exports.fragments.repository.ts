import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { Executor } from '../../db/schema.js';

/** SQL of the fragment store (tables `export_fragment_sets` and `export_fragments`, this module's own). */

export interface StoredFragment {
  text_id: number;
  stamp: string;
  body: string | null;
  meta: string | null;
}

/** Rows per statement: 5 parameters each, far under either database's limit. */
const ROWS_PER_QUERY = 1000;

export async function findSet(
  db: Executor,
  workspaceId: number,
  key: string,
): Promise<{ id: number; used_at: string } | undefined> {
  const row = await db
    .selectFrom('export_fragment_sets')
    .select(['id', 'used_at'])
    .where('workspace_id', '=', workspaceId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row && { id: Number(row.id), used_at: row.used_at };
}

/** Creates the set, or finds the one a concurrent export just created. */
export async function createSet(db: Executor, workspaceId: number, key: string, at: string): Promise<number> {
  await db
    .insertInto('export_fragment_sets')
    .values({ workspace_id: workspaceId, key, used_at: at })
    .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
    .execute();
  const found = await findSet(db, workspaceId, key);
  if (!found) throw new Error('fragment set vanished as it was created');
  return found.id;
}

export async function touchSet(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('export_fragment_sets').set({ used_at: at }).where('id', '=', id).execute();
}

/** Deletes the workspace's sets beyond the `keep` most recently used, with their fragments. */
export async function evictSets(db: Executor, workspaceId: number, keep: number): Promise<void> {
  const old = await db
    .selectFrom('export_fragment_sets')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .orderBy('used_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1_000_000)
    .execute();
  for (const { id } of old) {
    await db.deleteFrom('export_fragments').where('set_id', '=', Number(id)).execute();
    await db.deleteFrom('export_fragment_sets').where('id', '=', Number(id)).execute();
  }
}

/** The stored fragments of these texts in a set (any order). */
export async function readFragments(
  db: Executor,
  setId: number,
  textIds: readonly number[],
): Promise<StoredFragment[]> {
  if (textIds.length === 0) return [];
  const query = db
    .selectFrom('export_fragments')
    .select(['text_id', 'stamp', 'body', 'meta'])
    .where('set_id', '=', setId);
  // One array parameter rather than a thousand: the statement stays short and the same for every page.
  const rows =
    dialectOf(db) === 'postgres'
      ? await query.where(sql<boolean>`text_id = any(${sql.val([...textIds])}::integer[])`).execute()
      : await query.where(sql<boolean>`text_id in (select value from json_each(${JSON.stringify(textIds)}))`).execute();
  return rows.map((row) => ({ ...row, text_id: Number(row.text_id) }));
}

/** Stores fragments, replacing what the set held for those texts. */
export async function writeFragments(db: Executor, setId: number, rows: readonly StoredFragment[]): Promise<void> {
  for (let from = 0; from < rows.length; from += ROWS_PER_QUERY) {
    const part = rows.slice(from, from + ROWS_PER_QUERY).map((row) => ({ set_id: setId, ...row }));
    await db
      .insertInto('export_fragments')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['set_id', 'text_id']).doUpdateSet((eb) => ({
          stamp: eb.ref('excluded.stamp'),
          body: eb.ref('excluded.body'),
          meta: eb.ref('excluded.meta'),
        })),
      )
      .execute();
  }
}

/** Forgets every stored fragment of these texts of the workspace, in every set. */
export async function forgetTexts(db: Executor, workspaceId: number, textIds: readonly number[]): Promise<void> {
  for (let from = 0; from < textIds.length; from += ROWS_PER_QUERY) {
    const part = textIds.slice(from, from + ROWS_PER_QUERY);
    await db
      .deleteFrom('export_fragments')
      .where('text_id', 'in', part)
      .where('set_id', 'in', (eb) =>
        eb.selectFrom('export_fragment_sets').select('id').where('workspace_id', '=', workspaceId),
      )
      .execute();
  }
}
