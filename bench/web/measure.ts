import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { BenchServer } from '../lib.js';
import { PROJECT, pad, textOf } from './seed.js';

/** The in-page half (bench/web/probe.js): window.__copydeskBench. */
export const PROBE = readFileSync(join(import.meta.dirname, 'probe.js'), 'utf8');
const B = 'window.__copydeskBench';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const wallNow = () => performance.timeOrigin + performance.now();

/** A context signed in as `state` (or none), with the probe in every page. */
export async function benchContext(
  browser: Browser,
  base: string,
  state?: Awaited<ReturnType<BrowserContext['storageState']>>,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: 1600, height: 1000 },
    ...(state && { storageState: state }),
  });
  context.setDefaultTimeout(30_000);
  await context.addInitScript({ content: PROBE });
  // Leaving a page with unsaved edits asks first: the bench always leaves.
  context.on('page', (page) => page.on('dialog', (dialog) => void dialog.accept().catch(() => undefined)));
  return context;
}

/**
 * Signs in (POST /v2/session, the sign-in form's request, so that the landing page does not read
 * a big project before the measurements); answers the state for the contexts that follow.
 */
export async function signIn(browser: Browser, base: string, email: string, password: string) {
  const context = await benchContext(browser, base);
  const res = await context.request.post('/v2/session', { data: { email, password } });
  if (!res.ok()) throw new Error(`sign-in: ${res.status()} ${await res.text()}`);
  const state = await context.storageState();
  await context.close();
  return state;
}

export interface Bytes {
  requests: number;
  body: number;
  wire: number;
  apiRequests: number;
  apiBody: number;
  apiWire: number;
  scriptBody: number;
  pending: number;
}
export interface Opened {
  /** Navigation start to the frame after the first text rows were in the list, in view. */
  ms: number;
  /** The same, to the DOM change that put them there. */
  domMs: number;
  bytes: Bytes;
}

/** Navigates to the project and waits for its first rows (the probe times them in the page). */
export async function openProject(page: Page, timeoutMs: number): Promise<Opened> {
  await page.goto(`/projects/${PROJECT}`, { waitUntil: 'commit', timeout: timeoutMs });
  // Polled from here: the app's Content-Security-Policy forbids waitForFunction's eval in the page.
  const deadline = performance.now() + timeoutMs;
  const read = async () =>
    (await page.evaluate(`${B}?.firstRows ?? null`).catch(() => null)) as { dom: number; paint: number | null } | null;
  let first = await read();
  while (!first || first.paint === null) {
    if (performance.now() > deadline) throw new Error(`no rows within ${timeoutMs} ms`);
    await sleep(50);
    first = await read();
  }
  const bytes = (await page.evaluate(`${B}.bytesUntil(${first.paint})`)) as Bytes;
  return { ms: first.paint, domMs: first.dom, bytes };
}

export interface Jump {
  fraction: number;
  ms: number | null;
  anyMs: number | null;
  target: number;
  seen: number[];
}

/** Jumps to each fraction of the list in turn (a pause between, for a paged list's reads to end). */
export async function jumps(page: Page, size: number, fractions: number[], timeoutMs: number): Promise<Jump[]> {
  const tolerance = Math.max(50, Math.round(size * 0.01));
  const out: Jump[] = [];
  for (const fraction of fractions) {
    const result = (await page.evaluate(`${B}.jump(${fraction}, ${size}, ${tolerance}, ${timeoutMs})`)) as Omit<
      Jump,
      'fraction'
    >;
    out.push({ fraction, ...result });
    await sleep(700);
  }
  await page.evaluate(`${B}.scrollToTop()`);
  return out;
}

export interface Frames {
  deltas: number[];
  loaf: number[];
}

/** Frames while the list scrolls by `step` px a frame for `ms`. */
export async function scrolling(page: Page, ms: number, step: number): Promise<Frames> {
  await page.evaluate(`${B}.scrollToTop()`);
  await sleep(500);
  const frames = (await page.evaluate(`${B}.frames(${ms}, ${step})`)) as Frames;
  await page.evaluate(`${B}.scrollToTop()`);
  return frames;
}

/** The floor: frames of a blank page in the same browser, nothing done. */
export async function frameFloor(context: BrowserContext, ms: number): Promise<Frames> {
  const page = await context.newPage();
  await page.setContent('<!doctype html><title>floor</title><p>floor</p>');
  await page.addScriptTag({ content: PROBE });
  const frames = (await page.evaluate(`${B}.frames(${ms}, 0)`)) as Frames;
  await page.close();
  return frames;
}

export async function idle(page: Page, ms: number): Promise<{ tasks: number[]; loaf: number[] }> {
  await page.evaluate(`${B}.scrollToTop()`);
  await sleep(1_000);
  return (await page.evaluate(`${B}.idle(${ms})`)) as { tasks: number[]; loaf: number[] };
}

const rows = (page: Page) => page.getByRole('listbox', { name: 'Texts' }).getByRole('option');

/** Opens the text of row `n` (it must be in view: the rows near the top) by clicking its row. */
export async function openText(page: Page, n: number): Promise<void> {
  await page.evaluate(`${B}.scrollToTop()`);
  await rows(page)
    .filter({ hasText: `Text number ${pad(n)} ` })
    .first()
    .click();
  await page
    .getByRole('textbox', { name: /^Base text/ })
    .first()
    .waitFor();
}

export interface Remote {
  /** Wall time from sending the PATCH to the frame showing the new text, or null at the timeout. */
  ms: number | null;
  /** The PATCH's own answer time. */
  patchMs: number;
}

/**
 * Another person's edit: the bench key's user (not the writer signed in) PATCHes the text of row
 * `n`; the time until the page shows the new text in the list ('list') or the open editor
 * ('editor'), without reloading.
 */
export async function remoteEdit(
  page: Page,
  call: BenchServer['call'],
  { n, where, round, timeoutMs }: { n: number; where: 'list' | 'editor'; round: string; timeoutMs: number },
): Promise<Remote> {
  const token = `edited elsewhere ${round}`;
  await page.evaluate(`${B}.watch(${JSON.stringify(token)}, ${JSON.stringify(where)}, ${timeoutMs})`);
  const started = wallNow();
  await call('PATCH', 'textItems', { updates: [{ developerId: `item-${pad(n)}`, text: `${textOf(n)} ${token}` }] });
  const patchMs = wallNow() - started;
  const seen = (await page.evaluate(`${B}.watched`)) as number | null;
  return { ms: seen === null ? null : seen - started, patchMs };
}

export interface Keystrokes {
  /** Per keystroke, keydown to the frame after it. */
  keys: number[];
  /** Event Timing: the interactions of 16 ms and more (the others were shorter). */
  eventTiming: number[];
  typed: number;
}

/** Types `text` at the end of the open text's base text box, `delayMs` between keys (a writer's pace). */
export async function keystrokes(page: Page, text: string, delayMs: number): Promise<Keystrokes> {
  const box = page.getByRole('textbox', { name: /^Base text/ }).first();
  await box.click();
  await page.keyboard.press('End');
  await sleep(300);
  await page.evaluate(`${B}.startKeys()`);
  await page.keyboard.type(text, { delay: delayMs });
  const result = (await page.evaluate(`${B}.stopKeys()`)) as Omit<Keystrokes, 'typed'>;
  return { ...result, typed: text.length };
}
