/**
 * Exports at size: 10 projects of 1,000 text items (10,000; a third with plural forms, each with
 * 3 variant values), created through POST /v2/textItems (`BENCH_ITEMS=10000` per project: 100,000).
 * - Cold export of each format (the first request after a write): median ms over a few
 *   write + export cycles, and how far the server's RSS rises above where it was before the
 *   export (peak minus start). `BENCH_FORMATS=android,json_icu` limits the formats. Before its
 *   cycles, each format is exported once and that export printed apart: it is the first of its
 *   rendering, with no fragments stored yet, so it renders every text (a one-off per rendering,
 *   as a server that has exported a format before never pays it again).
 * - `GET /v2/statuses` issued back to back while a cold export runs: its p99 (the export must
 *   leave the event loop free).
 * - A repeated identical export under 10 connections against a bare Fastify route serving the
 *   same bytes in the same run (target: ratio >= 0.5).
 * - `If-None-Match` hits (304) under 50 connections against a bare Fastify route (target >= 0.5).
 * The server's CPU time over each cold export is printed too (median), the figure to compare on a
 * loaded machine; `BENCH_STATUSES=0` leaves out the status requests, whose CPU time it counts.
 * - The floor of each format (SQLite): the same rows read with better-sqlite3 and a minimal file
 *   of the format written and gzipped, by `bench/exports-floor.ts` in a process of its own,
 *   measured between the servers' first exports; the first exports' CPU time is printed as a
 *   multiple of it.
 * - `BENCH_COMPARE=/other/checkout/bin/copydesk.js` (SQLite): that build seeds the workspace,
 *   then this tree's build starts on a copy of the file, and every measurement is made on both
 *   servers in turn (first exports, each cold cycle, the load runs), so the two builds are
 *   compared within one run on a shared machine. The other build must be the older one (this
 *   tree's migrations run on the copy).
 * `npm run build && npm run bench:exports` (BENCH_DATABASE_URL=postgres://... for PostgreSQL).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { appendAll, maxOf } from '../src/shared/arrays.js';
import { bin, cpuMs, freePort, load, root, startBenchServer, startServer, stop, waitForHttp } from './lib.js';

/** Another build to compare with, in the same run (SQLite only). */
const COMPARE = process.env.BENCH_COMPARE;

const PROJECTS = 10;
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 5);
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const ALL_FORMATS = ['json_icu', 'json_i18next', 'json_vue_i18n', 'arb', 'ios-strings', 'ios-stringsdict', 'android'];
const FORMATS = process.env.BENCH_FORMATS?.split(',') ?? ALL_FORMATS;
// The workspace is seeded by the older build when comparing (its schema is a prefix of this one's).
const { DATABASE_URL, workspaceId, database, key, port, server, call } = await startBenchServer(
  'bench exports',
  COMPARE ?? bin,
);

const variants = ['fr', 'de', 'ru'];
await call('POST', 'variants', {
  variants: variants.map((id) => ({ name: id.toUpperCase(), developerId: id, localeCode: id })),
});
await call('POST', 'variables', {
  variables: [
    { name: 'count', type: 'number', data: { example: 3 } },
    { name: 'name', type: 'string', data: { example: 'Ann' } },
  ],
});
const pad = (n: number) => String(n).padStart(5, '0');
const projectIds = Array.from({ length: PROJECTS }, (_, p) => `project-${String(p).padStart(2, '0')}`);
await call('POST', 'projects', { projects: projectIds.map((id) => ({ name: id, developerId: id })) });

function item(project: number, n: number) {
  const plural = n % 3 === 0;
  const text = (lang: string) => `${lang} text ${n} of project ${project} for {{name}}, it's 100% "{{count}}" words`;
  const plurals = (lang: string) => [
    { form: 'one', text: text(lang) },
    { form: 'other', text: `${lang} texts ${n} of project ${project}: {{count}} for {{name}}` },
  ];
  return {
    developerId: `p${String(project).padStart(2, '0')}-item-${pad(n)}`,
    text: text('en'),
    notes: n % 5 === 0 ? `Notes for ${n}` : null,
    variables: ['count', 'name'],
    ...(plural && { plurals: plurals('en') }),
    variants: variants.map((id) => ({ variantId: id, text: text(id), ...(plural && { plurals: plurals(id) }) })),
  };
}

for (const [p, projectId] of projectIds.entries()) {
  for (let from = 0; from < ITEMS; from += 1_000) {
    const textItems = Array.from({ length: Math.min(1_000, ITEMS - from) }, (_, i) => item(p, from + i));
    await call('POST', 'textItems', { projectId, textItems });
  }
}

/** A server under measurement: the seeding one, and with `BENCH_COMPARE` this tree's build on a copy. */
interface Measured {
  label: string;
  port: number;
  pid: number;
  server: ChildProcess;
  /** Its SQLite file, for the floor. */
  file: string | null;
}
const sqliteFile = database === 'sqlite' ? DATABASE_URL.replace(/^sqlite:/, '') : null;
const servers: Measured[] = [
  { label: COMPARE ? 'before' : 'this build', port, pid: server.pid as number, server, file: sqliteFile },
];
if (COMPARE) {
  if (!sqliteFile) throw new Error('BENCH_COMPARE needs SQLite');
  const copy = `${sqliteFile}.after.db`;
  const source = new Database(sqliteFile, { readonly: true });
  await source.backup(copy);
  source.close();
  const afterPort = await freePort();
  const after = startServer({ DATABASE_URL: copy, PORT: String(afterPort) }, join(root, 'bin', 'copydesk.js'));
  await waitForHttp(`http://127.0.0.1:${afterPort}/readyz`, 60_000);
  servers.push({ label: 'after', port: afterPort, pid: after.pid as number, server: after, file: copy });
}

async function callOn(target: Measured, method: string, path: string, body?: unknown): Promise<Response> {
  const res = await fetch(`http://127.0.0.1:${target.port}/v2/${path}`, {
    method,
    headers: { authorization: key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} /v2/${path}: ${res.status} ${await res.text()}`);
  return res;
}

/** The floor of a format: `bench/exports-floor.ts` on the SQLite file, in a process of its own. */
async function floorOf(
  format: string,
): Promise<{ cpuMs: number; ms: number; bytes: number; writeCpuMs: number } | null> {
  const file = servers[servers.length - 1]?.file;
  if (!file) return null;
  // Not execFileSync: a blocked event loop misses the servers closing idle connections.
  const { stdout: out } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'bench/exports-floor.ts', file, String(workspaceId), format],
    { cwd: root, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop() as string);
}

const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN;
const percentile = (times: number[], p: number) =>
  [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * p))] ?? Number.NaN;
/** Resets the kernel's peak-RSS mark of a server (Linux), so VmHWM is the peak of what follows. */
const resetPeak = (pid: number) => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {}
};
const statusMiB = (pid: number, field: 'VmHWM' | 'VmRSS') => {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
};

/**
 * `GET /v2/statuses` back to back until `done` settles: the latency of each. The requests are
 * made from a worker thread with its own event loop (started once, warmed up), so what is timed
 * is the server's answer and not this process's own work meanwhile (receiving and gunzipping the
 * export it asked for).
 */
const prober = new Worker(
  `const { parentPort, workerData } = require('node:worker_threads');
  let running = false;
  let times = [];
  const once = async () => {
    const started = performance.now();
    const res = await fetch(url, { headers: { authorization: workerData.key } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error('GET /v2/statuses: ' + res.status);
    return performance.now() - started;
  };
  let url = workerData.url;
  parentPort.on('message', async (message) => {
    if (message.startsWith('http')) {
      url = message;
    } else if (message === 'warm') {
      for (let i = 0; i < 20; i++) await once();
      parentPort.postMessage('warm');
    } else if (message === 'start') {
      running = true;
      times = [];
      while (running) times.push(await once());
      parentPort.postMessage(times);
    } else if (message === 'stop') {
      running = false;
    }
  });`,
  { eval: true, workerData: { url: `http://127.0.0.1:${port}/v2/statuses`, key } },
);
const fromProber = () =>
  new Promise<unknown>((resolve, reject) => {
    prober.once('message', resolve);
    prober.once('error', reject);
  });
prober.postMessage('warm');
await fromProber();

async function statusesWhile(target: Measured, done: Promise<unknown>): Promise<number[]> {
  prober.postMessage(`http://127.0.0.1:${target.port}/v2/statuses`);
  const times = fromProber();
  prober.postMessage('start');
  await done.catch(() => undefined);
  prober.postMessage('stop');
  return (await times) as number[];
}

/** `BENCH_STATUSES=0`: no requests beside the export, so the server's CPU time is the export's alone. */
const quiet = process.env.BENCH_STATUSES === '0';
let run = 0;

/** One export of the format, with the server's CPU, its RSS growth and the statuses latencies meanwhile. */
async function measured(target: Measured, format: string) {
  const { pid } = target;
  resetPeak(pid);
  const before = statusMiB(pid, 'VmRSS');
  const cpu = cpuMs(pid);
  const started = performance.now();
  const exported = callOn(target, 'GET', `textItems/export?format=${format}`).then((res) => res.arrayBuffer());
  const [body, latencies] = await Promise.all([exported, quiet ? [] : statusesWhile(target, exported)]);
  return {
    ms: performance.now() - started,
    cpu: cpuMs(pid) - cpu,
    growth: statusMiB(pid, 'VmHWM') - before,
    bytes: body.byteLength,
    latencies,
  };
}

interface Figures {
  ms: number;
  cpu: number;
  growth: number;
  bytes: number;
  statusesP99: number;
  statusesMax: number;
}
/** Per server label, per format. */
const cold: Record<string, Record<string, Figures>> = {};
/** The first export of each format: nothing rendered for it yet on that server. */
const first: Record<string, Record<string, Figures>> = {};
const floors: Record<string, Awaited<ReturnType<typeof floorOf>>> = {};
for (const target of servers) {
  cold[target.label] = {};
  first[target.label] = {};
}
// The seed's texts are queued for the search index, which each server works off in the
// background once the writes pause: a search first works off what is left, so that the first
// export's CPU time is the export's, not the indexing's that would run beside it.
for (const target of servers) await callOn(target, 'GET', 'search?q=seeded');
for (const format of FORMATS) {
  for (const target of servers) {
    const once = await measured(target, format);
    (first[target.label] as Record<string, Figures>)[format] = {
      ...once,
      statusesP99: percentile(once.latencies, 0.99),
      statusesMax: maxOf(once.latencies),
    };
  }
  floors[format] = await floorOf(format);
  const times = new Map(
    servers.map((target) => [
      target,
      { ms: [] as number[], cpu: [] as number[], growth: [] as number[], during: [] as number[], bytes: 0 },
    ]),
  );
  for (let cycle = 0; cycle < CYCLES; cycle += 1) {
    run += 1;
    for (const target of servers) {
      await callOn(target, 'PATCH', 'textItems', {
        updates: [{ developerId: 'p00-item-00001', text: `Changed ${run}` }],
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Alternate which build goes first.
    const order = cycle % 2 === 0 ? servers : [...servers].reverse();
    for (const target of order) {
      const m = await measured(target, format);
      const t = times.get(target) as NonNullable<ReturnType<typeof times.get>>;
      t.ms.push(m.ms);
      t.cpu.push(m.cpu);
      t.growth.push(m.growth);
      appendAll(t.during, m.latencies);
      t.bytes = m.bytes;
    }
  }
  for (const target of servers) {
    const t = times.get(target) as NonNullable<ReturnType<typeof times.get>>;
    (cold[target.label] as Record<string, Figures>)[format] = {
      ms: median(t.ms),
      cpu: median(t.cpu),
      growth: median(t.growth),
      bytes: t.bytes,
      statusesP99: percentile(t.during, 0.99),
      statusesMax: maxOf(t.during),
    };
  }
}

/** Our URL under `connections` against a bare Fastify route serving `body` with `contentType`. */
async function against(
  url: string,
  connections: number,
  getHeaders: Record<string, string>,
  body: string,
  contentType: string,
) {
  const file = join(tmpdir(), `copydesk-bench-exports-${process.pid}`);
  writeFileSync(file, body);
  const barePort = await freePort();
  const bare: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/bare-server.ts', String(barePort), `@${file}`, contentType],
    { cwd: root, stdio: 'inherit' },
  );
  try {
    await waitForHttp(`http://127.0.0.1:${barePort}/`);
    await load(url, { connections, duration: 2, headers: getHeaders });
    const ours = await load(url, { connections, duration, headers: getHeaders });
    if (ours.errors > 0) throw new Error(`${url}: ${ours.errors} errors`);
    await load(`http://127.0.0.1:${barePort}/`, { connections, duration: 2 });
    const baseline = await load(`http://127.0.0.1:${barePort}/`, { connections, duration });
    return { rps: ours.rps, p99: ours.p99, baseline: baseline.rps };
  } finally {
    await stop(bare);
    unlinkSync(file);
  }
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
console.log(
  `database: ${database}; ${PROJECTS * ITEMS} text items (a third plural, 3 variants each); cold = first export after a write, median of ${CYCLES}; load average ${loadavg()[0]?.toFixed(1)}`,
);
const line = (m: Figures) =>
  `${m.ms.toFixed(0)} ms (server CPU ${m.cpu} ms), ${mib(m.bytes)} MiB, server RSS growth ${m.growth.toFixed(0)} MiB, ${quiet ? 'no GET /v2/statuses meanwhile' : `GET /v2/statuses meanwhile p99 ${m.statusesP99.toFixed(1)} ms, max ${m.statusesMax.toFixed(0)} ms`}`;
for (const target of servers) {
  const label = servers.length > 1 ? `[${target.label}] ` : '';
  for (const [format, m] of Object.entries(cold[target.label] ?? {})) console.log(`${label}cold ${format}: ${line(m)}`);
}
for (const format of FORMATS) {
  const floor = floors[format];
  if (floor) {
    console.log(
      `floor of ${format} (better-sqlite3 rows, minimal file, gzip; its own process): CPU ${floor.cpuMs} ms (${floor.writeCpuMs} ms before gzip), wall ${floor.ms} ms, ${mib(floor.bytes)} MiB`,
    );
  }
  for (const target of servers) {
    const m = first[target.label]?.[format] as Figures;
    const label = servers.length > 1 ? `[${target.label}] ` : '';
    const ratio = floor
      ? `; CPU ${(m.cpu / floor.cpuMs).toFixed(1)}x the floor's, wall ${(m.ms / floor.ms).toFixed(1)}x`
      : '';
    console.log(`${label}first export of ${format} (nothing rendered for it yet): ${line(m)}${ratio}`);
  }
}

/** Repeated export and `If-None-Match` against bare Fastify; `BENCH_SKIP_LOAD=1` skips them. */
async function ratios(target: Measured) {
  const base = `http://127.0.0.1:${target.port}/v2`;
  const path = 'textItems/export?format=json_i18next&variantId=fr';
  const warm = await callOn(target, 'GET', path);
  const body = await warm.text();
  const etag = String(warm.headers.get('etag'));
  const contentType = String(warm.headers.get('content-type'));
  const repeated = await against(`${base}/${path}`, 10, { authorization: key }, body, contentType);
  const check = await fetch(`${base}/${path}`, { headers: { authorization: key, 'if-none-match': etag } });
  if (check.status !== 304) throw new Error(`If-None-Match answered ${check.status}`);
  const hits = await against(`${base}/${path}`, 50, { authorization: key, 'if-none-match': etag }, '', 'text/plain');

  const label = servers.length > 1 ? `[${target.label}] ` : '';
  const pass = (ratio: number) => (ratio >= 0.5 ? 'PASS' : 'FAIL');
  const r1 = repeated.rps / repeated.baseline;
  console.log(
    `${label}repeated export (json_i18next, variant fr, ${mib(Buffer.byteLength(body))} MiB), 10 connections: ${repeated.rps.toFixed(0)} req/s (p99 ${repeated.p99} ms) vs same bytes precomputed ${repeated.baseline.toFixed(0)} req/s: ratio ${r1.toFixed(2)} (target >= 0.5): ${pass(r1)}`,
  );
  const r2 = hits.rps / hits.baseline;
  console.log(
    `${label}If-None-Match hits (304), 50 connections: ${hits.rps.toFixed(0)} req/s (p99 ${hits.p99} ms) vs bare Fastify route ${hits.baseline.toFixed(0)} req/s: ratio ${r2.toFixed(2)} (target >= 0.5): ${pass(r2)}`,
  );
}

try {
  if (!process.env.BENCH_SKIP_LOAD) for (const target of servers) await ratios(target);
} finally {
  await prober.terminate();
  for (const target of servers) await stop(target.server);
}
