/**
 * `copydesk workspace copy` of 10,000 text items (10 projects of 1,000 with blocks, a third with
 * plural forms, each with 3 variant values) and 1,000 components, from a server on one database
 * into a fresh database, through the CLI as an administrator runs it. Then the same copy again,
 * which finds everything unchanged and writes nothing. Target: first copy < 30 s. The CLI's peak
 * RSS is its `VmHWM` (/proc/<pid>/status), read every 10 ms while it runs. Then a source that
 * answers 600 MB to `GET /v2/textItems`: the copy must refuse it with its default limits and stay
 * under 300 MiB. Then a backup of the copied workspace (`workspace export`) restored into a fresh
 * database (`workspace import`). BENCH_ITEMS sets the items per project (default 1,000).
 * `npm run build && npm run bench:workspace-copy` (BENCH_DATABASE_URL=postgres://... for a
 * PostgreSQL source; BENCH_TARGET_DATABASE_URL=postgres://... for a PostgreSQL target).
 *
 * BENCH_LARGE=1 is the large-project case: one project of 200,000 text items (BENCH_ITEMS), one
 * variant (BENCH_VARIANTS), copied with `--max-response-mb 1024 --request-timeout 600`; the copy's peak RSS must not grow
 * with the project (target < 300 MiB). It skips the backup. BENCH_BIN runs another build.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { bin, cli, startBenchServer, stop } from './lib.js';

const LARGE = process.env.BENCH_LARGE === '1';
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? (LARGE ? 1 : 10));
const ITEMS = Number(process.env.BENCH_ITEMS ?? (LARGE ? 200_000 : 1_000));
const VARIANTS = Number(process.env.BENCH_VARIANTS ?? (LARGE ? 1 : 3));
const MAX_RESPONSE = LARGE ? ['--max-response-mb', '1024', '--request-timeout', '600'] : [];
const COMPONENTS = 1_000;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const BATCH = 1_000;
const { key, port, server, call, database } = await startBenchServer('bench copy source');

const variants = ['fr', 'de', 'es', 'it', 'pt'].slice(0, VARIANTS);
if (variants.length > 0)
  await call('POST', 'variants', { variants: variants.map((id) => ({ name: id.toUpperCase(), developerId: id })) });
await call('POST', 'variables', { variables: [{ name: 'count', type: 'number', data: { example: 3 } }] });
const projectIds = Array.from({ length: PROJECTS }, (_, p) => `project-${p}`);
await call('POST', 'projects', { projects: projectIds.map((id) => ({ name: id, developerId: id })) });

const pad = (n: number) => String(n).padStart(6, '0');
function content(id: string, n: number) {
  const text = (lang: string) => `${lang} text ${n}, with {{count}} words`;
  const plurals = (lang: string) => [
    { form: 'one', text: text(lang) },
    { form: 'other', text: `${lang} texts ${n}` },
  ];
  const plural = n % 3 === 0;
  return {
    developerId: id,
    text: text('en'),
    tags: [`tag-${n % 10}`],
    status: ['NONE', 'WIP', 'REVIEW', 'FINAL'][n % 4],
    variables: ['count'],
    ...(plural && { plurals: plurals('en') }),
    variants: variants.map((v) => ({ variantId: v, text: text(v), ...(plural && { plurals: plurals(v) }) })),
  };
}
for (const project of projectIds) {
  await call('POST', 'projectBlocks', {
    projectId: project,
    blocks: [0, 1, 2, 3].map((b) => ({ name: `Block ${b}`, developerId: `block-${b}` })),
  });
  const textItems = Array.from({ length: ITEMS }, (_, n) => ({
    ...content(`${project}-${pad(n)}`, n),
    ...(n % 5 !== 0 && { blockId: `block-${n % 4}` }),
  }));
  for (let i = 0; i < textItems.length; i += BATCH) {
    await call('POST', 'textItems', { projectId: project, textItems: textItems.slice(i, i + BATCH) });
  }
}
const components = Array.from({ length: COMPONENTS }, (_, n) => content(`component-${pad(n)}`, n));
await call('POST', 'components', { components });

const target =
  process.env.BENCH_TARGET_DATABASE_URL ?? join(mkdtempSync(join(tmpdir(), 'copydesk-bench-')), 'target.db');
const workspace = JSON.parse(await cli(['workspace', 'create', '--name', 'copy', '--json'], { DATABASE_URL: target }));
/** The CLI run to its end, with its time and its peak RSS (the kernel's high-water mark). */
async function measured(args: string[], env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    err += chunk;
  });
  let peakKb = 0;
  const poll = setInterval(() => {
    try {
      const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      peakKb = Math.max(peakKb, Number(line?.[1] ?? 0));
    } catch {
      // exited between two reads
    }
  }, 10);
  const [code] = await once(child, 'exit');
  clearInterval(poll);
  return { code: code as number, out, err, ms: performance.now() - started, peakMiB: peakKb / 1024 };
}

const copy = async () => {
  const run = await measured(
    [
      'workspace',
      'copy',
      '--from',
      `http://127.0.0.1:${port}`,
      '--key',
      key,
      '--into',
      String(workspace.id),
      ...MAX_RESPONSE,
      '--json',
    ],
    { DATABASE_URL: target },
  );
  if (run.code !== 0) throw new Error(`workspace copy exited ${run.code}: ${run.err}`);
  const lines = run.out.trim().split('\n');
  const summary = JSON.parse(lines.at(-1) as string).summary;
  // The last progress line of the reading: what the source sent in all.
  const fetched = lines
    .map((line) => JSON.parse(line))
    .filter((p) => typeof p.bytes === 'number')
    .at(-1) as { requests: number; bytes: number; records: number };
  return { ms: run.ms, peakMiB: run.peakMiB, summary, fetched, load: load() };
};
console.log(`seeded; load average ${load()}`);
const first = await copy();
const second = await copy();
await stop(server);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
if (LARGE) {
  console.log(`workspace copy, one project of ${ITEMS} text items, ${VARIANTS} variant(s), ${database}`);
  console.log(`  first copy:  ${seconds(first.ms)}, peak RSS ${first.peakMiB.toFixed(0)} MiB (load ${first.load})`);
  console.log(`  second copy: ${seconds(second.ms)}, peak RSS ${second.peakMiB.toFixed(0)} MiB (load ${second.load})`);
  console.log(
    `  read: ${first.fetched.requests} requests, ${(first.fetched.bytes / 2 ** 20).toFixed(1)} MiB, ` +
      `${first.fetched.records} records; target < 300 MiB ${Math.max(first.peakMiB, second.peakMiB) < 300 ? 'OK' : 'MISSED'}`,
  );
  console.log(
    `  created: ${JSON.stringify(first.summary.counts.textItems)}; again: ${JSON.stringify(second.summary.counts.textItems)}`,
  );
  process.exit(0);
}

// A source whose text items are a 600 MB answer (chunked: its size shows only as it arrives).
const OVERSIZED = 600 * 2 ** 20;
const valid: Record<string, unknown> = {
  '/v2/statuses': [{ id: 'NONE', name: 'Draft' }],
  '/v2/variants': [],
  '/v2/variables': [],
  '/v2/componentFolders': [],
  '/v2/projects': [{ id: 'web', name: 'Web', baseId: null, developerMode: false }],
  '/v2/components': [],
};
const oversized = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path !== '/v2/textItems') {
    const body = valid[path];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { message: 'Not found' }));
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  const record = JSON.stringify({ id: 'x', text: 'y'.repeat(400) });
  const chunk = Buffer.from(`${`${record},`.repeat(Math.floor(65_536 / (record.length + 1)))}`);
  let sent = 0;
  res.write('[');
  const more = () => {
    while (sent < OVERSIZED && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    res.end(`${record}]`);
  };
  more();
});
oversized.listen(0, '127.0.0.1');
await once(oversized, 'listening');
const refused = await measured(
  ['workspace', 'copy', '--from', `http://127.0.0.1:${(oversized.address() as AddressInfo).port}`, '--key', 'k'],
  { DATABASE_URL: target },
);
oversized.closeAllConnections();
oversized.close();

// The same workspace through a backup: export from the target, import into a fresh database.
const file = join(mkdtempSync(join(tmpdir(), 'copydesk-bench-')), 'backup.json.gz');
const restoredUrl =
  process.env.BENCH_RESTORE_DATABASE_URL ?? join(mkdtempSync(join(tmpdir(), 'copydesk-bench-')), 'restored.db');
const timed = async (args: string[], DATABASE_URL: string) => {
  const started = performance.now();
  const out = JSON.parse(await cli([...args, '--json'], { DATABASE_URL }));
  return { ms: performance.now() - started, out };
};
const exported = await timed(['workspace', 'export', '--workspace', String(workspace.id), '--out', file], target);
const restored = await timed(['workspace', 'import', '--file', file], restoredUrl);

const targetKind = target.startsWith('postgres') ? 'postgres' : 'sqlite';
console.log(`workspace copy, ${PROJECTS * ITEMS} text items + ${COMPONENTS} components, ${database} -> ${targetKind}`);
console.log(`  first copy:  ${seconds(first.ms)} (target < 30 s) ${first.ms < 30_000 ? 'OK' : 'MISSED'}`);
console.log(`  first copy peak RSS: ${first.peakMiB.toFixed(0)} MiB; second: ${second.peakMiB.toFixed(0)} MiB`);
console.log(
  `  read: ${first.fetched.requests} requests, ${(first.fetched.bytes / 2 ** 20).toFixed(1)} MiB, ` +
    `${first.fetched.records} records (${Math.round(first.fetched.bytes / first.fetched.records)} bytes a record)`,
);
console.log(`  second copy: ${seconds(second.ms)} (nothing to write)`);
const refusedOk = refused.code !== 0 && refused.peakMiB < 300;
console.log(
  `  600 MB answer: exit ${refused.code} after ${seconds(refused.ms)}, peak RSS ${refused.peakMiB.toFixed(0)} MiB ` +
    `(target: refused, < 300 MiB) ${refusedOk ? 'OK' : 'MISSED'}`,
);
console.log(`    ${refused.err.trim().split('\n').at(-1)}`);
console.log(
  `  created: ${JSON.stringify(first.summary.counts.textItems)}; again: ${JSON.stringify(second.summary.counts.textItems)}`,
);
console.log(`  backup export: ${seconds(exported.ms)} (${(exported.out.bytes / 1e6).toFixed(1)} MB gzip)`);
console.log(`  backup import into a fresh database: ${seconds(restored.ms)} (${restored.out.restored.texts} texts)`);
if (first.summary.notCarried.length > 0) console.log(`  not carried: ${first.summary.notCarried.join('; ')}`);
