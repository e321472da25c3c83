/**
 * The web app at size, in headless Chromium (`/usr/bin/chromium`, or CHROMIUM_PATH): a project of
 * N text items (a third with plural forms, a French value on every fourth) for each N of
 * `BENCH_WEB_SIZES` (default 1000,10000,100000), each on a fresh server and database (SQLite, or
 * `BENCH_DATABASE_URL=postgres://...`: a workspace of its own per size). Each figure is printed
 * with the issue's target and PASS/FAIL, and the load average at each size:
 * - navigation to the first rows (the frame after text rows are in view in the listbox "Texts"),
 *   median and p95 of `BENCH_WEB_LOADS` loads (10) after a cold first one, and
 *   the bytes received before them (encoded bodies: the API's, and everything with the scripts);
 * - a jump to 50%, 90%, 25%, 75% and 10% of the list (its scroll position set at once): time
 *   until rows of that position (their text's number within 1% of it) are in view;
 * - scrolling: the p95 of frame durations (requestAnimationFrame to the next) while the list
 *   scrolls 40 px a frame for `BENCH_WEB_SCROLL_SECONDS` (5), beside a blank page's floor;
 * - the longest main-thread task ('longtask') in `BENCH_WEB_IDLE_SECONDS` (10) with the project open;
 * - another person's edit (a PATCH by another user through the API; through a second server on
 *   the same database with `BENCH_WEB_SERVERS=2`, the default on PostgreSQL): time until the new
 *   text shows in the list, and in the open editor, without a reload (`BENCH_WEB_EDITS` rounds, 5;
 *   not shown within `BENCH_WEB_EDIT_SECONDS`, 15, 30 at 100,000, is a FAIL);
 * - keystroke to paint: 60 characters typed in the open text's editor, 100 ms apart: p95 of the
 *   Event Timing API's durations (input to the next paint; under 16 ms counts as 16), and beside
 *   it keydown to the end of the frame after it, timed in the page for every key;
 * - the JavaScript sent, gzipped.
 * The in-page half is bench/web/probe.js. `BENCH_WEB_OUT=file.json` keeps the figures.
 * `npm run build && npm run build --prefix web && npm run bench:web`.
 */

import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { type BenchServer, freePort, root, startBenchServer, startServer, stop, waitForHttp } from './lib.js';
import {
  benchContext,
  frameFloor,
  idle,
  jumps,
  keystrokes,
  type Opened,
  openProject,
  openText,
  type Remote,
  remoteEdit,
  scrolling,
  signIn,
  sleep,
} from './web/measure.js';
import { figures, kb, largest, median, ms, p95, report } from './web/report.js';
import { createWriter, seedProject, settle, WRITER_PASSWORD } from './web/seed.js';

const SIZES = (process.env.BENCH_WEB_SIZES ?? '1000,10000,100000').split(',').map(Number);
const IDLE_SECONDS = Number(process.env.BENCH_WEB_IDLE_SECONDS ?? 10);
const SCROLL_SECONDS = Number(process.env.BENCH_WEB_SCROLL_SECONDS ?? 5);
const EDITS = Number(process.env.BENCH_WEB_EDITS ?? 5);
const TYPED = ' and then a few more words, typed by the writer at her pace.';
const JUMPS = [0.5, 0.9, 0.25, 0.75, 0.1];

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const errorOf = (e: unknown) => (e instanceof Error ? e.message.split('\n')[0] : String(e));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

for (const size of SIZES) {
  const loads = Number(process.env.BENCH_WEB_LOADS ?? 10);
  // How long a step may take before it counts as failed: a full list of 100,000 takes long.
  const slowMs = Math.max(60_000, size * 2);
  const { port, server, call, database, DATABASE_URL, key } = await startBenchServer(`bench web ${size}`);
  const where = { size, database };
  const base = `http://127.0.0.1:${port}`;
  const seeded = await seedProject(call, size);
  // A project is opened long after its texts were imported, not while the server still indexes
  // them: the bench waits until the search index and the translation memory have caught up.
  const settled = await settle(call);
  // Another person's edits go through a second server on the same database where there is one
  // (PostgreSQL by default): what the page shows then crossed servers.
  const servers = Number(process.env.BENCH_WEB_SERVERS ?? (database === 'postgres' ? 2 : 1));
  let other: { server: ChildProcess; call: BenchServer['call'] } | null = null;
  if (servers > 1) {
    const otherPort = await freePort();
    const otherServer = startServer({ DATABASE_URL, PORT: String(otherPort) });
    await waitForHttp(`http://127.0.0.1:${otherPort}/readyz`, 60_000);
    other = { server: otherServer, call: keyedCall(otherPort, key) };
  }
  const editCall = other?.call ?? call;
  const email = await createWriter(call, base);
  const state = await signIn(browser, base, email, WRITER_PASSWORD);
  console.log(
    `\n${size.toLocaleString('en')} text items on ${database} (seeded in ${seeded.toFixed(1)} s, indexed ${settled.toFixed(1)} s later); load average ${load()}`,
  );
  const context = await benchContext(browser, base, state);
  const floor = await frameFloor(context, 2_000);
  const page = await context.newPage();
  page.setDefaultTimeout(Math.max(30_000, slowMs / 2));
  // Another's edit may take this long to show before it counts as not shown.
  const editTimeoutMs = Number(process.env.BENCH_WEB_EDIT_SECONDS ?? Math.max(15, size * 0.0003)) * 1000;
  const step = async <T>(name: string, run: () => Promise<T>): Promise<T | null> => {
    try {
      return await run();
    } catch (e) {
      report(where, { name, value: null, unit: 'ms', limit: null, detail: `did not complete: ${errorOf(e)}` });
      return null;
    }
  };

  // Navigation to the first rows: a cold load (empty cache), then warm ones in the same page.
  const opened: Opened[] = [];
  for (let run = 0; run < loads; run += 1) {
    const one = await step('first rows', () => openProject(page, slowMs));
    if (!one) break;
    opened.push(one);
  }
  const cold = opened[0];
  const warm = opened.slice(1).map((o) => o.ms);
  if (cold) {
    const times = warm.length ? warm : [cold.ms];
    report(where, {
      name: 'first rows (navigation, median)',
      value: median(times),
      unit: 'ms',
      limit: 300,
      detail: `p95 ${ms(p95(times))} of ${times.length} warm loads; cold ${ms(cold.ms)}; rows in the DOM at ${ms(median(opened.slice(1).map((o) => o.domMs)))} (median, warm)`,
    });
    report(where, { name: 'first rows (navigation, p95)', value: p95(times), unit: 'ms', limit: 300, detail: '' });
    const b = cold.bytes;
    report(where, {
      name: 'API bytes before first rows (cold)',
      value: b.apiWire / 1024,
      unit: 'KB',
      limit: 200,
      detail: `over the wire, headers included, in ${b.apiRequests} API responses (bodies ${kb(b.apiBody)}); with the app's files ${kb(b.wire)} in ${b.requests} responses; ${b.pending} not finished yet`,
    });
    const lastWarm = opened.at(-1);
    if (lastWarm && opened.length > 1)
      report(where, {
        name: 'API bytes before first rows (warm)',
        value: lastWarm.bytes.apiWire / 1024,
        unit: 'KB',
        limit: 200,
        detail: `${lastWarm.bytes.apiRequests} API responses (bodies sent ${kb(lastWarm.bytes.apiBody)}: a revalidated one sends none); ${kb(lastWarm.bytes.wire)} over the wire in all`,
      });
    report(where, {
      name: 'JavaScript received (cold load)',
      value: b.scriptBody / 1024,
      unit: 'KB',
      limit: 300,
      detail: 'encoded as the server sent it',
    });
  }

  if (cold) {
    const jumped = await step('jump', () => jumps(page, size, JUMPS, Math.min(slowMs, 30_000)));
    if (jumped) {
      const times = jumped.map((j) => j.ms ?? Number.POSITIVE_INFINITY);
      const worst = largest(times);
      report(where, {
        name: 'jump to a far position (worst)',
        value: Number.isFinite(worst) ? worst : null,
        unit: 'ms',
        limit: 300,
        detail: `${jumped.map((j) => `${Math.round(j.fraction * 100)}%: ${ms(j.ms)}`).join(', ')}; median ${ms(median(times))}`,
      });
    }

    const frames = await step('scrolling', () => scrolling(page, SCROLL_SECONDS * 1000, 40));
    if (frames)
      report(where, {
        name: 'scrolling, p95 frame',
        value: p95(frames.deltas),
        unit: 'ms',
        limit: 20,
        detail: `${frames.deltas.length} frames in ${SCROLL_SECONDS} s, longest ${ms(largest(frames.deltas))}, long animation frames ${frames.loaf.length} (longest ${ms(frames.loaf.length ? largest(frames.loaf) : 0)}); blank page's p95 ${ms(p95(floor.deltas))}`,
      });

    const quiet = await step('idle', () => idle(page, IDLE_SECONDS * 1000));
    if (quiet)
      report(where, {
        name: 'idle, longest main-thread task',
        value: quiet.tasks.length ? largest(quiet.tasks) : 0,
        unit: 'ms',
        limit: 200,
        detail: `${quiet.tasks.length} tasks over 50 ms in ${IDLE_SECONDS} s, ${ms(quiet.tasks.reduce((a, b) => a + b, 0))} in all`,
      });

    const edits = async (what: 'list' | 'editor', rows: (round: number) => number) => {
      const done: Remote[] = [];
      for (let round = 0; round < EDITS; round += 1) {
        // A different moment each round (a poll's phase, if the app polls).
        await sleep(500 + Math.random() * 2_500);
        done.push(
          await remoteEdit(page, editCall, {
            n: rows(round),
            where: what,
            round: `${what}-${round}-${Date.now()}`,
            timeoutMs: editTimeoutMs,
          }),
        );
      }
      const times = done.map((d) => d.ms ?? Number.POSITIVE_INFINITY);
      const worst = largest(times);
      report(where, {
        name: `another's edit shown in the ${what} (worst)`,
        value: Number.isFinite(worst) ? worst : null,
        unit: 'ms',
        limit: 1_000,
        detail: `${other ? 'PATCH through a second server; ' : ''}${done.map((d) => ms(d.ms)).join(', ')} (n/a: not within ${editTimeoutMs / 1000} s); median ${ms(median(times))}; PATCH answered in ${ms(median(done.map((d) => d.patchMs)))}`,
      });
    };
    await step('remote edit in the list', async () => {
      await page.evaluate('window.__copydeskBench.scrollToTop()');
      await edits('list', (round) => 1 + round);
    });
    await step('remote edit in the open editor', async () => {
      await openText(page, 8);
      await edits('editor', () => 8);
    });

    await step('keystroke to paint', async () => {
      await openText(page, 4);
      const typed = await keystrokes(page, TYPED, 100);
      const slow = typed.eventTiming.length;
      // Event Timing (keystroke to the next paint, as the browser counts it) over every key typed:
      // a key without an entry took under its 16 ms threshold and counts as 16.
      const perKey = [...typed.eventTiming];
      while (perKey.length < typed.typed) perKey.push(16);
      report(where, {
        name: 'keystroke to paint, p95',
        value: p95(perKey),
        unit: 'ms',
        limit: 50,
        detail: `Event Timing, ${slow} of ${typed.typed} keys at 16 ms or more, longest ${ms(slow ? largest(typed.eventTiming) : 0)}; keydown to the end of the next frame: p95 ${ms(p95(typed.keys))}, median ${ms(median(typed.keys))}, longest ${ms(largest(typed.keys))} (${typed.keys.length} keys)`,
      });
    });
  } else {
    // The project never showed its rows: every figure that needs them is a FAIL, named.
    for (const [name, unit, limit] of [
      ['first rows (navigation, median)', 'ms', 300],
      ['API bytes before first rows (cold)', 'KB', 200],
      ['jump to a far position (worst)', 'ms', 300],
      ['scrolling, p95 frame', 'ms', 20],
      ['idle, longest main-thread task', 'ms', 200],
      ["another's edit shown in the list (worst)", 'ms', 1_000],
      ["another's edit shown in the editor (worst)", 'ms', 1_000],
      ['keystroke to paint, p95', 'ms', 50],
    ] as const)
      report(where, { name, value: null, unit, limit, detail: 'not measured: the project never showed its rows' });
  }

  await closeAll(page);
  await context.close();
  if (other) await stop(other.server);
  await stop(server);
  console.log(`  load average after ${size.toLocaleString('en')}: ${load()}`);
}
await browser.close();

/** `call` of a BenchServer, on another server of the same database. */
function keyedCall(port: number, key: string): BenchServer['call'] {
  return async (method, path, body) => {
    const res = await fetch(`http://127.0.0.1:${port}/v2/${path}`, {
      method,
      headers: { authorization: key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} /v2/${path}: ${res.status} ${await res.text()}`);
    return res;
  };
}

async function closeAll(page: Page) {
  await page.close({ runBeforeUnload: false }).catch(() => undefined);
}

const assets = join(root, 'web/dist/assets');
const js = readdirSync(assets).filter((f) => f.endsWith('.js'));
const gzipped = js.reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f))).length, 0);
report(
  { size: 0, database: 'any' },
  {
    name: 'JavaScript sent, gzipped',
    value: gzipped / 1024,
    unit: 'KB',
    limit: 300,
    detail: `${js.length} files in web/dist/assets`,
  },
);

if (process.env.BENCH_WEB_OUT) {
  writeFileSync(process.env.BENCH_WEB_OUT, `${JSON.stringify({ loadavg: loadavg(), figures }, null, 2)}\n`);
}
