/**
 * The component library at size: 10,000 components, a third with plural forms, each with 3
 * variants, created through POST /v2/components in batches of 1,000 (target: median under 1 s on
 * SQLite, under 2 s on PostgreSQL). Then GET /v2/components?filter={"variants":[{"id":"all"}]}
 * under 10 connections against a bare Fastify route serving the same bytes, in the same run
 * (target ratio >= 0.25), with the server's peak RSS during the GET run. `BENCH_SKIP_LOAD=1`: the
 * POSTs and the cold GET only.
 * `npm run build && npm run bench:components` (BENCH_DATABASE_URL=postgres://... for PostgreSQL).
 */
import { spawn } from 'node:child_process';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuMs, cpuPerWriteSettled, freePort, load, root, startBenchServer, stop, waitForHttp } from './lib.js';

const COMPONENTS = Number(process.env.BENCH_COMPONENTS ?? 10_000);
const BATCH = 1_000;
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const { database, key, port, server, call, timed } = await startBenchServer('bench components');
const base = `http://127.0.0.1:${port}/v2`;

/** Peak resident set size of a process since the last reset, in MiB (Linux). */
function peakRss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
  return line ? Number(line[1]) / 1024 : Number.NaN;
}
/** Writing 5 to clear_refs resets VmHWM, so the GET run's peak is its own. */
const resetPeakRss = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

const variants = ['fr', 'de', 'es'];
await call('POST', 'variants', { variants: variants.map((id) => ({ name: id.toUpperCase(), developerId: id })) });
await call('POST', 'variables', { variables: [{ name: 'count', type: 'number', data: { example: 3 } }] });
await call('POST', 'componentFolders', {
  folders: Array.from({ length: 20 }, (_, i) => ({ name: `Folder ${i}`, developerId: `folder-${i}` })),
});

function component(n: number) {
  const plural = n % 3 === 0;
  const text = (lang: string) => `${lang} text of component ${n}, with {{count}} words in it`;
  const plurals = (lang: string) => [
    { form: 'one', text: text(lang) },
    { form: 'other', text: `${lang} texts of component ${n}` },
  ];
  return {
    developerId: `component-${String(n).padStart(5, '0')}`,
    name: `Component ${n}`,
    text: text('en'),
    notes: n % 5 === 0 ? `Notes for ${n}` : null,
    tags: [`tag-${n % 10}`, `group-${n % 7}`],
    status: ['NONE', 'WIP', 'REVIEW', 'FINAL'][n % 4],
    characterLimit: n % 4 === 0 ? 120 : null,
    integrated: n % 2 === 0,
    folderId: n % 2 === 0 ? `folder-${n % 20}` : undefined,
    variables: ['count'],
    ...(plural && { plurals: plurals('en') }),
    variants: variants.map((id) => ({ variantId: id, text: text(id), ...(plural && { plurals: plurals(id) }) })),
  };
}

const postTimes: number[] = [];
const postCpu: number[] = [];
const seriesCpu = cpuMs(server.pid);
for (let start = 0; start < COMPONENTS; start += BATCH) {
  const components = Array.from({ length: Math.min(BATCH, COMPONENTS - start) }, (_, i) => component(start + i));
  const { ms, cpu } = await timed('POST', 'components', { components });
  postTimes.push(ms);
  postCpu.push(cpu);
}
const settledCpu = await cpuPerWriteSettled(server.pid, seriesCpu, postTimes.length);
const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const median = middle(postTimes);

const url = `${base}/components?filter=${encodeURIComponent(JSON.stringify({ variants: [{ id: 'all' }] }))}`;
const coldStarted = performance.now();
const body = await (await call('GET', url.slice(base.length + 1))).text();
const cold = performance.now() - coldStarted;
const records = (JSON.parse(body) as unknown[]).length;
const bodyFile = join(tmpdir(), `copydesk-bench-components-${process.pid}.json`);
writeFileSync(bodyFile, body);

/** `BENCH_SKIP_LOAD=1`: the writes and the cold GET only. */
if (process.env.BENCH_SKIP_LOAD === '1') {
  console.log(
    `database: ${database}; POST /v2/components, ${BATCH} per request, ms: ${postTimes.map((t) => t.toFixed(0)).join(', ')}; median ${median.toFixed(0)} ms, server CPU ${middle(postCpu)} ms (${settledCpu.toFixed(0)} ms a request with the work left for later); GET all variants, cold: ${cold.toFixed(0)} ms`,
  );
  await stop(server);
  unlinkSync(bodyFile);
  process.exit(0);
}

const barePort = await freePort();
const bare = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts', String(barePort), `@${bodyFile}`], {
  cwd: root,
  stdio: 'inherit',
});
await waitForHttp(`http://127.0.0.1:${barePort}/`);

try {
  const pid = server.pid as number;
  const getHeaders = { authorization: key };
  resetPeakRss(pid);
  await load(url, { connections: 10, duration: 2, headers: getHeaders }); // warm-up
  const ours = await load(url, { connections: 10, duration, headers: getHeaders });
  const rss = peakRss(pid);
  await load(`http://127.0.0.1:${barePort}/`, { connections: 10, duration: 2 });
  const baseline = await load(`http://127.0.0.1:${barePort}/`, { connections: 10, duration });
  const ratio = ours.rps / baseline.rps;
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log(`database: ${database}, ${COMPONENTS} components (a third plural, 3 variants each), ${records} records`);
  console.log(
    `POST /v2/components, ${BATCH} per request, ms: ${postTimes.map((t) => t.toFixed(0)).join(', ')}; median ${median.toFixed(0)} ms, server CPU ${middle(postCpu)} ms (${settledCpu.toFixed(0)} ms with the work left for later) (target < ${database === 'postgres' ? 2000 : 1000} ms)`,
  );
  console.log(`GET all variants, cold (first request): ${cold.toFixed(0)} ms for ${mib(Buffer.byteLength(body))} MiB`);
  console.log(
    `GET all variants, 10 connections: ${ours.rps.toFixed(1)} req/s (p99 ${ours.p99} ms, non-2xx ${ours.non2xx}, errors ${ours.errors})`,
  );
  console.log(`bare Fastify, same bytes: ${baseline.rps.toFixed(1)} req/s (p99 ${baseline.p99} ms)`);
  console.log(`ratio ${ratio.toFixed(2)} (target >= 0.25): ${ratio >= 0.25 ? 'PASS' : 'FAIL'}`);
  console.log(`server peak RSS during the GET run: ${rss.toFixed(0)} MiB`);
} finally {
  await stop(server);
  bare.kill('SIGTERM');
  unlinkSync(bodyFile);
}
