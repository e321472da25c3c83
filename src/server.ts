import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { servicesFor } from './services.js';

/** How often changes older than the retention period are removed. */
const HISTORY_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The process entry of `copydesk serve`: migrate, listen, bootstrap an empty database, and close
 * gracefully on SIGTERM/SIGINT (in-flight requests finish, new ones get 503, the pool closes).
 */
export async function serve(config: Config, out: (line: string) => void = console.log): Promise<void> {
  const database = openDatabase(config.database);
  await migrateToLatest(database.db);
  const services = servicesFor(config, database);
  const app = await buildApp({ config, database, services });
  const purgeHistory = () =>
    services.history.purgeExpired().catch((error) => app.log.error({ err: error }, 'history purge failed'));
  void purgeHistory();
  const purgeTimer = setInterval(purgeHistory, HISTORY_PURGE_INTERVAL_MS).unref();
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(purgeTimer);
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ host: config.host, port: config.port });
  // Only once the port is ours: a start that cannot listen must not use up the first key.
  const first = await services.accounts.bootstrapIfEmpty(config.bootstrap);
  if (first) {
    out(
      [
        '',
        'First start: created a workspace, a user and an API key.',
        `  workspace id: ${first.workspaceId}`,
        `  user:         ${first.email}`,
        `  API key:      ${first.key}`,
        'The key is shown this once. Keep it: send it as the Authorization header.',
        '',
      ].join('\n'),
    );
  }
}
