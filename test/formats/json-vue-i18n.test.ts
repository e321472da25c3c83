import {
  type CoreContext,
  compile,
  createCoreContext,
  type LocaleMessage,
  registerMessageCompiler,
  translate,
} from '@intlify/core-base';
import { baseCompile, type CompileError } from '@intlify/message-compiler';
import { describe, expect, it } from 'vitest';
import { jsonVueI18n } from '../../src/formats/json-vue-i18n.js';
import type { ExportDocument } from '../../src/formats/types.js';
import { document, entry, PLURAL_COUNTS, plurals, TRICKY_TEXTS } from './fixtures.js';
import {
  cart,
  count,
  expectedPlural,
  fill,
  fruits,
  link,
  name,
  price,
  randomTexts,
  sizes,
  TRICKY_FORMS,
  zeta,
} from './json-cases.js';

import { cldrPluralRule } from './vue-plural-rule.js';

registerMessageCompiler(compile);

function exported(doc: ExportDocument): Record<string, unknown> {
  const file = jsonVueI18n(doc);
  expect(file.contentType).toBe('application/json; charset=utf-8');
  const out = JSON.parse(file.body) as Record<string, unknown>;
  for (const [key, message] of Object.entries(out)) {
    if (key.startsWith('__')) continue;
    const errors: CompileError[] = [];
    baseCompile(message as string, { onError: (error) => errors.push(error) });
    expect(errors, `${key}: ${message}`).toEqual([]);
  }
  return out;
}

/** The file as an app's messages for its locale; `rule` adds the documented pluralRules entry. */
function load(doc: ExportDocument, rule = true): CoreContext<string> {
  return createCoreContext({
    locale: doc.locale,
    messages: { [doc.locale]: exported(doc) as LocaleMessage<string> },
    pluralRules: rule ? { [doc.locale]: cldrPluralRule(doc.locale) } : {},
    missingWarn: false,
    fallbackWarn: false,
    warnHtmlMessage: false,
  }) as CoreContext<string>;
}

const t = (context: CoreContext<string>, key: string, ...args: unknown[]) =>
  (translate as (...all: unknown[]) => unknown)(context, key, ...args);

describe('json_vue_i18n', () => {
  it('keeps every literal text intact, { } @ $ | and \\ as literal interpolations', () => {
    const texts = [
      ...TRICKY_TEXTS,
      'a\\@b \\{c\\} \\\\ \\|',
      ' edge | spaces ',
      "it's {'@'}",
      'a\u2028b\u2029c\rd',
      ' ',
      '\n',
    ];
    const context = load(document(texts.map((text, index) => entry(`t.${index}`, text))));
    for (const [index, text] of texts.entries()) expect(t(context, `t.${index}`)).toBe(text);
    const out = exported(document([entry('a', 'mail@x | {y} $z \\')]));
    expect(out.a).toBe("mail{'@'}x {'|'} {'{'}y{'}'} {'$'}z {'\\\\'}");
  });

  it('round-trips random runs of syntax characters and whitespace, alone and as plural forms', () => {
    const texts = randomTexts("{}@$|\\' \n\r\u2028%a", 400);
    const context = load(document(texts.map((text, index) => entry(`r${index}`, text))));
    const forms = load(document(texts.map((text, index) => cart({ one: text, other: ` ${text}|` }, `p${index}`))));
    for (const [index, text] of texts.entries()) {
      expect(t(context, `r${index}`)).toBe(text);
      expect(t(forms, `p${index}`, 1)).toBe(text);
      expect(t(forms, `p${index}`, 2)).toBe(` ${text}|`);
    }
  });

  it.each(Object.entries(PLURAL_COUNTS))('selects the right form for every category of %s', (locale, counts) => {
    const doc = document([cart()], { locale });
    const message = exported(doc).cart as string;
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    const exactZeroExtra = locale === 'ar' ? 0 : 1;
    expect(message.split(' | ')).toHaveLength(categories.length + exactZeroExtra);
    const context = load(doc);
    for (const n of counts) expect(t(context, 'cart', n, { named: { name: 'Ann' } })).toBe(expectedPlural(locale, n));
  });

  it('writes one | other and zero | one | other, which the default rule reads right for en', () => {
    const two = cart({ one: '{{count}} item', other: '{{count}} items' });
    const three = cart({ zero: 'none', one: '{{count}} item', other: '{{count}} items' }, 'three');
    const doc = document([two, three]);
    const out = exported(doc);
    expect(out.cart).toBe('{count} item | {count} items');
    expect(out.three).toBe('none | {count} item | {count} items');
    const context = load(doc, false);
    expect([0, 1, 2].map((n) => t(context, 'cart', n))).toEqual(['0 items', '1 item', '2 items']);
    expect([0, 1, 2].map((n) => t(context, 'three', n))).toEqual(['none', '1 item', '2 items']);
  });

  it('puts the zero form before the only category of a locale without plurals (ja)', () => {
    const doc = document([cart({ zero: 'none', other: '{{count}} ko' })], { locale: 'ja' });
    expect(exported(doc).cart).toBe('none | {count} ko');
    const context = load(doc);
    expect([0, 1, 7].map((n) => t(context, 'cart', n))).toEqual(['none', '1 ko', '7 ko']);
    expect(exported(document([cart({ other: '{{count}} ko' })], { locale: 'ja' })).cart).toBe('{count} ko');
  });

  it('copies other into missing categories, and other falls back to the primary text', () => {
    const record = entry('x', 'primary', { plurals: plurals({ one: 'one' }) });
    expect(exported(document([record], { locale: 'ru' })).x).toBe('one | primary | primary | primary');
  });

  it('keeps "exactly 0" apart from a zero category that holds more numbers (Latvian)', () => {
    const doc = document([cart({ zero: 'none', one: 'one', other: 'many' })], { locale: 'lv' });
    expect(exported(doc).cart).toBe('none | many | one | many');
    const context = load(doc);
    expect([0, 1, 10, 2].map((n) => t(context, 'cart', n))).toEqual(['none', 'one', 'many', 'many']);
  });

  it('keeps special characters and edge whitespace inside plural forms', () => {
    const doc = document([cart(TRICKY_FORMS)]);
    const context = load(doc);
    expect(t(context, 'cart', 1)).toBe(fill(TRICKY_FORMS.one!, { count: 1 }, [count]));
    expect(t(context, 'cart', 2)).toBe(fill(TRICKY_FORMS.other!, { count: 2 }, [count]));
    const edges = { zero: '', one: ' \r\n{{count}}\r\n ', other: '  ' };
    const edgy = load(document([cart(edges)]));
    expect([0, 1, 2].map((n) => t(edgy, 'cart', n))).toEqual(['', ' \r\n1\r\n ', '  ']);
  });

  it('substitutes variables by name and leaves unknown placeholders literal', () => {
    const variables = [name, price, link, fruits, sizes, zeta];
    const text = 'Hi {{name}}, {{ price }} on {{link}}: {{fruits}} / {{sizes}} {{zeta}} {{unknown}}';
    const values = { name: 'Ann', price: 9.5, link: 'our site', fruits: 'pear', sizes: 'Small', zeta: 'Z' };
    const doc = document([entry('v', text, { variables })]);
    expect(exported(doc).v).toBe("Hi {name}, {price} on {link}: {fruits} / {sizes} {zeta} {'{'}{'{'}unknown{'}'}{'}'}");
    expect(t(load(doc), 'v', values)).toBe(fill(text, values, variables));
  });

  it('adds a sorted, deduplicated __variables_used when asked', () => {
    const records = [entry('a', '{{zeta}} {{name}}', { variables: [zeta, name] }), cart()];
    const summary = exported(document(records, { options: { includeVariableSummary: true } }));
    expect(summary.__variables_used).toEqual(['count', 'name', 'zeta']);
    expect(exported(document(records))).not.toHaveProperty('__variables_used');
  });

  it('is the same file in either variable order, since placeholders are named', () => {
    const records = [entry('v', '{{zeta}} {{name}}', { variables: [name, zeta] }), cart()];
    const alphabetical = document(records, { options: { variableOrder: 'alphabetical' } });
    expect(jsonVueI18n(alphabetical).body).toBe(jsonVueI18n(document(records)).body);
  });

  it('exports stored markup with richText', () => {
    const rich = entry('r', 'bold {{name}}', { richText: '<strong>bold</strong> {{name}}<br>a@b', variables: [name] });
    const html = load(document([rich], { options: { richText: 'html' } }));
    expect(t(html, 'r', { name: 'Ann' })).toBe('<strong>bold</strong> Ann<br />a@b');
    const paragraphs = load(document([rich], { options: { richText: 'html_paragraphs' } }));
    expect(t(paragraphs, 'r', { name: 'Ann' })).toBe('<p><strong>bold</strong> Ann</p><p>a@b</p>');
    expect(t(load(document([rich])), 'r', { name: 'Ann' })).toBe('bold Ann');
    const plain = entry('p', '5 > 3 and 2 < 4 & {{name}} @x\nnext', { variables: [name] });
    const escaped = load(document([plain], { options: { richText: 'html' } }));
    expect(t(escaped, 'p', { name: 'Ann' })).toBe('5 &gt; 3 and 2 &lt; 4 &amp; Ann @x<br />next');
  });

  it('carries variant metadata unless excluded', () => {
    const variant = { id: 'es', name: 'Español', description: 'Formal' };
    const withMeta = exported(document([entry('a', 'hola')], { locale: 'es', variant }));
    expect(withMeta).toEqual({ '__variant-name': 'Español', '__variant-description': 'Formal', a: 'hola' });
    const without = exported(document([entry('a', 'hola')], { variant, options: { excludeVariantMetadata: true } }));
    expect(without).toEqual({ a: 'hola' });
  });
});
