import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely, Transaction } from 'kysely';
import type { WebhooksConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { batched } from '../../shared/batched.js';
import { wakeablePause } from '../../shared/wakeable-pause.js';
import * as outbox from './outbox.repository.js';
import { type ChangesInRanges, changesJson, eventBody } from './webhooks.body.js';
import { LEASE_MS, nextAttemptAt } from './webhooks.retry.js';
import { openKey, UNREADABLE_KEY } from './webhooks.secret.js';
import { postSigned, type SendResult } from './webhooks.send.js';
import { signedHeaders } from './webhooks.signing.js';

interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WebhookWorker {
  readonly id: string;
  start(): void;
  /** Stops claiming, lets the sends under way finish, and gives back anything claimed but unsent. */
  stop(): Promise<void>;
  /** Looks for due deliveries now rather than at the next poll. */
  wake(): void;
}

/**
 * The delivery worker every server process runs. It claims due attempts with a 30 s lease, sends
 * up to `concurrency` at once, and records each outcome; a process that dies leaves its claims to
 * expire and be taken by another worker. Memory is bounded by the claimed batch, never the queue.
 */
export function createWebhookWorker(deps: {
  db: Kysely<Database>;
  inRanges: ChangesInRanges;
  config: WebhooksConfig;
  log: Logger;
}): WebhookWorker {
  const { db, inRanges, config, log } = deps;
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const active = new Set<Promise<void>>();
  let stopping = false;
  let loop: Promise<void> | null = null;
  const idle = wakeablePause();

  async function send(claimed: outbox.ClaimedAttempt, changes: Promise<string>): Promise<void> {
    const sentAt = new Date().toISOString();
    let result: SendResult;
    let requestId: string | null = null;
    const key = claimed.storedKey === null ? null : openKey(claimed.storedKey, config.secret);
    if (claimed.enabled !== 1) {
      result = { ok: false, statusCode: null, error: 'the webhook is disabled', durationMs: 0, responseBody: null };
    } else if (key === null) {
      const error = claimed.storedKey === null ? 'the workspace has no signing key' : UNREADABLE_KEY;
      result = { ok: false, statusCode: null, error, durationMs: 0, responseBody: null };
    } else {
      const body = eventBody({
        name: claimed.eventName,
        uuid: claimed.eventUuid,
        workspaceId: claimed.workspaceId,
        at: claimed.eventAt,
        actor: claimed.actor,
        sequence: claimed.sequence,
        changes: await changes,
      });
      const headers = signedHeaders(key, body);
      requestId = headers['x-ditto-request-id'] as string;
      result = await postSigned(claimed.url, body, headers, config);
    }
    const finishedAt = Date.now();
    const next =
      result.ok || claimed.enabled !== 1
        ? null
        : nextAttemptAt({
            attempt: claimed.attempt,
            queuedAt: Date.parse(claimed.queuedAt),
            now: finishedAt,
            scale: config.retryScale,
          });
    const state = result.ok ? 'succeeded' : next === null ? 'failed' : 'retrying';
    await record({
      claimed,
      result,
      finishedAt,
      outcome: {
        state,
        requestId,
        sentAt,
        statusCode: result.statusCode,
        error: result.error,
        durationMs: result.durationMs,
        nextAttemptAt: next === null ? null : new Date(next).toISOString(),
        responseBody: result.responseBody,
      },
    });
  }

  interface Finished {
    claimed: outbox.ClaimedAttempt;
    result: SendResult;
    finishedAt: number;
    outcome: outbox.AttemptOutcome;
  }

  async function recordOne(trx: Transaction<Database>, { claimed, result, finishedAt, outcome }: Finished) {
    const recorded = await outbox.recordOutcome(trx, claimed, id, outcome);
    if (!recorded || claimed.enabled !== 1) return;
    if (result.ok) {
      if (claimed.failingSince !== null) await outbox.setFailingSince(trx, claimed.webhookId, null);
      return;
    }
    if (claimed.failingSince === null) {
      await outbox.setFailingSince(trx, claimed.webhookId, outcome.sentAt);
      return;
    }
    const limitMs = config.disableAfterHours * 3_600_000;
    if (finishedAt - Date.parse(claimed.failingSince) >= limitMs) {
      const at = new Date(finishedAt).toISOString();
      const reason =
        `Disabled at ${at}: every delivery failed for ${config.disableAfterHours} hours ` +
        `(last: ${result.error ?? 'no answer'}). Fix the receiver, then enable the webhook again.`;
      await outbox.disableWebhook(trx, claimed.webhookId, reason, at);
      log.info({ webhookId: claimed.webhookId }, 'webhook disabled after failing only');
    }
  }

  // Outcomes that finish together are recorded in one transaction (`batched`).
  const record = batched<Finished>(
    (batch) =>
      db.transaction().execute(async (trx) => {
        for (const item of batch) await recordOne(trx, item);
      }),
    // Unrecorded attempts are still claimed: they are sent again once their lease runs out.
    (error, batch) => log.error({ err: error, attempts: batch.length }, 'webhook deliveries could not be recorded'),
  );

  function track(claimed: outbox.ClaimedAttempt, changes: Promise<string>) {
    const task = send(claimed, changes)
      .catch((error) => log.error({ err: error, attempt: claimed.id }, 'webhook delivery could not be recorded'))
      .finally(() => {
        active.delete(task);
        idle.wake();
      });
    active.add(task);
  }

  async function run(): Promise<void> {
    while (!stopping) {
      const free = config.concurrency - active.size;
      let claimedCount = 0;
      // Claims go in batches: one claim per finished send would cost more than the sends.
      if (free > 0 && (active.size === 0 || free >= config.concurrency / 2)) {
        try {
          const now = Date.now();
          const ids = await outbox.claimDue(db, {
            worker: id,
            now: new Date(now).toISOString(),
            leaseUntil: new Date(now + LEASE_MS).toISOString(),
            limit: free,
          });
          claimedCount = ids.length;
          // An event's changes are read once for all of its webhooks' attempts in the batch.
          const changes = new Map<string, Promise<string>>();
          for (const claimed of await outbox.loadAttempts(db, ids)) {
            if (stopping) break;
            let json = changes.get(claimed.eventUuid);
            if (!json) {
              json = changesJson(claimed.changes, claimed.workspaceId, inRanges);
              json.catch(() => {});
              changes.set(claimed.eventUuid, json);
            }
            track(claimed, json);
          }
        } catch (error) {
          if (!stopping) log.error({ err: error }, 'webhook worker could not claim deliveries');
        }
      }
      if (stopping) break;
      // A full batch means more may be due: go again as soon as a send finishes.
      if (claimedCount < free || active.size > config.concurrency / 2) await idle.pause(config.pollIntervalMs);
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
    async stop() {
      stopping = true;
      idle.wake();
      await loop;
      loop = null;
      await Promise.allSettled([...active]);
      await outbox.releaseClaims(db, id);
    },
  };
}
