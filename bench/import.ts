/**
 * Import at size: one CSV of 10,000 keys (a third plural, `_one`/`_other` rows) with base text
 * and 3 variant columns, posted to POST /v2/import into an empty project. Each round uses fresh
 * keys, so every round creates 10,000 text items with 30,000 variant values. Also: the same file
 * again (nothing to write) and a dry run of it.
 * `npm run build && npm run bench:import` (BENCH_DATABASE_URL=postgres://... for PostgreSQL).
 * Targets: the import under 3 s on SQLite, 6 s on PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startBenchServer, stop } from './lib.js';

const KEYS = Number(process.env.BENCH_KEYS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const { database, server, call } = await startBenchServer('bench import');
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

const columns = { key: 'key', text: 'en', variants: Object.fromEntries(variants.map((id) => [id, id])) };

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

async function timed(body: Record<string, unknown>): Promise<{ ms: number; cpu: number; report: any }> {
  const cpu = serverCpuMs();
  const start = performance.now();
  const res = await call('POST', 'import', body);
  const report = await res.json();
  return { ms: performance.now() - start, cpu: serverCpuMs() - cpu, report };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const imports: number[] = [];
const cpus: number[] = [];
const again: number[] = [];
const dry: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const body = { format: 'csv', projectId: 'import', content: csv(round), columns };
  const first = await timed(body);
  if (first.report.created.length !== KEYS) throw new Error(`created ${first.report.created.length}, not ${KEYS}`);
  imports.push(first.ms);
  cpus.push(first.cpu);
  const second = await timed(body);
  if (second.report.unchanged.length !== KEYS) throw new Error('a second import changed something');
  again.push(second.ms);
  dry.push((await timed({ ...body, dryRun: true })).ms);
}
await stop(server);

const target = database === 'postgres' ? 6000 : 3000;
const ms = median(imports);
console.log(`import of ${KEYS} keys, a third plural, 3 variants, one CSV (${database}), median of ${ROUNDS}:`);
console.log(
  `  import into an empty project: ${ms.toFixed(0)} ms (all: ${imports.map((v) => v.toFixed(0)).join(', ')})`,
);
console.log(`  server CPU time of that import: ${median(cpus).toFixed(0)} ms`);
console.log(`  the same file again (unchanged): ${median(again).toFixed(0)} ms`);
console.log(`  dry run: ${median(dry).toFixed(0)} ms`);
console.log(`  target < ${target} ms: ${ms < target ? 'met' : 'MISSED'}`);
