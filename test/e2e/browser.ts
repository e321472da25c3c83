import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page, type Request } from 'playwright-core';
import { expect } from 'vitest';
import { onPostgres, scratchPostgres, tempSqlitePath } from '../helpers/database.js';

/**
 * What the end-to-end suites share besides the server: a database, Chromium, axe-core.
 *
 * Chromium's headless shell where it is installed (Debian's `chromium-headless-shell`, which
 * `.ci/run` installs): the same Blink and V8 without the full browser around them, so the same
 * pages and axe-core results on about a third less CPU than the full browser in headless mode.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
export const ROOT = resolve(import.meta.dirname, '../..');
export const SHOTS = resolve(ROOT, 'test-results');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'));

/**
 * What every browser test needs before it starts, each named with how to get it: the built web
 * app (web/dist) and Chromium. Makes test-results/ for the screenshots.
 */
export function requireBrowserAndApp(): void {
  if (!existsSync(resolve(ROOT, 'web/dist/index.html')))
    throw new Error('web/dist is missing: run npm run build --prefix web');
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  mkdirSync(SHOTS, { recursive: true });
}

/** A database of the server's own: a temporary SQLite file, or on the PostgreSQL run a scratch database. */
export async function scratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!onPostgres()) return { url: tempSqlitePath('copydesk-e2e-'), drop: async () => {} };
  return scratchPostgres();
}

/** The worker's Chromium, launched by the first browser test file it runs. */
let shared: Promise<Browser> | null = null;

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
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
}

/**
 * Chromium for one test file. The files a worker runs share one browser (a launch and its GPU,
 * network and utility processes cost about a second of CPU, fifteen times a run), each in browser
 * contexts of its own, which share no cookies, storage or cache: the browser answered here closes
 * the contexts the file made instead of closing Chromium, which ends with the worker's process
 * (Playwright kills the browsers it launched when the process exits). A browser that crashed or
 * was closed is launched again for the next file.
 */
export async function launchChromium(): Promise<Browser> {
  shared ??= launch().then((browser) => {
    browser.once('disconnected', () => (shared = null));
    return browser;
  });
  const browser = await shared;
  const mine = new Set<BrowserContext>();
  const track = (context: BrowserContext) => {
    mine.add(context);
    context.once('close', () => mine.delete(context));
    return context;
  };
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'close')
        return async () => {
          await Promise.all([...mine].map((context) => context.close().catch(() => undefined)));
        };
      if (property === 'newContext')
        return async (...options: Parameters<Browser['newContext']>) => track(await target.newContext(...options));
      if (property === 'newPage')
        return async (...options: Parameters<Browser['newPage']>) => {
          const page = await target.newPage(...options);
          track(page.context());
          return page;
        };
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Whether the browser tests write a screenshot of each state they check to test-results/: with
 * `SCREENSHOTS=1`, for looking at the pages. Without it only a failed accessibility check writes
 * its page's: a full-page screenshot costs about a quarter of a second of Chromium's CPU, a
 * hundred times a run, for files nobody opens in CI (docs/testing.md).
 */
export const SCREENSHOTS = process.env.SCREENSHOTS === '1';

/** A screenshot of a page (the whole page) or of a part of one, under `name` in test-results/. */
export async function screenshot(
  target: Page | Locator,
  name: string,
  { always = false, fullPage = false }: { always?: boolean; fullPage?: boolean } = {},
): Promise<void> {
  if (!SCREENSHOTS && !always) return;
  const path = resolve(SHOTS, `${name}${onPostgres() ? '-postgres' : ''}.png`);
  await ('goto' in target ? target.screenshot({ path, fullPage }) : target.screenshot({ path }));
}

/**
 * axe-core over HTTP, from a server of the worker's own on a port of its own: a page loads it as a
 * script from a URL, which Chromium keeps in the browser context's HTTP cache for the context's
 * later documents. Handed over as text instead, each injection sent its half a megabyte through
 * the DevTools protocol for the renderer to decode again (fifteen injections in the organising
 * file took 1.9 s of the renderer's main thread).
 */
let axeServer: Promise<string> | null = null;

function axeUrl(): Promise<string> {
  axeServer ??= new Promise<string>((done, fail) => {
    const server = createServer((req, res) => {
      if (req.url !== '/axe.min.js') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=86400, immutable',
        'content-length': axeSource.length,
      });
      res.end(axeSource);
    });
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      // The worker's process ends with its files; the server must not hold it open.
      server.unref();
      const address = server.address();
      if (!address || typeof address === 'string') fail(new Error('the axe-core server has no port'));
      else done(`http://127.0.0.1:${address.port}/axe.min.js`);
    });
  });
  return axeServer;
}

/**
 * Injects axe-core into the page's document unless it is there already: the app's own navigations
 * keep the document, and a second injection would run its half a megabyte again.
 */
export async function withAxe(page: Page): Promise<void> {
  if ((await page.evaluate(() => typeof (globalThis as any).axe)) === 'undefined')
    await page.addScriptTag({ url: await axeUrl() });
}

/** axe-core over the page: no violation at all, moderate and minor included; a screenshot of it (see SCREENSHOTS). */
export async function checkAccessibility(page: Page, name: string): Promise<void> {
  await screenshot(page, name, { fullPage: true });
  await withAxe(page);
  const violations = await page.evaluate(async (): Promise<string[]> => {
    // Runs in the page, where axe-core was just injected.
    const page = globalThis as any;
    const result = await page.axe.run(page.document, { runOnly: ['wcag2a', 'wcag2aa', 'best-practice'] });
    return result.violations.map(
      (v: { id: string; nodes: { target: string[] }[] }) =>
        `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  });
  if (violations.length > 0 && !SCREENSHOTS) await screenshot(page, name, { fullPage: true, always: true });
  expect(violations, `${name}: ${violations.join('; ')}`).toEqual([]);
}

/**
 * The page's requests in flight, its event stream aside, counted from now until `stop`; `quiet`
 * resolves once none has been in flight for `quietMs`. Playwright's `networkidle` waits for 500 ms
 * of quiet, which a page of this app reaches long before: its reads answer in milliseconds.
 */
export function requestsOf(page: Page): { quiet: (quietMs?: number) => Promise<void>; stop: () => void } {
  const inFlight = new Set<Request>();
  const started = (request: Request) => {
    if (request.resourceType() !== 'eventsource') inFlight.add(request);
  };
  const done = (request: Request) => inFlight.delete(request);
  page.on('request', started);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    async quiet(quietMs = 100) {
      let since = Date.now();
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
        if (inFlight.size > 0) since = Date.now();
        else if (Date.now() - since >= quietMs) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`requests still in flight after 10 s: ${[...inFlight].map((r) => r.url()).join(', ')}`);
    },
    stop() {
      page.off('request', started);
      page.off('requestfinished', done);
      page.off('requestfailed', done);
    },
  };
}
