import { type Kysely, sql, type Transaction } from 'kysely';
import { bulkInsert } from '../../db/bulk-insert.js';
import type { Database, Executor } from '../../db/schema.js';
import { fieldsOfStored, storedFields } from './changes.stored.js';
import type { Change, RecordedChange, WriteScope } from './changes.types.js';

/**
 * The `changes` table, and the workspace revision that every write advances. Nothing but the
 * write path writes either.
 */

/**
 * Advancing the revision first takes the workspace row's lock (PostgreSQL) for the transaction.
 * Answers the new revision (undefined for a workspace that does not exist).
 */
export async function advanceRevision(trx: Transaction<Database>, workspaceId: number): Promise<number | undefined> {
  const row = await trx
    .updateTable('workspaces')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('id', '=', workspaceId)
    .returning('revision')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.revision);
}

/** The workspace's content revision now: what the reader's cache and the ETags are keyed on. */
export async function readRevision(db: Executor, workspaceId: number): Promise<number | undefined> {
  const row = await db.selectFrom('workspaces').select('revision').where('id', '=', workspaceId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.revision);
}

const COLUMNS = [
  'workspace_id',
  'at',
  'actor',
  'key_id',
  'kind',
  'record_ref',
  'developer_id',
  'variant_id',
  'action',
  'fields',
] as const;

export async function insertChanges(
  trx: Transaction<Database>,
  scope: WriteScope,
  changes: readonly Change[],
  at: string,
): Promise<void> {
  const { workspaceId, actor } = scope;
  await bulkInsert(
    trx,
    'changes',
    COLUMNS,
    changes.map((c) => [
      workspaceId,
      at,
      actor.email,
      actor.keyId,
      c.kind,
      c.ref,
      c.developerId,
      c.variantId,
      c.action,
      storedFields(c.fields),
    ]),
  );
}

export interface ChangesQuery {
  kind?: string;
  developerId?: string;
  since?: string;
  until?: string;
  actor?: string;
  /** Only changes older than this id (the cursor). */
  beforeId?: number;
  /** Only these changes (the webhook outbox reads its events' changes by id). */
  ids?: readonly number[];
  limit: number;
}

/**
 * Newest first. A developer ID matches every change of the records that ever had it, so the
 * history of a renamed record includes what happened under its old ID, and a deleted record's
 * history stays readable.
 */
export async function listChanges(db: Executor, workspaceId: number, query: ChangesQuery): Promise<RecordedChange[]> {
  let select = db.selectFrom('changes').selectAll().where('workspace_id', '=', workspaceId);
  if (query.kind !== undefined) select = select.where('kind', '=', query.kind);
  if (query.developerId !== undefined) {
    const { developerId, kind } = query;
    select = select.where('record_ref', 'in', (eb) => {
      let refs = eb
        .selectFrom('changes')
        .select('record_ref')
        .where('workspace_id', '=', workspaceId)
        .where('developer_id', '=', developerId);
      if (kind !== undefined) refs = refs.where('kind', '=', kind);
      return refs;
    });
  }
  if (query.since !== undefined) select = select.where('at', '>=', query.since);
  if (query.until !== undefined) select = select.where('at', '<', query.until);
  if (query.actor !== undefined) select = select.where(sql<string>`lower(actor)`, '=', query.actor.toLowerCase());
  if (query.beforeId !== undefined) select = select.where('id', '<', query.beforeId);
  if (query.ids !== undefined) select = select.where('id', 'in', query.ids);
  const rows = await select.orderBy('id', 'desc').limit(query.limit).execute();
  return rows.map((row) => ({
    id: String(row.id),
    at: row.at,
    actor: row.actor,
    keyId: row.key_id,
    kind: row.kind as RecordedChange['kind'],
    developerId: row.developer_id,
    variantId: row.variant_id,
    action: row.action as RecordedChange['action'],
    fields: fieldsOfStored(row.fields),
  }));
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

/** The ids of the workspace's newest `count` changes, oldest first: inside a write, its own. */
export async function newestChangeIds(db: Executor, workspaceId: number, count: number): Promise<number[]> {
  const rows = await db
    .selectFrom('changes')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .orderBy('id', 'desc')
    .limit(count)
    .execute();
  return rows.map((row) => row.id).reverse();
}
