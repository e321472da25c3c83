import type PgModule from 'pg';

/** The channel the database's triggers announce changes on (see the change_notifications migration). */
export const CHANGES_CHANNEL = 'copydesk_changes';

/** What a process keeps in memory on the feed's word, and must forget when the feed says so. */
export interface ChangeEvents {
  /** A workspace's content revision advanced to `revision` (committed). */
  revision(workspaceId: number, revision: number): void;
  /** Some key, or a user or workspace behind keys, changed: key lookups may be stale. */
  keys(): void;
  /** Listening (again): anything may have changed while nobody listened, and the feed is trusted from now on. */
  connected(): void;
  /** Not listening: nothing kept on the feed's word may be trusted until `connected`. */
  disconnected(): void;
}

export interface ChangeFeed {
  /** True while the listening connection is up: what it has not announced has not happened. */
  readonly live: boolean;
  close(): Promise<void>;
}

export interface ChangeFeedOptions {
  /** How often the idle connection proves it is alive; a silent network would lose messages. */
  heartbeatMs?: number;
  /** First wait before reconnecting, doubled up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * One dedicated PostgreSQL connection per process that `LISTEN`s on the changes channel. Pooled
 * connections cannot listen: a notification reaches only the session that listens, and the pool
 * hands sessions around. When the connection fails, or a heartbeat goes unanswered, the feed says
 * `disconnected` and reconnects with a growing delay.
 */
export function startChangeFeed(
  pg: typeof PgModule,
  connectionString: string,
  events: ChangeEvents,
  options: ChangeFeedOptions = {},
): ChangeFeed {
  const heartbeatMs = options.heartbeatMs ?? 1000;
  const firstRetryMs = options.retryMs ?? 100;
  const maxRetryMs = options.maxRetryMs ?? 5000;
  let retryMs = firstRetryMs;
  let client: PgModule.Client | null = null;
  let live = false;
  let closed = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let heartbeatTimer: NodeJS.Timeout | null = null;

  function dispatch(payload: string | undefined): void {
    if (payload === 'k') {
      events.keys();
      return;
    }
    const [kind, workspace, revision] = payload?.split(':') ?? [];
    if (kind === 'r') events.revision(Number(workspace), Number(revision));
  }

  /** Drops a connection that failed, once, and schedules the next attempt. */
  function fail(failed: PgModule.Client, error?: unknown): void {
    if (client !== failed) return;
    client = null;
    if (heartbeatTimer) clearInterval(heartbeatTimer);
    heartbeatTimer = null;
    if (live) {
      live = false;
      events.disconnected();
    }
    if (error) options.onError?.(error);
    failed.end().catch(() => {});
    if (closed) return;
    retryTimer = setTimeout(connect, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  }

  async function connect(): Promise<void> {
    retryTimer = null;
    if (closed) return;
    const attempt = new pg.Client({
      connectionString,
      application_name: `copydesk-change-feed ${process.pid}`,
      keepAlive: true,
      connectionTimeoutMillis: heartbeatMs * 5,
    });
    client = attempt;
    attempt.on('error', (error) => fail(attempt, error));
    attempt.on('end', () => fail(attempt));
    attempt.on('notification', (message) => {
      if (client === attempt && message.channel === CHANGES_CHANNEL) dispatch(message.payload);
    });
    try {
      await attempt.connect();
      await attempt.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      fail(attempt, error);
      return;
    }
    if (client !== attempt) return;
    if (closed) {
      await attempt.end().catch(() => {});
      return;
    }
    retryMs = firstRetryMs;
    live = true;
    events.connected();
    heartbeatTimer = setInterval(() => {
      attempt
        .query({ text: 'select 1', query_timeout: heartbeatMs } as PgModule.QueryConfig)
        .catch((error) => fail(attempt, error));
    }, heartbeatMs);
    heartbeatTimer.unref();
  }

  void connect();
  return {
    get live() {
      return live;
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      if (heartbeatTimer) clearInterval(heartbeatTimer);
      const current = client;
      client = null;
      if (live) {
        live = false;
        events.disconnected();
      }
      await current?.end().catch(() => {});
    },
  };
}
