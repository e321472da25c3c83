/**
 * `npm run bench:scale`: a workspace of 1,000,000 texts (`--texts N` or BENCH_TEXTS for fewer),
 * seeded by bench/scale-seed.ts on SQLite (default) or PostgreSQL (BENCH_DATABASE_URL or
 * DATABASE_URL), then the real server (`copydesk serve` from dist/) with its event-loop report on,
 * and one call after another: the big reads, an export per format, the Swift driver, search,
 * history, a write, a backup and a restore by the CLI, an import of 200,000 keys. Per call: time,
 * status, bytes, the server's RSS after and its peak during, the longest event-loop stall during
 * (the server's own report, and a /healthz poll every 20 ms from a worker thread). A failing or
 * timed-out call is reported and the bench goes on; a server that died is started again.
 * Prints a table and writes it as JSON (`--out`). See docs/scale.md.
 *
 *   npm run build && npm run bench:scale -- --texts 200000
 *   BENCH_SEEDED=/tmp/seeded.json npm run bench:scale   # reuse a seeded database (its JSON)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { maxOf } from '../src/shared/arrays.js';
import { bin, freePort, startServer, waitForHttp } from './lib.js';
import {
  BLOCKS_PER_PROJECT,
  blockId,
  expectedContent,
  FOLDERS,
  folderId,
  PROJECTS,
  placeOf,
  projectId,
  type Seeded,
  seed,
} from './scale-seed.js';

const argument = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const TEXTS = Number(argument('texts') ?? process.env.BENCH_TEXTS ?? 1_000_000);
const IMPORT_KEYS = Number(argument('import-keys') ?? process.env.BENCH_IMPORT_KEYS ?? 200_000);
/** Per HTTP call; CLI processes get CLI_TIMEOUT_S. */
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 300);
const CLI_TIMEOUT_S = Number(process.env.BENCH_CLI_TIMEOUT_S ?? 1800);
/** Only the calls whose name contains one of these (comma-separated). */
const ONLY = (argument('only') ?? process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const work = mkdtempSync(join(tmpdir(), 'copydesk-scale-'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? join(work, 'scale.db');

const MiB = (kb: number) => Math.round(kb / 102.4) / 10;
const log = (line: string) => console.error(line);

// 1. The workspace: seeded now, or one seeded before (BENCH_SEEDED names its JSON).
let seeded: Seeded;
const reuse = argument('seeded') ?? process.env.BENCH_SEEDED;
if (reuse) {
  seeded = JSON.parse(readFileSync(reuse, 'utf8'));
  log(
    `reusing ${seeded.database} database ${seeded.DATABASE_URL} (${seeded.components + seeded.textItems + seeded.templates} texts)`,
  );
} else {
  log(`seeding ${TEXTS.toLocaleString('en')} texts into ${databaseUrl}`);
  const started = performance.now();
  seeded = await seed({ texts: TEXTS, databaseUrl, log });
  seeded.seconds.total = Math.round((performance.now() - started) / 100) / 10;
  writeFileSync(join(work, 'seeded.json'), JSON.stringify(seeded, null, 2));
  log(`seeded in ${seeded.seconds.total} s (${join(work, 'seeded.json')} reuses it: BENCH_SEEDED)`);
}
const { DATABASE_URL, key } = seeded;
/** Every text of the workspace: the clones and their templates. */
const texts = seeded.components + seeded.textItems + seeded.templates;
const out = argument('out') ?? process.env.BENCH_OUT ?? join(work, `scale-${seeded.database}-${texts}.json`);
/** The server's stdout and stderr, beside the table (a 500's log line, a crash's stack). */
const serverLog = out.replace(/(\.json)?$/, '.server.log');

// 2. The server, with its event-loop report, and the /healthz poll in a worker thread.
const loopReport = join(work, 'event-loop.jsonl');
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let server!: ChildProcess;
const restarts: string[] = [];
async function startScaleServer(): Promise<void> {
  server = startServer({ DATABASE_URL, PORT: String(port), COPYDESK_EVENT_LOOP_REPORT: loopReport }, bin, serverLog);
  // Starting on a big database can take a while (migrations check, caches); 5 minutes at most.
  await waitForHttp(`${base}/readyz`, 300_000);
}
await startScaleServer();
process.once('exit', () => {
  if (server.exitCode === null) server.kill('SIGKILL');
});
/** SIGTERM, and SIGKILL if the server has not exited within `ms` (it finishes requests under way first). */
async function stopServer(ms: number): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(timer);
}

const poller = new Worker(
  `
  const { parentPort, workerData } = require('node:worker_threads');
  let max = 0, failures = 0, count = 0;
  /** When the request under way was sent (or the last mark, if later); null between requests. */
  let started = null;
  async function poll() {
    for (;;) {
      started = performance.now();
      try {
        const res = await fetch(workerData.url, { signal: AbortSignal.timeout(60000) });
        await res.arrayBuffer();
        if (!res.ok) failures += 1;
      } catch { failures += 1; }
      const ms = performance.now() - started;
      started = null;
      count += 1;
      if (ms > max) max = ms;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 20 - ms)));
    }
  }
  // A request still waiting counts for its time so far: a server that never answers shows.
  parentPort.on('message', () => {
    if (started !== null) {
      const now = performance.now();
      max = Math.max(max, now - started);
      started = now;
    }
    parentPort.postMessage({ max, failures, count });
    max = 0; failures = 0; count = 0;
  });
  poll();
  `,
  { eval: true, workerData: { url: `${base}/healthz` } },
);
poller.unref();
const healthz = () =>
  new Promise<{ max: number; failures: number; count: number }>((resolve) => {
    poller.once('message', resolve);
    poller.postMessage('mark');
  });

// 3. The measurements around each call.
function procStatus(pid: number | undefined): { rss: number; hwm: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+) kB`))?.[1] ?? Number.NaN);
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: Number.NaN, hwm: Number.NaN };
  }
}
/** Writing 5 to clear_refs resets VmHWM, so each call's peak is its own. */
function resetPeak(pid: number | undefined): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux, or not ours: the peak is then the run's so far
  }
}
interface LoopLine {
  t: number;
  final?: boolean;
  maxMs: number;
  p99Ms: number;
  runMaxMs: number;
  runP99Ms: number;
  /** The most main-thread CPU between two checks 5 ms apart in that second (Linux). */
  heldCpuMs?: number;
  runHeldCpuMs?: number;
}
function loopLines(): LoopLine[] {
  if (!existsSync(loopReport)) return [];
  const lines: LoopLine[] = [];
  for (const line of readFileSync(loopReport, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      lines.push(JSON.parse(line));
    } catch {
      // a line being written
    }
  }
  return lines;
}
/** The server's report gets a line a second. */
const REPORT_MS = 1_000;
/**
 * The longest stall and the highest p99 the server reported in the seconds that overlap [from, to].
 * A loop that is blocked writes no line until it is free again, and none at all if the server is
 * killed meanwhile (a timed-out call): a gap between lines longer than their second counts as a
 * stall of that length.
 */
function loopDuring(from: number, to: number): { maxMs: number; p99Ms: number; heldCpuMs: number | null } {
  let maxMs = 0;
  let p99Ms = 0;
  let heldCpuMs: number | null = null;
  let previous = from;
  for (const line of loopLines()) {
    if (line.t <= from - REPORT_MS) continue;
    if (line.t > to + 1_100) break;
    if (line.t > from) {
      maxMs = Math.max(maxMs, line.maxMs, line.t - previous - REPORT_MS);
      p99Ms = Math.max(p99Ms, line.p99Ms);
      if (line.heldCpuMs !== undefined) heldCpuMs = Math.max(heldCpuMs ?? 0, line.heldCpuMs);
    }
    previous = Math.max(previous, line.t);
    if (line.final) break;
  }
  // No line since `previous`: the loop has been blocked since (or the server died).
  maxMs = Math.max(maxMs, to - previous - REPORT_MS);
  return { maxMs: Math.round(maxMs * 100) / 100, p99Ms, heldCpuMs };
}

interface Outcome {
  status: string;
  bytes: number;
  ok: boolean;
  note?: string;
  /** Peak RSS of a CLI process, KiB. */
  processPeakKb?: number;
}
interface Row {
  name: string;
  status: string;
  ok: boolean;
  seconds: number;
  bytes: number;
  serverRssAfterMiB: number;
  serverPeakMiB: number;
  processPeakMiB: number | null;
  loopMaxMs: number;
  /** The most main-thread CPU time within one stall (null: not measured on this system). */
  loopCpuMs: number | null;
  loopP99Ms: number;
  healthzMaxMs: number;
  healthzFailures: number;
  note?: string;
}
const rows: Row[] = [];

async function measure(name: string, run: () => Promise<Outcome>): Promise<void> {
  if (ONLY.length > 0 && !ONLY.some((part) => name.includes(part))) return;
  if (server.exitCode !== null || server.signalCode !== null) {
    const why = `server exited (${server.exitCode ?? server.signalCode}) before ${name}: started again`;
    restarts.push(why);
    log(why);
    await startScaleServer();
  }
  await healthz();
  resetPeak(server.pid);
  const wallFrom = Date.now();
  const started = performance.now();
  let outcome: Outcome;
  try {
    outcome = await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const timedOut = (error as { name?: string }).name === 'TimeoutError' || message.includes('timed out');
    outcome = { status: timedOut ? 'timeout' : 'error', ok: false, bytes: 0, note: message.slice(0, 300) };
  }
  const seconds = (performance.now() - started) / 1000;
  const wallTo = Date.now();
  const { rss, hwm } = procStatus(server.pid);
  // The server's report gets a line a second: wait for the one that covers the end of the call.
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const loop = loopDuring(wallFrom, wallTo);
  const poll = await healthz();
  const alive = server.exitCode === null && server.signalCode === null;
  const row: Row = {
    name,
    status: alive ? outcome.status : `${outcome.status}, server died (${server.exitCode ?? server.signalCode})`,
    ok: outcome.ok && alive,
    seconds: Math.round(seconds * 100) / 100,
    bytes: outcome.bytes,
    serverRssAfterMiB: MiB(rss),
    serverPeakMiB: MiB(hwm),
    processPeakMiB: outcome.processPeakKb === undefined ? null : MiB(outcome.processPeakKb),
    loopMaxMs: loop.maxMs,
    loopCpuMs: loop.heldCpuMs,
    loopP99Ms: loop.p99Ms,
    healthzMaxMs: Math.round(poll.max),
    healthzFailures: poll.failures,
    ...(outcome.note && { note: outcome.note }),
  };
  rows.push(row);
  // The server may still be working on a request the bench gave up on: the next call gets a fresh one.
  if (outcome.status === 'timeout' && alive && outcome.processPeakKb === undefined) {
    const why = `${name} timed out: server stopped and started again`;
    restarts.push(why);
    log(why);
    await stopServer(10_000);
    await startScaleServer();
  }
  log(
    `${row.ok ? 'ok  ' : 'FAIL'} ${name}: ${row.status} in ${row.seconds} s, ${row.bytes} bytes, server ${row.serverRssAfterMiB} MiB after (peak ${row.serverPeakMiB}), stall ${row.loopMaxMs} ms (CPU ${row.loopCpuMs ?? '?'} ms), healthz ${row.healthzMaxMs} ms${row.note ? ` (${row.note})` : ''}`,
  );
}

/** An API call with the key; the body is counted as it arrives, never held. */
async function http(method: string, path: string, body?: unknown): Promise<Outcome> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: key, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_S * 1000),
  });
  let bytes = 0;
  let head = '';
  if (res.body) {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      if (!res.ok && head.length < 300) head += Buffer.from(chunk).toString('utf8');
    }
  }
  return { status: String(res.status), ok: res.ok, bytes, ...(!res.ok && { note: head.slice(0, 300) }) };
}

/** An API call whose JSON answer the bench reads (small answers only). */
async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: key, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_S * 1000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

const PRELOAD = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs';" +
    'process.on("exit", () => { try { writeFileSync(process.env.BENCH_MAXRSS_FILE, String(process.resourceUsage().maxRSS)); } catch {} });',
)}`;

/** A CLI process (`copydesk ...`) to completion, with its peak RSS. */
async function copydesk(args: string[], env: NodeJS.ProcessEnv): Promise<Outcome & { stdout: string }> {
  const maxRssFile = join(work, `maxrss-${process.hrtime.bigint()}`);
  const child = spawn(process.execPath, ['--import', PRELOAD, bin, ...args], {
    env: { ...process.env, ...env, BENCH_MAXRSS_FILE: maxRssFile },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    if (stdout.length < 1_000_000) stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    if (stderr.length < 100_000) stderr += chunk;
  });
  // The peak from /proc as it runs, in case the process dies before it can say.
  let polledPeak = 0;
  const poll = setInterval(() => {
    const { hwm } = procStatus(child.pid);
    if (hwm > polledPeak) polledPeak = hwm;
  }, 100);
  const timer = setTimeout(() => child.kill('SIGKILL'), CLI_TIMEOUT_S * 1000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (c, s) => resolve([c, s])),
  );
  clearTimeout(timer);
  clearInterval(poll);
  let peak = polledPeak;
  if (existsSync(maxRssFile)) {
    peak = Math.max(peak, Number(readFileSync(maxRssFile, 'utf8')));
    rmSync(maxRssFile);
  }
  const ok = code === 0;
  const lastLine = stderr.trim().split('\n').slice(-3).join(' | ');
  return {
    status: signal === 'SIGKILL' ? 'timeout' : `exit ${code ?? signal}`,
    ok,
    bytes: 0,
    processPeakKb: peak,
    stdout,
    ...(!ok && { note: lastLine.slice(0, 300) }),
  };
}

// 4. Check the seed through the API: a few texts of each template and place as the API reads them.
interface ApiRecord {
  id: string;
  text: string;
  notes: string;
  tags: string[];
  status: string;
  variantId: string | null;
  pluralForm: string | null;
  folderId?: string | null;
  projectId?: string;
  blockId?: string | null;
}
const problems: string[] = [];
async function verify(): Promise<void> {
  // Components: four numbers in folder 5 (one per template) and one at the root.
  const folder = 5;
  const componentNumbers = [0, 1, 2, 3]
    .map((k) => folder + k * (FOLDERS + 1))
    .filter((n) => n < seeded.components)
    .concat(FOLDERS < seeded.components ? [FOLDERS] : []);
  const filter = (f: object) => encodeURIComponent(JSON.stringify({ ...f, variants: [{ id: 'all' }] }));
  const inFolder = await json<ApiRecord[]>(
    'GET',
    `/v2/components?filter=${filter({ folders: [{ id: folderId(folder), excludeNestedFolders: true }] })}`,
  );
  const atRoot = await json<ApiRecord[]>(
    'GET',
    `/v2/components?filter=${filter({ folders: [{ id: 'root', excludeNestedFolders: true }] })}`,
  );
  const components = new Map<string, ApiRecord[]>();
  for (const record of [...inFolder, ...atRoot]) {
    const list = components.get(record.id) ?? [];
    list.push(record);
    components.set(record.id, list);
  }
  for (const n of componentNumbers) {
    const place = placeOf.component(n);
    const id = `comp-${String(n).padStart(7, '0')}`;
    check(id, components.get(id), place.template, n, (r) =>
      r.folderId === (place.folder < FOLDERS ? folderId(place.folder) : null) ? null : `folderId ${r.folderId}`,
    );
  }
  // Text items: the first numbers of projects 4 to 7 (templates 0 to 3), in and out of blocks.
  const projectNumbers = [4, 5, 6, 7];
  const items = new Map<string, ApiRecord[]>();
  const listed = await json<ApiRecord[]>(
    'GET',
    `/v2/textItems?filter=${filter({ projects: projectNumbers.map((p) => ({ id: projectId(p) })) })}`,
  );
  for (const record of listed) {
    const list = items.get(record.id) ?? [];
    list.push(record);
    items.set(record.id, list);
  }
  for (const p of projectNumbers) {
    for (const n of [p, p + PROJECTS * BLOCKS_PER_PROJECT, p + PROJECTS * 3]) {
      if (n >= seeded.textItems) continue;
      const place = placeOf.textItem(n);
      const id = `item-${String(n).padStart(7, '0')}`;
      const block = place.block < BLOCKS_PER_PROJECT ? blockId(place.block) : null;
      check(id, items.get(id), place.template, n, (r) =>
        r.projectId !== projectId(place.project)
          ? `projectId ${r.projectId}`
          : (r.blockId ?? null) !== block
            ? `blockId ${r.blockId}`
            : null,
      );
    }
  }
}
function check(
  id: string,
  records: ApiRecord[] | undefined,
  template: number,
  n: number,
  place: (r: ApiRecord) => string | null,
): void {
  if (!records) {
    problems.push(`${id}: not in the API's answer`);
    return;
  }
  const expected = expectedContent(template, n);
  const baseRecord = records.find((r) => r.variantId === null && r.pluralForm === null);
  if (!baseRecord) {
    problems.push(`${id}: no base record`);
    return;
  }
  const differs = (field: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want))
      problems.push(`${id}: ${field} is ${JSON.stringify(got)}, seeded ${JSON.stringify(want)}`);
  };
  differs('text', baseRecord.text, expected.text);
  differs('notes', baseRecord.notes, expected.notes);
  differs('tags', baseRecord.tags, expected.tags);
  differs('status', baseRecord.status, expected.status);
  const wrongPlace = place(baseRecord);
  if (wrongPlace) problems.push(`${id}: ${wrongPlace}`);
  for (const [variant, text] of expected.variants) {
    const value = records.find((r) => r.variantId === variant && r.pluralForm === null);
    differs(`variant ${variant}`, value?.text, text);
  }
}

const started = performance.now();
try {
  await verify();
} catch (error) {
  problems.push(`verification failed: ${error instanceof Error ? error.message : String(error)}`);
}
log(problems.length === 0 ? 'seed verified through the API' : `seed problems:\n  ${problems.join('\n  ')}`);

// 5. The calls.
const encode = (value: object) => encodeURIComponent(JSON.stringify(value));
await measure('GET /v2/textItems (every project)', () => http('GET', '/v2/textItems'));
await measure('GET /v2/textItems (every project, every variant)', () =>
  http('GET', `/v2/textItems?filter=${encode({ variants: [{ id: 'all' }] })}`),
);
await measure('GET /v2/textItems (one project)', () =>
  http('GET', `/v2/textItems?filter=${encode({ projects: [{ id: projectId(1) }] })}`),
);
await measure('GET /v2/components', () => http('GET', '/v2/components'));
for (const format of [
  'json_icu',
  'json_i18next',
  'json_vue_i18n',
  'ios-strings',
  'ios-stringsdict',
  'android',
  'arb',
]) {
  await measure(`GET /v2/textItems/export ${format}`, () => http('GET', `/v2/textItems/export?format=${format}`));
}
await measure('GET /v2/components/export json_icu (fr)', () =>
  http('GET', '/v2/components/export?format=json_icu&variantId=fr'),
);
await measure('POST /v2/cli/swiftDriver {}', () => http('POST', '/v2/cli/swiftDriver', {}));
// The deprecated v0/v1 reads (docs/legacy-api.md), the large ones: the whole library, every
// project, one project, the variants of every project. They reach only projects with developer
// mode on, which the seed leaves off: it is switched on first (one write, not measured).
// Any of them: `--only variants` needs developer mode on as much as `--only legacy`.
const LEGACY_CALLS = [
  'GET /v1/components',
  'GET /components',
  'GET /projects',
  'GET /v1/projects/:id',
  'GET /v1/variants',
];
const legacyCalls =
  ONLY.length === 0 ||
  ONLY.some((part) => LEGACY_CALLS.some((call) => `legacy ${call}`.includes(part)) || part.includes('legacy'));
if (legacyCalls) {
  await json('PATCH', '/v2/projects', {
    updates: Array.from({ length: PROJECTS }, (_, p) => ({ developerId: projectId(p), developerMode: true })),
  }).catch((error) => problems.push(`legacy: developer mode not switched on: ${String(error)}`));
}
await measure('legacy GET /v1/components (structured)', () => http('GET', '/v1/components?format=structured'));
await measure('legacy GET /components (v0, flat, fr)', () => http('GET', '/components?format=flat&variant=fr'));
await measure('legacy GET /projects (v0, every project, full)', () => http('GET', '/projects?format=full'));
await measure('legacy GET /v1/projects/:id (one project, full)', () =>
  http('GET', `/v1/projects/${projectId(1)}?format=full`),
);
await measure('legacy GET /v1/variants (projectIds of every project)', () =>
  http('GET', `/v1/variants?${Array.from({ length: PROJECTS }, (_, p) => `projectIds[]=${projectId(p)}`).join('&')}`),
);
await measure('GET /v2/search (rare: "box 605")', () => http('GET', `/v2/search?q=${encodeURIComponent('box 605')}`));
await measure('GET /v2/search (common: "message")', () => http('GET', '/v2/search?q=message'));
await measure('GET /v2/history (first page)', () => http('GET', '/v2/history'));
await measure('GET /v2/history (one text item)', () => http('GET', '/v2/history?kind=textItem&id=item-0000605'));
await measure('PATCH /v2/textItems (one text), read back', async () => {
  const text = `Changed by bench:scale ${Date.now()}`;
  const outcome = await http('PATCH', '/v2/textItems', { updates: [{ developerId: 'item-0000003', text }] });
  if (!outcome.ok) return outcome;
  const records = await json<ApiRecord[]>(
    'GET',
    `/v2/textItems?filter=${encode({ projects: [{ id: projectId(placeOf.textItem(3).project) }] })}`,
  );
  const back = records.find((r) => r.id === 'item-0000003' && r.variantId === null)?.text;
  return back === text ? outcome : { ...outcome, ok: false, note: `read back ${JSON.stringify(back)}` };
});

// The backup and the restore, as an administrator runs them (the server stays up meanwhile).
const backupFile = join(work, 'backup.json.gz');
const restoreUrl =
  process.env.BENCH_RESTORE_DATABASE_URL ?? (seeded.database === 'sqlite' ? join(work, 'restored.db') : DATABASE_URL);
let backupWritten = false;
await measure('CLI workspace export (backup)', async () => {
  const outcome = await copydesk(
    ['workspace', 'export', '--workspace', String(seeded.workspaceId), '--out', backupFile, '--json'],
    { DATABASE_URL },
  );
  backupWritten = outcome.ok && existsSync(backupFile);
  const bytes = backupWritten ? readFileSync(backupFile).byteLength : 0;
  return { ...outcome, bytes };
});
await measure('CLI workspace import (restore, new workspace)', async () => {
  if (!backupWritten) return { status: 'skipped', ok: false, bytes: 0, note: 'no backup to restore' };
  const outcome = await copydesk(['workspace', 'import', '--file', backupFile, '--json'], {
    DATABASE_URL: restoreUrl,
  });
  if (!outcome.ok) return outcome;
  const restored = JSON.parse(outcome.stdout).restored?.texts;
  return restored === texts
    ? outcome
    : { ...outcome, ok: restored >= texts, note: `restored ${restored} texts of ${texts}` };
});
rmSync(backupFile, { force: true });

// An import of IMPORT_KEYS new keys (CSV, base text only) into a new project. The project and
// the keys carry the run's time, so that a run on a seed reused (BENCH_SEEDED) imports new keys
// too rather than finding the previous run's unchanged.
const importRun = Date.now().toString(36);
await measure(`POST /v2/import (${IMPORT_KEYS.toLocaleString('en')} keys, CSV)`, async () => {
  await json('POST', '/v2/projects', {
    projects: [{ name: `Scale import ${importRun}`, developerId: `scale-import-${importRun}` }],
  });
  const lines = ['key,en'];
  for (let n = 0; n < IMPORT_KEYS; n += 1) {
    lines.push(`imported-${importRun}-${String(n).padStart(7, '0')},Imported text ${n}`);
  }
  const content = `${lines.join('\n')}\n`;
  return http('POST', '/v2/import', {
    format: 'csv',
    projectId: `scale-import-${importRun}`,
    content,
    columns: { key: 'key', text: 'en' },
  });
});
await measure('GET /v2/search after the import ("imported 1999")', () =>
  http('GET', `/v2/search?q=${encodeURIComponent('imported 1999')}`),
);

// 6. The report.
const hwmAtEnd = procStatus(server.pid).hwm;
await stopServer(30_000);
await poller.terminate();
// Over every server the bench started (each restart begins a run of its own) and every call's row,
// which also counts a stall that ended with the server being killed.
const lines = loopLines();
const loopMax = maxOf(
  rows.map((r) => r.loopMaxMs),
  maxOf(lines.map((line) => line.runMaxMs)),
);
// The most main-thread CPU in one stall during a call (the server's start is not a call).
const heldCpuMax = maxOf(rows.map((r) => r.loopCpuMs ?? 0));
// The 99th percentile of the last server's whole run (an early line's covers a few samples only).
const loopP99 = lines.at(-1)?.runP99Ms ?? null;
const peakServerMiB = maxOf(
  rows.map((r) => r.serverPeakMiB || 0),
  MiB(hwmAtEnd) || 0,
);
const result = {
  database: seeded.database,
  texts,
  components: seeded.components,
  textItems: seeded.textItems,
  variantValues: seeded.variantValues,
  historyRows: seeded.historyRows,
  seedSeconds: seeded.seconds,
  seedProblems: problems,
  loadavg: loadavg(),
  seconds: Math.round((performance.now() - started) / 1000),
  server: {
    peakRssMiB: peakServerMiB,
    eventLoopMaxMs: loopMax,
    eventLoopP99Ms: loopP99,
    eventLoopHeldCpuMs: heldCpuMax,
    restarts,
  },
  calls: rows,
};
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);

const pad = (value: unknown, width: number) => String(value).padEnd(width);
const left = (value: unknown, width: number) => String(value).padStart(width);
console.log(
  `\nbench:scale, ${seeded.database}, ${texts.toLocaleString('en')} texts (${seeded.components.toLocaleString('en')} components, ${seeded.textItems.toLocaleString('en')} text items, ${seeded.templates} templates, ${seeded.variantValues.toLocaleString('en')} variant values, ${seeded.historyRows.toLocaleString('en')} history rows); load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  `seed: ${Object.entries(seeded.seconds)
    .map(([step, s]) => `${step} ${s} s`)
    .join(', ')}; checked through the API: ${problems.length === 0 ? 'OK' : `${problems.length} problems`}`,
);
console.log(
  `${pad('call', 52)} ${pad('status', 18)} ${left('time s', 8)} ${left('bytes', 12)} ${left('RSS after', 10)} ${left('peak', 7)} ${left('CLI peak', 9)} ${left('stall ms', 9)} ${left('CPU ms', 7)} ${left('healthz', 8)}`,
);
for (const row of rows) {
  console.log(
    `${pad(row.name.slice(0, 52), 52)} ${pad(`${row.ok ? '' : 'FAIL '}${row.status}`.slice(0, 18), 18)} ${left(row.seconds.toFixed(2), 8)} ${left(row.bytes, 12)} ${left(row.serverRssAfterMiB, 10)} ${left(row.serverPeakMiB, 7)} ${left(row.processPeakMiB ?? '', 9)} ${left(row.loopMaxMs, 9)} ${left(row.loopCpuMs ?? '', 7)} ${left(row.healthzMaxMs, 8)}`,
  );
}
console.log(
  `server: peak RSS ${peakServerMiB} MiB (target < 300), longest event-loop stall ${loopMax} ms (target < 100; the most main-thread CPU in one stall during a call: ${heldCpuMax} ms), p99 ${loopP99 ?? '?'} ms (last server's run); ${rows.filter((r) => !r.ok).length} of ${rows.length} calls failed${restarts.length ? `; ${restarts.length} restarts` : ''}`,
);
for (const row of rows.filter((r) => r.note)) console.log(`  ${row.name}: ${row.note}`);
console.log(`JSON: ${out}`);
console.log(`server log: ${serverLog}`);
if (!process.env.BENCH_KEEP && !reuse && seeded.database === 'sqlite') {
  for (const file of [DATABASE_URL, `${DATABASE_URL}-wal`, `${DATABASE_URL}-shm`]) rmSync(file, { force: true });
}
if (seeded.database === 'sqlite') rmSync(join(work, 'restored.db'), { force: true });
process.exit(0);
