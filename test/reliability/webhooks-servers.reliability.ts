import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { servicesFor } from '../../src/services.js';
import { testDatabaseConfig } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';
import { startReceiver, verifiedBy } from '../modules/webhooks/receiver.js';

/**
 * Real server processes sharing one database (PostgreSQL in CI's second run, a SQLite file
 * otherwise): every event is delivered exactly once between them, a stopping server exits
 * cleanly, and an event written just before a server is killed arrives once it is back.
 */
const SIGNING_KEY = 'reliability-signing-key-0123456789abcdef';
const database = testDatabaseConfig();
const databaseUrl = database.kind === 'postgres' ? database.url : database.path;

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

async function startServer(): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/run.ts', 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'error',
      RATE_LIMIT_PER_MINUTE: '0',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_POLL_MS: '50',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base };
    } catch {
      if (Date.now() > deadline) throw new Error('server did not start');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function call(base: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/v2/${path}`, {
    method,
    headers: { authorization: key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('two servers on one database', () => {
  it('deliver 1,000 events between them, none twice; a killed server loses nothing', async () => {
    const setup = openDatabase(database);
    await migrateToLatest(setup.db);
    const services = servicesFor(loadConfig({}, { database }), setup);
    const { id } = await services.accounts.createWorkspace('Reliability');
    await services.accounts.createUser({ workspaceId: id, email: 'ops@example.com', name: 'Ops', role: 'admin' });
    const { key } = await services.accounts.createKey({ workspaceId: id, email: 'ops@example.com' });
    await setup.close();

    const receiver = await startReceiver();
    const [a, b] = await Promise.all([startServer(), startServer()]);
    await call(a.base, key, 'PUT', 'webhooks/signingKey', { signingKey: SIGNING_KEY });
    await call(b.base, key, 'POST', 'webhooks', {
      webhooks: [{ name: 'All', url: receiver.url('/all'), events: ['components.created'] }],
    });

    // 1,000 writes, alternating servers, eight at a time.
    let next = 0;
    const writer = async () => {
      while (next < 1000) {
        const n = next++;
        await call(n % 2 === 0 ? a.base : b.base, key, 'POST', 'components', {
          components: [{ developerId: `c${n}`, text: `Text ${n}` }],
        });
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer));
    await waitUntil(() => receiver.events('/all').length >= 1000, 60_000, '1,000 events');
    await new Promise((r) => setTimeout(r, 500));
    const events = receiver.events('/all');
    const ids = events.map((e) => e.body.data.id);
    expect(events).toHaveLength(1000);
    expect(new Set(ids).size).toBe(1000);
    expect(new Set(events.map((e) => e.body.data.changes[0].developerId)).size).toBe(1000);
    expect(events.every((e) => verifiedBy(SIGNING_KEY, e))).toBe(true);
    const sequences = events.map((e) => e.body.data.sequence).sort((x, y) => x - y);
    expect(new Set(sequences).size).toBe(1000);

    // SIGTERM: the server finishes what it claimed and exits cleanly.
    b.child.kill('SIGTERM');
    const [code] = await once(b.child, 'exit');
    expect(code).toBe(0);

    // SIGKILL right after a write: the event is in the outbox, and a restarted server sends it.
    await call(a.base, key, 'POST', 'components', { components: [{ developerId: 'last-words', text: 'Bye' }] });
    a.child.kill('SIGKILL');
    await once(a.child, 'exit');
    const lastWords = () => receiver.events('/all').some((e) => e.body.data.changes[0].developerId === 'last-words');
    const restarted = await startServer();
    // At most one lease (30 s) if the killed server had claimed it.
    await waitUntil(lastWords, 45_000, 'the event written before the kill');
    restarted.child.kill('SIGTERM');
    await once(restarted.child, 'exit');
  });
});
