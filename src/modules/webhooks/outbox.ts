import { randomUUID } from 'node:crypto';
import type { Change, ChangeSubscriber } from '../changes/index.js';
import { insertEvents, lastChangeIds, type NewEvent } from './outbox.repository.js';
import { eventsOfWrite, subscribes } from './webhooks.events.js';
import { subscribedWebhooks } from './webhooks.repository.js';

/**
 * The transactional outbox: subscribed to the write path, it runs inside every write's
 * transaction, so an event is stored exactly when its change commits and is lost with it when the
 * write rolls back. A write that no enabled webhook listens to costs one indexed read.
 */
export function outboxSubscriber(): ChangeSubscriber {
  return async (trx, scope, changes, at) => {
    const indexed = changes.map((change, index) => ({ ...change, index }));
    const planned = eventsOfWrite(indexed);
    if (planned.length === 0) return;
    const webhooks = (await subscribedWebhooks(trx, scope.workspaceId)).map((w) => ({
      id: w.id,
      events: JSON.parse(w.events) as string[],
    }));
    const wanted = planned
      .map((event) => ({
        ...event,
        webhookIds: webhooks.filter((w) => subscribes(w.events, event.name)).map((w) => w.id),
      }))
      .filter((event) => event.webhookIds.length > 0);
    if (wanted.length === 0) return;
    const ids = await lastChangeIds(trx, scope.workspaceId, changes.length);
    const { email, keyId } = scope.actor;
    // Each change written once, even when it belongs to several events (an update and its status).
    const written = new Map<number, string>();
    const json = (change: Change & { index: number }) => {
      let text = written.get(change.index);
      if (text === undefined) {
        const { kind, developerId, variantId, action, fields } = change;
        const id = String(ids[change.index]);
        text = JSON.stringify({ id, at, actor: email, keyId, kind, developerId, variantId, action, fields });
        written.set(change.index, text);
      }
      return text;
    };
    const events: NewEvent[] = wanted.map((event) => ({
      uuid: randomUUID(),
      name: event.name,
      at,
      actor: email,
      changes: `[${event.changes.map(json).join(',')}]`,
      webhookIds: event.webhookIds,
    }));
    await insertEvents(trx, scope.workspaceId, events, at);
  };
}
