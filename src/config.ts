import ipaddr from 'ipaddr.js';
/**
 * The environment, parsed once. Nothing else in the code base reads `process.env`.
 */

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string };

export interface Limits {
  readonly bodyBytes: number;
  readonly batchItems: number;
  readonly textChars: number;
  readonly notesChars: number;
  readonly tags: number;
  readonly tagChars: number;
  readonly filterIds: number;
  /** Characters of text one lint request may cover (its texts, or the records its filter selects). */
  readonly lintChars: number;
  /** Stored records one lint request's filter may select. */
  readonly lintRecords: number;
  /** Findings answered per text; more are cut and the text is marked `truncated`. */
  readonly lintFindingsPerText: number;
  /** Findings answered per request, over all its texts. */
  readonly lintFindings: number;
  /** Characters of finding messages and suggestions answered per request. */
  readonly lintFindingChars: number;
  /** Lint requests a process works on at once. */
  readonly lintConcurrent: number;
  /** Lint requests that wait for a turn; past them, a 503 with Retry-After. */
  readonly lintQueue: number;
}

/**
 * Time limits of every connection, in milliseconds (0 turns one off). A client that sends its
 * headers or its body too slowly, or stops reading, would otherwise hold a socket forever.
 */
export interface Timeouts {
  /** From the connection (or the end of the previous request) until the headers are complete. */
  readonly headersMs: number;
  /** From the connection (or the end of the previous request) until the whole request has arrived. */
  readonly requestMs: number;
  /** A socket with no traffic either way for this long is closed (Fastify's `connectionTimeout`). */
  readonly idleMs: number;
  /** How long a kept-alive connection may wait for its next request. */
  readonly keepAliveMs: number;
}

export interface WebhooksConfig {
  /** 32 bytes from COPYDESK_SECRET that encrypt signing keys at rest; null stores them plain. */
  readonly secret: Buffer | null;
  /** Multiplies every retry delay (tests and staging shrink the schedule with it). */
  readonly retryScale: number;
  /** A webhook whose attempts have only failed for this long is disabled. */
  readonly disableAfterHours: number;
  /** Loopback and private ranges are refused unless this is set. */
  readonly allowPrivateNetworks: boolean;
  /** How often an idle worker looks for due deliveries. */
  readonly pollIntervalMs: number;
  /** Deliveries a worker sends at once. */
  readonly concurrency: number;
}

/** Machine translation (docs/machine-translation.md). */
export interface MachineTranslationConfig {
  /** 32 bytes from COPYDESK_SECRET that seal providers' credentials; null stores them plain. */
  readonly secret: Buffer | null;
  /**
   * `MT_ALLOW_PRIVATE_NETWORKS`: the operator lets admins point a provider at a loopback or private
   * address (a self-hosted LibreTranslate or Ollama); each provider must still opt in itself.
   */
  readonly allowPrivateNetworks: boolean;
  /** How often an idle job worker looks for jobs to run. */
  readonly pollIntervalMs: number;
  /** The longest Retry-After a provider's 429 is waited out for, in seconds; longer is an error. */
  readonly maxRetryAfterSeconds: number;
}

export interface MailConfig {
  /** `SMTP_URL` (`smtp://user:pass@host:587`, `smtps://...`); null sends no email at all. */
  readonly smtpUrl: string | null;
  /** The sender of every email (`MAIL_FROM`). */
  readonly from: string;
  /** How often an idle mail worker looks for due emails. */
  readonly pollIntervalMs: number;
  /** Emails a worker sends at once (and SMTP connections it keeps open). */
  readonly concurrency: number;
  /** Multiplies every retry delay (tests and staging shrink the schedule with it). */
  readonly retryScale: number;
  /** The hour (UTC, 0-23) daily digests go out. */
  readonly digestHourUtc: number;
}

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly database: DatabaseConfig;
  readonly logLevel: string;
  /** Requests per minute per API key; 0 turns rate limiting off. */
  readonly rateLimitPerMinute: number;
  /**
   * Requests per minute per client address that carry no valid key (public routes, and every
   * failed authentication); 0 turns it off. Health checks are never counted.
   */
  readonly rateLimitKeylessPerMinute: number;
  /** Open connections one client address may hold at once (0: no cap); trusted proxies are exempt. */
  readonly maxConnectionsPerAddress: number;
  /**
   * Where rate-limit counters live when several servers share the work (`REDIS_URL`); null keeps
   * them in each process.
   */
  readonly redis: { readonly url: string; readonly prefix: string } | null;
  readonly limits: Limits;
  readonly timeouts: Timeouts;
  /** Upper bound of the in-memory cache of rendered GET responses, in bytes. */
  readonly responseCacheBytes: number;
  readonly bootstrap: { readonly email: string; readonly workspaceName: string };
  /** Days the change log (history) is kept; 0 keeps it forever. */
  readonly historyRetentionDays: number;
  readonly webhooks: WebhooksConfig;
  readonly mail: MailConfig;
  readonly machineTranslation: MachineTranslationConfig;
  /** Where people reach this server, for the links it prints; by default http://HOST:PORT. */
  readonly publicUrl: string;
  /**
   * Behind reverse proxies: false (the default) believes no X-Forwarded-* header; a number is how
   * many proxies stand in front (the client is that many addresses from the right of
   * X-Forwarded-For); a list holds the proxies' addresses or CIDR ranges (the client is the
   * rightmost address that is not one of them). Never the leftmost entry, which anyone can write.
   */
  readonly trustProxy: false | number | readonly string[];
  readonly sessions: {
    /** A session unused this long ends; each use extends it. */
    readonly idleMs: number;
    /** No session outlives this, however busy. */
    readonly maxMs: number;
    /** How long a password link (first admin, invitation) stays usable. */
    readonly passwordLinkMs: number;
  };
  /** The live event stream and presence (docs/events.md). */
  readonly events: EventsConfig;
  /**
   * `COPYDESK_EVENT_LOOP_REPORT`: a file the server appends its event-loop delay to, one JSON line
   * a second and one at shutdown (docs/scale.md); null (the default) measures nothing.
   */
  readonly eventLoopReport: string | null;
}

export interface EventsConfig {
  /** A comment line this often on an idle stream, so proxies and the browser know it is alive. */
  readonly heartbeatMs: number;
  /** Open streams one key (or one person's sessions) may hold on one server. */
  readonly maxStreams: number;
  /** A stream ends after this long (the client reconnects with Last-Event-ID, authenticated again). */
  readonly streamMaxMs: number;
  /** How long a browser waits before it reconnects a dropped stream (the stream's `retry:` field). */
  readonly retryMs: number;
  /** How often the workspaces with open streams are checked for commits nobody announced here. */
  readonly pollMs: number;
  /** How long a text stays "open" after its tab's last heartbeat. */
  readonly presenceTtlMs: number;
}

export const DEFAULT_SQLITE_PATH = './data/copydesk.db';

export function parseDatabaseUrl(value: string | undefined): DatabaseConfig {
  const raw = value?.trim();
  if (!raw) return { kind: 'sqlite', path: DEFAULT_SQLITE_PATH };
  if (/^postgres(ql)?:\/\//i.test(raw)) return { kind: 'postgres', url: raw };
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    return { kind: 'sqlite', path: path || DEFAULT_SQLITE_PATH };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new Error(
      `DATABASE_URL: unsupported scheme in '${raw.split(':')[0]}:', use a file path, sqlite:PATH or postgres://`,
    );
  }
  return { kind: 'sqlite', path: raw };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer of at least ${min}, got '${raw}'`);
  }
  return value;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a number above 0, got '${raw}'`);
  return value;
}

/** COPYDESK_SECRET: 32 bytes written as 64 hex characters or as base64. */
export function parseSecret(raw: string | undefined): Buffer | null {
  const value = raw?.trim();
  if (!value) return null;
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length === 32) return bytes;
  }
  throw new Error('COPYDESK_SECRET must be 32 bytes as 64 hex characters or as base64 (openssl rand -hex 32)');
}

const HOUR_MS = 60 * 60 * 1000;

/** TRUST_PROXY: a hop count, `true` (one hop), or a comma list of proxy addresses and CIDR ranges. */
function trustProxy(value: string | undefined): Config['trustProxy'] {
  const raw = (value ?? '').trim();
  if (raw === '' || /^(0|false|no|off)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) return 1;
  if (/^\d+$/.test(raw)) return Math.min(Number(raw), 32);
  const entries = raw.split(',').map((e) => e.trim());
  for (const entry of entries) {
    const [address, bits, ...rest] = entry.split('/');
    const ok =
      rest.length === 0 &&
      address !== undefined &&
      ipaddr.isValid(address) &&
      (bits === undefined ||
        (/^\d+$/.test(bits) && Number(bits) <= (ipaddr.parse(address).kind() === 'ipv4' ? 32 : 128)));
    if (!ok) {
      throw new Error(
        `TRUST_PROXY must be a number of proxies or a comma list of proxy addresses or CIDR ranges, got '${entry}'`,
      );
    }
  }
  return Object.freeze(entries);
}

function publicUrl(env: NodeJS.ProcessEnv, host: string, port: number): string {
  const raw = env.PUBLIC_URL?.trim();
  if (!raw) return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (!/^https?:\/\/[^/]/i.test(raw)) throw new Error(`PUBLIC_URL must be an http(s) URL, got '${raw}'`);
  return raw.replace(/\/+$/, '');
}

function smtpUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.SMTP_URL?.trim();
  if (!raw) return null;
  if (!/^smtps?:\/\/[^/]/i.test(raw)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
  return raw;
}

/** The sender: MAIL_FROM, or copydesk at the public URL's host name (an address, when it is one, is no domain). */
function mailFrom(env: NodeJS.ProcessEnv, url: string): string {
  const raw = env.MAIL_FROM?.trim();
  if (raw) return raw;
  const host = new URL(url).hostname;
  const domain = ipaddr.isValid(host.replace(/^\[|\]$/g, '')) || !host.includes('.') ? 'localhost' : host;
  return `copydesk <copydesk@${domain}>`;
}

function digestHour(env: NodeJS.ProcessEnv): number {
  const hour = integer(env, 'MAIL_DIGEST_HOUR_UTC', 8);
  if (hour > 23) throw new Error(`MAIL_DIGEST_HOUR_UTC must be an hour from 0 to 23, got '${hour}'`);
  return hour;
}

function timeouts(env: NodeJS.ProcessEnv): Timeouts {
  const parsed = {
    headersMs: integer(env, 'HEADERS_TIMEOUT_MS', 15_000),
    requestMs: integer(env, 'REQUEST_TIMEOUT_MS', 60_000),
    idleMs: integer(env, 'CONNECTION_TIMEOUT_MS', 120_000),
    keepAliveMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000),
  };
  if (parsed.requestMs > 0 && parsed.headersMs > parsed.requestMs) {
    throw new Error(
      `HEADERS_TIMEOUT_MS (${parsed.headersMs}) must not be more than REQUEST_TIMEOUT_MS (${parsed.requestMs})`,
    );
  }
  return parsed;
}

function redisConfig(env: NodeJS.ProcessEnv): Config['redis'] {
  const url = env.REDIS_URL?.trim();
  if (!url) return null;
  if (!/^rediss?:\/\//i.test(url)) throw new Error('REDIS_URL must start with redis:// or rediss://');
  return { url, prefix: env.REDIS_KEY_PREFIX || 'copydesk:' };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const host = env.HOST || '127.0.0.1';
  const port = integer(env, 'PORT', 8080);
  const config: Config = {
    host,
    port,
    database: parseDatabaseUrl(env.DATABASE_URL),
    logLevel: env.LOG_LEVEL || 'info',
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 1200),
    rateLimitKeylessPerMinute: integer(env, 'RATE_LIMIT_KEYLESS_PER_MINUTE', 300),
    maxConnectionsPerAddress: integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', 128),
    redis: redisConfig(env),
    responseCacheBytes: integer(env, 'RESPONSE_CACHE_BYTES', 64 * 1024 * 1024),
    limits: {
      bodyBytes: integer(env, 'LIMIT_BODY_BYTES', 10 * 1024 * 1024, 1),
      batchItems: integer(env, 'LIMIT_BATCH_ITEMS', 1000, 1),
      textChars: integer(env, 'LIMIT_TEXT_CHARS', 50_000, 1),
      notesChars: integer(env, 'LIMIT_NOTES_CHARS', 10_000, 1),
      tags: integer(env, 'LIMIT_TAGS', 100, 1),
      tagChars: integer(env, 'LIMIT_TAG_CHARS', 100, 1),
      filterIds: integer(env, 'LIMIT_FILTER_IDS', 1000, 1),
      lintChars: integer(env, 'LIMIT_LINT_CHARS', 2_000_000, 1),
      lintRecords: integer(env, 'LIMIT_LINT_RECORDS', 50_000, 1),
      lintFindingsPerText: integer(env, 'LIMIT_LINT_FINDINGS_PER_TEXT', 100, 1),
      lintFindings: integer(env, 'LIMIT_LINT_FINDINGS', 100_000, 1),
      lintFindingChars: integer(env, 'LIMIT_LINT_FINDING_CHARS', 16_000_000, 1),
      lintConcurrent: integer(env, 'LIMIT_LINT_CONCURRENT', 2, 1),
      lintQueue: integer(env, 'LIMIT_LINT_QUEUE', 8, 0),
    },
    timeouts: timeouts(env),
    historyRetentionDays: integer(env, 'HISTORY_RETENTION_DAYS', 365),
    webhooks: {
      secret: parseSecret(env.COPYDESK_SECRET),
      retryScale: positiveNumber(env, 'WEBHOOK_RETRY_SCALE', 1),
      disableAfterHours: positiveNumber(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 72),
      allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true',
      pollIntervalMs: integer(env, 'WEBHOOK_POLL_MS', 1000, 10),
      concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 16, 1),
    },
    mail: {
      smtpUrl: smtpUrl(env),
      from: mailFrom(env, publicUrl(env, host, port)),
      pollIntervalMs: integer(env, 'MAIL_POLL_MS', 1000, 10),
      concurrency: integer(env, 'MAIL_CONCURRENCY', 4, 1),
      retryScale: positiveNumber(env, 'MAIL_RETRY_SCALE', 1),
      digestHourUtc: digestHour(env),
    },
    machineTranslation: {
      secret: parseSecret(env.COPYDESK_SECRET),
      allowPrivateNetworks: env.MT_ALLOW_PRIVATE_NETWORKS === 'true',
      pollIntervalMs: integer(env, 'MT_POLL_MS', 1000, 10),
      maxRetryAfterSeconds: integer(env, 'MT_MAX_RETRY_AFTER_SECONDS', 60, 0),
    },
    publicUrl: publicUrl(env, host, port),
    trustProxy: trustProxy(env.TRUST_PROXY),
    sessions: {
      idleMs: integer(env, 'SESSION_IDLE_HOURS', 7 * 24, 1) * HOUR_MS,
      maxMs: integer(env, 'SESSION_MAX_DAYS', 30, 1) * 24 * HOUR_MS,
      passwordLinkMs: integer(env, 'PASSWORD_LINK_HOURS', 72, 1) * HOUR_MS,
    },
    eventLoopReport: env.COPYDESK_EVENT_LOOP_REPORT || null,
    events: {
      heartbeatMs: integer(env, 'EVENTS_HEARTBEAT_MS', 15_000, 10),
      maxStreams: integer(env, 'EVENTS_MAX_STREAMS', 10, 1),
      streamMaxMs: integer(env, 'EVENTS_STREAM_MAX_MS', 30 * 60_000, 100),
      retryMs: integer(env, 'EVENTS_RETRY_MS', 1000, 10),
      pollMs: integer(env, 'EVENTS_POLL_MS', 500, 10),
      presenceTtlMs: integer(env, 'PRESENCE_TTL_MS', 15_000, 10),
    },
    bootstrap: {
      email: (env.COPYDESK_ADMIN_EMAIL || 'admin@localhost').toLowerCase(),
      workspaceName: env.COPYDESK_WORKSPACE_NAME || 'My workspace',
    },
    ...overrides,
  };
  return Object.freeze(config);
}
