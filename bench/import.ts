/**
 * Import at size: one CSV of 10,000 keys (a third plural, `_one`/`_other` rows) with base text
 * and 3 variant columns, posted to POST /v2/import into an empty project. Each round uses fresh
 * keys, so every round creates 10,000 text items with 30,000 variant values. Also: the same file
 * again (nothing to write) and a dry run of it.
 * `npm run build && npm run bench:import` (BENCH_DATABASE_URL=postgres://... for PostgreSQL).
 * Targets: the import under 3 s on SQLite, 6 s on PostgreSQL.
 *
 * Every import is timed with /healthz polled every 10 ms meanwhile: the longest answer is the
 * longest the server's event loop was held (target: under 100 ms). For files of 100,000 keys and
 * more: BENCH_KEYS=200000 BENCH_ROUNDS=1 BENCH_VARIANTS=0 (base text only) or BENCH_FORMAT=json
 * (a flat json_i18next file), with LIMIT_BODY_BYTES raised for the server as the file needs.
 * The server's peak RSS over the run (VmHWM) is printed at the end.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startBenchServer, stop } from './lib.js';

const KEYS = Number(process.env.BENCH_KEYS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FORMAT = process.env.BENCH_FORMAT === 'json' ? 'json' : 'csv';
const { database, server, call, port } = await startBenchServer('bench import');
const variants = FORMAT === 'json' ? [] : ['fr', 'de', 'ru'].slice(0, Number(process.env.BENCH_VARIANTS ?? 3));
if (variants.length > 0) {
  await call('POST', 'variants', {
    variants: variants.map((id) => ({ name: id.toUpperCase(), developerId: id, localeCode: id })),
  });
}
await call('POST', 'variables', {
  variables: [
    { name: 'count', type: 'number', data: { example: 3 } },
    { name: 'name', type: 'string', data: { example: 'Ann' } },
  ],
});
await call('POST', 'projects', { projects: [{ name: 'Import', developerId: 'import' }] });

const cell = (text: string) => `"${text.replaceAll('"', '""')}"`;

function csv(round: number): string {
  const langs = ['en', ...variants];
  const rows = [`key,${langs.join(',')}`];
  for (let n = 0; n < KEYS; n++) {
    const key = `r${round}-item-${String(n).padStart(5, '0')}`;
    const text = (lang: string) => `${lang} text ${n} for {{name}}, it's 100% "{{count}}" words`;
    if (n % 3 === 0) {
      rows.push([`${key}_one`, ...langs.map((lang) => cell(`${lang} one item for {{name}}`))].join(','));
      rows.push([`${key}_other`, ...langs.map((lang) => cell(`${lang} {{count}} items for {{name}}`))].join(','));
    } else rows.push([key, ...langs.map((lang) => cell(text(lang)))].join(','));
  }
  return `${rows.join('\n')}\n`;
}

/** A flat json_i18next file of the same keys and texts (base text only; `_one`/`_other` plurals). */
function json(round: number): string {
  const entries: Record<string, string> = {};
  for (let n = 0; n < KEYS; n++) {
    const key = `r${round}-item-${String(n).padStart(5, '0')}`;
    if (n % 3 === 0) {
      entries[`${key}_one`] = 'en one item for {{name}}';
      entries[`${key}_other`] = 'en {{count}} items for {{name}}';
    } else entries[key] = `en text ${n} for {{name}}, it's 100% "{{count}}" words`;
  }
  return JSON.stringify(entries);
}

const columns = { key: 'key', text: 'en', variants: Object.fromEntries(variants.map((id) => [id, id])) };
const bodyOf = (round: number) =>
  FORMAT === 'json'
    ? { format: 'json_i18next', projectId: 'import', content: json(round) }
    : { format: 'csv', projectId: 'import', content: csv(round), columns };

/**
 * The longest /healthz answer while `work` runs, polled every 10 ms: how long the server's event
 * loop was held at most (a request's own time is a few ms of it).
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stall: number }> {
  let stall = 0;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const started = performance.now();
      await (await fetch(`http://127.0.0.1:${port}/healthz`)).arrayBuffer();
      stall = Math.max(stall, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    return { value: await work(), stall };
  } finally {
    polling = false;
    await poll;
  }
}

/**
 * The server's CPU time in ms (user + system, from /proc; 0 where there is none): on a shared
 * machine the wall time also counts waiting for a core, the CPU time does not.
 */
function serverCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

async function timed(body: Record<string, unknown>): Promise<{ ms: number; cpu: number; stall: number; report: any }> {
  const cpu = serverCpuMs();
  const start = performance.now();
  const { value: report, stall } = await longestStall(async () => (await call('POST', 'import', body)).json());
  return { ms: performance.now() - start, cpu: serverCpuMs() - cpu, stall, report };
}

/** The server's peak RSS so far in MiB (VmHWM from /proc; 0 where there is none). */
function serverPeakMiB(): number {
  try {
    const line = readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
    return line ? Math.round(Number(line[1]) / 102.4) / 10 : 0;
  } catch {
    return 0;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const imports: number[] = [];
const cpus: number[] = [];
const again: number[] = [];
const dry: number[] = [];
const stalls: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const body = bodyOf(round);
  const first = await timed(body);
  if (first.report.created.length !== KEYS) throw new Error(`created ${first.report.created.length}, not ${KEYS}`);
  imports.push(first.ms);
  cpus.push(first.cpu);
  const second = await timed(body);
  if (second.report.unchanged.length !== KEYS) throw new Error('a second import changed something');
  again.push(second.ms);
  const third = await timed({ ...body, dryRun: true });
  dry.push(third.ms);
  stalls.push(first.stall, second.stall, third.stall);
}
const peakMiB = serverPeakMiB();
await stop(server);

const target = database === 'postgres' ? 6000 : 3000;
const ms = median(imports);
const shape = FORMAT === 'json' ? 'one json_i18next file' : `${variants.length} variants, one CSV`;
console.log(`import of ${KEYS} keys, a third plural, ${shape} (${database}), median of ${ROUNDS}:`);
console.log(
  `  import into an empty project: ${ms.toFixed(0)} ms (all: ${imports.map((v) => v.toFixed(0)).join(', ')})`,
);
console.log(`  server CPU time of that import: ${median(cpus).toFixed(0)} ms`);
console.log(`  the same file again (unchanged): ${median(again).toFixed(0)} ms`);
console.log(`  dry run: ${median(dry).toFixed(0)} ms`);
let stall = 0;
for (const value of stalls) stall = Math.max(stall, value);
console.log(`  longest /healthz answer during any of them: ${stall.toFixed(0)} ms (target < 100 ms)`);
console.log(`  server peak RSS over the whole run: ${peakMiB} MiB`);
console.log(`  target < ${target} ms: ${ms < target ? 'met' : 'MISSED'}`);
