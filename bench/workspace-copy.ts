/**
 * `copydesk workspace copy` of 10,000 text items (10 projects of 1,000 with blocks, a third with
 * plural forms, each with 3 variant values) and 1,000 components, from a server on one database
 * into a fresh database, through the CLI as an administrator runs it. Then the same copy again,
 * which finds everything unchanged and writes nothing. Target: first copy < 30 s. Then a backup
 * of the copied workspace (`workspace export`) restored into a fresh database (`workspace import`).
 * `npm run build && npm run bench:workspace-copy` (BENCH_DATABASE_URL=postgres://... for a
 * PostgreSQL source; BENCH_TARGET_DATABASE_URL=postgres://... for a PostgreSQL target).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cli, startBenchServer, stop } from './lib.js';

const PROJECTS = 10;
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000);
const COMPONENTS = 1_000;
const BATCH = 1_000;
const { key, port, server, call, database } = await startBenchServer('bench copy source');

const variants = ['fr', 'de', 'es'];
await call('POST', 'variants', { variants: variants.map((id) => ({ name: id.toUpperCase(), developerId: id })) });
await call('POST', 'variables', { variables: [{ name: 'count', type: 'number', data: { example: 3 } }] });
const projectIds = Array.from({ length: PROJECTS }, (_, p) => `project-${p}`);
await call('POST', 'projects', { projects: projectIds.map((id) => ({ name: id, developerId: id })) });

const pad = (n: number) => String(n).padStart(5, '0');
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
const copy = async () => {
  const started = performance.now();
  const out = await cli(
    ['workspace', 'copy', '--from', `http://127.0.0.1:${port}`, '--key', key, '--into', String(workspace.id), '--json'],
    { DATABASE_URL: target },
  );
  const ms = performance.now() - started;
  const summary = JSON.parse(out.trim().split('\n').at(-1) as string).summary;
  return { ms, summary };
};
const first = await copy();
const second = await copy();
await stop(server);

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

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const targetKind = target.startsWith('postgres') ? 'postgres' : 'sqlite';
console.log(`workspace copy, ${PROJECTS * ITEMS} text items + ${COMPONENTS} components, ${database} -> ${targetKind}`);
console.log(`  first copy:  ${seconds(first.ms)} (target < 30 s) ${first.ms < 30_000 ? 'OK' : 'MISSED'}`);
console.log(`  second copy: ${seconds(second.ms)} (nothing to write)`);
console.log(
  `  created: ${JSON.stringify(first.summary.counts.textItems)}; again: ${JSON.stringify(second.summary.counts.textItems)}`,
);
console.log(`  backup export: ${seconds(exported.ms)} (${(exported.out.bytes / 1e6).toFixed(1)} MB gzip)`);
console.log(`  backup import into a fresh database: ${seconds(restored.ms)} (${restored.out.restored.texts} texts)`);
if (first.summary.notCarried.length > 0) console.log(`  not carried: ${first.summary.notCarried.join('; ')}`);
