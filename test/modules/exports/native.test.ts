import * as plist from 'plist';
import { describe, expect, it } from 'vitest';
import { decodeResources } from '../../formats/aapt2-decoder.js';
import { formatPrintf } from '../../formats/printf.js';
import { decodeStrings } from '../../formats/strings-decoder.js';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { CART_EN, CART_RU, file, KINDS, seed, TRICKY } from './helpers.js';

const ctx = await setupApp();
const ws: Workspace = await createWorkspace(ctx);
await seed(ws);

type Dict = Record<string, any>;
const fill = (text: string, values: Record<string, unknown>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

async function strings(kind: (typeof KINDS)[number], params: Record<string, unknown> = {}) {
  const body = await file(ws, kind, { format: 'ios-strings', ...params });
  const decoded = decodeStrings(body);
  return { body, value: (key: string) => decoded.get(key)?.value as string, keys: [...decoded.keys()] };
}

async function android(kind: (typeof KINDS)[number], params: Record<string, unknown> = {}) {
  const body = await file(ws, kind, { format: 'android', ...params });
  const { resources, leadingComments } = decodeResources(body);
  // A plural record is a <string> (its primary text) and a <plurals> with the same ditto_api_id.
  const byId = new Map(resources.map((r) => [`${r.kind} ${r.attributes.ditto_api_id}`, r]));
  const value = (id: string, quantity = '') =>
    byId.get(`${quantity === '' ? 'string' : 'plurals'} ${id}`)?.values.get(quantity)?.text as string;
  return { body, leadingComments, value, ids: new Set(resources.map((r) => r.attributes.ditto_api_id)) };
}

describe.each(KINDS)('native exports of %s', (kind) => {
  it('ios-strings: every literal text intact, variables numbered by variableOrder', async () => {
    const { body, value } = await strings(kind);
    expect(body).not.toContain('/* Variant');
    for (const [i, text] of TRICKY.entries()) expect(value(`tricky-${i}`)).toBe(text);
    expect(formatPrintf(value('greet'), ['Bo', 'our site'])).toBe("Hi Bo, it's 100% on our site!");
    // zeta was created before alpha: default numbers zeta first, alphabetical alpha first.
    expect(value('order')).toBe('%2$@ then %1$@');
    expect(formatPrintf(value('order'), ['Z', 'A'])).toBe('A then Z');
    const alphabetical = await strings(kind, { variableOrder: 'alphabetical' });
    expect(alphabetical.value('order')).toBe('%1$@ then %2$@');
    expect(formatPrintf(alphabetical.value('order'), ['A', 'Z'])).toBe('A then Z');
    // cart's primary text: name was created before count, and both are string arguments.
    expect(value('cart')).toBe('%2$@ item for %1$@');
    expect(formatPrintf(value('cart'), ['Bo', '1'])).toBe('1 item for Bo');
  });

  it('ios-strings: variant comments always; only the texts with the variant unless fallback=base', async () => {
    const fr = await strings(kind, { variantId: 'fr' });
    const comments = '/* Variant Name: French */\n/* Variant Description: Français "formel" */\n\n';
    expect(fr.body.startsWith(comments)).toBe(true);
    expect(formatPrintf(fr.value('greet'), ['Bo', 'x'])).toBe("Salut Bo, c'est 100% sur x !");
    expect(fr.value('tricky-3')).toBe(`fr ${TRICKY[3]}`);
    expect(fr.keys.sort()).toEqual(['greet', ...TRICKY.map((_, i) => `tricky-${i}`)].sort());
    const filled = await strings(kind, { variantId: 'fr', fallback: 'base' });
    expect(filled.value('only-base')).toBe('Only base');
    expect(filled.value('tricky-3')).toBe(`fr ${TRICKY[3]}`);
    const excluded = await strings(kind, { variantId: 'fr', excludeVariantMetadata: true });
    expect(excluded.body).toBe(fr.body);
  });

  it.each([
    ['en', {}, CART_EN, [0, 1, 2, 5]],
    ['ru', { variantId: 'ru' }, CART_RU, [1, 2, 5, 11, 21, 22, 25]],
  ] as const)(
    'ios-stringsdict (%s): plist with every category, selected by count',
    async (locale, params, forms, counts) => {
      const body = await file(ws, kind, { format: 'ios-stringsdict', ...params });
      const dict = plist.parse(body) as Dict;
      expect(Object.keys(dict)).toEqual(['cart']);
      expect(body).toContain('<!-- Variables: count, name -->');
      if (locale === 'ru')
        expect(body).toContain('<!-- Variant Name: Russian -->\n<!-- Variant Description: -->\n<plist');
      const record = dict.cart as Dict;
      expect(record.NSStringLocalizedFormatKey).toBe('%1$#@count@');
      const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
      for (const category of categories) expect(record.count[category]).toBeTypeOf('string');
      for (const n of counts) {
        const category = new Intl.PluralRules(locale).select(n) as keyof typeof forms;
        expect(formatPrintf(record.count[category], [n, 'Bo'])).toBe(fill(forms[category]!, { count: n, name: 'Bo' }));
      }
    },
  );

  it('android: every literal text intact through the aapt2 rules, variables by variableOrder', async () => {
    const { body, value } = await android(kind);
    expect(body).not.toContain('Variant');
    for (const [i, text] of TRICKY.entries()) expect(value(`tricky-${i}`)).toBe(text);
    expect(formatPrintf(value('greet'), ['Bo', 'our site'])).toBe("Hi Bo, it's 100% on our site!");
    expect(value('order')).toBe('%2$s then %1$s');
    const alphabetical = await android(kind, { variableOrder: 'alphabetical' });
    expect(alphabetical.value('order')).toBe('%1$s then %2$s');
    // name was created before count: default passes (name, count), alphabetical (count, name).
    for (const n of [1, 2, 5]) {
      const category = new Intl.PluralRules('en').select(n) as keyof typeof CART_EN;
      const expected = fill(CART_EN[category], { count: n, name: 'Bo' });
      expect(formatPrintf(value('cart', category), ['Bo', String(n)])).toBe(expected);
      expect(formatPrintf(alphabetical.value('cart', category), [String(n), 'Bo'])).toBe(expected);
    }
    // The plural record keeps its primary text as a <string> of the same name.
    expect(formatPrintf(value('cart'), ['Bo', '1'])).toBe(fill(CART_EN.one, { count: 1, name: 'Bo' }));
  });

  it('android: variant ru plurals per category, variant comments before the root, only ru texts', async () => {
    const ru = await android(kind, { variantId: 'ru' });
    expect(ru.leadingComments).toEqual(['Variant Name: Russian', 'Variant Description:']);
    expect(ru.body).toContain('<!-- Variant Name: Russian -->\n<!-- Variant Description: -->\n<resources');
    for (const n of [1, 2, 5, 21, 22, 25]) {
      const category = new Intl.PluralRules('ru').select(n) as keyof typeof CART_RU;
      expect(formatPrintf(ru.value('cart', category), ['Bo', String(n)])).toBe(
        fill(CART_RU[category]!, { count: n, name: 'Bo' }),
      );
    }
    expect([...ru.ids]).toEqual(['cart']);
    const filled = await android(kind, { variantId: 'ru', fallback: 'base' });
    expect(filled.value('only-base')).toBe('Only base');
    const excluded = await android(kind, { variantId: 'ru', excludeVariantMetadata: true });
    expect(excluded.body).toBe(ru.body);
  });
});
