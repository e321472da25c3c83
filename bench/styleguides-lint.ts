/**
 * POST /v2/styleguides/lint over 10,000 stored text items (selected by `filter.textItems`;
 * BENCH_SOURCE=components for components)
 * against the built-in guide holding 50 rules (5 built-in checks, 45 regexes) and 500 wordlist
 * entries replacing 1,000 terms. Target: median request time under 2 s (until the whole answer
 * has arrived). 40 regexes are word rules (flags `i`, or BENCH_REGEX_FLAGS), 5 are other typical
 * rules. The server runs from the sources (tsx, no build needed) in its own process; the data
 * goes in through the API. `npm run bench:lint` (BENCH_DATABASE_URL=postgres://... for PostgreSQL).
 *
 * BENCH_CONCURRENT=24: instead, that many lints sent at once, each of 1,000 texts making 2 MB
 * (the most one request may cover), against the same guide; reports the server's RSS before and
 * at its peak, how many were answered and refused (503), and the longest /healthz answer meanwhile
 * (polled every 10 ms). The server's own LIMIT_LINT_CONCURRENT / LIMIT_LINT_QUEUE apply.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseDatabaseUrl } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createServices } from '../src/services.js';
import { freePort, root, tempDatabaseUrl, waitForHttp } from './lib.js';

const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 0);
const TEXTS = CONCURRENT > 0 ? 0 : Number(process.env.BENCH_TEXTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BATCH = 1_000;
const DATABASE_URL = tempDatabaseUrl();

// The workspace and its key are made directly; everything else goes through the API.
const setupDatabase = openDatabase(parseDatabaseUrl(DATABASE_URL));
await migrateToLatest(setupDatabase.db);
const services = createServices(setupDatabase.db);
const { id: workspaceId } = await services.accounts.createWorkspace(`bench lint ${Date.now()}`);
await services.accounts.createUser({ workspaceId, email: 'bench@example.com', name: 'Bench' });
const { key } = await services.accounts.createKey({ workspaceId, email: 'bench@example.com' });
const dialect = setupDatabase.dialect;
await setupDatabase.close();

const port = await freePort();
// BENCH_NODE_ARGS: node flags for the server only (e.g. --cpu-prof).
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
const server = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/cli/run.ts', 'serve'], {
  cwd: root,
  env: { ...process.env, DATABASE_URL, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const address = `http://127.0.0.1:${port}`;
await waitForHttp(`${address}/readyz`, 30_000);

async function send(method: string, path: string, body: unknown): Promise<Response> {
  const res = await fetch(`${address}/v2/${path}`, {
    method,
    headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} /v2/${path}: ${res.status} ${await res.text()}`);
  return res;
}
const call = async (method: string, path: string, body: unknown) => (await send(method, path, body)).json();

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
// Word rules take `i`; the few that need Unicode classes take `u` (BENCH_REGEX_FLAGS=iu puts
// `iu` on all: V8's case-insensitive Unicode matching is several times slower).
const wordFlags = process.env.BENCH_REGEX_FLAGS ?? 'i';
const regexes = [
  ...Array.from({ length: 40 }, (_, i) => ({
    type: 'regex',
    pattern: `\\b(?:${wordAt(2000 + i)}|${wordAt(2100 + i)})s?\\b`,
    flags: wordFlags,
    message: `Avoid ${wordAt(2000 + i)}`,
    replacement: wordAt(2200 + i),
  })),
  { type: 'regex', pattern: '\\p{Lu}{4,}', flags: 'u', message: 'No shouting' },
  { type: 'regex', pattern: '(\\d+) ?percent', flags: 'i', message: 'Use %', replacement: '$1%' },
  { type: 'regex', pattern: '\\s+[,.!?]', flags: '', message: 'No space before punctuation', replacement: '' },
  { type: 'regex', pattern: '\\.{3}', flags: '', message: 'Use an ellipsis', replacement: '…' },
  { type: 'regex', pattern: '\\b(?:click here|here)\\b', flags: 'i', message: 'Say where the link goes' },
];
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

// Text items by default, as the issue asks; BENCH_SOURCE=components lints components instead.
const source = process.env.BENCH_SOURCE === 'components' ? 'components' : 'textItems';
const setupStarted = performance.now();
await call('POST', 'styleguides/rules', { rules });
await call('POST', 'styleguides/terms', { terms });
if (source === 'textItems') await call('POST', 'projects', { projects: [{ name: 'App', developerId: 'app' }] });
for (let offset = 0; offset < TEXTS; offset += BATCH) {
  const records = Array.from({ length: Math.min(BATCH, TEXTS - offset) }, (_, k) => ({
    developerId: `t${offset + k}`,
    text: text(),
    characterLimit: (offset + k) % 5 === 0 ? 40 : null,
  }));
  if (source === 'textItems') await call('POST', 'textItems', { projectId: 'app', textItems: records });
  else await call('POST', 'components', { components: records.map((r) => ({ ...r, name: r.developerId })) });
}
const setupSeconds = (performance.now() - setupStarted) / 1000;

/** The server's resident set in MiB (/proc; 0 where there is none). */
function rssMiB(): number {
  try {
    const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

if (CONCURRENT > 0) {
  const texts = Array.from({ length: 1_000 }, () => {
    let body = '';
    while (body.length < 1_990) body += `${text()} `;
    return { text: body.slice(0, 1_990) };
  });
  const before = rssMiB();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB());
  }, 20);
  let longestHealth = 0;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const started = performance.now();
      await (await fetch(`${address}/healthz`)).arrayBuffer();
      longestHealth = Math.max(longestHealth, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  let answerBytes = 0;
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      const res = await fetch(`${address}/v2/styleguides/lint`, {
        method: 'POST',
        headers: { authorization: key, 'content-type': 'application/json' },
        body: JSON.stringify({ texts }),
      });
      const bytes = (await res.arrayBuffer()).byteLength;
      if (res.status === 200) answerBytes = Math.max(answerBytes, bytes);
      return res.status;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  polling = false;
  await poll;
  clearInterval(sampler);
  const count = (status: number) => statuses.filter((s) => s === status).length;
  console.log(`database: ${dialect}; ${CONCURRENT} lints at once, each 1,000 texts of 1,990 characters`);
  console.log(
    `answered 200: ${count(200)}, refused 503: ${count(503)}, other: ${CONCURRENT - count(200) - count(503)}`,
  );
  console.log(
    `all answered in ${seconds.toFixed(1)} s; longest /healthz answer meanwhile: ${longestHealth.toFixed(0)} ms`,
  );
  console.log(`largest answer: ${(answerBytes / 1024 / 1024).toFixed(1)} MiB`);
  console.log(`server RSS: ${before.toFixed(0)} MiB before, ${peak.toFixed(0)} MiB at the peak`);
  server.kill('SIGTERM');
  await once(server, 'exit');
  process.exit(0);
}

const times: number[] = [];
let findings = 0;
let results = 0;
for (let run = 0; run <= RUNS; run += 1) {
  const started = performance.now();
  const bytes = await (await send('POST', 'styleguides/lint', { filter: { [source]: {} } })).arrayBuffer();
  times.push(performance.now() - started);
  const body = JSON.parse(Buffer.from(bytes).toString('utf8')) as Array<{ findings: unknown[] }>;
  results = body.length;
  findings = body.reduce((sum, r) => sum + r.findings.length, 0);
}
const warm = times.slice(1).sort((a, b) => a - b);
const median = warm[Math.floor(warm.length / 2)] as number;
console.log(
  `database: ${dialect}; ${results} stored ${source}, 50 rules (word regexes: ${wordFlags}), 500 wordlist entries; setup ${setupSeconds.toFixed(1)} s`,
);
console.log(`findings per request: ${findings}`);
console.log(`first request (cold snapshot of the fetch): ${(times[0] as number).toFixed(0)} ms`);
console.log(
  `median of ${warm.length} runs: ${median.toFixed(0)} ms (min ${warm[0]?.toFixed(0)}, max ${warm.at(-1)?.toFixed(0)}); target < 2000 ms: ${median < 2000 ? 'PASS' : 'FAIL'}`,
);
server.kill('SIGTERM');
await once(server, 'exit');
