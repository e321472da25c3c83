/**
 * Text items at size: 20 projects of 1,000 items (a third with plural forms, each with 3 variant
 * values) connected to one base of 2,000 items, created through POST /v2/textItems.
 * - GET /v2/textItems (every project, base text) and GET with a one-project filter under 10
 *   connections, each against a bare Fastify route serving the same bytes in the same run
 *   (target: ratio >= 0.25 for the full list; the one-project rate >= 20x the full list's).
 * - PATCH /v2/textItems with 1,000 updates: median of 10 requests (target < 1 s on SQLite).
 * `npm run build && npm run bench:text-items` (BENCH_DATABASE_URL=postgres://... for PostgreSQL).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuMs, cpuPerWriteSettled, freePort, load, root, startBenchServer, stop, waitForHttp } from './lib.js';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 20);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000);
const BASE_ITEMS = 2_000;
const BATCH = 1_000;
const PATCH_RUNS = 10;
const duration = Number(process.env.BENCH_SECONDS ?? 10);
/** `BENCH_SKIP_LOAD=1`: the writes and the cold GETs only. */
const skipLoad = process.env.BENCH_SKIP_LOAD === '1';
const { database, key, port, server, call, timed } = await startBenchServer('bench text items');
const base = `http://127.0.0.1:${port}/v2`;

const variants = ['fr', 'de', 'es'];
await call('POST', 'variants', { variants: variants.map((id) => ({ name: id.toUpperCase(), developerId: id })) });
await call('POST', 'variables', { variables: [{ name: 'count', type: 'number', data: { example: 3 } }] });
await call('POST', 'bases', { bases: [{ name: 'Core', developerId: 'core' }] });
const projectIds = Array.from({ length: PROJECTS }, (_, p) => `project-${String(p).padStart(2, '0')}`);
await call('POST', 'projects', { projects: projectIds.map((id) => ({ name: id, developerId: id, baseId: 'core' })) });

const pad = (n: number) => String(n).padStart(5, '0');
for (let start = 0; start < BASE_ITEMS; start += BATCH) {
  const textItems = Array.from({ length: BATCH }, (_, i) => ({
    developerId: `core-${pad(start + i)}`,
    text: `Core text ${start + i}`,
  }));
  await call('POST', 'textItems', { baseId: 'core', textItems });
}

function item(project: number, n: number) {
  const plural = n % 3 === 0;
  const text = (lang: string) => `${lang} text ${n} of project ${project}, with {{count}} words`;
  const plurals = (lang: string) => [
    { form: 'one', text: text(lang) },
    { form: 'other', text: `${lang} texts ${n} of project ${project}` },
  ];
  return {
    developerId: `p${String(project).padStart(2, '0')}-item-${pad(n)}`,
    text: text('en'),
    blockId: n % 4 === 0 ? undefined : `block-${n % 5}`,
    notes: n % 5 === 0 ? `Notes for ${n}` : null,
    tags: [`tag-${n % 10}`],
    status: ['NONE', 'WIP', 'REVIEW', 'FINAL'][n % 4],
    characterLimit: n % 4 === 0 ? 120 : null,
    integrated: n % 2 === 0,
    variables: ['count'],
    baseTextItemId: n % 7 === 0 ? `core-${pad(n)}` : undefined,
    ...(plural && { plurals: plurals('en') }),
    variants: variants.map((id) => ({ variantId: id, text: text(id), ...(plural && { plurals: plurals(id) }) })),
  };
}

const postTimes: number[] = [];
const postCpu: number[] = [];
let postSeriesCpu = 0;
for (const [p, projectId] of projectIds.entries()) {
  await call('POST', 'projectBlocks', {
    projectId,
    blocks: Array.from({ length: 5 }, (_, b) => ({ name: `Block ${b}`, developerId: `block-${b}` })),
  });
  for (let start = 0; start < ITEMS; start += BATCH) {
    const textItems = Array.from({ length: Math.min(BATCH, ITEMS - start) }, (_, i) => item(p, start + i));
    if (postTimes.length === 0) postSeriesCpu = cpuMs(server.pid);
    const { ms, cpu } = await timed('POST', 'textItems', { projectId, textItems });
    postTimes.push(ms);
    postCpu.push(cpu);
  }
}

const postSettled = await cpuPerWriteSettled(server.pid, postSeriesCpu, postTimes.length);
const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN;

// PATCH 1,000 updates of one project: text (so plural forms follow), status and tags, different each run.
const patchTimes: number[] = [];
const patchCpu: number[] = [];
const patchSeriesCpu = cpuMs(server.pid);
for (let run = 0; run < PATCH_RUNS; run += 1) {
  const updates = Array.from({ length: 1_000 }, (_, n) => ({
    developerId: `p00-item-${pad(n)}`,
    text: `en text ${n} of project 0, run ${run}, with {{count}} words`,
    status: ['NONE', 'WIP', 'REVIEW', 'FINAL'][(n + run) % 4],
    tags: [`run-${run}`],
  }));
  const { ms, cpu } = await timed('PATCH', 'textItems', { updates });
  patchTimes.push(ms);
  patchCpu.push(cpu);
}
const patchSettled = await cpuPerWriteSettled(server.pid, patchSeriesCpu, patchTimes.length);

interface Measured {
  rps: number;
  baseline: number;
  bytes: number;
  records: number;
  cold: number;
  p99: number;
}

/** Our route under 10 connections, then a bare route serving the same bytes. */
async function measure(path: string): Promise<Measured> {
  const url = `${base}/${path}`;
  const started = performance.now();
  const body = await (await call('GET', path)).text();
  const cold = performance.now() - started;
  const file = join(tmpdir(), `copydesk-bench-text-items-${process.pid}.json`);
  writeFileSync(file, body);
  const barePort = await freePort();
  const bare: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/bare-server.ts', String(barePort), `@${file}`],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  try {
    const records = (JSON.parse(body) as unknown[]).length;
    if (skipLoad)
      return { rps: Number.NaN, baseline: Number.NaN, bytes: Buffer.byteLength(body), records, cold, p99: 0 };
    await waitForHttp(`http://127.0.0.1:${barePort}/`);
    const getHeaders = { authorization: key };
    await load(url, { connections: 10, duration: 2, headers: getHeaders });
    const ours = await load(url, { connections: 10, duration, headers: getHeaders });
    if (ours.non2xx > 0 || ours.errors > 0) throw new Error(`${path}: ${ours.non2xx} non-2xx, ${ours.errors} errors`);
    await load(`http://127.0.0.1:${barePort}/`, { connections: 10, duration: 2 });
    const baseline = await load(`http://127.0.0.1:${barePort}/`, { connections: 10, duration });
    return { rps: ours.rps, baseline: baseline.rps, bytes: Buffer.byteLength(body), records, cold, p99: ours.p99 };
  } finally {
    await stop(bare);
    unlinkSync(file);
  }
}

try {
  const full = await measure('textItems');
  const one = await measure(
    `textItems?filter=${encodeURIComponent(JSON.stringify({ projects: [{ id: projectIds[Math.min(7, PROJECTS - 1)] }] }))}`,
  );
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const report = (name: string, m: Measured, target: string) =>
    console.log(
      `${name}: ${m.records} records, ${mib(m.bytes)} MiB, cold ${m.cold.toFixed(0)} ms; ${m.rps.toFixed(1)} req/s (p99 ${m.p99} ms) vs bare ${m.baseline.toFixed(1)} req/s: ratio ${(m.rps / m.baseline).toFixed(2)}${target}`,
    );
  console.log(
    `database: ${database}; ${PROJECTS} projects x ${ITEMS} items (a third plural, 3 variants each), a base of ${BASE_ITEMS}`,
  );
  console.log(
    `POST /v2/textItems, ${BATCH} per request, ms: ${postTimes.map((t) => t.toFixed(0)).join(', ')}; median ${median(postTimes).toFixed(0)} ms, server CPU ${median(postCpu)} ms (${postSettled.toFixed(0)} ms a request with the work left for later)`,
  );
  const fullRatio = full.rps / full.baseline;
  report('GET /v2/textItems (all projects)', full, ` (target >= 0.25): ${fullRatio >= 0.25 ? 'PASS' : 'FAIL'}`);
  report('GET /v2/textItems (one project)', one, '');
  const speedup = one.rps / full.rps;
  console.log(`one project vs full list: ${speedup.toFixed(1)}x (target >= 20x): ${speedup >= 20 ? 'PASS' : 'FAIL'}`);
  const patch = median(patchTimes);
  const patchTarget = database === 'postgres' ? '' : ` (target < 1000 ms): ${patch < 1000 ? 'PASS' : 'FAIL'}`;
  console.log(
    `PATCH /v2/textItems, 1,000 updates, ms: ${patchTimes.map((t) => t.toFixed(0)).join(', ')}; median ${patch.toFixed(0)} ms, server CPU ${median(patchCpu)} ms (${patchSettled.toFixed(0)} ms with the work left for later)${patchTarget}`,
  );
} finally {
  await stop(server);
}
