import type { Executor } from '../../db/schema.js';

/** The delivery log: every attempt, newest first, and the queueing of a redelivery. */

export interface LogQuery {
  webhookDeveloperId?: string;
  event?: string;
  state?: string;
  beforeId?: number;
  limit: number;
}

export interface LoggedAttempt {
  id: number;
  deliveryId: number;
  webhookId: string;
  event: string;
  eventUuid: string;
  sequence: number;
  eventAt: string;
  actor: string;
  changes: string;
  requestId: string | null;
  attempt: number;
  dueAt: string;
  sentAt: string | null;
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  nextAttemptAt: string | null;
  responseBody: string | null;
  state: string;
}

export function listAttempts(db: Executor, workspaceId: number, query: LogQuery): Promise<LoggedAttempt[]> {
  let select = db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select([
      'a.id',
      'a.delivery_id as deliveryId',
      'w.developer_id as webhookId',
      'e.name as event',
      'e.uuid as eventUuid',
      'e.id as sequence',
      'e.at as eventAt',
      'e.actor',
      'e.changes',
      'a.request_id as requestId',
      'a.attempt',
      'a.due_at as dueAt',
      'a.sent_at as sentAt',
      'a.status_code as statusCode',
      'a.error',
      'a.duration_ms as durationMs',
      'a.next_attempt_at as nextAttemptAt',
      'a.response_body as responseBody',
      'a.state',
    ])
    .where('a.workspace_id', '=', workspaceId);
  if (query.webhookDeveloperId !== undefined) select = select.where('w.developer_id', '=', query.webhookDeveloperId);
  if (query.event !== undefined) select = select.where('e.name', '=', query.event);
  if (query.state !== undefined) select = select.where('a.state', '=', query.state);
  if (query.beforeId !== undefined) select = select.where('a.id', '<', query.beforeId);
  return select.orderBy('a.id', 'desc').limit(query.limit).execute();
}

/** The deliveries among `ids` that belong to the workspace, with their latest attempt number. */
export async function findDeliveries(
  db: Executor,
  workspaceId: number,
  ids: readonly number[],
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_attempts as a', 'a.delivery_id', 'd.id')
    .select(['d.id', (eb) => eb.fn.max('a.attempt').as('last')])
    .where('d.workspace_id', '=', workspaceId)
    .where('d.id', 'in', ids)
    .groupBy('d.id')
    .execute();
  return new Map(rows.map((row) => [row.id, Number(row.last)]));
}

export async function queueAttempts(
  db: Executor,
  workspaceId: number,
  attempts: readonly { deliveryId: number; attempt: number }[],
  at: string,
): Promise<void> {
  if (attempts.length === 0) return;
  await db
    .insertInto('webhook_attempts')
    .values(
      attempts.map((a) => ({
        workspace_id: workspaceId,
        delivery_id: a.deliveryId,
        attempt: a.attempt,
        state: 'pending',
        due_at: at,
      })),
    )
    .execute();
  await db
    .updateTable('webhook_deliveries')
    .set({ state: 'pending' })
    .where('workspace_id', '=', workspaceId)
    .where(
      'id',
      'in',
      attempts.map((a) => a.deliveryId),
    )
    .execute();
}

/**
 * The log's retention: events older than `cutoff` whose every attempt is done go, with their
 * deliveries and attempts. Answers how many events went.
 */
export async function deleteSettledEventsBefore(db: Executor, cutoff: string): Promise<number> {
  const result = await db
    .deleteFrom('webhook_events')
    .where('at', '<', cutoff)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_deliveries as d')
            .innerJoin('webhook_attempts as a', 'a.delivery_id', 'd.id')
            .select('a.id')
            .whereRef('d.event_id', '=', 'webhook_events.id')
            .where('a.state', '=', 'pending'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
