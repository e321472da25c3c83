/**
 * Search at size: 100,000 text items (100 projects of 1,000, each with a French variant value and
 * notes on every fifth), created through POST /v2/textItems; then GET /v2/search for queries from
 * rare to common, one request at a time. Target: median under 50 ms for each query.
 * `npm run build && npm run bench:search` (BENCH_DATABASE_URL=postgres://... for PostgreSQL).
 */
import { performance } from 'node:perf_hooks';
import { startBenchServer, stop } from './lib.js';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 100);
const ITEMS = 1_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const { database, key, port, server, call } = await startBenchServer('bench search');

const WORDS = [
  'checkout',
  'account',
  'payment',
  'welcome',
  'settings',
  'profile',
  'invoice',
  'delivery',
  'search',
  'cart',
];
await call('POST', 'variants', { variants: [{ name: 'French', developerId: 'fr' }] });
const started = performance.now();
for (let p = 0; p < PROJECTS; p += 1) {
  const projectId = `project-${String(p).padStart(3, '0')}`;
  await call('POST', 'projects', { projects: [{ name: projectId, developerId: projectId }] });
  const textItems = Array.from({ length: ITEMS }, (_, i) => {
    const n = p * ITEMS + i;
    const word = WORDS[n % WORDS.length];
    return {
      developerId: `${word}.item-${n}`,
      text: `The ${word} screen line ${n} tells you about ${WORDS[(n * 7) % WORDS.length]}`,
      notes: n % 5 === 0 ? `Shown after ${WORDS[(n * 3) % WORDS.length]} number ${n}` : null,
      tags: [`tag-${n % 50}`],
      variants: [{ variantId: 'fr', text: `Écran ${word} ligne ${n}` }],
    };
  });
  await call('POST', 'textItems', { projectId, textItems });
}
console.log(
  `${database}: created ${PROJECTS * ITEMS} text items in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);

const queries = ['item-54321', 'ecran ligne 7777', 'checkout', 'tag-7', 'number 99', 'the'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? 0;
for (const q of queries) {
  const times: number[] = [];
  let count = 0;
  for (let run = 0; run < RUNS; run += 1) {
    // A distinct limit per run: each request is a real search, not an answer from the HTTP cache.
    const url = `http://127.0.0.1:${port}/v2/search?q=${encodeURIComponent(q)}&limit=${50 + (run % 50)}`;
    const t0 = performance.now();
    const res = await fetch(url, { headers: { authorization: key } });
    const body = (await res.json()) as { results: unknown[] };
    times.push(performance.now() - t0);
    if (!res.ok) throw new Error(`search ${q}: ${res.status}`);
    count = body.results.length;
  }
  console.log(
    `${database}: q=${JSON.stringify(q).padEnd(20)} ${String(count).padStart(3)} results  median ${median(times).toFixed(1)} ms  p95 ${p95(times).toFixed(1)} ms`,
  );
}
await stop(server);
