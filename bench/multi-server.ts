/**
 * Several servers on one PostgreSQL database (with Redis when REDIS_URL is set): how long a
 * revocation takes to stop the key on every server, whether the read that follows a write on
 * another server is ever stale, and throughput with keys and revisions kept in memory.
 * `BENCH_DATABASE_URL=postgres://... npm run bench:multi-server` (`BENCH_SERVERS`, default 2;
 * `BENCH_TRIALS`, default 20; `BENCH_LOAD=1` keeps every server under load meanwhile).
 */

import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createServices } from '../src/services.js';
import { maxOf } from '../src/shared/arrays.js';
import { freePort, load, startServer, stop, waitForHttp } from './lib.js';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? '';
if (!DATABASE_URL.startsWith('postgres')) throw new Error('BENCH_DATABASE_URL must name a PostgreSQL database');
const serverCount = Number(process.env.BENCH_SERVERS ?? 2);
const trials = Number(process.env.BENCH_TRIALS ?? 20);
const underLoad = process.env.BENCH_LOAD === '1';
const redisEnv = process.env.REDIS_URL
  ? {
      REDIS_URL: process.env.REDIS_URL,
      REDIS_KEY_PREFIX: process.env.REDIS_KEY_PREFIX ?? `copydesk-bench-${process.pid}:`,
    }
  : {};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const max = (values: number[]) => maxOf(values);
const agent = new Agent({ keepAlive: true });

const database = openDatabase(loadConfig({ DATABASE_URL }).database);
await migrateToLatest(database.db);
const operator = createServices(database.db);
let serial = 0;
async function freshKey() {
  serial += 1;
  const { id } = await operator.accounts.createWorkspace(`bench multi-server ${process.pid}-${serial}`);
  const email = `bench${serial}@example.com`;
  await operator.accounts.createUser({ workspaceId: id, email, role: 'admin' });
  return operator.accounts.createKey({ workspaceId: id, email });
}

function send(port: number, key: string, method: string, path: string, options: { body?: string; etag?: string } = {}) {
  return new Promise<{ status: number; text: string; etag: string }>((resolve, reject) => {
    const headers: Record<string, string> = { authorization: key };
    if (options.body) headers['content-type'] = 'application/json';
    if (options.etag) headers['if-none-match'] = options.etag;
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, etag: String(res.headers.etag ?? '') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

// A workspace before any server starts, so none of them runs the first-start bootstrap.
await freshKey();
const servers: { port: number; child: ChildProcess }[] = [];
for (let i = 0; i < serverCount; i++) {
  const port = await freePort();
  const child = startServer({ DATABASE_URL, PORT: String(port), ...redisEnv });
  servers.push({ port, child });
}
// Whatever fails below, no server outlives the script.
process.once('exit', () => {
  for (const { child } of servers) if (child.exitCode === null) child.kill('SIGKILL');
});
await Promise.all(servers.map(({ port }) => waitForHttp(`http://127.0.0.1:${port}/readyz`, 60_000)));

// Background load: autocannon against every server with a key of its own workspace.
const background: autocannon.Instance[] = [];
if (underLoad) {
  const { key } = await freshKey();
  for (const { port } of servers) {
    background.push(
      autocannon(
        {
          url: `http://127.0.0.1:${port}/v2/statuses`,
          connections: 10,
          duration: 3600,
          headers: { authorization: key },
        },
        () => {},
      ),
    );
  }
}

try {
  // 1. Revocation: from the moment the revoking transaction has committed to the first 401 on each server.
  const revocation: number[] = [];
  for (let trial = 0; trial < trials; trial++) {
    const { key, id } = await freshKey();
    for (const { port } of servers) await send(port, key, 'GET', '/v2/statuses');
    await operator.accounts.revokeKey(id);
    const committed = performance.now();
    await Promise.all(
      servers.map(async ({ port }) => {
        for (;;) {
          const res = await send(port, key, 'GET', '/v2/statuses');
          if (res.status === 401) break;
          if (performance.now() - committed > 5000) throw new Error('key still accepted after 5 s');
        }
        revocation.push(performance.now() - committed);
      }),
    );
  }

  // 2. Write on one server, then at once the same read with the old ETag on every other one.
  const { key } = await freshKey();
  let stale = 0;
  let reads = 0;
  const untilFresh: number[] = [];
  for (let trial = 0; trial < trials * 5; trial++) {
    const writer = servers[trial % servers.length];
    const readers = servers.filter((server) => server !== writer);
    if (!writer) break;
    const before = await Promise.all(readers.map(({ port }) => send(port, key, 'GET', '/v2/statuses')));
    const name = `Draft ${trial}`;
    const put = await send(writer.port, key, 'PUT', '/v2/statuses', {
      body: JSON.stringify({ statuses: [{ id: 'NONE', name }] }),
    });
    if (put.status !== 200) throw new Error(`PUT: ${put.status} ${put.text}`);
    const acknowledged = performance.now();
    await Promise.all(
      readers.map(async ({ port }, index) => {
        let first = true;
        for (;;) {
          const res = await send(port, key, 'GET', '/v2/statuses', { etag: before[index]?.etag });
          const fresh = res.status === 200 && res.text.includes(name);
          if (first) {
            reads += 1;
            if (!fresh) stale += 1;
            first = false;
          }
          if (fresh) break;
        }
        untilFresh.push(performance.now() - acknowledged);
      }),
    );
  }

  // 3. Throughput of a cached GET on one server.
  const throughput = await load(`http://127.0.0.1:${servers[0]?.port}/v2/statuses`, {
    connections: 50,
    duration: Number(process.env.BENCH_SECONDS ?? 5),
    headers: { authorization: key },
  });

  console.log(
    `${serverCount} servers on PostgreSQL${redisEnv.REDIS_URL ? ' with Redis' : ''}${underLoad ? ', each under load (10 connections)' : ''}`,
  );
  console.log(
    `revocation, commit to 401 on each server: median ${median(revocation).toFixed(1)} ms, max ${max(revocation).toFixed(1)} ms over ${revocation.length} (target < 1000 ms): ${max(revocation) < 1000 ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `write on one, read with the old ETag on another right after the acknowledgement: ${stale} stale of ${reads}; fresh after median ${median(untilFresh).toFixed(2)} ms, max ${max(untilFresh).toFixed(2)} ms`,
  );
  console.log(
    `GET /v2/statuses on one server, 50 connections: ${throughput.rps.toFixed(0)} req/s, p99 ${throughput.p99} ms`,
  );
} finally {
  for (const instance of background) instance.stop();
  await Promise.all(servers.map(({ child }) => stop(child)));
  await database.close();
}
