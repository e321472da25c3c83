/**
 * Webhooks: the resource and its signing key, the outbox written with every change, the worker
 * that delivers from it, and the delivery log. Other code uses only what is exported here.
 */
import type { Kysely } from 'kysely';
import type { WebhooksConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { HistoryService, WritePath } from '../changes/index.js';
import { createDeliveriesService, type DeliveriesService } from './deliveries.service.js';
import { outboxSubscriber } from './outbox.js';
import { createWebhooksService, type WebhooksService } from './webhooks.service.js';
import { createWebhookWorker, type WebhookWorker } from './webhooks.worker.js';

/** The outbound-address policy and the sealing of secrets at rest, which machine translation shares. */
export { invalidUrl, postTarget, refusedAddress } from './webhooks.address.js';
export { openKey, sealKey } from './webhooks.secret.js';
export { EVENT_NAMES, type EventName } from './webhooks.types.js';
export type { WebhookWorker };

export interface WebhooksModule {
  resource: WebhooksService;
  deliveries: DeliveriesService;
  /** A delivery worker for this process (`server.ts` starts one; tests may). */
  worker(log: Parameters<typeof createWebhookWorker>[0]['log'], overrides?: Partial<WebhooksConfig>): WebhookWorker;
}

export function createWebhooks(deps: {
  db: Kysely<Database>;
  writes: WritePath;
  /** The change log: events store which of its changes they carry, and read them when sent. */
  changeLog: Pick<HistoryService, 'idsOfWrite' | 'inRanges'>;
  config: WebhooksConfig;
}): WebhooksModule {
  const { db, writes, changeLog, config } = deps;
  writes.subscribe(outboxSubscriber(changeLog));
  const inRanges = changeLog.inRanges;
  return {
    resource: createWebhooksService({ db, writes, config }),
    deliveries: createDeliveriesService({ db, inRanges }),
    worker: (log, overrides = {}) => createWebhookWorker({ db, inRanges, config: { ...config, ...overrides }, log }),
  };
}
