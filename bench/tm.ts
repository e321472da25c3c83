/**
 * Translation memory at size: 100,000 text items (100 projects of 1,000), each with a value in 3
 * variants (French, German, Spanish), made of sentences of UI words drawn with a skewed
 * frequency (a few words are in most texts, most words in few), created through POST
 * /v2/textItems. The memory is built in the background; the first request waits for it and is
 * timed apart. Then GET /v2/translationMemory, one request at a time, for texts of every kind:
 * identical to a stored one, one word changed, a short text of common words, a long one, one
 * that matches nothing; and by record (`textItemId`). Target: p95 under 100 ms over all.
 * `npm run build && npm run bench:tm` (BENCH_DATABASE_URL=postgres://... for PostgreSQL;
 * BENCH_PROJECTS=10 for 10,000 texts; BENCH_RUNS requests per kind of query).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { cpuMs, startBenchServer, stop } from './lib.js';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 100);
const ITEMS = 1_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const { database, key, port, server, call } = await startBenchServer('bench tm');

const COMMON = ['the', 'your', 'to', 'a', 'of', 'and', 'in', 'for', 'is', 'this', 'on', 'with', 'you', 'not', 'be'];
const UI = [
  'save',
  'changes',
  'cancel',
  'delete',
  'account',
  'payment',
  'order',
  'checkout',
  'profile',
  'settings',
  'email',
  'password',
  'address',
  'shipping',
  'delivery',
  'invoice',
  'cart',
  'basket',
  'search',
  'results',
  'filter',
  'sort',
  'price',
  'total',
  'discount',
  'coupon',
  'code',
  'sign',
  'log',
  'out',
  'welcome',
  'back',
  'continue',
  'review',
  'confirm',
  'remove',
  'add',
  'edit',
  'update',
  'upload',
  'download',
  'file',
  'photo',
  'message',
  'notification',
  'team',
  'member',
  'invite',
  'project',
  'folder',
  'document',
  'share',
  'link',
  'copy',
  'paste',
  'print',
  'export',
  'import',
  'language',
  'country',
  'currency',
  'subscription',
  'plan',
  'trial',
  'expired',
  'renew',
  'billing',
  'card',
  'number',
  'expiry',
  'security',
  'verify',
  'phone',
  'device',
  'session',
  'timeout',
  'error',
  'warning',
  'success',
  'failed',
  'retry',
  'later',
  'now',
  'today',
  'tomorrow',
  'week',
  'month',
  'year',
  'history',
  'activity',
  'report',
  'chart',
  'dashboard',
  'overview',
  'details',
  'summary',
  'help',
  'support',
  'contact',
  'feedback',
];
/** A deterministic generator: the same corpus on every run and database. */
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
/** UI words first, then made-up ones: a vocabulary of about 3,000 words, as a product's texts have. */
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'te',
  'vi',
  'por',
  'den',
  'gal',
  'tir',
  'mon',
  'bex',
  'ul',
  'an',
];
const VOCABULARY = [...UI];
while (VOCABULARY.length < 3000) {
  const n = 2 + Math.floor(random() * 3);
  VOCABULARY.push(Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''));
}
/** Word of rank r with a chance of about 1/r (Zipf), as in natural text. */
const zipf = <T>(list: readonly T[]) => list[Math.floor((list.length + 1) ** random()) - 1] as T;
const written: string[] = [];
function sentence(): string {
  // A third of a product's texts are another one with a word changed or added.
  if (written.length > 100 && random() < 0.3) {
    const words = (written[Math.floor(random() * written.length)] as string).split(' ');
    const at = Math.floor(random() * words.length);
    if (random() < 0.5) words[at] = zipf(VOCABULARY);
    else words.splice(at, 0, zipf(VOCABULARY));
    return words.join(' ');
  }
  const length = 2 + Math.floor(random() * 9);
  const out: string[] = [];
  for (let i = 0; i < length; i += 1) out.push(random() < 0.3 ? zipf(COMMON) : zipf(VOCABULARY));
  if (random() < 0.2) out.push(String(Math.floor(random() * 1000)));
  const text = out.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

await call('POST', 'variants', {
  variants: [
    { name: 'French', developerId: 'fr', localeCode: 'fr-FR' },
    { name: 'German', developerId: 'de', localeCode: 'de-DE' },
    { name: 'Spanish', developerId: 'es', localeCode: 'es-ES' },
  ],
});
const texts: string[] = [];
const started = performance.now();
for (let p = 0; p < PROJECTS; p += 1) {
  const projectId = `project-${String(p).padStart(3, '0')}`;
  await call('POST', 'projects', { projects: [{ name: projectId, developerId: projectId }] });
  const textItems = Array.from({ length: ITEMS }, (_, i) => {
    const n = p * ITEMS + i;
    const text = sentence();
    texts.push(text);
    written.push(text);
    return {
      developerId: `item-${n}`,
      text,
      variants: [
        { variantId: 'fr', text: `FR ${text} ${n}` },
        { variantId: 'de', text: `DE ${text} ${n}` },
        { variantId: 'es', text: `ES ${text} ${n}` },
      ],
    };
  });
  await call('POST', 'textItems', { projectId, textItems });
}
const total = PROJECTS * ITEMS;
console.log(
  `${database}: created ${total} text items with 3 variant values each in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);

const url = (query: string, run: number) =>
  // A distinct limit per run: each request is a real lookup, not an answer from the HTTP cache.
  `http://127.0.0.1:${port}/v2/translationMemory?${query}&limit=${1 + (run % 50)}`;
async function ask(query: string, run: number): Promise<{ ms: number; matches: number }> {
  const t0 = performance.now();
  const res = await fetch(url(query, run), { headers: { authorization: key } });
  const body = (await res.json()) as { matches: unknown[] };
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`translationMemory ${query}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, matches: body.matches.length };
}

const first = await ask(`variantId=fr&text=${encodeURIComponent('Save your changes')}`, 0);
console.log(`${database}: first request (builds what is still queued) ${first.ms.toFixed(0)} ms`);

const stored = (i: number) => texts[(i * 7919) % texts.length] as string;
const changed = (i: number) => {
  const words = stored(i).split(' ');
  words[Math.floor(words.length / 2)] = 'subscription';
  return words.join(' ');
};
const kinds: { name: string; query: (i: number) => string }[] = [
  { name: 'identical to a stored text', query: (i) => `variantId=fr&text=${encodeURIComponent(stored(i))}` },
  { name: 'one word changed', query: (i) => `variantId=de&text=${encodeURIComponent(changed(i))}` },
  {
    name: 'short, common words',
    query: (i) =>
      `variantId=es&text=${encodeURIComponent(['Save', 'The order', 'Cancel', 'Your account'][i % 4] as string)}`,
  },
  {
    name: 'long (two stored texts)',
    query: (i) => `variantId=fr&text=${encodeURIComponent(`${stored(i)} ${stored(i + 1)}`)}`,
  },
  { name: 'matches nothing', query: (i) => `variantId=fr&text=${encodeURIComponent(`Zebra quokka ${i} xylophone`)}` },
  { name: 'by record (textItemId)', query: (i) => `variantId=fr&textItemId=item-${(i * 7919) % total}` },
];
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)] ?? 0;
const p95 = (xs: number[]) => sorted(xs)[Math.floor(xs.length * 0.95)] ?? 0;
const all: number[] = [];
const loadBefore = loadavg();
for (const kind of kinds) {
  const times: number[] = [];
  let matches = 0;
  const cpuBefore = cpuMs(server.pid);
  for (let run = 0; run < RUNS; run += 1) {
    const answer = await ask(kind.query(run), run);
    times.push(answer.ms);
    matches += answer.matches;
  }
  for (const ms of times) all.push(ms);
  console.log(
    `${database}: ${kind.name.padEnd(28)} ${(matches / RUNS).toFixed(1).padStart(5)} matches  median ${median(times).toFixed(1)} ms  p95 ${p95(times).toFixed(1)} ms  server CPU ${((cpuMs(server.pid) - cpuBefore) / RUNS).toFixed(1)} ms a request`,
  );
}
const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
console.log(
  `${database}: ${total} texts, all ${all.length} requests: median ${median(all).toFixed(1)} ms  p95 ${p95(all).toFixed(1)} ms (target < 100 ms); load average ${fmt(loadBefore)} -> ${fmt(loadavg())}`,
);
await stop(server);
