import { randomUUID } from 'node:crypto';
import type { ChangeSubscriber, HistoryService } from '../changes/index.js';
import { insertEvents, type NewEvent } from './outbox.repository.js';
import { changeRefs } from './webhooks.body.js';
import { eventsOfWrite, subscribes } from './webhooks.events.js';
import { subscribedWebhooks } from './webhooks.repository.js';

/**
 * The transactional outbox: subscribed to the write path, it runs inside every write's
 * transaction, so an event is stored exactly when its change commits and is lost with it when the
 * write rolls back. A write in a workspace without an enabled webhook costs one indexed read; one
 * that some webhook listens to costs a read of its change ids and a few small rows.
 */
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
