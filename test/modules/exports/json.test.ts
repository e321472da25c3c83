import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { i18nextOf, icuOf, type Render, vueI18nOf } from './consumers.js';
import { CART_EN, CART_RU, file, KINDS, seed, TRICKY } from './helpers.js';

const ctx = await setupApp();
const ws: Workspace = await createWorkspace(ctx);
await seed(ws);

type Loader = (json: Record<string, unknown>, locale: string) => Render | Promise<Render>;
const FORMATS: Record<string, Loader> = {
  json_i18next: i18nextOf,
  json_vue_i18n: vueI18nOf,
  json_icu: icuOf,
  arb: icuOf,
};

const fill = (text: string, values: Record<string, unknown>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

/** The developer IDs of the records in a JSON export (no metadata, no plural or ARB keys). */
const messageKeys = (json: Record<string, unknown>) =>
  Object.keys(json)
    .filter((key) => !key.startsWith('@') && !key.startsWith('__') && !/_(zero|one|two|few|many|other)$/.test(key))
    .sort();

async function load(kind: (typeof KINDS)[number], format: string, params: Record<string, unknown> = {}) {
  const json = JSON.parse(await file(ws, kind, { format, ...params })) as Record<string, unknown>;
  const locale = params.variantId === 'ru' ? 'ru' : params.variantId === 'fr' ? 'fr' : 'en';
  return { json, render: await FORMATS[format]!(json, locale) };
}

describe.each(KINDS)('JSON exports of %s', (kind) => {
  describe.each(Object.keys(FORMATS))('%s', (format) => {
    it('renders every literal text intact, variables by name and en plurals by count', async () => {
      const { render } = await load(kind, format);
      for (const [i, text] of TRICKY.entries()) expect(render(`tricky-${i}`)).toBe(text);
      expect(render('greet', { name: 'Bo', link: 'our site' })).toBe("Hi Bo, it's 100% on our site!");
      for (const n of [0, 1, 2, 5]) {
        const form = new Intl.PluralRules('en').select(n) as keyof typeof CART_EN;
        expect(render('cart', { count: n, name: 'Bo' })).toBe(fill(CART_EN[form], { count: n, name: 'Bo' }));
      }
    });

    it('exports variant ru with its locale: every ru category, only the texts that have a ru value', async () => {
      const { json, render } = await load(kind, format, { variantId: 'ru' });
      for (const n of [1, 2, 5, 11, 21, 22, 25]) {
        const form = new Intl.PluralRules('ru').select(n) as keyof typeof CART_RU;
        expect(render('cart', { count: n, name: 'Bo' })).toBe(fill(CART_RU[form], { count: n, name: 'Bo' }));
      }
      expect(messageKeys(json)).toEqual(['cart']);
      if (format === 'arb') expect(json['@@locale']).toBe('ru');
    });

    it('fills the texts without a ru value with base text when fallback=base', async () => {
      const { json, render } = await load(kind, format, { variantId: 'ru', fallback: 'base' });
      expect(render('cart', { count: 5, name: 'Bo' })).toBe(fill(CART_RU.many, { count: 5, name: 'Bo' }));
      expect(render('only-base')).toBe('Only base');
      for (const [i, text] of TRICKY.entries()) expect(render(`tricky-${i}`)).toBe(text);
      expect(messageKeys(json)).toEqual(messageKeys((await load(kind, format)).json));
    });

    it('exports variant fr (alias `variant`) with and without metadata', async () => {
      const withMeta = await load(kind, format, { variant: 'fr' });
      expect(withMeta.render('greet', { name: 'Bo', link: 'x' })).toBe("Salut Bo, c'est 100% sur x !");
      for (const [i, text] of TRICKY.entries()) expect(withMeta.render(`tricky-${i}`)).toBe(`fr ${text}`);
      expect(messageKeys(withMeta.json)).toEqual(['greet', ...TRICKY.map((_, i) => `tricky-${i}`)].sort());
      const without = await load(kind, format, { variantId: 'fr', excludeVariantMetadata: true });
      if (format === 'arb') {
        expect(withMeta.json['@@locale']).toBe('fr');
        return;
      }
      expect(withMeta.json['__variant-name']).toBe('French');
      expect(withMeta.json['__variant-description']).toBe('Français "formel"');
      expect(without.json).not.toHaveProperty('__variant-name');
      expect(without.json).not.toHaveProperty('__variant-description');
      const base = await load(kind, format);
      expect(base.json).not.toHaveProperty('__variant-name');
    });

    it('adds __variables_used only when asked, to i18next and vue-i18n', async () => {
      const { json } = await load(kind, format, { includeVariableSummary: true });
      if (format === 'json_i18next' || format === 'json_vue_i18n') {
        expect(json.__variables_used).toEqual(['alpha', 'count', 'link', 'name', 'zeta']);
      } else expect(json).not.toHaveProperty('__variables_used');
      expect((await load(kind, format)).json).not.toHaveProperty('__variables_used');
    });

    it('exports rich text as markup with richText=html and html_paragraphs, plain text without', async () => {
      expect((await load(kind, format)).render('rich')).toBe('Bold and it');
      expect((await load(kind, format, { richText: 'html' })).render('rich')).toBe(
        '<strong>Bold</strong> and <em>it</em>',
      );
      expect((await load(kind, format, { richText: 'html_paragraphs' })).render('rich')).toBe(
        '<p><strong>Bold</strong> and <em>it</em></p>',
      );
    });
  });
});
