import { appendFileSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { type AppDeps, buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { passwordLinkUrl } from './modules/accounts/people.service.js';
import { type Services, servicesFor } from './services.js';

/** Says at start what the operator should know about how signing keys are kept. */
async function warnAboutSigningKeys(config: Config, services: Services, log: FastifyBaseLogger): Promise<void> {
  if (config.webhooks.secret === null) {
    log.warn('COPYDESK_SECRET is not set: webhook signing keys are stored in plain text');
  }
  const unreadable = await services.webhooks.resource.unreadableKeys();
  if (unreadable > 0) {
    log.warn(
      { workspaces: unreadable },
      'webhook signing keys of some workspaces cannot be read with this COPYDESK_SECRET (it changed): set them again with PUT /v2/webhooks/signingKey',
    );
  }
}

/** A start that cannot go on: the CLI prints its one line and the process exits non-zero. */
export class StartError extends Error {}

const REASONS: Record<string, string> = {
  EADDRINUSE: 'the address is already in use',
  EACCES: 'permission denied',
  EADDRNOTAVAIL: 'the address is not on this machine',
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the host name is unknown',
  ETIMEDOUT: 'the connection timed out',
};

/** What went wrong, in one line: the system's code explained, or the error's first line. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && REASONS[code]) return `${REASONS[code]} (${code})`;
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] || 'unknown error';
}

/** How often the event-loop report gets a line. */
const EVENT_LOOP_REPORT_MS = 1000;

/**
 * The main thread's CPU time so far, in ms (Linux: its `schedstat`, in nanoseconds, which waiting
 * for a core does not count); null where there is no such file.
 */
function mainThreadCpuMs(): (() => number) | null {
  const path = `/proc/self/task/${process.pid}/schedstat`;
  const read = () => Number(readFileSync(path, 'utf8').split(' ')[0]) / 1e6;
  try {
    return Number.isFinite(read()) ? read : null;
  } catch {
    return null;
  }
}

/** How often the held-CPU check looks at the main thread's CPU time. */
const HELD_CHECK_MS = 5;

/**
 * Opt-in (`COPYDESK_EVENT_LOOP_REPORT=<file>`): samples the event loop's delay every 10 ms and
 * appends to the file, each second, one JSON line with the longest delay and the 99th percentile
 * of that second (`maxMs`, `p99Ms`) and of the whole run so far (`runMaxMs`, `runP99Ms`); one more
 * line with `final: true` when the server shuts down. A request that blocks the loop for 300 ms
 * shows as a `maxMs` of about 300. On a busy machine a delay also counts the time the process
 * waited for a core, so each line also has `heldCpuMs` (and `runHeldCpuMs`): the most CPU time the
 * main thread spent between two checks 5 ms apart, which is what the server's own work held the
 * loop (Linux only; absent elsewhere). Answers the function that writes the final line.
 */
function reportEventLoop(file: string | null): () => void {
  if (file === null) return () => {};
  const window = monitorEventLoopDelay({ resolution: 10 });
  const run = monitorEventLoopDelay({ resolution: 10 });
  window.enable();
  run.enable();
  const cpuMs = mainThreadCpuMs();
  let lastCpu = cpuMs?.() ?? 0;
  let heldCpu = 0;
  let runHeldCpu = 0;
  const held =
    cpuMs &&
    setInterval(() => {
      const now = cpuMs();
      heldCpu = Math.max(heldCpu, now - lastCpu);
      runHeldCpu = Math.max(runHeldCpu, heldCpu);
      lastCpu = now;
    }, HELD_CHECK_MS).unref();
  // A histogram without a sample yet (its first second on a starved machine, where the line's
  // timer can run before the first 10 ms sample) has a mean of NaN: the line says 0 instead.
  const ms = (ns: number) => (Number.isFinite(ns) ? Math.round(ns / 1e4) / 100 : 0);
  const line = (final: boolean) => {
    const figures = {
      at: new Date().toISOString(),
      t: Date.now(),
      ...(final && { final: true }),
      maxMs: ms(window.max),
      p99Ms: ms(window.percentile(99)),
      runMaxMs: ms(run.max),
      runP99Ms: ms(run.percentile(99)),
      runMeanMs: ms(run.mean),
      ...(cpuMs && { heldCpuMs: Math.round(heldCpu * 100) / 100, runHeldCpuMs: Math.round(runHeldCpu * 100) / 100 }),
    };
    window.reset();
    heldCpu = 0;
    try {
      appendFileSync(file, `${JSON.stringify(figures)}\n`);
    } catch {
      // A report that cannot be written is no reason to stop serving.
    }
  };
  const timer = setInterval(() => line(false), EVENT_LOOP_REPORT_MS).unref();
  return () => {
    clearInterval(timer);
    if (held) clearInterval(held);
    line(true);
    window.disable();
    run.disable();
  };
}

/** How often changes older than the retention period are removed. */
const HISTORY_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** A server `start` has set going: its app, and `stop` to close it gracefully. */
export interface RunningServer {
  app: Awaited<ReturnType<typeof buildApp>>;
  /**
   * In-flight requests finish and new ones get 503, sends under way finish (each within its
   * timeout) and what was claimed and not sent goes back, then the pool closes.
   */
  stop: () => Promise<void>;
}

/**
 * What `copydesk serve` runs: migrate, listen, bootstrap an empty database (its key and the
 * admin's password link go to `out`), and deliver webhooks, email and translation jobs. The
 * process's signals are `serve`'s; the browser tests call this in their own process.
 */
export async function start(
  config: Config,
  out: (line: string) => void,
  appOptions: Pick<AppDeps, 'logger' | 'buildSerializer'> = {},
): Promise<RunningServer> {
  let database: ReturnType<typeof openDatabase>;
  try {
    database = openDatabase(config.database);
  } catch (error) {
    throw new StartError(`cannot open the database: ${reasonOf(error)}`);
  }
  try {
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw new StartError(`cannot open the database: ${reasonOf(error)}`);
  }
  const finishEventLoopReport = reportEventLoop(config.eventLoopReport);
  const services = servicesFor(config, database);
  const app = await buildApp({ config, database, services, ...appOptions });
  const purgeHistory = () =>
    Promise.all([services.history.purgeExpired(), services.people.purgeExpired()]).catch((error) =>
      app.log.error({ err: error }, 'history purge failed'),
    );
  void purgeHistory();
  const purgeTimer = setInterval(purgeHistory, HISTORY_PURGE_INTERVAL_MS).unref();
  await warnAboutSigningKeys(config, services, app.log);
  // Every server process delivers webhooks; several share the outbox through their claims.
  const worker = services.webhooks.worker(app.log);
  worker.start();
  // And sends email, when SMTP is configured; several share the outbox the same way.
  const mailWorker = config.mail.smtpUrl === null ? null : services.mail.worker(app.log);
  mailWorker?.start();
  // And runs translation jobs; several share them through their leases, one job on one server.
  const jobWorker = services.machineTranslation.worker(app.log);
  jobWorker.start();
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      clearInterval(purgeTimer);
      finishEventLoopReport();
      // Every part has ended before the pool closes, even when one of them failed to.
      const ended = await Promise.allSettled([app.close(), worker.stop(), mailWorker?.stop(), jobWorker.stop()]);
      await database.close();
      const failed = ended.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    })();
    return stopping;
  };
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    // Nothing may keep a process that cannot serve alive: the workers, the timer, the pool.
    await stop().catch(() => undefined);
    throw new StartError(`cannot listen on ${config.host}:${config.port}: ${reasonOf(error)}`);
  }
  // Only once the port is ours: a start that cannot listen must not use up the first key.
  const first = await services.accounts.bootstrapIfEmpty(config.bootstrap);
  if (first) {
    const link = passwordLinkUrl(
      config.publicUrl,
      (await services.people.passwordLink(first.workspaceId, first.email)).token,
    );
    out(
      [
        '',
        'First start: created a workspace, a user and an API key.',
        `  workspace id: ${first.workspaceId}`,
        `  user:         ${first.email}`,
        `  API key:      ${first.key}`,
        'The key is shown this once. Keep it: send it as the Authorization header.',
        `To sign in to the web app, set the admin's password (the link works once): ${link}`,
        '',
      ].join('\n'),
    );
  }
  return { app, stop };
}

/**
 * The process entry of `copydesk serve`: `start`, then close gracefully on SIGTERM/SIGINT and
 * exit (non-zero when the close failed).
 */
export async function serve(config: Config, out: (line: string) => void = console.log): Promise<void> {
  let server: RunningServer | null = null;
  let signalled: string | null = null;
  const shutdown = async (signal: string) => {
    if (signalled !== null) return;
    signalled = signal;
    // A signal during the start: the start's own end closes what it opened.
    if (server === null) return;
    server.app.log.info({ signal }, 'shutting down');
    try {
      await server.stop();
      process.exit(0);
    } catch (error) {
      server.app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  server = await start(config, out);
  if (signalled !== null) {
    const signal = signalled;
    signalled = null;
    await shutdown(signal);
  }
}
