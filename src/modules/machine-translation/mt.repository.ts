import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { skippingLockedRows } from '../../db/query-plan.js';
import type { Database, Executor, MtJobItemsTable, MtJobsTable, MtProvidersTable } from '../../db/schema.js';

/**
 * The machine translation module's tables: `mt_providers`, `mt_jobs` (the `queued` and `running`
 * ones are the queue the job workers claim from, with a lease, as the email outbox's) and
 * `mt_job_items` (each text of a job and what became of it).
 */

export type ProviderRow = Selectable<MtProvidersTable>;
export type JobRow = Selectable<MtJobsTable>;
export type JobItemRow = Selectable<MtJobItemsTable>;

export async function listProviders(db: Executor, workspaceId: number): Promise<ProviderRow[]> {
  return db.selectFrom('mt_providers').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute();
}

export async function findProvider(db: Executor, workspaceId: number, developerId: string) {
  return db
    .selectFrom('mt_providers')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('developer_id', '=', developerId)
    .executeTakeFirst();
}

export async function providerById(db: Executor, id: number) {
  return db.selectFrom('mt_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertProvider(db: Executor, row: Insertable<MtProvidersTable>): Promise<void> {
  await db.insertInto('mt_providers').values(row).execute();
}

export async function updateProvider(db: Executor, id: number, set: Updateable<MtProvidersTable>): Promise<void> {
  await db.updateTable('mt_providers').set(set).where('id', '=', id).execute();
}

export async function deleteProviders(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('mt_providers').where('id', 'in', ids).execute();
}

export async function insertJob(db: Executor, row: Insertable<MtJobsTable>): Promise<number> {
  const inserted = await db.insertInto('mt_jobs').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function insertItems(
  db: Executor,
  jobId: number,
  items: readonly { textId: number; kind: 'component' | 'text_item' }[],
): Promise<void> {
  for (let at = 0; at < items.length; at += 500) {
    const page = items.slice(at, at + 500);
    await db
      .insertInto('mt_job_items')
      .values(page.map((item) => ({ job_id: jobId, text_id: item.textId, record_kind: item.kind, state: 'pending' })))
      .execute();
  }
}

export async function findJob(db: Executor, workspaceId: number, developerId: string) {
  return db
    .selectFrom('mt_jobs')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('developer_id', '=', developerId)
    .executeTakeFirst();
}

export async function listJobs(db: Executor, workspaceId: number, limit: number): Promise<JobRow[]> {
  return db
    .selectFrom('mt_jobs')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export interface ItemCounts {
  pending: number;
  done: number;
  failed: number;
  skipped: number;
  overLimit: number;
}

/** Each job's items counted by state (and how many came out longer than their limit). */
export async function itemCounts(db: Executor, jobIds: readonly number[]): Promise<Map<number, ItemCounts>> {
  const out = new Map<number, ItemCounts>();
  if (jobIds.length === 0) return out;
  const rows = await db
    .selectFrom('mt_job_items')
    .select(['job_id', 'state', 'over_limit'])
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('job_id', 'in', jobIds)
    .groupBy(['job_id', 'state', 'over_limit'])
    .execute();
  for (const row of rows) {
    const counts = out.get(row.job_id) ?? { pending: 0, done: 0, failed: 0, skipped: 0, overLimit: 0 };
    const n = Number(row.n);
    if (row.state in counts) counts[row.state as 'pending'] += n;
    if (row.over_limit === 1) counts.overLimit += n;
    out.set(row.job_id, counts);
  }
  return out;
}

/** The job's texts that did not translate, with why (the first `limit`). */
export async function failedItems(db: Executor, jobId: number, limit: number) {
  return db
    .selectFrom('mt_job_items')
    .select(['id', 'text_id', 'record_kind', 'state', 'error'])
    .where('job_id', '=', jobId)
    .where('state', 'in', ['failed', 'skipped'])
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Ends a job that is still to run; answers false when it had ended already. */
export async function endJob(
  db: Executor,
  jobId: number,
  end: { state: 'done' | 'canceled' | 'failed'; at: string; error?: string | null; worker?: string },
): Promise<boolean> {
  let query = db
    .updateTable('mt_jobs')
    .set({ state: end.state, finished_at: end.at, error: end.error ?? null, lease_until: null, claimed_by: null })
    .where('id', '=', jobId)
    .where('state', 'in', ['queued', 'running']);
  if (end.worker !== undefined) query = query.where('claimed_by', '=', end.worker);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Takes the oldest job to run for `worker` until `leaseUntil`: one nobody holds (never claimed,
 * given back, or its server's lease ran out), whose provider no other live job is using, so a
 * provider's limits hold across servers. On PostgreSQL the pick skips rows another server is
 * claiming; on SQLite the one writer makes the conditional update atomic.
 */
export async function claimJob(
  db: Kysely<Database>,
  claim: { worker: string; now: string; leaseUntil: string; workspaceIds?: readonly number[] },
): Promise<JobRow | undefined> {
  const { worker, now, leaseUntil, workspaceIds } = claim;
  const due = () => {
    let query = db
      .selectFrom('mt_jobs as j')
      .select('j.id')
      .where('j.state', 'in', ['queued', 'running'])
      .where((eb) => eb.or([eb('j.lease_until', 'is', null), eb('j.lease_until', '<', now)]))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('mt_jobs as o')
              .select('o.id')
              .whereRef('o.provider_id', '=', 'j.provider_id')
              .whereRef('o.id', '<>', 'j.id')
              .where('o.state', '=', 'running')
              .where('o.lease_until', '>=', now),
          ),
        ),
      );
    if (workspaceIds !== undefined) query = query.where('j.workspace_id', 'in', [...workspaceIds, -1]);
    return query;
  };
  // A read first: an idle poll must not take SQLite's write lock (or PostgreSQL row locks).
  if ((await due().limit(1).execute()).length === 0) return undefined;
  const picked = await skippingLockedRows(db, due().orderBy('j.created_at').orderBy('j.id').limit(1)).execute();
  const id = picked[0]?.id;
  if (id === undefined) return undefined;
  return db
    .updateTable('mt_jobs')
    .set({ state: 'running', lease_until: leaseUntil, claimed_by: worker })
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'running'])
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returningAll()
    .executeTakeFirst();
}

/** Extends `worker`'s lease; false when it lost the job (canceled, or taken after its lease ran out). */
export async function renewLease(db: Executor, jobId: number, worker: string, leaseUntil: string): Promise<boolean> {
  const result = await db
    .updateTable('mt_jobs')
    .set({ lease_until: leaseUntil })
    .where('id', '=', jobId)
    .where('claimed_by', '=', worker)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a job back to the queue (a stopping server). */
export async function releaseJob(db: Executor, jobId: number, worker: string): Promise<void> {
  await db
    .updateTable('mt_jobs')
    .set({ lease_until: null, claimed_by: null })
    .where('id', '=', jobId)
    .where('claimed_by', '=', worker)
    .execute();
}

export async function pendingItems(db: Executor, jobId: number, limit: number): Promise<JobItemRow[]> {
  return db
    .selectFrom('mt_job_items')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('state', '=', 'pending')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Records what became of an item, in the transaction of its translation's write: only while the
 * item is pending and `worker` still holds its running job. False otherwise, and the caller rolls
 * its write back, so no text is translated twice by two servers.
 */
export async function finishItem(
  db: Executor,
  item: { id: number; jobId: number; worker: string },
  outcome: { state: 'done' | 'failed' | 'skipped'; error: string | null; overLimit: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable('mt_job_items')
    .set({ state: outcome.state, error: outcome.error, over_limit: outcome.overLimit ? 1 : 0 })
    .where('id', '=', item.id)
    .where('state', '=', 'pending')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('mt_jobs')
          .select('mt_jobs.id')
          .where('mt_jobs.id', '=', item.jobId)
          .where('mt_jobs.claimed_by', '=', item.worker)
          .where('mt_jobs.state', '=', 'running'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
