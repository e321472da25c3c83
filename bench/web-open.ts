/**
 * The web app with a project of 1,000 text items (plural forms and a variant on a third): time
 * from navigation to the list showing its rows, signed in, in headless Chromium; median of 10
 * loads. Target: under a second. Also prints the gzipped size of the JavaScript sent.
 * `npm run build && npm run build:web && npm run bench:web`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { root, startBenchServer, stop } from './lib.js';

const ITEMS = 1_000;
const RUNS = 10;
const { port, server, call } = await startBenchServer('bench web');
await call('POST', 'variants', { variants: [{ name: 'French', developerId: 'fr' }] });
await call('POST', 'projects', { projects: [{ name: 'Big', developerId: 'big' }] });
const textItems = Array.from({ length: ITEMS }, (_, n) => ({
  developerId: `item-${n}`,
  text: `Text number ${n} of the big project, long enough to be a real sentence`,
  ...(n % 3 === 0 && {
    plurals: [
      { form: 'one', text: `Text number ${n} of the big project, long enough to be a real sentence` },
      { form: 'other', text: `Texts ${n}` },
    ],
    variants: [{ variantId: 'fr', text: `Texte ${n}` }],
  }),
}));
await call('POST', 'textItems', { projectId: 'big', textItems });
const users = await call('POST', 'users', { email: 'bench-writer@example.com', role: 'editor' });
const { passwordLink } = (await users.json()) as { passwordLink: string };
const token = new URL(passwordLink).hash.slice('#token='.length);
const base = `http://127.0.0.1:${port}`;
await fetch(`${base}/v2/session/password`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ token, password: 'bench writer password' }),
});

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
const context = await browser.newContext({ baseURL: base });
const page = await context.newPage();
await page.goto('/');
await page.getByLabel('Email').fill('bench-writer@example.com');
await page.getByLabel('Password').fill('bench writer password');
await page.getByRole('button', { name: 'Sign in' }).click();
await page.getByRole('option').first().waitFor();

const times: number[] = [];
for (let run = 0; run < RUNS; run += 1) {
  const t0 = performance.now();
  await page.goto('/');
  await page
    .getByRole('option', { name: /item-999\b|Text number 0 / })
    .first()
    .waitFor();
  times.push(performance.now() - t0);
}
const rows = await page.getByRole('option').count();
times.sort((a, b) => a - b);
console.log(
  `open a project of ${ITEMS} items: median ${times[RUNS / 2]?.toFixed(0)} ms, worst ${times.at(-1)?.toFixed(0)} ms (${rows} rows in the page)`,
);
await browser.close();
await stop(server);

const assets = join(root, 'web/dist/assets');
const js = readdirSync(assets).filter((f) => f.endsWith('.js'));
const gzipped = js.reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f))).length, 0);
console.log(`JavaScript sent: ${(gzipped / 1024).toFixed(0)} KB gzipped`);
