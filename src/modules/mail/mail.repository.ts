import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import { skippingLockedRows } from '../../db/query-plan.js';
import type { Database, Executor } from '../../db/schema.js';
import type { EmailContent } from './mail.send.js';

/**
 * The mail module's tables: `email_outbox` (one row per email; the `pending` ones are the queue
 * the workers claim from), `email_preferences` and `email_signing_key`.
 */

export interface NewEmail extends EmailContent {
  workspaceId: number;
  userId: number | null;
  kind: string;
  at: string;
}

/** `held`: waits in `email_outbox` for its user's daily digest, until `due_at`. */
export async function insertEmail(
  trx: Transaction<Database>,
  email: NewEmail & { state?: 'pending' | 'held'; dueAt?: string },
): Promise<number> {
  const row = await trx
    .insertInto('email_outbox')
    .values({
      workspace_id: email.workspaceId,
      user_id: email.userId,
      kind: email.kind,
      to_address: email.to,
      subject: email.subject,
      body_text: email.text,
      body_html: email.html,
      message_id: email.messageId,
      unsubscribe_url: email.unsubscribeUrl,
      state: email.state ?? 'pending',
      due_at: email.dueAt ?? email.at,
      created_at: email.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Not held by a live claim: never claimed, given back, or its worker's lease has run out. */
const unclaimed = (now: string) => (eb: ExpressionBuilder<Database, 'email_outbox'>) =>
  eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]);

/**
 * Takes up to `limit` due emails for `worker` until `leaseUntil`. On PostgreSQL the rows are
 * picked with `FOR UPDATE SKIP LOCKED`, so concurrent workers pick different rows without
 * waiting; on SQLite the one writer makes the conditional update atomic. An email whose lease
 * has run out (its worker died) is due again.
 */
export async function claimDue(
  db: Kysely<Database>,
  claim: { worker: string; now: string; leaseUntil: string; limit: number; workspaceIds?: readonly number[] },
): Promise<number[]> {
  const { worker, now, leaseUntil, limit, workspaceIds } = claim;
  const due = () => {
    const query = db
      .selectFrom('email_outbox')
      .select('id')
      .where('state', '=', 'pending')
      .where('due_at', '<=', now)
      .where(unclaimed(now));
    return workspaceIds === undefined ? query : query.where('workspace_id', 'in', [...workspaceIds, -1]);
  };
  // A read first: an idle poll must not take SQLite's write lock (or PostgreSQL row locks).
  const any = await due().limit(1).execute();
  if (any.length === 0) return [];
  const pick = skippingLockedRows(db, due().orderBy('due_at').orderBy('id').limit(limit));
  const rows = await db
    .updateTable('email_outbox')
    .set({ lease_until: leaseUntil, claimed_by: worker })
    .where('id', 'in', pick)
    .where('state', '=', 'pending')
    .where(unclaimed(now))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export interface ClaimedEmail extends EmailContent {
  id: number;
  userId: number | null;
  kind: string;
  attempts: number;
  createdAt: string;
  /** The recipient's preference now (null: never set). */
  mode: string | null;
}

export async function loadClaimed(db: Executor, ids: readonly number[]): Promise<ClaimedEmail[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('email_outbox as o')
    .leftJoin('email_preferences as p', 'p.user_id', 'o.user_id')
    .select([
      'o.id',
      'o.user_id as userId',
      'o.kind',
      'o.to_address as to',
      'o.subject',
      'o.body_text as text',
      'o.body_html as html',
      'o.message_id as messageId',
      'o.unsubscribe_url as unsubscribeUrl',
      'o.attempts',
      'o.created_at as createdAt',
      'p.mode',
    ])
    .where('o.id', 'in', ids)
    .orderBy('o.id')
    .execute();
}

export interface EmailOutcome {
  state: 'sent' | 'pending' | 'failed' | 'suppressed';
  at: string;
  /** When the next try is due (state `pending`). */
  nextAt: string | null;
  error: string | null;
}

/** Records what a try got. Nothing is recorded if `worker` lost the claim (answers false). */
export async function recordOutcome(
  db: Executor,
  claimed: { id: number; worker: string },
  outcome: EmailOutcome,
): Promise<boolean> {
  const tried = outcome.state !== 'suppressed';
  const updated = await db
    .updateTable('email_outbox')
    .set((eb) => ({
      state: outcome.state,
      attempts: tried ? eb('attempts', '+', 1) : eb.ref('attempts'),
      last_error: outcome.error,
      sent_at: outcome.state === 'sent' ? outcome.at : null,
      due_at: outcome.nextAt ?? eb.ref('due_at'),
      lease_until: null,
      claimed_by: null,
    }))
    .where('id', '=', claimed.id)
    .where('claimed_by', '=', claimed.worker)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Gives back what `worker` claimed and did not send (a stopping server), or only `ids` of it. */
export async function releaseClaims(db: Executor, worker: string, ids?: readonly number[]): Promise<number> {
  let query = db
    .updateTable('email_outbox')
    .set({ lease_until: null, claimed_by: null })
    .where('claimed_by', '=', worker)
    .where('state', '=', 'pending');
  if (ids !== undefined) query = query.where('id', 'in', ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function findPreference(db: Executor, userId: number): Promise<string | null> {
  const row = await db.selectFrom('email_preferences').select('mode').where('user_id', '=', userId).executeTakeFirst();
  return row?.mode ?? null;
}

export async function savePreference(db: Executor, userId: number, mode: string, at: string): Promise<void> {
  await db
    .insertInto('email_preferences')
    .values({ user_id: userId, mode, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ mode, updated_at: at }))
    .execute();
}

export async function signingKey(db: Executor): Promise<string> {
  const row = await db.selectFrom('email_signing_key').select('key').where('id', '=', 1).executeTakeFirstOrThrow();
  return row.key;
}

/** Users with held emails whose digest is due, up to `limit`. */
export async function usersWithDueDigests(
  db: Executor,
  due: { now: string; limit: number; workspaceIds?: readonly number[] },
): Promise<number[]> {
  let query = db
    .selectFrom('email_outbox')
    .select('user_id')
    .distinct()
    .where('state', '=', 'held')
    .where('due_at', '<=', due.now)
    .where('user_id', 'is not', null);
  if (due.workspaceIds !== undefined) query = query.where('workspace_id', 'in', [...due.workspaceIds, -1]);
  const rows = await query.limit(due.limit).execute();
  return rows.map((row) => row.user_id as number);
}

export interface HeldEmail {
  id: number;
  workspaceId: number;
  to: string;
  subject: string;
  text: string;
  unsubscribeUrl: string | null;
}

/**
 * Takes a user's due held emails for a digest, in `trx`: locked on PostgreSQL (skipping rows
 * another server's digest pass holds) and marked `digested`, so each goes into one digest only.
 */
export async function takeHeld(trx: Transaction<Database>, userId: number, now: string): Promise<HeldEmail[]> {
  const rows = await skippingLockedRows(
    trx,
    trx
      .selectFrom('email_outbox')
      .select([
        'id',
        'workspace_id as workspaceId',
        'to_address as to',
        'subject',
        'body_text as text',
        'unsubscribe_url as unsubscribeUrl',
      ])
      .where('user_id', '=', userId)
      .where('state', '=', 'held')
      .where('due_at', '<=', now)
      .orderBy('id'),
  ).execute();
  if (rows.length === 0) return [];
  const updated = await trx
    .updateTable('email_outbox')
    .set({ state: 'digested', sent_at: now })
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .where('state', '=', 'held')
    .executeTakeFirst();
  // Cannot differ while the rows are locked (PostgreSQL) or the one writer is ours (SQLite).
  if (Number(updated.numUpdatedRows) !== rows.length) throw new Error('held emails were taken meanwhile');
  return rows;
}
