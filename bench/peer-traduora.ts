/**
 * Side by side with Traduora, the open-source peer: the same 10,000 keys, each with a French
 * translation, exported as an Android resource file and as an Apple `.strings` table by both
 * servers in the same run.
 *
 * This script never builds, fetches or starts Traduora: give it the address of one that already
 * runs, `TRADUORA_URL=http://127.0.0.1:18480 npm run bench:peer`. To get one: clone
 * github.com/ever-co/ever-traduora into a scratch folder (never into this repository), install
 * the dependencies of its `api/` package, compile it with TypeScript (`npx tsc` in `api/` writes
 * `dist/`, to which its mail templates are copied), create an empty MySQL or MariaDB database and
 * run `node src/main.js` from `dist/` with the TR_DB_* variables pointing at it (`TR_DB_TYPE=mysql`,
 * `TR_DB_HOST`, `TR_DB_USER`, `TR_DB_PASSWORD`, `TR_DB_DATABASE`), `TR_PORT`, `TR_SECRET`,
 * `NODE_ENV=production`, `TR_ACCESS_LOGS_ENABLED=false` (copydesk's bench servers do not log
 * requests either) and a global request limit high enough not to throttle the bench
 * (`TR_THROTTLE_TTL=60000 TR_THROTTLE_LIMIT=1000000000`). Its schema migrations run on start.
 * docs/peer-comparison.md records the exact build used for the figures and the work-arounds it
 * needed. Signups must be open (the default): the script signs up a fresh user each run.
 *
 * What it does, for both servers:
 * - Traduora: signs up a user, creates a project, adds the locale `fr` and imports the keys as
 *   flat JSON files (its import takes files up to 1 MiB, so in parts). copydesk: a fresh
 *   database and server as in the other benches (bench/lib.ts), a variant `fr`, one project, and
 *   the keys as text items (English base text, French variant value) through POST /v2/textItems.
 * - Cold export, per format: the first export after one French value was changed through the
 *   server's API (copydesk: PATCH /v2/textItems with `variantId: fr`, which moves the workspace's
 *   revision, so neither the HTTP cache nor the read cache holds anything for it and the file is
 *   read from the database and rendered; Traduora: PATCH of the translation, and Traduora keeps no
 *   rendered file anyway, so its every export queries MariaDB and renders). Median of
 *   `BENCH_CYCLES` (5) write + export cycles, the two servers alternating.
 * - Repeated export: the same request again, `BENCH_REPEATS` (30) one at a time (median ms), then
 *   under `BENCH_CONNECTIONS` (10) connections with autocannon: about `BENCH_SECONDS` (5) seconds'
 *   worth of requests at the one-at-a-time pace, at least two per connection; requests/s is
 *   requests over wall time. A server whose export is too slow for that within the budget is not
 *   loaded, and its ceiling (one export at a time: 1000 / median ms) stands in. For copydesk the
 *   repeated exports are the rendered bytes its HTTP cache keeps per revision.
 * - Fairness checks: both files of each format are parsed (fast-xml-parser, i18n-strings-files)
 *   and must hold exactly the 10,000 keys with their current French text; otherwise it fails.
 * Every request asks for `accept-encoding: identity`, so both send the file uncompressed.
 * `BENCH_KEYS` changes the key count, `BENCH_FORMATS=android` (or `strings`) runs one format,
 * `BENCH_BUDGET_SECONDS` (60) caps the samples of a slow server; `BENCH_DATABASE_URL=postgres://...` runs
 * copydesk on PostgreSQL.
 */
import { Agent, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { XMLParser } from 'fast-xml-parser';
import { startBenchServer, stop } from './lib.js';

const TRADUORA_URL = process.env.TRADUORA_URL?.replace(/\/+$/, '');
if (!TRADUORA_URL) {
  console.log(
    [
      'bench:peer compares copydesk with a running Traduora and needs its address:',
      '  TRADUORA_URL=http://127.0.0.1:18480 npm run bench:peer',
      'Build and start Traduora outside this repository first (see the header of bench/peer-traduora.ts',
      'and docs/peer-comparison.md). Nothing was measured.',
    ].join('\n'),
  );
  process.exit(0);
}

const KEYS = Number(process.env.BENCH_KEYS ?? 10_000);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 5);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Seconds one server may spend on one format's cold, or repeated, samples (at least three are taken). */
const BUDGET = Number(process.env.BENCH_BUDGET_SECONDS ?? 60);
const MIN_SAMPLES = 3;
/** Traduora refuses import files over 1 MiB: the keys go in parts under this many bytes. */
const IMPORT_BYTES = 1_000_000;

const stringsFiles = createRequire(import.meta.url)('i18n-strings-files') as {
  parse(input: string, wantsComments?: boolean): Record<string, string>;
};

// The data set: keys shaped like an app's (`screen_07.label_00042`), a French text with an
// apostrophe, double quotes, an ampersand and accents (each format escapes some of them).
const pad = (n: number) => String(n).padStart(5, '0');
const keyOf = (n: number) => `screen_${String(n % 100).padStart(2, '0')}.label_${pad(n)}`;
const keys = Array.from({ length: KEYS }, (_, n) => keyOf(n));
/** The French text each key holds now (the cold cycles change some). */
const french = new Map(keys.map((key, n) => [key, `Libellé ${n} de l'écran ${n % 100} : "Valider" & continuer`]));
const english = (n: number) => `Label ${n} of screen ${n % 100}: "Confirm" & continue`;
const CHANGED = keyOf(1);

const identity = { 'accept-encoding': 'identity' };

const agent = new Agent({ keepAlive: true });
/**
 * Traduora's set-up requests (sign-up, project, the minutes-long import, the terms) each go on a
 * connection of their own: a kept-alive one reused after the import was once dropped by Traduora
 * with no answer, which ended the run. The timed requests share `agent`.
 */
const setup = new Agent({ keepAlive: false });

/**
 * One HTTP request through node:http (no client-side time limit: a Traduora import or export of
 * 10,000 keys can take minutes on a busy machine); the body as text; throws on anything but 2xx.
 * Both servers' exports are timed through it.
 */
function send(
  url: string,
  options: { method?: string; headers: Record<string, string>; body?: string | Buffer; via?: Agent } = { headers: {} },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const via = options.via ?? agent;
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers, agent: via }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) reject(new Error(`${options.method ?? 'GET'} ${url}: ${status} ${text}`));
        else resolve(text);
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A multipart/form-data body with one file field, as a browser's form would send it. */
function multipart(field: string, filename: string, contentType: string, content: string) {
  const boundary = `copydesk-bench-${process.pid}-${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

interface Peer {
  name: string;
  /** Export URLs by format. */
  urls: Record<Format, string>;
  headers: Record<string, string>;
  /** Sets the French text of `key` through the server's API. */
  change(key: string, text: string): Promise<void>;
}
type Format = 'android' | 'strings';
const FORMATS = (process.env.BENCH_FORMATS?.split(',') ?? ['android', 'strings']) as Format[];
for (const format of FORMATS) {
  if (format !== 'android' && format !== 'strings')
    throw new Error(`BENCH_FORMATS: ${format} is not android or strings`);
}

// --- Traduora ------------------------------------------------------------------------------
async function traduora(base: string): Promise<Peer & { cleanup(): Promise<void> }> {
  const api = `${base}/api/v1`;
  const json = { 'content-type': 'application/json' };
  const signup = await send(`${api}/auth/signup`, {
    via: setup,
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      name: 'copydesk bench',
      email: `bench-${Date.now()}-${process.pid}@example.com`,
      password: `bench-password-${process.pid}`,
    }),
  });
  const token = (JSON.parse(signup) as { data: { accessToken: string } }).data.accessToken;
  const auth = { authorization: `Bearer ${token}` };
  const project = await send(`${api}/projects`, {
    via: setup,
    method: 'POST',
    headers: { ...auth, ...json },
    body: JSON.stringify({ name: `bench peer ${new Date().toISOString()}` }),
  });
  const projectId = (JSON.parse(project) as { data: { id: string } }).data.id;
  const cleanup = async () => {
    await send(`${api}/projects/${projectId}`, { method: 'DELETE', headers: auth, via: setup });
  };
  try {
    await send(`${api}/projects/${projectId}/translations`, {
      via: setup,
      method: 'POST',
      headers: { ...auth, ...json },
      body: JSON.stringify({ code: 'fr' }),
    });
    // As few files as the size limit allows: each import re-reads every term of the project.
    const parts: string[] = [];
    let part: Record<string, string> = {};
    let size = 2;
    for (const key of keys) {
      const entry = Buffer.byteLength(JSON.stringify({ [key]: french.get(key) })) - 1;
      if (size + entry > IMPORT_BYTES) {
        parts.push(JSON.stringify(part));
        part = {};
        size = 2;
      }
      part[key] = french.get(key) as string;
      size += entry;
    }
    parts.push(JSON.stringify(part));
    const started = performance.now();
    for (const file of parts) {
      const { body, contentType } = multipart('file', 'fr.json', 'application/json', file);
      await send(`${api}/projects/${projectId}/imports?locale=fr&format=jsonflat`, {
        via: setup,
        method: 'POST',
        headers: { ...auth, 'content-type': contentType },
        body,
      });
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`traduora: ${KEYS} keys imported in ${seconds} s (${parts.length} file(s) of flat JSON)`);
    const terms = JSON.parse(await send(`${api}/projects/${projectId}/terms`, { headers: auth, via: setup })) as {
      data: { id: string; value: string }[];
    };
    if (terms.data.length !== KEYS) throw new Error(`traduora holds ${terms.data.length} terms, not ${KEYS}`);
    const termIds = new Map(terms.data.map((term) => [term.value, term.id]));
    const exports = `${api}/projects/${projectId}/exports?locale=fr&format=`;
    return {
      name: 'traduora',
      urls: { android: `${exports}androidxml`, strings: `${exports}strings` },
      headers: { ...auth, ...identity },
      async change(key, value) {
        await send(`${api}/projects/${projectId}/translations/fr`, {
          method: 'PATCH',
          headers: { ...auth, ...json },
          body: JSON.stringify({ termId: termIds.get(key), value }),
        });
      },
      cleanup,
    };
  } catch (error) {
    await cleanup().catch(() => {});
    throw error;
  }
}

// --- copydesk ------------------------------------------------------------------------------
const bench = await startBenchServer('bench peer');
const { call, key: copydeskKey, port } = bench;
let peer: Awaited<ReturnType<typeof traduora>> | undefined;
try {
  await call('POST', 'variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
  await call('POST', 'projects', { projects: [{ name: 'Peer', developerId: 'peer' }] });
  const started = performance.now();
  for (let from = 0; from < KEYS; from += 1_000) {
    const textItems = keys.slice(from, from + 1_000).map((developerId, i) => ({
      developerId,
      text: english(from + i),
      variants: [{ variantId: 'fr', text: french.get(developerId) }],
    }));
    await call('POST', 'textItems', { projectId: 'peer', textItems });
  }
  console.log(`copydesk: ${KEYS} text items created in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const exportsBase = `http://127.0.0.1:${port}/v2/textItems/export?variantId=fr&format=`;
  const copydesk: Peer = {
    name: 'copydesk',
    urls: { android: `${exportsBase}android`, strings: `${exportsBase}ios-strings` },
    headers: { authorization: copydeskKey, ...identity },
    async change(key, text) {
      await call('PATCH', 'textItems', { variantId: 'fr', updates: [{ developerId: key, text }] });
    },
  };

  peer = await traduora(TRADUORA_URL);
  const peers = [copydesk, peer];

  // --- fairness: both files hold the same keys and texts ------------------------------------
  const xml = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => name === 'string' });
  /** Android's backslash escapes (`\'`, `\"`, `\n`, `\@`...) undone, as aapt would. */
  const androidText = (raw: string) =>
    raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c)).replace(/^"(.*)"$/s, '$1');
  function entries(format: Format, body: string): Map<string, string> {
    if (format === 'strings') return new Map(Object.entries(stringsFiles.parse(body)));
    const strings = (xml.parse(body).resources?.string ?? []) as { '@_name': string; '#text'?: string }[];
    return new Map(strings.map((s) => [s['@_name'], androidText(String(s['#text'] ?? ''))]));
  }
  function check(server: Peer, format: Format, body: string): void {
    const found = entries(format, body);
    const missing = keys.filter((key) => !found.has(key));
    const wrong = keys.filter((key) => found.has(key) && found.get(key) !== french.get(key));
    if (found.size !== KEYS || missing.length > 0 || wrong.length > 0) {
      throw new Error(
        `${server.name} ${format}: ${found.size} keys, ${missing.length} missing (${missing.slice(0, 3).join(', ')}), ` +
          `${wrong.length} with another text (${wrong.slice(0, 1).map((key) => `${key}: ${JSON.stringify(found.get(key))}`)})`,
      );
    }
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  async function timed(server: Peer, format: Format): Promise<{ ms: number; body: string }> {
    const started = performance.now();
    const body = await send(server.urls[format], { headers: server.headers });
    return { ms: performance.now() - started, body };
  }

  /** Another sample while under three, or while the next (as long as the last) stays within the budget. */
  const more = (times: number[], spentMs: number) =>
    times.length < MIN_SAMPLES || spentMs + (times.at(-1) ?? 0) <= BUDGET * 1000;

  interface Figures {
    cold: number[];
    repeated: number[];
    /** Requests/s under load, or null when a request takes too long to load the server in the budget. */
    rps: number | null;
    p50: number | null;
    bytes: number;
  }
  const figures = new Map<string, Figures>();
  const figure = (server: Peer, format: Format) => figures.get(`${server.name} ${format}`) as Figures;
  let run = 0;
  for (const format of FORMATS) {
    for (const server of peers)
      figures.set(`${server.name} ${format}`, { cold: [], repeated: [], rps: null, p50: null, bytes: 0 });
    const spent = new Map(peers.map((server) => [server.name, 0]));
    // Cold: write, then export; the servers alternate so that both see the same machine.
    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      run += 1;
      french.set(CHANGED, `Libellé modifié ${run} de l'écran 1 : "Valider" & continuer`);
      for (const server of peers) {
        const f = figure(server, format);
        await server.change(CHANGED, french.get(CHANGED) as string);
        if (!more(f.cold, spent.get(server.name) ?? 0)) continue;
        await new Promise((resolve) => setTimeout(resolve, 50));
        const { ms, body } = await timed(server, format);
        f.cold.push(ms);
        spent.set(server.name, (spent.get(server.name) ?? 0) + ms);
        check(server, format, body);
        f.bytes = Buffer.byteLength(body);
      }
    }
    // Repeated, one at a time.
    for (const server of peers) spent.set(server.name, 0);
    for (let i = 0; i < REPEATS; i += 1) {
      for (const server of peers) {
        const f = figure(server, format);
        if (!more(f.repeated, spent.get(server.name) ?? 0)) continue;
        const { ms, body } = await timed(server, format);
        f.repeated.push(ms);
        spent.set(server.name, (spent.get(server.name) ?? 0) + ms);
        if (f.repeated.length === MIN_SAMPLES) check(server, format, body);
      }
    }
    // Repeated under load: enough requests for about BENCH_SECONDS of work, at least two per connection.
    for (const server of peers) {
      const f = figure(server, format);
      const each = median(f.repeated);
      const amount = Math.max(2 * CONNECTIONS, Math.round((SECONDS * 1000) / each));
      if (amount * each > (BUDGET + SECONDS) * 1000) continue;
      const url = server.urls[format];
      await autocannon({ url, connections: CONNECTIONS, amount: CONNECTIONS, headers: server.headers, timeout: 120 });
      const started = performance.now();
      const load = await autocannon({ url, connections: CONNECTIONS, amount, headers: server.headers, timeout: 120 });
      const elapsed = (performance.now() - started) / 1000;
      if (load.errors > 0 || load.non2xx > 0 || load.timeouts > 0 || load.requests.total < amount) {
        throw new Error(
          `${server.name} ${format} under load: ${load.requests.total}/${amount} answered, ${load.errors} errors, ${load.non2xx} non-2xx`,
        );
      }
      f.rps = amount / elapsed;
      f.p50 = load.latency.p50;
    }
  }

  const [load1] = loadavg();
  console.log(
    `\n${KEYS} keys with a French text; copydesk on ${bench.database}; cold = first export after a PATCH of one ` +
      `translation (median of up to ${CYCLES}); repeated = the same export again, one at a time (median of up to ` +
      `${REPEATS}); under load = ${CONNECTIONS} connections (req/s = requests / wall time); load average ${load1?.toFixed(2)}. ` +
      `Every file checked: ${KEYS} keys, current texts.`,
  );
  const ms = (values: number[]) => `${median(values).toFixed(1)} ms (n=${values.length})`;
  /** Two significant digits, so that 0.00014 does not print as 0.000. */
  const ratio = (ours: number, theirs: number) => String(Number((ours / theirs).toPrecision(2)));
  for (const format of FORMATS) {
    const ours = figure(copydesk, format);
    const theirs = figure(peer, format);
    for (const [name, f] of [
      ['copydesk', ours],
      ['traduora', theirs],
    ] as const) {
      const loaded =
        f.rps === null
          ? `not loaded (a request takes ${(median(f.repeated) / 1000).toFixed(1)} s; at most ${(1000 / median(f.repeated)).toFixed(3)} req/s if rendering is serial)`
          : `${f.rps.toFixed(1)} req/s under load (p50 ${f.p50} ms)`;
      console.log(
        `${format.padEnd(7)} ${name.padEnd(8)}: cold ${ms(f.cold)}, repeated ${ms(f.repeated)}, ${loaded}, ${(f.bytes / 1024).toFixed(0)} KiB`,
      );
    }
    const rps =
      ours.rps !== null && theirs.rps !== null
        ? ratio(ours.rps, theirs.rps)
        : ours.rps !== null
          ? `>= ${ratio(ours.rps, 1000 / median(theirs.repeated))}`
          : 'n/a';
    console.log(
      `${format.padEnd(7)} copydesk/traduora: cold time ${ratio(median(ours.cold), median(theirs.cold))}, repeated time ` +
        `${ratio(median(ours.repeated), median(theirs.repeated))}, req/s under load ${rps} ` +
        '(time ratios under 1 and req/s ratios over 1 favour copydesk)',
    );
  }
} finally {
  await peer?.cleanup().catch((error) => console.error(`traduora cleanup: ${error}`));
  await stop(bench.server);
}
