/**
 * POST /v2/styleguides/lint over 10,000 stored components (selected by `filter.components`)
 * against the built-in guide holding 50 rules (5 built-in checks, 45 regexes) and 500 wordlist
 * entries replacing 1,000 terms. Target: median request time under 2 s.
 * The server runs in this process on a real port (no build needed); the data goes in through the
 * API. `npm run bench:lint` (BENCH_DATABASE_URL=postgres://... for PostgreSQL).
 */
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { loadConfig, parseDatabaseUrl } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createServices } from '../src/services.js';
import { tempDatabaseUrl } from './lib.js';

const TEXTS = Number(process.env.BENCH_TEXTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BATCH = 1_000;

const config = loadConfig({}, { database: parseDatabaseUrl(tempDatabaseUrl()), rateLimitPerMinute: 0 });
const database = openDatabase(config.database);
await migrateToLatest(database.db);
const app = await buildApp({ config, database, logger: false });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const services = createServices(database.db);
const { id: workspaceId } = await services.accounts.createWorkspace(`bench lint ${Date.now()}`);
await services.accounts.createUser({ workspaceId, email: 'bench@example.com', name: 'Bench' });
const { key } = await services.accounts.createKey({ workspaceId, email: 'bench@example.com' });

async function call(method: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${address}/v2/${path}`, {
    method,
    headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} /v2/${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

// A deterministic vocabulary of made-up words, so every run lints the same texts.
const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qu', 'do', 'fe', 'gi', 'ho', 'bu'];
/** mulberry32: small, seeded, and its low bits are as good as its high ones. */
let seed = 42;
function random(n: number): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n) | 0;
}
const wordAt = (n: number) => `${syllables[n % 16]}${syllables[(n >> 4) % 16]}${syllables[(n >> 8) % 16]}`;

const terms = Array.from({ length: 500 }, (_, i) => ({
  styleguideId: 'default',
  sectionId: 'wordlist',
  preferred: `${wordAt(i)} prime`,
  replaces: [wordAt(i + 500), `${wordAt(i + 1000)} ${wordAt(i + 1500)}`],
  caseSensitive: i % 10 === 0,
}));
const builtins = [
  { type: 'sentence_case' },
  { type: 'no_trailing_period' },
  { type: 'no_exclamation_mark' },
  { type: 'no_double_spaces' },
  { type: 'character_limit', limit: 80 },
];
const regexes = Array.from({ length: 45 }, (_, i) => ({
  type: 'regex',
  pattern: `\\b(?:${wordAt(2000 + i)}|${wordAt(2100 + i)})s?\\b`,
  flags: 'iu',
  message: `Avoid ${wordAt(2000 + i)}`,
  replacement: wordAt(2200 + i),
}));
const rules = [...builtins, ...regexes].map((check, i) => ({
  styleguideId: 'default',
  sectionId: 'rules',
  name: `Rule ${i}`,
  check,
}));

function text(): string {
  const words = Array.from({ length: 4 + random(14) }, () => wordAt(random(2300)));
  if (random(3) === 0) words[0] = (words[0] as string).replace(/^./, (c) => c.toUpperCase());
  const end = ['', '.', '!', '?'][random(4)];
  return words.join(random(8) === 0 ? '  ' : ' ') + end;
}

const setupStarted = performance.now();
await call('POST', 'styleguides/rules', { rules });
await call('POST', 'styleguides/terms', { terms });
for (let offset = 0; offset < TEXTS; offset += BATCH) {
  const components = Array.from({ length: Math.min(BATCH, TEXTS - offset) }, (_, k) => ({
    developerId: `c${offset + k}`,
    name: `Component ${offset + k}`,
    text: text(),
    characterLimit: (offset + k) % 5 === 0 ? 40 : null,
  }));
  await call('POST', 'components', { components });
}
const setupSeconds = (performance.now() - setupStarted) / 1000;

const times: number[] = [];
let findings = 0;
let results = 0;
for (let run = 0; run <= RUNS; run += 1) {
  const started = performance.now();
  const body = (await call('POST', 'styleguides/lint', { filter: { components: {} } })) as Array<{
    findings: unknown[];
  }>;
  const elapsed = performance.now() - started;
  results = body.length;
  findings = body.reduce((sum, r) => sum + r.findings.length, 0);
  times.push(elapsed);
}
const [first, ...rest] = times as [number, ...number[]];
const sorted = [...rest].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)] as number;
console.log(
  `database: ${database.dialect}; ${results} texts, 50 rules, 500 wordlist entries; setup ${setupSeconds.toFixed(1)} s`,
);
console.log(`findings per request: ${findings}`);
console.log(`first request (cold component snapshot): ${first.toFixed(0)} ms`);
console.log(
  `median of ${rest.length} runs: ${median.toFixed(0)} ms (min ${sorted[0]?.toFixed(0)}, max ${sorted.at(-1)?.toFixed(0)}); target < 2000 ms: ${median < 2000 ? 'PASS' : 'FAIL'}`,
);
await app.close();
await database.close();
