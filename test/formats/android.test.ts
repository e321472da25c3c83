import asr2js from 'android-string-resource/asr2js';
import { describe, expect, it } from 'vitest';
import { android } from '../../src/formats/android.js';
import type { ExportDocument } from '../../src/formats/types.js';
import { renderTemplate } from '../../src/text/placeholders.js';
import { type DecodedResource, decodeResources, decodeValue } from './aapt2-decoder.js';
import { document, entry, PLURAL_COUNTS, plurals, TRICKY_TEXTS, variable } from './fixtures.js';
import { formatPrintf } from './printf.js';

const name = variable('name', 'string', { example: 'Ann "A" & <B>' }, 0);
const total = variable('total', 'number', { example: 12 }, 1);
const price = variable('price', 'number', { example: 9.5 }, 2);
const count = variable('count', 'number', { example: 3 }, 3);
const link = variable('link', 'hyperlink', { text: 'our site', url: 'https://example.com' }, 4);
const size = variable('size', 'map', { s: 'small', l: 'large' }, 5);

function load(doc: ExportDocument): DecodedResource[] {
  const file = android(doc);
  expect(file.contentType).toBe('text/xml; charset=utf-8');
  expect(file.body).toContain('<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">');
  return decodeResources(file.body).resources;
}

const valueIn = (resource: DecodedResource, quantity = '') => resource.values.get(quantity)!;

// android-string-resource unescapes `\t` and `\uXXXX` wrongly, folds non-ASCII spaces and returns
// raw markup for values with tags; everywhere else its reading must equal ours.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it mishandles
const asrReadsCorrectly = (text: string) => !/[\t\u0000-\u0008\u000b-\u001f\s]/.test(text.replace(/[ \n]/g, ''));

describe('android', () => {
  it('decodes every stored text exactly by the aapt2 rules, and android-string-resource agrees', async () => {
    const texts = [...TRICKY_TEXTS, 'nbsp\u00a0\u00a0x', 'bell\u0007 cr\r', ' ', '@', '?', '\\'];
    const entries = texts.map((text, index) => entry(`text-${index}`, text));
    const body = android(document(entries)).body;
    const resources = decodeResources(body).resources;
    expect(resources.map((r) => r.attributes.ditto_api_id)).toEqual(entries.map((e) => e.id));
    for (const [index, resource] of resources.entries()) expect(valueIn(resource).text).toBe(texts[index]);
    const asr = await asr2js(body);
    let compared = 0;
    entries.forEach((e, index) => {
      if (!asrReadsCorrectly(e.text)) return;
      expect(asr[`text_${index}`]).toBe(e.text);
      compared++;
    });
    expect(compared).toBeGreaterThan(15);
  });

  it('wraps text with leading, trailing or doubled spaces in quotes and escapes a leading @ or ?', () => {
    const body = android(
      document([entry('a', ' x'), entry('b', 'x  y'), entry('c', 'x y'), entry('d', '@x @'), entry('e', '?')]),
    ).body;
    expect(body).toContain('<string name="a" ditto_api_id="a">" x"</string>');
    expect(body).toContain('<string name="b" ditto_api_id="b">"x  y"</string>');
    expect(body).toContain('<string name="c" ditto_api_id="c">x y</string>');
    expect(body).toContain('<string name="d" ditto_api_id="d">\\@x @</string>');
    expect(body).toContain('<string name="e" ditto_api_id="e">\\?</string>');
  });

  it.each([
    ['50% off', undefined],
    ['50% off, then 20%', 'false'],
    ['%s and %d', 'false'],
  ])('marks %j as formatted=%s when it has no variables', (text, formatted) => {
    const [resource] = load(document([entry('p', text)]));
    expect(resource!.attributes.formatted).toBe(formatted);
    expect(valueIn(resource!).text).toBe(text);
  });

  it('writes every variable, numbers included, as a string argument in xliff:g, and %% for a literal %', () => {
    const variables = [name, total, price, link, size];
    const text = "{{name}}'s {{total}} items at {{price}} (100%) on {{link}} in {{size}} {{unknown}}";
    const [resource] = load(document([entry('order', text, { variables })]));
    expect(resource!.attributes.formatted).toBeUndefined();
    const value = valueIn(resource!);
    expect(value.text).toBe("%1$s's %2$s items at %3$s (100%%) on %4$s in %5$s {{unknown}}");
    expect(value.placeholders).toEqual([
      { id: 'name', example: 'Ann "A" & <B>', content: '%1$s' },
      { id: 'total', example: '12', content: '%2$s' },
      { id: 'price', example: '9.5', content: '%3$s' },
      { id: 'link', example: 'our site', content: '%4$s' },
      { id: 'size', example: 'small', content: '%5$s' },
    ]);
    const body = android(document([entry('order', text, { variables })])).body;
    expect(body).toContain('<xliff:g id="total" example="12">%2$s</xliff:g>');
    const values = { name: 'Ann', total: '12', price: '9.5', link: 'our site', size: 'small' };
    const expected = renderTemplate(text, new Set(Object.keys(values)), (v) =>
      String(values[v as keyof typeof values]),
    );
    expect(formatPrintf(value.text, Object.values(values))).toBe(expected);
  });

  it.each(TRICKY_TEXTS)('keeps %j intact around a variable', (literal) => {
    const [resource] = load(document([entry('t', `${literal}{{name}}${literal}`, { variables: [name] })]));
    expect(formatPrintf(valueIn(resource!).text, ['Bo'])).toBe(`${literal}Bo${literal}`);
  });

  it.each([
    ['default', '%2$s then %1$s', ['B', 'A']],
    ['alphabetical', '%1$s then %2$s', ['A', 'B']],
  ] as const)('numbers variables by variableOrder=%s', (variableOrder, expected, args) => {
    const b = variable('b', 'string', { example: 'B' }, 0);
    const a = variable('a', 'string', { example: 'A' }, 1);
    const doc = document([entry('t', '{{a}} then {{b}}', { variables: [a, b] })], { options: { variableOrder } });
    const value = valueIn(load(doc)[0]!);
    expect(value.text).toBe(expected);
    expect(formatPrintf(value.text, args)).toBe('A then B');
  });

  for (const [locale, counts] of Object.entries(PLURAL_COUNTS)) {
    it(`writes plurals with an item per category of ${locale} and selects them`, () => {
      const forms = { zero: 'none', one: '{{count}} one', few: "{{count}} few '%'", other: '{{count}} other' };
      const [twin, resource] = load(
        document([entry('c', 'x', { plurals: plurals(forms), variables: [count] })], { locale }),
      );
      expect(twin!.kind).toBe('string');
      expect(resource!.kind).toBe('plurals');
      const categories = ['zero', ...new Intl.PluralRules(locale).resolvedOptions().pluralCategories];
      expect([...resource!.values.keys()].sort()).toEqual([...new Set(categories)].sort());
      const rules = new Intl.PluralRules(locale);
      for (const n of counts) {
        // getQuantityString picks the locale's CLDR category; `zero` only where CLDR has it.
        const category = rules.select(n);
        const text = formatPrintf(valueIn(resource!, category).text, [String(n)]);
        const source = (forms as Record<string, string>)[category] ?? forms.other;
        expect(text).toBe(source.replace('{{count}}', String(n)));
      }
    });
  }

  it('fills a zero category that is not exactly 0 (lv) from other, and uses the zero form where it is', () => {
    const record = entry('c', 'x', { plurals: plurals({ zero: 'none', one: 'one', other: 'many' }) });
    expect(valueIn(load(document([record], { locale: 'lv' }))[1]!, 'zero').text).toBe('many');
    expect(valueIn(load(document([record], { locale: 'ar' }))[1]!, 'zero').text).toBe('none');
    expect(valueIn(load(document([record], { locale: 'en' }))[1]!, 'zero').text).toBe('none');
  });

  it('formats every item of a plural record once any item has arguments', () => {
    const record = entry('p', 'x', {
      plurals: plurals({ one: '100% one', other: '{{count}}% of {{name}}' }),
      variables: [name, count],
    });
    const [, resource] = load(document([record]));
    expect(valueIn(resource!, 'one').text).toBe('100%% one');
    expect(formatPrintf(valueIn(resource!, 'other').text, ['Ann', '40'])).toBe('40% of Ann');
    const plain = load(document([entry('q', 'x', { plurals: plurals({ one: '1%', other: '2% 3%' }) })]))[1]!;
    expect(valueIn(plain, 'other').text).toBe('2% 3%');
  });

  describe('rich text', () => {
    const rich = entry('r', "Hi  bold\nnext it's {{name}} 5% ", {
      richText: "Hi  <strong>bold<br>next</strong> <em>it's</em> {{name}} 5% ",
      variables: [name],
    });
    it('carries the supported tags as styled-string child elements', () => {
      const [resource] = load(document([rich], { options: { richText: 'html' } }));
      const value = valueIn(resource!);
      expect(formatPrintf(value.text, ['Ann'])).toBe("Hi  bold\nnext it's Ann 5% ");
      expect(value.spans.map((s) => [s.tag, value.text.slice(s.start, s.end)])).toEqual([
        ['b', 'bold\nnext'],
        ['i', "it's"],
      ]);
    });
    it('maps every mark of the subset', () => {
      const all = entry('m', 'abcdef', {
        richText: '<strong>a</strong><em>b</em><u>c</u><s>d</s><sup>e</sup><sub>f</sub>',
      });
      const value = valueIn(load(document([all], { options: { richText: 'html' } }))[0]!);
      expect(value.spans.map((s) => s.tag)).toEqual(['b', 'i', 'u', 'strike', 'sup', 'sub']);
    });
    it('exports plain text without the option', () => {
      const value = valueIn(load(document([rich]))[0]!);
      expect(value.spans).toEqual([]);
      expect(formatPrintf(value.text, ['Ann'])).toBe("Hi  bold\nnext it's Ann 5% ");
    });
  });

  it('has a decoder that applies the aapt2 rules', () => {
    const nodes = (text: string) => [{ '#text': text }];
    expect(decodeValue(nodes('  a \\q\\u0041  b "  c\'  " \\')).text).toBe("a qA b   c'   ");
    expect(() => decodeValue(nodes("it's"))).toThrow('unescaped apostrophe');
    expect(() => decodeValue(nodes('@string/x'))).toThrow('resource reference');
    expect(() => decodeValue(nodes('\\u12'))).toThrow('bad \\u escape');
  });
});
