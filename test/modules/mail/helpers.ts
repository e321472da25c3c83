import { afterAll } from 'vitest';
import { loadConfig, type MailConfig } from '../../../src/config.js';
import type { MailWorker } from '../../../src/modules/mail/index.js';
import { setupApp, type TestContext } from '../../helpers/app.js';
import { startSmtpSink } from './smtp.js';

/**
 * An app that sends email (its SMTP_URL is a placeholder: each test's worker names the SMTP server
 * it sends to). No worker runs unless a test starts one.
 */
export function setupMailApp(mail: Partial<MailConfig> = {}): Promise<TestContext> {
  return setupApp({
    publicUrl: 'https://copy.example.com',
    mail: {
      ...loadConfig({}).mail,
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'copydesk <copydesk@copy.example.com>',
      pollIntervalMs: 10,
      ...mail,
    },
  });
}

export const silentLog = { info() {}, error() {} };

type WorkerOptions = Parameters<TestContext['services']['mail']['worker']>[1];

/**
 * A real SMTP server in this process and a test file's mail workers sending to it, for the
 * workspaces in `workspaceIds` only (on PostgreSQL other files share the database, and their
 * emails are not this file's). Stopped after the file, workers first: each keeps an SMTP
 * connection open, and the server closes once its connections have.
 */
export async function smtpSink(ctx: TestContext, workspaceIds: number[]) {
  const sink = await startSmtpSink();
  const workers: MailWorker[] = [];
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await sink.close();
  });
  /** A worker of `services` (the app's by default) sending to the sink. */
  const sinkWorker = (options: WorkerOptions = {}, services = ctx.services): MailWorker => {
    const worker = services.mail.worker(silentLog, { workspaceIds, smtpUrl: sink.url, ...options });
    workers.push(worker);
    return worker;
  };
  return { sink, sinkWorker };
}
