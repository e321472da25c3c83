import type { Kysely, Transaction } from 'kysely';
import { skippingLockedRows } from '../../db/query-plan.js';
import type { Database, Executor } from '../../db/schema.js';

/**
 * The outbox tables as the delivery workers use them: `webhook_events` (one per event, its id is
 * the event's sequence), `webhook_deliveries` (one per event per webhook) and `webhook_attempts`
 * (every try; the `pending` ones are the queue the workers claim from). The rows of a new event
 * are written by the outbox itself (outbox.ts), inside the write that makes it.
 */

/**
 * Takes up to `limit` due attempts for `worker` until `leaseUntil`. On PostgreSQL the rows are
 * picked with `FOR UPDATE SKIP LOCKED`, so concurrent workers pick different rows without
 * waiting; on SQLite the one writer makes the conditional update atomic. An attempt whose lease
 * has run out (its worker died) is due again.
 */
export async function claimDue(
  db: Kysely<Database>,
  claim: { worker: string; now: string; leaseUntil: string; limit: number },
): Promise<number[]> {
  const { worker, now, leaseUntil, limit } = claim;
  // A read first: an idle poll must not take SQLite's write lock (or PostgreSQL row locks).
  const due = await db
    .selectFrom('webhook_attempts')
    .select('id')
    .where('state', '=', 'pending')
    .where('due_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .limit(1)
    .execute();
  if (due.length === 0) return [];
  let pick = db
    .selectFrom('webhook_attempts')
    .select('id')
    .where('state', '=', 'pending')
    .where('due_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('due_at')
    .orderBy('id')
    .limit(limit);
  pick = skippingLockedRows(db, pick);
  const rows = await db
    .updateTable('webhook_attempts')
    .set({ lease_until: leaseUntil, claimed_by: worker })
    .where('id', 'in', pick)
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export interface ClaimedAttempt {
  id: number;
  attempt: number;
  deliveryId: number;
  queuedAt: string;
  webhookId: number;
  url: string;
  enabled: number;
  failingSince: string | null;
  workspaceId: number;
  eventName: string;
  eventUuid: string;
  eventAt: string;
  actor: string;
  sequence: number;
  changes: string;
  storedKey: string | null;
}

export async function loadAttempts(db: Executor, ids: readonly number[]): Promise<ClaimedAttempt[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .leftJoin('webhook_signing_keys as k', 'k.workspace_id', 'd.workspace_id')
    .select([
      'a.id',
      'a.attempt',
      'a.delivery_id as deliveryId',
      'd.created_at as queuedAt',
      'd.webhook_id as webhookId',
      'w.url',
      'w.enabled',
      'w.failing_since as failingSince',
      'd.workspace_id as workspaceId',
      'e.name as eventName',
      'e.uuid as eventUuid',
      'e.at as eventAt',
      'e.actor',
      'e.id as sequence',
      'e.changes',
      'k.stored as storedKey',
    ])
    .where('a.id', 'in', ids)
    .execute();
}

export interface AttemptOutcome {
  state: 'succeeded' | 'retrying' | 'failed';
  requestId: string | null;
  sentAt: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  nextAttemptAt: string | null;
  responseBody: string | null;
}

/**
 * Records what an attempt got, queues the next one when it is retried, and moves the delivery's
 * state, in one transaction. Nothing is recorded if the claim was lost (answers false).
 */
export async function recordOutcome(
  trx: Transaction<Database>,
  claimed: ClaimedAttempt,
  worker: string,
  outcome: AttemptOutcome,
): Promise<boolean> {
  const updated = await trx
    .updateTable('webhook_attempts')
    .set({
      state: outcome.state,
      request_id: outcome.requestId,
      sent_at: outcome.sentAt,
      status_code: outcome.statusCode,
      error: outcome.error,
      duration_ms: outcome.durationMs,
      next_attempt_at: outcome.nextAttemptAt,
      response_body: outcome.responseBody,
      lease_until: null,
    })
    .where('id', '=', claimed.id)
    .where('claimed_by', '=', worker)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  if (outcome.state === 'retrying' && outcome.nextAttemptAt !== null) {
    await trx
      .insertInto('webhook_attempts')
      .values({
        workspace_id: claimed.workspaceId,
        delivery_id: claimed.deliveryId,
        attempt: claimed.attempt + 1,
        state: 'pending',
        due_at: outcome.nextAttemptAt,
      })
      .execute();
  }
  await trx
    .updateTable('webhook_deliveries')
    .set({ state: outcome.state })
    .where('id', '=', claimed.deliveryId)
    .execute();
  return true;
}

/** A webhook that failed only, for long enough: disabled, and its queued attempts fail with it. */
export async function disableWebhook(trx: Transaction<Database>, webhookId: number, reason: string, at: string) {
  await trx.updateTable('webhooks').set({ enabled: 0, disabled_reason: reason }).where('id', '=', webhookId).execute();
  const pending = trx.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhookId);
  await trx
    .updateTable('webhook_attempts')
    .set({ state: 'failed', error: 'the webhook was disabled', sent_at: at, lease_until: null })
    .where('state', '=', 'pending')
    .where('delivery_id', 'in', pending)
    .execute();
  await trx
    .updateTable('webhook_deliveries')
    .set({ state: 'failed' })
    .where('webhook_id', '=', webhookId)
    .where('state', 'in', ['pending', 'retrying'])
    .execute();
}

export async function setFailingSince(db: Executor, webhookId: number, value: string | null): Promise<void> {
  await db.updateTable('webhooks').set({ failing_since: value }).where('id', '=', webhookId).execute();
}

/** Gives back what `worker` claimed and did not send (a stopping server). */
export async function releaseClaims(db: Executor, worker: string): Promise<number> {
  const result = await db
    .updateTable('webhook_attempts')
    .set({ lease_until: null, claimed_by: null })
    .where('claimed_by', '=', worker)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
