/**
 * Email: the outbox other modules queue emails in (inside their change's transaction), the worker
 * that sends them over SMTP, each user's email preference and the unsubscribe link. Other code
 * uses only what is exported here.
 */
import type { Kysely } from 'kysely';
import type { MailConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { createMailService, type EmailToQueue, type MailService } from './mail.service.js';
import { createMailWorker, type MailWorker, type MailWorkerOptions } from './mail.worker.js';

export type { EmailMode } from './mail.schemas.js';
export type { EmailToQueue, MailService, MailWorker, MailWorkerOptions };

/** What another module's write needs to queue an email (`people.invite`, `people.passwordLink`). */
export type EnqueueEmail = MailService['enqueue'];

export interface MailModule {
  service: MailService;
  /**
   * A mail worker for this process (`server.ts` starts one when SMTP is configured; tests may),
   * with the configuration's SMTP server unless `overrides` name another.
   */
  worker(
    log: Parameters<typeof createMailWorker>[0]['log'],
    overrides?: Partial<MailConfig> & MailWorkerOptions,
  ): MailWorker;
}

export function createMail(deps: { db: Kysely<Database>; config: MailConfig; publicUrl: string }): MailModule {
  const { db, config, publicUrl } = deps;
  const service = createMailService({ db, config, publicUrl });
  return {
    service,
    worker: (log, overrides = {}) => {
      const { clock, sender, workspaceIds, ...configOverrides } = overrides;
      const workerConfig = { ...config, ...configOverrides };
      if (workerConfig.smtpUrl === null && sender === undefined) throw new Error('the mail worker needs SMTP_URL');
      return createMailWorker({
        db,
        config: workerConfig,
        log,
        queueDueDigests: (at, only) => service.queueDueDigests(at, only),
        options: { ...(clock && { clock }), ...(sender && { sender }), ...(workspaceIds && { workspaceIds }) },
      });
    },
  };
}
