import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';

/** SQL of the fragment store (tables `export_fragment_sets` and `export_fragment_runs`, this module's own). */

export interface RunHeader {
  id: number;
  first_key: string;
  last_key: string;
}

/** A run as stored: `deflated`, `crc` and `size` are `body` compressed (null in runs stored before). */
export interface RunRow {
  first_key: string;
  last_key: string;
  entries: string;
  body: string;
  deflated: Buffer | null;
  crc: number | null;
  size: number | null;
  stamps: string | null;
}

/** A run as an export reads it first: all but its bytes as text. */
export type RunHead = Omit<RunRow, 'body'>;

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
    await db.deleteFrom('export_fragment_runs').where('set_id', '=', Number(id)).execute();
    await db.deleteFrom('export_fragment_sets').where('id', '=', Number(id)).execute();
  }
}

/** The runs of a set: where each begins and ends (any order). */
export async function readRunHeaders(db: Executor, setId: number): Promise<RunHeader[]> {
  const rows = await db
    .selectFrom('export_fragment_runs')
    .select(['id', 'first_key', 'last_key'])
    .where('set_id', '=', setId)
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** Runs without their bytes as text (those still there, any order). */
export async function readRuns(db: Executor, ids: readonly number[]): Promise<(RunHead & { id: number })[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('export_fragment_runs')
    .select(['id', 'first_key', 'last_key', 'entries', 'deflated', 'crc', 'size', 'stamps'])
    .where('id', 'in', [...ids])
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** One run's bytes as text, or undefined when it is gone. */
export async function readRunBody(db: Executor, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('export_fragment_runs').select('body').where('id', '=', id).executeTakeFirst();
  return row?.body;
}

/** Replaces runs of a set by others, in one transaction. */
export async function replaceRuns(
  db: Kysely<Database>,
  setId: number,
  remove: readonly number[],
  add: readonly RunRow[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (remove.length > 0) {
      await trx
        .deleteFrom('export_fragment_runs')
        .where('set_id', '=', setId)
        .where('id', 'in', [...remove])
        .execute();
    }
    // One row per statement: a run is up to a few hundred kilobytes.
    for (const row of add)
      await trx
        .insertInto('export_fragment_runs')
        .values({ set_id: setId, ...row })
        .execute();
  });
}
