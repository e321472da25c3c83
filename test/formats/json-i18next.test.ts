import i18next, { type i18n } from 'i18next';
import { describe, expect, it } from 'vitest';
import { jsonI18next } from '../../src/formats/json-i18next.js';
import type { ExportDocument } from '../../src/formats/types.js';
import { document, entry, PLURAL_COUNTS, plurals, TRICKY_TEXTS } from './fixtures.js';
import {
  cart,
  count,
  expectedPlural,
  FORMS,
  fill,
  fruits,
  link,
  name,
  price,
  sizes,
  TRICKY_FORMS,
  zeta,
} from './json-cases.js';

function exported(doc: ExportDocument): Record<string, unknown> {
  const file = jsonI18next(doc);
  expect(file.contentType).toBe('application/json; charset=utf-8');
  return JSON.parse(file.body);
}

/** The file loaded as the only namespace of a fresh i18next instance, as an app does. */
async function load(doc: ExportDocument): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: doc.locale,
    resources: { [doc.locale]: { translation: exported(doc) } },
    interpolation: { escapeValue: false },
  });
  return instance;
}

describe('json_i18next', () => {
  it('keeps every literal text intact', async () => {
    const texts = TRICKY_TEXTS;
    const i18n = await load(document(texts.map((text, index) => entry(`t.${index}`, text))));
    for (const [index, text] of texts.entries()) expect(i18n.t(`t.${index}`)).toBe(text);
  });

  it('has no escape for {{: an unlisted placeholder shows as is unless the app passes its name', async () => {
    const out = exported(document([entry('u', 'a {{unknown}} b')]));
    expect(out.u).toBe('a {{unknown}} b');
    const i18n = await load(document([entry('u', 'a {{unknown}} b')]));
    expect(i18n.t('u')).toBe('a {{unknown}} b');
    expect(i18n.t('u', { unknown: 'X' })).toBe('a X b');
  });

  it.each(Object.entries(PLURAL_COUNTS))('selects the right key for every category of %s', async (locale, counts) => {
    const doc = document([cart()], { locale });
    const out = exported(doc);
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    const expectedKeys = ['cart', ...new Set(['zero', ...categories])].map((key) =>
      key === 'cart' ? key : `cart_${key}`,
    );
    expect(Object.keys(out).sort()).toEqual(expectedKeys.sort());
    expect(out.cart).toBe(FORMS.other);
    const i18n = await load(doc);
    for (const n of counts) expect(i18n.t('cart', { count: n, name: 'Ann' })).toBe(expectedPlural(locale, n));
  });

  it('writes plural keys in CLDR order after the primary text, other copied where missing', () => {
    const record = entry('cart', 'primary {{count}}', { plurals: plurals({ one: 'one', other: 'other' }) });
    expect(Object.entries(exported(document([record], { locale: 'ru' })))).toEqual([
      ['cart', 'primary {{count}}'],
      ['cart_one', 'one'],
      ['cart_few', 'other'],
      ['cart_many', 'other'],
      ['cart_other', 'other'],
    ]);
    const noOther = entry('x', 'primary', { plurals: plurals({ one: 'single' }) });
    expect(exported(document([noOther]))).toEqual({ x: 'primary', x_one: 'single', x_other: 'primary' });
  });

  it('keeps "exactly 0" out of a zero category that holds more numbers (Latvian)', async () => {
    const doc = document([cart({ zero: 'none', one: 'one', other: 'many' })], { locale: 'lv' });
    expect(exported(doc).cart_zero).toBe('many');
    const i18n = await load(doc);
    expect([0, 1, 10, 2].map((n) => i18n.t('cart', { count: n }))).toEqual(['many', 'one', 'many', 'many']);
  });

  it('keeps special characters inside plural forms', async () => {
    const i18n = await load(document([cart(TRICKY_FORMS)]));
    expect(i18n.t('cart', { count: 1 })).toBe(fill(TRICKY_FORMS.one!, { count: 1 }, [count]));
    expect(i18n.t('cart', { count: 2 })).toBe(fill(TRICKY_FORMS.other!, { count: 2 }, [count]));
  });

  it('keeps empty forms and edge whitespace of plural forms', async () => {
    const i18n = await load(document([cart({ zero: '', one: ' \r\n{{count}} ', other: '  ' })]));
    expect([0, 1, 2].map((n) => i18n.t('cart', { count: n }))).toEqual(['', ' \r\n1 ', '  ']);
  });

  it('substitutes variables by name, padded placeholders included', async () => {
    const variables = [name, price, link, fruits, sizes, zeta];
    const text = 'Hi {{name}}, {{ price }} on {{link}}: {{fruits}} / {{sizes}} {{zeta}}';
    const values = { name: 'Ann', price: 9.5, link: 'our site', fruits: 'pear', sizes: 'Small', zeta: 'Z' };
    const i18n = await load(document([entry('v', text, { variables })]));
    expect(i18n.t('v', values)).toBe(fill(text, values, variables));
  });

  it('adds a sorted, deduplicated __variables_used when asked', () => {
    const records = [entry('a', '{{zeta}} {{name}}', { variables: [zeta, name] }), cart()];
    const summary = exported(document(records, { options: { includeVariableSummary: true } }));
    expect(Object.keys(summary).at(-1)).toBe('__variables_used');
    expect(summary.__variables_used).toEqual(['count', 'name', 'zeta']);
    expect(exported(document(records))).not.toHaveProperty('__variables_used');
  });

  it('is the same file in either variable order, since placeholders are named', () => {
    const records = [entry('v', '{{zeta}} {{name}}', { variables: [name, zeta] }), cart()];
    const alphabetical = document(records, { options: { variableOrder: 'alphabetical' } });
    expect(jsonI18next(alphabetical).body).toBe(jsonI18next(document(records)).body);
  });

  it('exports stored markup with richText, and plain records as escaped markup', async () => {
    const rich = entry('r', 'bold {{name}}', { richText: '<strong>bold</strong> {{name}}<br>x', variables: [name] });
    const plain = entry('p', '5 > 3 and 2 < 4 & {{name}}\nnext', { variables: [name] });
    const html = await load(document([rich, plain], { options: { richText: 'html' } }));
    expect(html.t('r', { name: 'Ann' })).toBe('<strong>bold</strong> Ann<br />x');
    expect(html.t('p', { name: 'Ann' })).toBe('5 &gt; 3 and 2 &lt; 4 &amp; Ann<br />next');
    const paragraphs = await load(document([rich], { options: { richText: 'html_paragraphs' } }));
    expect(paragraphs.t('r', { name: 'Ann' })).toBe('<p><strong>bold</strong> Ann</p><p>x</p>');
    expect((await load(document([rich]))).t('r', { name: 'Ann' })).toBe('bold Ann');
  });

  it('carries variant metadata unless excluded', () => {
    const variant = { id: 'es', name: 'Español', description: 'Formal {{tone}}' };
    const withMeta = exported(document([entry('a', 'hola')], { locale: 'es', variant }));
    expect(withMeta).toEqual({ '__variant-name': 'Español', '__variant-description': 'Formal {{tone}}', a: 'hola' });
    const without = exported(document([entry('a', 'hola')], { variant, options: { excludeVariantMetadata: true } }));
    expect(without).toEqual({ a: 'hola' });
  });
});
