import * as plist from 'plist';
import { describe, expect, it } from 'vitest';
import { iosStringsdict } from '../../src/formats/ios-stringsdict.js';
import type { ExportDocument, ExportEntry } from '../../src/formats/types.js';
import { renderTemplate } from '../../src/text/placeholders.js';
import { document, entry, PLURAL_COUNTS, plurals, TRICKY_TEXTS, variable } from './fixtures.js';
import { argumentPositions, formatPrintf } from './printf.js';

type Dict = Record<string, unknown>;

const count = variable('count', 'number', { example: 3 }, 0);
const name = variable('name', 'string', { example: 'Ann' }, 1);
const price = variable('price', 'number', { example: 2.5 }, 2);

function load(doc: ExportDocument): Dict {
  const file = iosStringsdict(doc);
  expect(file.contentType).toBe('text/xml; charset=utf-8');
  expect(file.body).toContain(
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
  );
  return plist.parse(file.body) as Dict;
}

/** Foundation's choice: `zero` for 0 when present, else the locale's CLDR category, else `other`. */
function render(record: Dict, locale: string, n: number, args: readonly unknown[]): string {
  expect(record.NSStringLocalizedFormatKey).toBe('%1$#@count@');
  const forms = record.count as Dict;
  const category = n === 0 && 'zero' in forms ? 'zero' : new Intl.PluralRules(locale).select(n);
  const form = (forms[category] ?? forms.other) as string;
  return formatPrintf(form, [n, ...args]);
}

/** Structural checks of one record: keys, rule type, `other`, and arguments within the list. */
function checkStructure(record: Dict, argumentCount: number): void {
  expect(Object.keys(record).sort()).toEqual(['NSStringLocalizedFormatKey', 'count']);
  const forms = record.count as Dict;
  expect(forms.NSStringFormatSpecTypeKey).toBe('NSStringPluralRuleType');
  expect(forms.NSStringFormatValueTypeKey).toBe('lld');
  expect(forms.other).toBeTypeOf('string');
  // Argument 1 is the plural count of the format key; the forms use the rest, none skipped.
  const used = new Set([1]);
  for (const [key, form] of Object.entries(forms)) {
    if (key.startsWith('NSString')) continue;
    expect(['zero', 'one', 'two', 'few', 'many', 'other']).toContain(key);
    for (const position of argumentPositions(form as string)) {
      expect(position).toBeGreaterThanOrEqual(1);
      expect(position).toBeLessThanOrEqual(argumentCount);
      used.add(position);
    }
    // Only the plural count is a number: every other argument is a string (`%N$@`).
    for (const match of (form as string).replace(/%%/g, '').matchAll(/%(\d+)\$(\w+|@)/g)) {
      expect(match[2], form as string).toBe(match[1] === '1' ? 'lld' : '@');
    }
  }
  expect([...used].sort((a, b) => a - b)).toEqual(Array.from({ length: argumentCount }, (_, i) => i + 1));
}

const cart = (extra: Partial<ExportEntry> = {}): ExportEntry =>
  entry('cart', '{{count}} items', {
    plurals: plurals({ zero: 'Your cart is empty', one: '{{count}} item', other: '{{count}} items' }),
    variables: [count],
    ...extra,
  });

describe('ios-stringsdict', () => {
  it('holds only the records that have plural forms', () => {
    const dict = load(document([entry('title', 'Hello'), cart()]));
    expect(Object.keys(dict)).toEqual(['cart']);
    checkStructure(dict.cart as Dict, 1);
    expect(Object.keys(load(document([entry('title', 'Hello')])))).toEqual([]);
  });

  it.each([
    ['en', ['zero', 'one', 'other']],
    ['ru', ['zero', 'one', 'few', 'many', 'other']],
    ['ar', ['zero', 'one', 'two', 'few', 'many', 'other']],
  ])('writes one key per category of %s plus zero', (locale, categories) => {
    const forms = (load(document([cart()], { locale })).cart as Dict).count as Dict;
    expect(Object.keys(forms).filter((key) => !key.startsWith('NSString'))).toEqual(categories);
  });

  it('fills a zero category that is not exactly 0 (lv: 0, 10-20, 30, ...) from other', () => {
    const lv = load(document([cart()], { locale: 'lv' })).cart as Dict;
    expect((lv.count as Dict).zero).toBe('%1$lld items');
    expect(render(lv, 'lv', 10, [])).toBe('10 items');
    const ar = load(document([cart()], { locale: 'ar' })).cart as Dict;
    expect(render(ar, 'ar', 0, [])).toBe('Your cart is empty');
  });

  it('leaves zero out when the record has none, and copies other into missing categories', () => {
    const record = entry('n', 'x', {
      plurals: plurals({ one: 'one {{count}}', other: 'other {{count}}' }),
      variables: [count],
    });
    const forms = (load(document([record], { locale: 'ru' })).n as Dict).count as Dict;
    expect(forms).toMatchObject({
      one: 'one %1$lld',
      few: 'other %1$lld',
      many: 'other %1$lld',
      other: 'other %1$lld',
    });
    expect(forms).not.toHaveProperty('zero');
  });

  it('falls back to the primary text when the record has no other form', () => {
    const record = entry('n', 'primary {{count}}', { plurals: plurals({ one: 'one' }), variables: [count] });
    expect(((load(document([record])).n as Dict).count as Dict).other).toBe('primary %1$lld');
  });

  for (const [locale, counts] of Object.entries(PLURAL_COUNTS)) {
    it(`selects the form for every category of ${locale}`, () => {
      const forms = {
        zero: 'none',
        one: '{{count}} one',
        two: '{{count}} two',
        few: '{{count}} few',
        many: '{{count}} many',
        other: '{{count}} other',
      };
      const record = entry('c', '{{count}}', { plurals: plurals(forms), variables: [count] });
      const dict = load(document([record], { locale }));
      const rules = new Intl.PluralRules(locale);
      for (const n of counts) {
        const expected = n === 0 ? 'none' : `${n} ${rules.select(n)}`;
        expect(render(dict.c as Dict, locale, n, [])).toBe(expected);
      }
    });
  }

  it('numbers the plural count 1 (%1$lld) and the variables from 2 as strings, listed in a Variables comment', () => {
    const record = cart({
      plurals: plurals({
        one: '{{name}} has {{count}} item at {{price}}',
        other: '{{name}} has {{count}} items, 5% off',
      }),
      variables: [price, name, count],
    });
    const file = iosStringsdict(document([record]));
    expect(file.body).toContain('\t<!-- Variables: count, name, price -->\n\t<key>cart</key>');
    const dict = plist.parse(file.body) as Dict;
    checkStructure(dict.cart as Dict, 3);
    expect(((dict.cart as Dict).count as Dict).one).toBe('%2$@ has %1$lld item at %3$@');
    expect(render(dict.cart as Dict, 'en', 1, ['Ann', '2.5'])).toBe('Ann has 1 item at 2.5');
    expect(render(dict.cart as Dict, 'en', 7, ['Ann', '2.5'])).toBe('Ann has 7 items, 5% off');
  });

  it.each([
    ['default', ['B', 'A'], 'count, b, a'],
    ['alphabetical', ['A', 'B'], 'count, a, b'],
  ] as const)('orders the arguments after the count by variableOrder=%s', (variableOrder, args, listed) => {
    const b = variable('b', 'string', { example: 'B' }, 0);
    const a = variable('a', 'string', { example: 'A' }, 1);
    const record = entry('t', 'x', {
      plurals: plurals({ one: '{{a}}{{b}} one', other: '{{a}}{{b}} {{count}}' }),
      variables: [a, b, count],
    });
    const file = iosStringsdict(document([record], { options: { variableOrder } }));
    expect(file.body).toContain(`<!-- Variables: ${listed} -->`);
    const dict = plist.parse(file.body) as Dict;
    checkStructure(dict.t as Dict, 3);
    expect(render(dict.t as Dict, 'en', 4, args)).toBe('AB 4');
  });

  it('keeps the count as an unnamed argument 1 when no number variable is named count', () => {
    const label = variable('count', 'string', { example: 'many' }, 9);
    const record = entry('t', 'x', { plurals: plurals({ other: '{{count}} and {{name}}' }), variables: [label, name] });
    const file = iosStringsdict(document([record]));
    expect(file.body).toContain('<!-- Variables: name, count -->');
    const dict = plist.parse(file.body) as Dict;
    checkStructure(dict.t as Dict, 3);
    expect(render(dict.t as Dict, 'en', 5, ['Ann', 'lots'])).toBe('lots and Ann');
  });

  it.each(TRICKY_TEXTS)('keeps %j intact in every form', (literal) => {
    const record = entry('t', 'x', {
      plurals: plurals({ one: `${literal}{{count}}`, other: `${literal}|{{name}}` }),
      variables: [count, name],
    });
    const dict = load(document([record]));
    const expected = (form: string, n: number) =>
      renderTemplate(form, new Set(['count', 'name']), (v) => (v === 'count' ? String(n) : 'Bo'));
    expect(render(dict.t as Dict, 'en', 1, ['Bo'])).toBe(expected(`${literal}{{count}}`, 1));
    expect(render(dict.t as Dict, 'en', 3, ['Bo'])).toBe(expected(`${literal}|{{name}}`, 3));
  });

  it('exports plain text when rich text is asked for', () => {
    const record = entry('r', 'x', {
      plurals: [{ form: 'other', text: 'Bold {{count}}', richText: '<strong>Bold</strong> {{count}}' }],
      variables: [count],
    });
    const dict = load(document([record], { options: { richText: 'html' } }));
    expect(render(dict.r as Dict, 'en', 2, [])).toBe('Bold 2');
  });

  it('numbers only the variables the forms use, so no position is skipped', () => {
    const record = entry('t', '{{price}} for {{name}}', {
      plurals: plurals({ one: '{{count}} for {{name}}', other: '{{count}} each for {{name}}' }),
      variables: [count, name, price],
    });
    const file = iosStringsdict(document([record]));
    expect(file.body).toContain('<!-- Variables: count, name -->');
    const dict = plist.parse(file.body) as Dict;
    checkStructure(dict.t as Dict, 2);
    expect(render(dict.t as Dict, 'en', 3, ['Ann'])).toBe('3 each for Ann');
  });

  it('writes no Variables comment for a record without variables', () => {
    const record = entry('bare', 'x', { plurals: plurals({ one: 'One left', other: 'Some left' }) });
    const file = iosStringsdict(document([record]));
    expect(file.body).not.toContain('Variables');
    expect(file.body).toContain('<dict>\n\t<key>bare</key>');
    checkStructure((plist.parse(file.body) as Dict).bare as Dict, 1);
  });

  describe('variant comments and notes', () => {
    const variant = { id: 'de', name: 'German -- formal', description: 'Sie-Form' };
    it('puts the variant comments before the root element, and notes above the entry', () => {
      const file = iosStringsdict(document([cart({ notes: 'Cart badge --> count' })], { variant, locale: 'de' }));
      expect(file.body).toContain(
        'PropertyList-1.0.dtd">\n<!-- Variant Name: German - - formal -->\n<!-- Variant Description: Sie-Form -->\n<plist version="1.0">\n',
      );
      expect(file.body).toContain(
        '\t<!-- Cart badge - -&gt; count -->\n\t<!-- Variables: count -->\n\t<key>cart</key>',
      );
      checkStructure((plist.parse(file.body) as Dict).cart as Dict, 1);
    });
    it('writes both lines when the description is empty, also with excludeVariantMetadata', () => {
      const empty = { ...variant, name: 'German', description: '' };
      for (const excludeVariantMetadata of [false, true]) {
        const file = iosStringsdict(document([cart()], { variant: empty, options: { excludeVariantMetadata } }));
        expect(file.body).toContain('<!-- Variant Name: German -->\n<!-- Variant Description: -->\n<plist');
        checkStructure((plist.parse(file.body) as Dict).cart as Dict, 1);
      }
      expect(iosStringsdict(document([cart()])).body).not.toContain('Variant');
    });
  });
});
