import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  freePort,
  latencies,
  prepareWorkspace,
  report,
  scaled,
  startServer,
  statusCounts,
  stopServer,
  type Workspace,
} from './harness.js';

/**
 * Redis is never in the way: a server process whose REDIS_URL is a black hole (accepts, never
 * answers), a refused port, or a real redis-server that is paused with CLIENT PAUSE and then
 * stopped, keeps answering every request at once, and /readyz says Redis is degraded. Before, a
 * black hole held every request for 120 s while /healthz stayed 200, and a refused port added
 * 2.9–4.0 s to each. The redis-server is the scenario's own (the Debian package), never the
 * machine's.
 */
const CLIENTS = 8;
const REQUESTS = scaled(24, 200);
const CLIENT_TIMEOUT_MS = 10_000;

const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
});

async function blackHole(): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  }).listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return `redis://127.0.0.1:${(server.address() as { port: number }).port}`;
}

async function ownRedis(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  cleanups.push(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  for (let tries = 0; ; tries += 1) {
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch (error) {
      if (tries > 100) throw error;
      probe.disconnect();
      await new Promise((done) => setTimeout(done, 50));
    }
  }
  probe.disconnect();
  return { url, child };
}

/** CLIENTS clients, each sending its share of REQUESTS keyed reads, one after another. */
async function load(base: string, ws: Workspace) {
  const answers: { status: number; ms: number }[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < REQUESTS / CLIENTS; i += 1) {
        const started = performance.now();
        try {
          const res = await fetch(`${base}/v2/statuses`, {
            headers: { authorization: ws.key },
            signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
          });
          await res.arrayBuffer();
          answers.push({ status: res.status, ms: performance.now() - started });
        } catch {
          answers.push({ status: 0, ms: performance.now() - started });
        }
      }
    }),
  );
  return { statuses: statusCounts(answers), ...latencies(answers.map((a) => a.ms)) };
}

const readiness = async (base: string) => (await (await fetch(`${base}/readyz`)).json()) as { redis?: string };

describe('Redis away', () => {
  it('a black hole, a refused port, a paused and a stopped Redis: every request answered, /readyz degraded', async () => {
    const ws = await prepareWorkspace('Redis away');
    const figures: Record<string, unknown> = {};
    // Rate limits on (the harness turns them off), so that every request counts in Redis.
    const env = (url: string) => ({
      REDIS_URL: url,
      REDIS_KEY_PREFIX: `rel-${randomUUID()}:`,
      RATE_LIMIT_PER_MINUTE: '1000000',
    });

    for (const [name, url] of [
      ['blackHole', await blackHole()],
      ['refused', `redis://127.0.0.1:${await freePort()}`],
    ] as const) {
      const server = await startServer(env(url));
      const measured = await load(server.base, ws);
      figures[name] = { ...measured, readyz: (await readiness(server.base)).redis };
      await stopServer(server);
    }

    const redis = await ownRedis();
    const server = await startServer(env(redis.url));
    const connectedBy = Date.now() + 10_000;
    while ((await readiness(server.base)).redis !== 'ok') {
      if (Date.now() > connectedBy) throw new Error('the server never connected to its Redis');
      await load(server.base, ws);
    }
    figures.healthy = await load(server.base, ws);
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    admin.on('error', () => {});
    await admin.call('CLIENT', 'PAUSE', '60000', 'ALL');
    figures.paused = { ...(await load(server.base, ws)), readyz: (await readiness(server.base)).redis };
    admin.disconnect();
    redis.child.kill('SIGKILL');
    figures.stopped = { ...(await load(server.base, ws)), readyz: (await readiness(server.base)).redis };
    await stopServer(server);

    report('redis away', { clients: CLIENTS, requests: REQUESTS, ...figures });
    for (const name of ['blackHole', 'refused', 'healthy', 'paused', 'stopped']) {
      const measured = figures[name] as { statuses: Record<string, number> };
      expect(measured.statuses, name).toEqual({ 200: REQUESTS });
    }
    for (const name of ['blackHole', 'refused', 'paused', 'stopped']) {
      expect((figures[name] as { readyz: string }).readyz, name).toBe('degraded');
    }
  });
});
