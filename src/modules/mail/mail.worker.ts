import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { MailConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { batched } from '../../shared/batched.js';
import { wakeablePause } from '../../shared/wakeable-pause.js';
import * as repo from './mail.repository.js';
import { LEASE_MS, nextTryAt } from './mail.retry.js';
import { type Sender, smtpSender } from './mail.send.js';

interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface MailWorker {
  readonly id: string;
  start(): void;
  /** Stops claiming, lets the sends under way finish, and gives back anything claimed but unsent. */
  stop(): Promise<void>;
  /** Looks for due emails now rather than at the next poll. */
  wake(): void;
  /**
   * One pass, without the loop: claims what is due by the clock, sends it, records each outcome;
   * answers how many emails it claimed. For tests that move the clock by hand.
   */
  runOnce(): Promise<number>;
}

export interface MailWorkerOptions {
  /** Milliseconds since the epoch; the claims, leases and retries follow it. */
  clock?: { now(): number };
  /** Where to send, in place of the configured SMTP server. */
  sender?: Sender;
  /**
   * Only the emails of these workspaces. For tests: the test files of a PostgreSQL run share one
   * database, and each file's workers must leave the other files' emails alone.
   */
  workspaceIds?: readonly number[];
}

/**
 * The mail worker every server process runs when SMTP is configured. It claims due emails with a
 * lease, sends up to `concurrency` at once over a pool of SMTP connections, and records each
 * outcome; a process that dies leaves its claims to run out and be taken by another worker.
 */
export function createMailWorker(deps: {
  db: Kysely<Database>;
  config: MailConfig;
  log: Logger;
  /** Turns due held emails into digests (of these workspaces only, when named), queued for this pass to send. */
  queueDueDigests: (at: number, workspaceIds?: readonly number[]) => Promise<number>;
  options?: MailWorkerOptions;
}): MailWorker {
  const { db, config, log } = deps;
  const clock = deps.options?.clock ?? Date;
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const sender = deps.options?.sender ?? smtpSender(config.smtpUrl as string, config.concurrency);
  const batch = config.concurrency * 4;
  const workspaceIds = deps.options?.workspaceIds;
  let stopping = false;
  let loop: Promise<void> | null = null;
  const idle = wakeablePause();

  async function outcomeOf(email: repo.ClaimedEmail): Promise<repo.EmailOutcome> {
    // The recipient turned email off after it was queued: it is not sent.
    if (email.mode === 'off') return { state: 'suppressed', at: iso(clock.now()), nextAt: null, error: null };
    const result = await sender.send({
      from: config.from,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId: email.messageId,
      unsubscribeUrl: email.unsubscribeUrl,
    });
    const at = clock.now();
    if (result.ok) return { state: 'sent', at: iso(at), nextAt: null, error: null };
    const next = result.permanent
      ? null
      : nextTryAt({
          attempt: email.attempts + 1,
          queuedAt: Date.parse(email.createdAt),
          now: at,
          scale: config.retryScale,
        });
    return next === null
      ? { state: 'failed', at: iso(at), nextAt: null, error: result.error }
      : { state: 'pending', at: iso(at), nextAt: iso(next), error: result.error };
  }

  // Outcomes that finish together are recorded in one transaction (`batched`).
  const recordBatched = batched<{ id: number; outcome: repo.EmailOutcome }>(
    (items) =>
      db.transaction().execute(async (trx) => {
        for (const item of items) {
          // False: the claim ran out and another worker took the email; it records its own try.
          await repo.recordOutcome(trx, { id: item.id, worker: id }, item.outcome);
        }
      }),
    // Unrecorded emails are still claimed: they are sent again once their lease runs out.
    (error, items) => log.error({ err: error, emails: items.length }, 'email outcomes could not be recorded'),
  );
  const record = (emailId: number, outcome: repo.EmailOutcome) => recordBatched({ id: emailId, outcome });

  async function sendAll(emails: repo.ClaimedEmail[], claimedAt: number): Promise<void> {
    let next = 0;
    // No send starts in the second half of the lease: on an SMTP server slow enough to get there,
    // a send could outlive the claim and another worker send the same email.
    const sendBy = claimedAt + LEASE_MS / 2;
    const lane = async () => {
      while (next < emails.length && !stopping && clock.now() < sendBy) {
        const email = emails[next++] as repo.ClaimedEmail;
        try {
          const outcome = await outcomeOf(email);
          if (outcome.state !== 'sent') log.info({ email: email.id, error: outcome.error }, `email ${outcome.state}`);
          await record(email.id, outcome);
        } catch (error) {
          log.error({ err: error, email: email.id }, 'email could not be sent');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(config.concurrency, emails.length) }, lane));
    // What was not started goes back to the queue at once, for this or another worker.
    const unsent = emails.slice(next).map((email) => email.id);
    if (unsent.length > 0) await repo.releaseClaims(db, id, unsent);
  }

  async function runOnce(): Promise<number> {
    const at = clock.now();
    try {
      await deps.queueDueDigests(at, workspaceIds);
    } catch (error) {
      // Held emails stay held: the next pass tries again. Sending does not wait for digests.
      log.error({ err: error }, 'email digests could not be queued');
    }
    const ids = await repo.claimDue(db, {
      worker: id,
      now: iso(at),
      leaseUntil: iso(at + LEASE_MS),
      limit: batch,
      ...(workspaceIds && { workspaceIds }),
    });
    if (ids.length > 0) await sendAll(await repo.loadClaimed(db, ids), at);
    return ids.length;
  }

  async function run(): Promise<void> {
    while (!stopping) {
      let claimed = 0;
      try {
        claimed = await runOnce();
      } catch (error) {
        if (!stopping) log.error({ err: error }, 'mail worker could not claim emails');
      }
      if (stopping) break;
      // A full batch means more may be due: go again at once.
      if (claimed < batch) await idle.pause(config.pollIntervalMs);
    }
  }

  return {
    id,
    start() {
      if (loop) return;
      stopping = false;
      loop = run();
    },
    wake() {
      idle.wake();
    },
    runOnce,
    async stop() {
      stopping = true;
      idle.wake();
      await loop;
      loop = null;
      try {
        await repo.releaseClaims(db, id);
      } finally {
        sender.close();
      }
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
