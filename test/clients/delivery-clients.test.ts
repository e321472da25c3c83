/**
 * The delivery URLs (docs/releases.md#delivery) loaded by the libraries apps load text with, from
 * a listening server: i18next with i18next-http-backend (a namespace per project), FormatJS and
 * vue-i18n with `fetch`, and the mobile recipe (fetch at start, keep the file and its ETag, fall
 * back to the kept file, then to the bundled one).
 */
import i18next from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { describe, expect, it } from 'vitest';
import { decodeResources } from '../formats/aapt2-decoder.js';
import { decodeStrings } from '../formats/strings-decoder.js';
import { createWorkspace, ok, setupApp, type Workspace } from '../helpers/app.js';
import { icuOf, vueI18nOf } from '../modules/exports/consumers.js';
import { seed } from '../modules/exports/helpers.js';
import { listen } from './real-server.js';

const ctx = await setupApp();
const server = await listen(ctx);

async function published(): Promise<{ ws: Workspace; token: string }> {
  const ws = await createWorkspace(ctx);
  await seed(ws);
  await ok(ws.api.post('releases', { name: 'app-1.0', filter: { statuses: [] } }));
  const { token } = await ok(
    ws.api.post('distributions', {
      name: 'apps',
      projects: ['web', '_library'],
      formats: ['json_i18next', 'json_icu', 'json_vue_i18n', 'ios-strings', 'android', 'arb'],
    }),
  );
  await ok(ws.api.post('distributions/apps/publish', { release: 'app-1.0' }));
  return { ws, token };
}

/** A second release with an edited greeting, published: what `latest` apps get next. */
async function republish(ws: Workspace, text: string, name: string): Promise<void> {
  await ok(ws.api.patch('textItems', { variantId: 'fr', updates: [{ developerId: 'greet', text }] }));
  await ok(ws.api.post('releases', { name, filter: { statuses: [] } }));
  const diff = await ok(ws.api.get(`releases/diff?from=app-1.0&to=${name}`));
  expect(diff.changed).toMatchObject([{ kind: 'textItem', id: 'greet', variantId: 'fr', after: { text } }]);
  await ok(ws.api.post('distributions/apps/publish', { release: name }));
}

async function i18nextFrom(token: string) {
  const instance = i18next.createInstance();
  await instance.use(HttpBackend).init({
    lng: 'fr',
    // `en`, the workspace's base language, names the base text in delivery URLs.
    fallbackLng: 'en',
    ns: ['web', '_library'],
    defaultNS: 'web',
    interpolation: { escapeValue: false },
    backend: { loadPath: `${server.origin}/delivery/${token}/latest/{{lng}}/json_i18next/{{ns}}` },
  });
  return instance;
}

describe('apps loading releases from delivery URLs', () => {
  it('i18next-http-backend loads a namespace per project, and the next publish after a reload', async () => {
    const { ws, token } = await published();
    const i18n = await i18nextFrom(token);
    expect(i18n.t('greet', { name: 'Ann', link: 'copydesk' })).toBe("Salut Ann, c'est 100% sur copydesk !");
    // Not translated into French: the base file's text, per key.
    expect(i18n.t('only-base')).toBe('Only base');
    expect(i18n.t('cart', { ns: '_library', count: 2, name: 'Ann' })).toBe('2 items for Ann');
    await republish(ws, 'Bonjour {{name}} !', 'app-1.1');
    await i18n.reloadResources(['fr', 'en'], ['web', '_library']);
    expect(i18n.t('greet', { name: 'Ann' })).toBe('Bonjour Ann !');
  });

  it('FormatJS and vue-i18n format messages fetched from the pinned URLs', async () => {
    const { token } = await published();
    const fetchJson = async (url: string) => {
      const res = await fetch(`${server.origin}${url}`, { headers: { origin: 'https://app.example' } });
      expect(res.status, url).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      return (await res.json()) as Record<string, unknown>;
    };
    const icu = icuOf(await fetchJson(`/delivery/${token}/app-1.0/ru/json_icu/web`), 'ru');
    expect(icu('cart', { count: 3, name: 'Ann' })).toBe('3 товара для Ann');
    const vue = vueI18nOf(await fetchJson(`/delivery/${token}/app-1.0/fr/json_vue_i18n/_library`), 'fr');
    expect(vue('greet', { name: 'Ann', link: 'copydesk' })).toBe("Salut Ann, c'est 100% sur copydesk !");
  });

  it('the mobile recipe: fetch at start, keep file and ETag, fall back to the kept file, then the bundled one', async () => {
    const { ws, token } = await published();
    /** What an app keeps between starts (its cache directory). */
    const kept = new Map<string, { etag: string; body: string }>();
    const bundled = {
      strings: '"greet" = "Bundled";\n',
      android: '<resources><string name="greet">Bundled</string></resources>',
    };
    const statuses: number[] = [];
    async function load(url: string, fallback: string): Promise<string> {
      const cached = kept.get(url);
      try {
        const res = await fetch(url, { headers: cached ? { 'if-none-match': cached.etag } : {} });
        statuses.push(res.status);
        if (res.status === 304 && cached) return cached.body;
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        const body = await res.text();
        kept.set(url, { etag: String(res.headers.get('etag')), body });
        return body;
      } catch {
        return cached?.body ?? fallback;
      }
    }
    const stringsUrl = `${server.origin}/delivery/${token}/latest/fr/ios-strings/web`;
    const androidUrl = `${server.origin}/delivery/${token}/latest/ru/android/web`;
    const greet = (strings: string) => decodeStrings(strings).get('greet')?.value;
    const cart = (xml: string) =>
      decodeResources(xml)
        .resources.find((r) => r.kind === 'plurals' && r.attributes.name === 'cart')
        ?.values.get('few')?.text;

    expect(greet(await load(stringsUrl, bundled.strings))).toBe("Salut %1$@, c'est 100%% sur %2$@ !");
    // Positional in the workspace's variable creation order: `name` before `count`.
    expect(cart(await load(androidUrl, bundled.android))).toBe('%2$s товара для %1$s');
    // The next start revalidates: 304, the kept file.
    expect(greet(await load(stringsUrl, bundled.strings))).toBe("Salut %1$@, c'est 100%% sur %2$@ !");
    expect(statuses).toEqual([200, 200, 304]);
    // A publish reaches the app at its next start.
    await republish(ws, 'Bonjour {{name}} !', 'app-1.1');
    expect(greet(await load(stringsUrl, bundled.strings))).toBe('Bonjour %1$@ !');
    // The server unreachable (a revoked token here): the kept file; nothing kept: the bundled one.
    await ok(ws.api.delete('distributions/apps', undefined));
    expect(greet(await load(stringsUrl, bundled.strings))).toBe('Bonjour %1$@ !');
    expect(await load(`${server.origin}/delivery/${token}/latest/fr/arb/web`, '{"greet":"Bundled"}')).toBe(
      '{"greet":"Bundled"}',
    );
  });
});
