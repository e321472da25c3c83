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
  return { body, value: (key: string) => decoded.get(key)!.value };
}

async function android(kind: (typeof KINDS)[number], params: Record<string, unknown> = {}) {
  const body = await file(ws, kind, { format: 'android', ...params });
  const { resources, comments } = decodeResources(body);
  const byId = new Map(resources.map((r) => [r.attributes.developer_id, r]));
  return { body, comments, value: (id: string, quantity = '') => byId.get(id)!.values.get(quantity)!.text };
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
    expect(formatPrintf(value('cart'), [1, 'Bo'])).toBe('1 item for Bo');
  });

  it('ios-strings: variant metadata as comments, on and off; base text for texts without the variant', async () => {
    const fr = await strings(kind, { variantId: 'fr' });
    expect(fr.body.startsWith('/* Variant: French */\n/* Variant description: Français "formel" */\n')).toBe(true);
    expect(formatPrintf(fr.value('greet'), ['Bo', 'x'])).toBe("Salut Bo, c'est 100% sur x !");
    expect(fr.value('tricky-3')).toBe(`fr ${TRICKY[3]}`);
    expect(fr.value('only-base')).toBe('Only base');
    const bare = await strings(kind, { variantId: 'fr', excludeVariantMetadata: true });
    expect(bare.body).not.toContain('Variant');
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
      expect(formatPrintf(value('cart', category), ['Bo', n])).toBe(expected);
      expect(formatPrintf(alphabetical.value('cart', category), [n, 'Bo'])).toBe(expected);
    }
  });

  it('android: variant ru plurals per category with metadata comments, and without them', async () => {
    const ru = await android(kind, { variantId: 'ru' });
    expect(ru.body).toContain('<!-- Variant: Russian -->');
    for (const n of [1, 2, 5, 21, 22, 25]) {
      const category = new Intl.PluralRules('ru').select(n) as keyof typeof CART_RU;
      expect(formatPrintf(ru.value('cart', category), ['Bo', n])).toBe(
        fill(CART_RU[category]!, { count: n, name: 'Bo' }),
      );
    }
    expect(ru.value('only-base')).toBe('Only base');
    const bare = await android(kind, { variantId: 'ru', excludeVariantMetadata: true });
    expect(bare.body).not.toContain('Variant');
  });
});
