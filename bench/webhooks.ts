/**
 * Webhooks at load, against a real server (`npm run build && npm run bench:webhooks`;
 * BENCH_DATABASE_URL=postgres://... for PostgreSQL):
 * 1. Writes with 3 subscribed webhooks against none: POST then PATCH of 1,000 components, the two
 *    workspaces alternating round by round (target: at most +10%).
 * 2. The outbox drained: 100,000 pending deliveries to a local receiver, deliveries a second
 *    (target >= 200 on SQLite) and the server's RSS above its idle RSS while draining (target
 *    under 100 MiB).
 */

import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { parseDatabaseUrl } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { type BenchServer, cli, startBenchServer, stop } from './lib.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PENDING = Number(process.env.BENCH_PENDING ?? 100_000);
const SIGNING_KEY = 'bench-signing-key-0123456789abcdefghijkl';
process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'true';

let received = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received += 1;
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = (n: number) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook${n}`;

const rssMiB = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return line ? Number(line[1]) / 1024 : Number.NaN;
};
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** CPU time (user + system) a process has used, in ms (Linux; 10 ms ticks). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

async function writes(): Promise<void> {
  const bench = await startTracked('bench webhooks');
  const json = async (args: string[]) =>
    JSON.parse(await cli([...args, '--json'], { DATABASE_URL: bench.DATABASE_URL }));
  const other = await json(['workspace', 'create', '--name', 'no webhooks']);
  await json(['user', 'create', '--workspace', String(other.id), '--email', 'b@example.com']);
  const { key: otherKey } = await json(['key', 'create', '--workspace', String(other.id), '--email', 'b@example.com']);
  const callWith = async (key: string, method: string, path: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${bench.port}/v2/${path}`, {
      method,
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  };
  await bench.call('PUT', 'webhooks/signingKey', { signingKey: SIGNING_KEY });
  await bench.call('POST', 'webhooks', {
    webhooks: [1, 2, 3].map((n) => ({ name: `Hook ${n}`, url: hookUrl(n), events: ['*'] })),
  });
  type Times = { post: number[]; patch: number[]; postCpu: number[]; patchCpu: number[] };
  const empty = (): Times => ({ post: [], patch: [], postCpu: [], patchCpu: [] });
  const times = { hooked: empty(), bare: empty() };
  const pid = bench.server.pid as number;
  // Each write's deliveries are sent before the next timed write starts, so the time and the
  // server's CPU measured are the write's own (the outbox rows included, the sending not).
  const settle = async (count: number) => {
    while (received < count) await sleep(5);
  };
  for (let round = 0; round < ROUNDS; round += 1) {
    const order: ('hooked' | 'bare')[] = round % 2 === 0 ? ['hooked', 'bare'] : ['bare', 'hooked'];
    for (const which of order) {
      const key = which === 'hooked' ? bench.key : otherKey;
      const expected = () => received + (which === 'hooked' ? 3 : 0);
      const ids = Array.from({ length: 1000 }, (_, n) => `r${round}-c${n}`);
      let target = expected();
      let cpu = cpuMs(pid);
      let started = performance.now();
      await callWith(key, 'POST', 'components', {
        components: ids.map((developerId, n) => ({ developerId, text: `Text ${n}`, tags: ['bench'] })),
      });
      times[which].post.push(performance.now() - started);
      times[which].postCpu.push(cpuMs(pid) - cpu);
      await settle(target);
      target = expected() + (which === 'hooked' ? 3 : 0);
      cpu = cpuMs(pid);
      started = performance.now();
      await callWith(key, 'PATCH', 'components', {
        updates: ids.map((developerId, n) => ({ developerId, text: `Changed ${n}`, status: 'FINAL' })),
      });
      times[which].patch.push(performance.now() - started);
      times[which].patchCpu.push(cpuMs(pid) - cpu);
      // A PATCH that changes status sends components.updated and statuses.updated.
      await settle(target);
    }
  }
  for (const op of ['post', 'patch'] as const) {
    const cpu = `${op}Cpu` as const;
    const [hooked, bare] = [median(times.hooked[op]), median(times.bare[op])];
    const [hookedCpu, bareCpu] = [median(times.hooked[cpu]), median(times.bare[cpu])];
    console.log(
      `${op.toUpperCase()} 1,000 components (${bench.database}), medians of ${ROUNDS}: ` +
        `${bare.toFixed(0)} ms without webhooks, ${hooked.toFixed(0)} ms with 3 (${((hooked / bare - 1) * 100).toFixed(1)}%); ` +
        `server CPU ${bareCpu} ms vs ${hookedCpu} ms (${((hookedCpu / bareCpu - 1) * 100).toFixed(1)}%)`,
    );
  }
  await stop(bench.server);
}

async function drain(): Promise<void> {
  const bench = await startTracked('bench drain');
  await bench.call('PUT', 'webhooks/signingKey', { signingKey: SIGNING_KEY });
  await bench.call('POST', 'webhooks', { webhooks: [{ name: 'Drain', url: hookUrl(0), events: ['*'] }] });
  await bench.call('POST', 'components', { components: [{ developerId: 'cart', text: 'Cart' }] });
  await sleep(3000);
  const pid = bench.server.pid as number;
  const idle = rssMiB(pid);
  const database = openDatabase(parseDatabaseUrl(bench.DATABASE_URL));
  const { db } = database;
  const hook = await db.selectFrom('webhooks').select(['id', 'workspace_id']).executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  // Every event carries the one real change, by reference, as events written by a write do.
  const last = await db
    .selectFrom('changes')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('workspace_id', '=', hook.workspace_id)
    .executeTakeFirstOrThrow();
  const change = JSON.stringify({ r: [[last.id, last.id]] });
  const seeded = performance.now();
  await db.transaction().execute(async (trx) => {
    const CHUNK = 2000;
    for (let start = 0; start < PENDING; start += CHUNK) {
      const rows = Array.from({ length: Math.min(CHUNK, PENDING - start) }, (_, i) => ({
        workspace_id: hook.workspace_id,
        uuid: `00000000-0000-4000-8000-${String(start + i).padStart(12, '0')}`,
        name: 'components.updated',
        at,
        actor: 'bench@example.com',
        changes: change,
      }));
      await trx.insertInto('webhook_events').values(rows).execute();
    }
    await sql`insert into webhook_deliveries (workspace_id, event_id, webhook_id, state, created_at)
      select workspace_id, id, ${hook.id}, 'pending', ${at} from webhook_events`.execute(trx);
    await sql`insert into webhook_attempts (workspace_id, delivery_id, attempt, state, due_at)
      select workspace_id, id, 1, 'pending', ${at} from webhook_deliveries`.execute(trx);
  });
  console.log(`seeded ${PENDING} pending deliveries in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  const before = received;
  const started = performance.now();
  let peak = idle;
  while (received - before < PENDING) {
    await sleep(250);
    peak = Math.max(peak, rssMiB(pid));
  }
  const seconds = (performance.now() - started) / 1000;
  let left = 1;
  while (left > 0) {
    const row = await db
      .selectFrom('webhook_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow();
    left = Number(row.n);
    if (left > 0) await sleep(100);
  }
  console.log(
    `drained ${PENDING} deliveries (${bench.database}) in ${seconds.toFixed(1)} s: ${(PENDING / seconds).toFixed(0)}/s; ` +
      `RSS idle ${idle.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB (+${(peak - idle).toFixed(0)} MiB)`,
  );
  await database.close();
  await stop(bench.server);
}

/** Servers still running when a part fails: stopped before the script exits. */
const running = new Set<BenchServer>();
async function startTracked(name: string): Promise<BenchServer> {
  const bench = await startBenchServer(name);
  running.add(bench);
  return bench;
}

const only = process.argv[2];
try {
  if (only !== 'drain') await writes();
  if (only !== 'writes') await drain();
} finally {
  for (const bench of running) await stop(bench.server);
  receiver.close();
}
