import { type Kysely, type Selectable, sql } from 'kysely';
import { answersOnEventLoop } from '../../db/query-plan.js';
import type { Database, Executor } from '../../db/schema.js';
import { appendAll } from '../../shared/arrays.js';
import { nextTurn } from '../../shared/next-turn.js';
import { CHANGES_PER_ROW, changeId, changesOfRow, rowOfChangeId, storedRows } from './changes.stored.js';
import type { Change, RecordedChange } from './changes.types.js';

/**
 * The `changes` table as read: the workspace's revision, the history (`listChanges`), the change
 * ids of a write (for its webhook events), the rows a restore works from; and the purge of old
 * changes. The two statements every write runs (the revision advanced, the changes inserted) are
 * in write-path.ts, beside the transaction that runs them: nothing but the write path writes.
 */

/** The workspace's content revision now: what the reader's cache and the ETags are keyed on. */
export async function readRevision(db: Executor, workspaceId: number): Promise<number | undefined> {
  const row = await db.selectFrom('workspaces').select('revision').where('id', '=', workspaceId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.revision);
}

/** The content revisions of several workspaces in one query (those that exist). */
export async function readRevisions(db: Executor, workspaceIds: readonly number[]): Promise<Map<number, number>> {
  const revisions = new Map<number, number>();
  for (let start = 0; start < workspaceIds.length; start += 500) {
    const rows = await db
      .selectFrom('workspaces')
      .select(['id', 'revision'])
      .where('id', 'in', workspaceIds.slice(start, start + 500))
      .execute();
    for (const row of rows) revisions.set(row.id, Number(row.revision));
  }
  return revisions;
}

export interface ChangesQuery {
  /** One kind or several. */
  kind?: string | readonly string[];
  developerId?: string;
  since?: string;
  until?: string;
  actor?: string;
  /** Only the changes of the write that made this workspace revision. */
  revision?: number;
  /** Only changes older than this change id (the cursor). */
  beforeId?: number;
  /** Only changes whose ids fall in one of these inclusive ranges (what a webhook event carries). */
  ranges?: readonly (readonly [number, number])[];
  limit: number;
  /** Row ids per query of a scan on SQLite (tests make it small); `SCAN_WINDOW_ROWS` by default. */
  windowRows?: number;
}

/** A stored row's changes, with their ids, newest first. */
function recordedOfRow(row: Selectable<Database['changes']>): RecordedChange[] {
  const parts = changesOfRow(row);
  const out: RecordedChange[] = [];
  for (let index = parts.length - 1; index >= 0; index -= 1) {
    const part = parts[index] as (typeof parts)[number];
    out.push({
      id: String(changeId(row.id, index)),
      at: row.at,
      actor: row.actor,
      keyId: row.key_id,
      revision: row.revision === null ? null : String(row.revision),
      kind: row.kind as RecordedChange['kind'],
      developerId: row.developer_id,
      variantId: part.variantId,
      action: part.action,
      fields: part.fields,
    });
  }
  return out;
}

/** Row ids per query of a scan through the log on SQLite (`listChanges`): about 10 ms each. */
export const SCAN_WINDOW_ROWS = 10_000;

/**
 * Newest first, at most `limit` changes. A developer ID matches every change of the records that
 * ever had it, so the history of a renamed record includes what happened under its old ID, and a
 * deleted record's history stays readable.
 *
 * How the rows are found, so that no query holds SQLite's event loop for long at a million texts:
 * - with a developer ID, its records' references first (`(workspace_id, developer_id)`), then each
 *   record's rows newest first from `(workspace_id, record_ref)`, whose entries are in row-id order:
 *   a query over the whole workspace with `record_ref in (...)` was planned on the (workspace, id)
 *   index instead, walking every row of the log (over a second at 170,000 rows);
 * - otherwise newest first along (workspace, id); on SQLite, which answers on the event loop, in
 *   windows of `SCAN_WINDOW_ROWS` row ids with a turn between them, so a filter that few rows pass
 *   (a kind, an actor, a time range) never scans the whole log in one query.
 */
export async function listChanges(db: Executor, workspaceId: number, query: ChangesQuery): Promise<RecordedChange[]> {
  const kinds = query.kind === undefined ? undefined : typeof query.kind === 'string' ? [query.kind] : [...query.kind];
  const { beforeId, ranges } = query;
  if (ranges !== undefined && ranges.length === 0) return [];
  const filtered = (refs: readonly string[] | null, window: readonly [number, number] | null) => {
    let select = db.selectFrom('changes').selectAll().where('workspace_id', '=', workspaceId);
    if (refs !== null) select = select.where('record_ref', 'in', refs);
    if (kinds !== undefined) select = select.where('kind', 'in', kinds);
    if (query.since !== undefined) select = select.where('at', '>=', query.since);
    if (query.until !== undefined) select = select.where('at', '<', query.until);
    if (query.actor !== undefined) select = select.where(sql<string>`lower(actor)`, '=', query.actor.toLowerCase());
    if (query.revision !== undefined) select = select.where('revision', '=', query.revision);
    // Every row read holds at least one change the query keeps, so `limit` rows are enough.
    if (beforeId !== undefined) {
      const row = rowOfChangeId(beforeId);
      select = select.where('id', beforeId % CHANGES_PER_ROW === 0 ? '<' : '<=', row);
    }
    if (ranges !== undefined) {
      select = select.where((eb) =>
        eb.or(ranges.map(([from, to]) => eb.between('id', rowOfChangeId(from), rowOfChangeId(to)))),
      );
    }
    if (window !== null) select = select.where('id', '>=', window[0]).where('id', '<', window[1]);
    return select.orderBy('id', 'desc').limit(query.limit);
  };

  const out: RecordedChange[] = [];
  /** Adds a query's rows' changes; true once `limit` are there. */
  const take = (rows: readonly ChangeRow[]): boolean => {
    for (const row of rows) {
      for (const change of recordedOfRow(row)) {
        const id = Number(change.id);
        if (beforeId !== undefined && id >= beforeId) continue;
        if (ranges !== undefined && !ranges.some(([from, to]) => id >= from && id <= to)) continue;
        out.push(change);
        if (out.length === query.limit) return true;
      }
    }
    return false;
  };

  if (query.developerId !== undefined) {
    let refsQuery = db
      .selectFrom('changes')
      .select('record_ref')
      .distinct()
      .where('workspace_id', '=', workspaceId)
      .where('developer_id', '=', query.developerId);
    if (kinds !== undefined) refsQuery = refsQuery.where('kind', 'in', kinds);
    const refs = (await refsQuery.execute()).map((r) => r.record_ref);
    // Each record's newest rows, merged newest first: `limit` rows in all are enough.
    const rows: ChangeRow[] = [];
    for (const ref of refs) appendAll(rows, await filtered([ref], null).execute());
    rows.sort((a, b) => b.id - a.id);
    take(rows);
    return out;
  }

  if (!answersOnEventLoop(db) || ranges !== undefined) {
    take(await filtered(null, null).execute());
    return out;
  }
  const bounds = await db
    .selectFrom('changes')
    .select((eb) => [eb.fn.min('id').as('first'), eb.fn.max('id').as('last')])
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  if (bounds?.first == null || bounds.last == null) return out;
  const first = Number(bounds.first);
  let end = Number(bounds.last) + 1;
  if (beforeId !== undefined) end = Math.min(end, rowOfChangeId(beforeId) + 1);
  const windowRows = query.windowRows ?? SCAN_WINDOW_ROWS;
  while (end > first) {
    const start = Math.max(first, end - windowRows);
    if (take(await filtered(null, [start, end]).execute())) return out;
    end = start;
    if (end > first) await nextTurn();
  }
  return out;
}

/**
 * Removes changes recorded before `cutoff` (ISO time), in every workspace. The workspaces that lose
 * history get a new revision, so no cached history page shows what is gone.
 */
export async function deleteChangesBefore(
  db: Kysely<Database>,
  cutoff: string,
): Promise<{ deleted: number; revisions: { id: number; revision: number }[] }> {
  return db.transaction().execute(async (trx) => {
    const revisions = await trx
      .updateTable('workspaces')
      .set((eb) => ({ revision: eb('revision', '+', 1) }))
      .where('id', 'in', (eb) => eb.selectFrom('changes').select('workspace_id').distinct().where('at', '<', cutoff))
      .returning(['id', 'revision'])
      .execute();
    const result = await trx.deleteFrom('changes').where('at', '<', cutoff).executeTakeFirst();
    return {
      deleted: Number(result.numDeletedRows),
      revisions: revisions.map((row) => ({ id: row.id, revision: Number(row.revision) })),
    };
  });
}

/**
 * Inside a write, after its changes are written: their ids in the order they were given (writers
 * to one workspace queue, so the workspace's newest rows are the write's own).
 */
export async function idsOfWrite(db: Executor, workspaceId: number, changes: readonly Change[]): Promise<number[]> {
  const stored = storedRows(changes);
  const rows = await db
    .selectFrom('changes')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .orderBy('id', 'desc')
    .limit(stored.length)
    .execute();
  rows.reverse();
  const ids: number[] = [];
  stored.forEach(({ count }, index) => {
    const rowId = (rows[index] as { id: number }).id;
    for (let part = 0; part < count; part += 1) ids.push(changeId(rowId, part));
  });
  return ids;
}

export type ChangeRow = Selectable<Database['changes']>;

/** The stored row that holds a change id, in this workspace only. */
export async function rowOfChange(db: Executor, workspaceId: number, id: number): Promise<ChangeRow | undefined> {
  return db
    .selectFrom('changes')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', rowOfChangeId(id))
    .executeTakeFirst();
}

/** The rows of the write that made `revision`, in the write's order. */
export async function rowsOfRevision(db: Executor, workspaceId: number, revision: number): Promise<ChangeRow[]> {
  return db
    .selectFrom('changes')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('revision', '=', revision)
    .orderBy('id')
    .execute();
}

/** Every row of these records from row `fromRow` on, oldest first: what happened to them since. */
export async function rowsOfRecordsSince(
  db: Executor,
  workspaceId: number,
  refs: readonly string[],
  fromRow: number,
): Promise<ChangeRow[]> {
  if (refs.length === 0) return [];
  const rows: ChangeRow[] = [];
  for (let start = 0; start < refs.length; start += 500) {
    appendAll(
      rows,
      await db
        .selectFrom('changes')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('record_ref', 'in', refs.slice(start, start + 500))
        .where('id', '>=', fromRow)
        .execute(),
    );
  }
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * The workspace's rows of writes after revision `after`, oldest write first and each write's rows
 * in its order, at most `limit` rows (the live event stream's read: docs/events.md). Writers to
 * one workspace queue on its row, so a write's rows are committed before the next write's: a read
 * that sees revision r+1 sees all of r.
 */
export async function rowsAfterRevision(
  db: Executor,
  workspaceId: number,
  after: number,
  limit: number,
): Promise<ChangeRow[]> {
  return db
    .selectFrom('changes')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('revision', '>', after)
    .orderBy('revision')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * The kind and record of each change after revision `after`, at most `limit`: which records the
 * writes since touched, without their fields (the app's list patches its kept keys with them).
 */
export function refsAfterRevision(
  db: Executor,
  workspaceId: number,
  after: number,
  limit: number,
): Promise<{ kind: string; record_ref: string }[]> {
  return db
    .selectFrom('changes')
    .select(['kind', 'record_ref'])
    .where('workspace_id', '=', workspaceId)
    .where('revision', '>', after)
    .limit(limit)
    .execute();
}

/** The oldest revision the log still holds changes of (null: none), and the workspace's revision now. */
export async function retainedRevisions(
  db: Executor,
  workspaceId: number,
): Promise<{ oldest: number | null; current: number | undefined }> {
  const [oldest, current] = await Promise.all([
    db
      .selectFrom('changes')
      .select((eb) => eb.fn.min('revision').as('oldest'))
      .where('workspace_id', '=', workspaceId)
      .where('revision', 'is not', null)
      .executeTakeFirst(),
    readRevision(db, workspaceId),
  ]);
  return { oldest: oldest?.oldest == null ? null : Number(oldest.oldest), current };
}

/** A row's changes as history shows them, in the write's order. */
export function changesOfStoredRow(row: ChangeRow): RecordedChange[] {
  return recordedOfRow(row).reverse();
}
