/**
 * The transactional outbox, the side of the webhooks that every write runs: subscribed to the
 * write path, it runs inside every write's transaction, so an event is stored exactly when its
 * change commits and is lost with it when the write rolls back. A write in a workspace without an
 * enabled webhook costs one indexed read; one that some webhook listens to costs a read of its
 * change ids and a few small rows. Read top-down: the subscriber, then its SQL (the workspace's
 * webhooks, the events and their deliveries inserted). The workers' side of the same tables, the
 * queue they claim from, is in outbox.repository.ts.
 */

import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import type { ChangeSubscriber, HistoryService } from '../changes/index.js';
import { changeRefs } from './webhooks.body.js';
import { eventsOfWrite, subscribes } from './webhooks.events.js';

/** The write path's subscriber: a write's events, stored for each enabled webhook that listens to them. */
export function outboxSubscriber(changeLog: Pick<HistoryService, 'idsOfWrite'>): ChangeSubscriber {
  return async (trx, scope, changes, at) => {
    // The workspace's webhooks first: most workspaces have none, and then the write's changes
    // (thousands in a batch) are not looked at.
    const webhooks = (await subscribedWebhooks(trx, scope.workspaceId)).map((w) => ({
      id: w.id,
      events: JSON.parse(w.events) as string[],
    }));
    if (webhooks.length === 0) return;
    const indexed = changes.map((change, index) => ({ ...change, index }));
    const planned = eventsOfWrite(indexed);
    if (planned.length === 0) return;
    const wanted = planned
      .map((event) => ({
        ...event,
        webhookIds: webhooks.filter((w) => subscribes(w.events, event.name)).map((w) => w.id),
      }))
      .filter((event) => event.webhookIds.length > 0);
    if (wanted.length === 0) return;
    const ids = await changeLog.idsOfWrite(trx, scope.workspaceId, changes);
    const events: NewEvent[] = wanted.map((event) => ({
      uuid: randomUUID(),
      name: event.name,
      at,
      actor: scope.actor.email,
      changes: changeRefs(event.changes.map((change) => [change.index, ids[change.index] as number] as const)),
      webhookIds: event.webhookIds,
    }));
    await insertEvents(trx, scope.workspaceId, events, at);
  };
}

// The outbox's SQL: the `webhooks` a write may notify, and the rows of its events.

/** The enabled webhooks of a workspace, for the outbox: what each subscribes to. */
function subscribedWebhooks(db: Executor, workspaceId: number): Promise<{ id: number; events: string }[]> {
  return db
    .selectFrom('webhooks')
    .select(['id', 'events'])
    .where('workspace_id', '=', workspaceId)
    .where('enabled', '=', 1)
    .execute();
}

interface NewEvent {
  uuid: string;
  name: string;
  at: string;
  actor: string;
  /** Which changes of the log, see `changeRefs`. */
  changes: string;
  webhookIds: number[];
}

/** Writes the events, a delivery of each to each of its webhooks, and each delivery's first attempt. */
async function insertEvents(
  trx: Transaction<Database>,
  workspaceId: number,
  events: readonly NewEvent[],
  at: string,
): Promise<void> {
  const rows = await trx
    .insertInto('webhook_events')
    .values(
      events.map((e) => ({
        workspace_id: workspaceId,
        uuid: e.uuid,
        name: e.name,
        at,
        actor: e.actor,
        changes: e.changes,
      })),
    )
    .returning(['id', 'uuid'])
    .execute();
  const idOf = new Map(rows.map((row) => [row.uuid, row.id]));
  const deliveries = events.flatMap((e) =>
    e.webhookIds.map((webhookId) => ({
      workspace_id: workspaceId,
      event_id: idOf.get(e.uuid) as number,
      webhook_id: webhookId,
      state: 'pending',
      created_at: at,
    })),
  );
  await trx.insertInto('webhook_deliveries').values(deliveries).execute();
  await trx
    .insertInto('webhook_attempts')
    .columns(['workspace_id', 'delivery_id', 'attempt', 'state', 'due_at'])
    .expression((eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select([
          'workspace_id',
          'id',
          sql<number>`1`.as('attempt'),
          sql<string>`'pending'`.as('state'),
          sql<string>`${at}`.as('due_at'),
        ])
        .where('event_id', 'in', [...idOf.values()]),
    )
    .execute();
}
