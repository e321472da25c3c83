import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { badRequest, notFound } from '../../http/errors.js';
import { idCursor } from '../../shared/cursor.js';
import * as repo from './deliveries.repository.js';
import { type ChangesInRanges, changesJson, eventBody } from './webhooks.body.js';
import { DELIVERIES_MAX_LIMIT, type DeliveriesQuery } from './webhooks.schemas.js';
import { DELIVERY_STATES } from './webhooks.types.js';

const DEFAULT_LIMIT = 100;
/** How long the delivery log keeps an event once all its attempts are done. */
export const DELIVERY_LOG_DAYS = 30;

export interface LoggedDelivery {
  id: string;
  deliveryId: string;
  webhookId: string;
  event: string;
  eventId: string;
  requestId: string | null;
  attempt: number;
  at: string | null;
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  nextAttemptAt: string | null;
  state: string;
  payload: unknown;
  responseBody: string | null;
}

const cursor = idCursor('d1:');

function toEntry(row: repo.LoggedAttempt, workspaceId: number, changes: string): LoggedDelivery {
  const body = eventBody({
    name: row.event,
    uuid: row.eventUuid,
    workspaceId,
    at: row.eventAt,
    actor: row.actor,
    sequence: row.sequence,
    changes,
  });
  return {
    id: String(row.id),
    deliveryId: String(row.deliveryId),
    webhookId: row.webhookId,
    event: row.event,
    eventId: row.eventUuid,
    requestId: row.requestId,
    attempt: row.attempt,
    at: row.sentAt,
    statusCode: row.statusCode,
    error: row.error,
    durationMs: row.durationMs,
    // A queued attempt is itself the next one: when it is due.
    nextAttemptAt: row.state === 'pending' ? row.dueAt : row.nextAttemptAt,
    state: row.state,
    payload: JSON.parse(body),
    responseBody: row.responseBody,
  };
}

export function createDeliveriesService(deps: { db: Kysely<Database>; inRanges: ChangesInRanges }) {
  const { db, inRanges } = deps;
  return {
    /** Every attempt, newest first, a page at a time. */
    async list(workspaceId: number, query: DeliveriesQuery) {
      const limit = query.limit ?? DEFAULT_LIMIT;
      if (!Number.isInteger(limit) || limit < 1 || limit > DELIVERIES_MAX_LIMIT) {
        throw badRequest(`limit must be an integer from 1 to ${DELIVERIES_MAX_LIMIT}`);
      }
      if (query.status !== undefined && !(DELIVERY_STATES as readonly string[]).includes(query.status)) {
        throw badRequest(`status must be one of: ${DELIVERY_STATES.join(', ')}`);
      }
      const rows = await repo.listAttempts(db, workspaceId, {
        webhookDeveloperId: query.webhookId,
        event: query.event,
        state: query.status,
        beforeId: cursor.decode(query.cursor),
        limit: limit + 1,
      });
      const { page, nextCursor } = cursor.page(rows, limit);
      // Each event's changes read once, however many of its attempts the page shows.
      const changes = new Map<string, Promise<string>>();
      const changesOf = (row: repo.LoggedAttempt) => {
        let json = changes.get(row.eventUuid);
        if (!json) {
          json = changesJson(row.changes, workspaceId, inRanges);
          changes.set(row.eventUuid, json);
        }
        return json;
      };
      const deliveries = await Promise.all(page.map(async (row) => toEntry(row, workspaceId, await changesOf(row))));
      return { deliveries, nextCursor };
    },

    /** Removes events (and their log) settled more than `DELIVERY_LOG_DAYS` ago. */
    purgeSettled: (now = Date.now()) =>
      repo.deleteSettledEventsBefore(db, new Date(now - DELIVERY_LOG_DAYS * 86_400_000).toISOString()),

    /** Queues a new attempt of each delivery, whatever its state; an unknown id is a 404. */
    async redeliver(workspaceId: number, ids: readonly string[]): Promise<void> {
      const numbers = ids.map((id) => (/^[1-9]\d{0,15}$/.test(id) ? Number(id) : 0));
      const found = await repo.findDeliveries(db, workspaceId, numbers);
      const missing = ids.filter((_id, i) => !found.has(numbers[i] as number));
      if (missing.length > 0) throw notFound(`Deliveries not found: ${missing.join(', ')}`);
      const unique = [...new Set(numbers)];
      await db.transaction().execute((trx) =>
        repo.queueAttempts(
          trx,
          workspaceId,
          unique.map((deliveryId) => ({ deliveryId, attempt: (found.get(deliveryId) as number) + 1 })),
          now(),
        ),
      );
    },
  };
}

export type DeliveriesService = ReturnType<typeof createDeliveriesService>;
