/**
 * The judging scenario in a real browser: a release published to a distribution, loaded by
 * i18next with i18next-http-backend in Chromium from another origin (CORS), then the text edited,
 * a second release diffed and published, and the page seeing the new text.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { listen } from '../clients/real-server.js';
import { createWorkspace, ok, setupApp } from '../helpers/app.js';
import { seed } from '../modules/exports/helpers.js';
import { launchChromium, ROOT } from './browser.js';

const ctx = await setupApp();
const api = await listen(ctx);

// The app: i18next and its HTTP backend bundled for the browser, served from an origin of its own.
const bundle = await build({
  stdin: {
    contents:
      "import i18next from 'i18next'; import HttpBackend from 'i18next-http-backend'; Object.assign(window, { i18next, HttpBackend });",
    resolveDir: ROOT,
  },
  bundle: true,
  format: 'iife',
  platform: 'browser',
  write: false,
});
const page = `<!doctype html><html><head><title>app</title><script>${bundle.outputFiles[0]?.text}</script></head><body></body></html>`;
const app = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
const appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
const browser = await launchChromium();
afterAll(async () => {
  await browser.close();
  await new Promise((resolve) => app.close(resolve));
});

describe('delivery in Chromium', () => {
  it('i18next-http-backend loads the published release, then the next one after a publish', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    await ok(ws.api.post('releases', { name: 'r1', filter: { statuses: [] } }));
    const { token } = await ok(
      ws.api.post('distributions', { name: 'web', projects: ['web', '_library'], formats: ['json_i18next'] }),
    );
    await ok(ws.api.post('distributions/web/publish', { release: 'r1' }));

    const tab = await browser.newPage();
    await tab.goto(appOrigin);
    const loadPath = `${api.origin}/delivery/${token}/latest/{{lng}}/json_i18next/{{ns}}`;
    const first = await tab.evaluate(async (path) => {
      const w = globalThis as unknown as Record<string, any>;
      w.i18n = w.i18next.createInstance();
      await w.i18n.use(w.HttpBackend).init({
        lng: 'fr',
        fallbackLng: 'en',
        ns: ['web', '_library'],
        defaultNS: 'web',
        interpolation: { escapeValue: false },
        // Revalidate on every load (a 304 while nothing was published) instead of the 30 s max-age.
        backend: { loadPath: path, requestOptions: { cache: 'no-cache' } },
      });
      return [
        w.i18n.t('greet', { name: 'Ann', link: 'copydesk' }),
        w.i18n.t('only-base'),
        w.i18n.t('cart', { ns: '_library', count: 1, name: 'Ann' }),
      ];
    }, loadPath);
    expect(first).toEqual(["Salut Ann, c'est 100% sur copydesk !", 'Only base', '1 item for Ann']);

    await ok(
      ws.api.patch('textItems', { variantId: 'fr', updates: [{ developerId: 'greet', text: 'Bonjour {{name}} !' }] }),
    );
    await ok(ws.api.post('releases', { name: 'r2', filter: { statuses: [] } }));
    const diff = await ok(ws.api.get('releases/diff?from=r1&to=r2'));
    expect(diff.changed.map((c: { id: string; variantId: string }) => `${c.id}/${c.variantId}`)).toEqual(['greet/fr']);
    // Made, not published: the page still gets r1.
    const unpublished = await tab.evaluate(async () => {
      const w = globalThis as unknown as Record<string, any>;
      await w.i18n.reloadResources(['fr', 'en'], ['web']);
      return w.i18n.t('greet', { name: 'Ann', link: 'copydesk' });
    });
    expect(unpublished).toBe("Salut Ann, c'est 100% sur copydesk !");
    await ok(ws.api.post('distributions/web/publish', { release: 'r2' }));
    const after = await tab.evaluate(async () => {
      const w = globalThis as unknown as Record<string, any>;
      await w.i18n.reloadResources(['fr', 'en'], ['web']);
      return w.i18n.t('greet', { name: 'Ann' });
    });
    expect(after).toBe('Bonjour Ann !');
    // The browser fetched across origins, and revalidated with the ETag it kept.
    const delivered = api.exchanges.filter((e) => e.url.includes('/delivery/'));
    expect(delivered.some((e) => e.status === 304)).toBe(true);
    await tab.close();
  });
});
