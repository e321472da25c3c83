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
 * `npm run build && npm run bench:exports` (BENCH_DATABASE_URL=postgres://... for PostgreSQL).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { appendAll, maxOf } from '../src/shared/arrays.js';
import { cpuMs, freePort, load, root, startBenchServer, stop, waitForHttp } from './lib.js';

const PROJECTS = 10;
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 5);
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const ALL_FORMATS = ['json_icu', 'json_i18next', 'json_vue_i18n', 'arb', 'ios-strings', 'ios-stringsdict', 'android'];
const FORMATS = process.env.BENCH_FORMATS?.split(',') ?? ALL_FORMATS;
const { database, key, port, server, call } = await startBenchServer('bench exports');
const base = `http://127.0.0.1:${port}/v2`;

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

const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN;
const percentile = (times: number[], p: number) =>
  [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * p))] ?? Number.NaN;
const pid = server.pid as number;
/** Resets the kernel's peak-RSS mark of the server (Linux), so VmHWM is the peak of what follows. */
const resetPeak = () => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {}
};
const statusMiB = (field: 'VmHWM' | 'VmRSS') => {
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
    const res = await fetch(workerData.url, { headers: { authorization: workerData.key } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error('GET /v2/statuses: ' + res.status);
    return performance.now() - started;
  };
  parentPort.on('message', async (message) => {
    if (message === 'warm') {
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

async function statusesWhile(done: Promise<unknown>): Promise<number[]> {
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
async function measured(format: string) {
  resetPeak();
  const before = statusMiB('VmRSS');
  const cpu = cpuMs(pid);
  const started = performance.now();
  const exported = call('GET', `textItems/export?format=${format}`).then((res) => res.arrayBuffer());
  const [body, latencies] = await Promise.all([exported, quiet ? [] : statusesWhile(exported)]);
  return {
    ms: performance.now() - started,
    cpu: cpuMs(pid) - cpu,
    growth: statusMiB('VmHWM') - before,
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
const cold: Record<string, Figures> = {};
/** The first export of each format: no fragments stored for its rendering yet, every text rendered. */
const first: Record<string, Figures> = {};
for (const format of FORMATS) {
  const once = await measured(format);
  first[format] = {
    ...once,
    statusesP99: percentile(once.latencies, 0.99),
    statusesMax: maxOf(once.latencies),
  };
  const times: number[] = [];
  const growths: number[] = [];
  const cpus: number[] = [];
  const during: number[] = [];
  let bytes = 0;
  for (let cycle = 0; cycle < CYCLES; cycle += 1) {
    run += 1;
    await call('PATCH', 'textItems', { updates: [{ developerId: 'p00-item-00001', text: `Changed ${run}` }] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const m = await measured(format);
    times.push(m.ms);
    cpus.push(m.cpu);
    growths.push(m.growth);
    appendAll(during, m.latencies);
    bytes = m.bytes;
  }
  cold[format] = {
    ms: median(times),
    cpu: median(cpus),
    growth: median(growths),
    bytes,
    statusesP99: percentile(during, 0.99),
    statusesMax: maxOf(during),
  };
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
for (const [format, m] of Object.entries(cold)) console.log(`cold ${format}: ${line(m)}`);
for (const [format, m] of Object.entries(first)) {
  console.log(`first export of ${format} (nothing stored for its rendering yet): ${line(m)}`);
}

/** Repeated export and `If-None-Match` against bare Fastify; `BENCH_SKIP_LOAD=1` skips them. */
async function ratios() {
  const path = 'textItems/export?format=json_i18next&variantId=fr';
  const warm = await call('GET', path);
  const body = await warm.text();
  const etag = String(warm.headers.get('etag'));
  const contentType = String(warm.headers.get('content-type'));
  const repeated = await against(`${base}/${path}`, 10, { authorization: key }, body, contentType);
  const check = await fetch(`${base}/${path}`, { headers: { authorization: key, 'if-none-match': etag } });
  if (check.status !== 304) throw new Error(`If-None-Match answered ${check.status}`);
  const hits = await against(`${base}/${path}`, 50, { authorization: key, 'if-none-match': etag }, '', 'text/plain');

  const pass = (ratio: number) => (ratio >= 0.5 ? 'PASS' : 'FAIL');
  const r1 = repeated.rps / repeated.baseline;
  console.log(
    `repeated export (json_i18next, variant fr, ${mib(Buffer.byteLength(body))} MiB), 10 connections: ${repeated.rps.toFixed(0)} req/s (p99 ${repeated.p99} ms) vs same bytes precomputed ${repeated.baseline.toFixed(0)} req/s: ratio ${r1.toFixed(2)} (target >= 0.5): ${pass(r1)}`,
  );
  const r2 = hits.rps / hits.baseline;
  console.log(
    `If-None-Match hits (304), 50 connections: ${hits.rps.toFixed(0)} req/s (p99 ${hits.p99} ms) vs bare Fastify route ${hits.baseline.toFixed(0)} req/s: ratio ${r2.toFixed(2)} (target >= 0.5): ${pass(r2)}`,
  );
}

try {
  if (!process.env.BENCH_SKIP_LOAD) await ratios();
} finally {
  await prober.terminate();
  await stop(server);
}
