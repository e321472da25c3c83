import { createRequire } from 'node:module';
import { parse, TYPE } from '@formatjs/icu-messageformat-parser';
import IntlMessageFormat from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { jsonIcu } from '../../src/formats/json-icu.js';
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
  randomTexts,
  sizes,
  TRICKY_FORMS,
  zeta,
} from './json-cases.js';

// The package's types declare an ES default export; at run time it is `module.exports`.
const MessageFormat = createRequire(import.meta.url)(
  '@messageformat/core',
) as typeof import('@messageformat/core').default;

function exported(doc: ExportDocument): Record<string, string> {
  const file = jsonIcu(doc);
  expect(file.contentType).toBe('application/json; charset=utf-8');
  return JSON.parse(file.body);
}

/**
 * Parses strictly, then renders with both runtimes, which must agree. formatjs reads `<x>` as a
 * rich-text tag, so text is rendered as a formatjs app shows literal markup: with `ignoreTag`.
 */
function render(message: string, locale: string, values: Record<string, unknown> = {}): string {
  parse(message, { requiresOtherClause: true, ignoreTag: true });
  const formatjs = new IntlMessageFormat(message, locale, undefined, { ignoreTag: true }).format(values) as string;
  const messageformat = new MessageFormat(locale, { strict: true }).compile(message)(values);
  expect(messageformat).toBe(formatjs);
  return formatjs;
}

/** Tag functions that write each rich-text element back as markup, as a formatjs app might. */
const TAGS = Object.fromEntries(
  ['strong', 'em', 'u', 's', 'sup', 'sub', 'p', 'b', 'x'].map((tag) => [
    tag,
    (chunks: unknown[]) => `<${tag}>${chunks.join('')}</${tag}>`,
  ]),
);

/** Rich text as a formatjs app renders it with tag functions: the tags parse as elements. */
function renderTags(message: string, locale: string, values: Record<string, string | number> = {}): string {
  const ast = parse(message, { requiresOtherClause: true });
  expect(JSON.stringify(ast)).toContain(`"type":${TYPE.tag}`);
  const parts = new IntlMessageFormat(message, locale).format<string>({ ...TAGS, ...values });
  return Array.isArray(parts) ? parts.join('') : String(parts);
}

describe('json_icu', () => {
  it('keeps every literal text intact in intl-messageformat and @messageformat/core', () => {
    const texts = TRICKY_TEXTS;
    const out = exported(document(texts.map((text, index) => entry(`t.${index}`, text))));
    expect(Object.keys(out)).toEqual(texts.map((_, index) => `t.${index}`));
    for (const [index, text] of texts.entries()) expect(render(out[`t.${index}`]!, 'en')).toBe(text);
    expect(out['t.0']).toBe("It''s Ann''s");
    expect(out['t.7']).toBe("'{'braces'}' '{{'notAVariable'}}' '}{' '{{{'x");
  });

  it('writes < and markup unquoted: text to @messageformat/core and to formatjs with ignoreTag', () => {
    const out = exported(document([entry('tag', "Press <Enter> or </b> and a < b, it's <em>")]));
    expect(out.tag).toBe("Press <Enter> or </b> and a < b, it''s <em>");
    expect(render(out.tag!, 'en')).toBe("Press <Enter> or </b> and a < b, it's <em>");
    // Without ignoreTag, formatjs reads `<Enter>` as an element that is never closed.
    expect(() => parse(out.tag!, { requiresOtherClause: true })).toThrow();
  });

  it('survives apostrophes next to quoted syntax', () => {
    const texts = ["{'{", "'{", "{'", "''{''}''", "a'#'b", "<'a", "'<a'"];
    const out = exported(document(texts.map((text, index) => entry(`q${index}`, text))));
    texts.forEach((text, index) => {
      expect(render(out[`q${index}`]!, 'en')).toBe(text);
    });
  });

  it('round-trips random runs of quotes, braces, hashes and tags, alone and inside plural forms', () => {
    const texts = randomTexts("'{}#<a/ |", 400);
    const out = exported(document(texts.map((text, index) => entry(`r${index}`, text))));
    const forms = exported(document(texts.map((text, index) => cart({ one: text, other: `#${text}'` }, `p${index}`))));
    for (const [index, text] of texts.entries()) {
      expect(render(out[`r${index}`]!, 'en')).toBe(text);
      const plural = forms[`p${index}`]!;
      expect(render(plural, 'en', { count: 1 })).toBe(text);
      expect(render(plural, 'en', { count: 2 })).toBe(`#${text}'`);
    }
  });

  it.each(Object.entries(PLURAL_COUNTS))('selects the right form for every category of %s', (locale, counts) => {
    const message = exported(document([cart()], { locale })).cart!;
    const cases = [...message.matchAll(/(?:^\{count, plural, | )(=0|zero|one|two|few|many|other) \{/g)].map(
      (m) => m[1],
    );
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    expect(cases.filter((key) => key !== '=0').sort()).toEqual([...categories].sort());
    expect(message).not.toMatch(/(?<!')#/);
    for (const n of counts) expect(render(message, locale, { count: n, name: 'Ann' })).toBe(expectedPlural(locale, n));
  });

  it('writes exactly one plural enclosing the whole message, =0 first', () => {
    const out = exported(document([cart({ zero: 'none', one: 'one {{count}}', other: '{{count}} items' })]));
    expect(out.cart).toBe('{count, plural, =0 {none} one {one {count}} other {{count} items}}');
    const ast = parse(out.cart!, { requiresOtherClause: true });
    expect(ast).toHaveLength(1);
    expect(ast[0]!.type).toBe(TYPE.plural);
  });

  it('copies other into the categories a record lacks, and other falls back to the primary text', () => {
    const ru = exported(document([cart({ one: 'one', other: 'other' })], { locale: 'ru' })).cart!;
    expect(ru).toBe('{count, plural, one {one} few {other} many {other} other {other}}');
    const bare = entry('bare', 'primary', { plurals: plurals({ one: 'single' }) });
    expect(exported(document([bare])).bare).toBe('{count, plural, one {single} other {primary}}');
  });

  it('keeps "exactly 0" apart from a zero category that holds more numbers (Latvian)', () => {
    const message = exported(document([cart({ zero: 'none', one: 'one', other: 'many' })], { locale: 'lv' })).cart!;
    expect(message).toBe('{count, plural, =0 {none} zero {many} one {one} other {many}}');
    expect([0, 1, 10, 2].map((n) => render(message, 'lv', { count: n }))).toEqual(['none', 'one', 'many', 'many']);
  });

  it('escapes literal text inside plural forms, # included', () => {
    const message = exported(document([cart(TRICKY_FORMS)])).cart!;
    for (const n of [1, 2]) {
      const expected = fill(n === 1 ? TRICKY_FORMS.one! : TRICKY_FORMS.other!, { count: n }, [count]);
      expect(render(message, 'en', { count: n })).toBe(expected);
    }
    // The `<b>` of the other form is an element to formatjs.
    expect(renderTags(message, 'en', { count: 2 })).toBe(fill(TRICKY_FORMS.other!, { count: 2 }, [count]));
  });

  it('keeps empty forms and edge whitespace of plural forms', () => {
    const message = exported(document([cart({ zero: '', one: ' \r\n{{count}} ', other: '  ' })])).cart!;
    expect([0, 1, 2].map((n) => render(message, 'en', { count: n }))).toEqual(['', ' \r\n1 ', '  ']);
  });

  it('substitutes variables by name and leaves unknown placeholders literal', () => {
    const text = 'Hi {{name}}, {{ price }} on {{link}} {{unknown}} {{zeta}}';
    const out = exported(document([entry('v', text, { variables: [name, price, link, zeta] })]));
    expect(out.v).toBe("Hi {name}, {price} on {link} '{{'unknown'}}' {zeta}");
    const values = { name: 'Ann', price: 9.5, link: 'our site', zeta: 'Z' };
    expect(render(out.v!, 'en', values)).toBe(fill(text, values, [name, price, link, zeta]));
  });

  it('writes list and map variables as a select with the first value as other', () => {
    const out = exported(document([entry('s', '{{fruits}} in {{sizes}}', { variables: [fruits, sizes] })]));
    expect(out.s).toBe(
      '{fruits, select, apple {apple} pear {pear} other {apple}} in {sizes, select, s {Small} m {Medium} other {Small}}',
    );
    expect(render(out.s!, 'en', { fruits: 'pear', sizes: 'm' })).toBe('pear in Medium');
    expect(render(out.s!, 'en', { fruits: 'New York', sizes: 'xl' })).toBe('apple in Small');
  });

  it('is the same file in either variable order, since arguments are named', () => {
    const records = [entry('v', '{{zeta}} {{name}}', { variables: [name, zeta] }), cart()];
    const byDefault = jsonIcu(document(records)).body;
    expect(jsonIcu(document(records, { options: { variableOrder: 'alphabetical' } })).body).toBe(byDefault);
  });

  it('exports stored markup unquoted with richText, tags read as elements by formatjs', () => {
    const rich = entry('r', "It's bold", { richText: "It's <strong>bold</strong><br>{{name}}", variables: [name] });
    const doc = (mode: 'html' | 'html_paragraphs' | null) => document([rich], { options: { richText: mode } });
    const html = exported(doc('html'));
    expect(html.r).toBe("It''s <strong>bold</strong><br />{name}");
    expect(render(html.r!, 'en', { name: 'Ann' })).toBe("It's <strong>bold</strong><br />Ann");
    // formatjs writes a self-closing tag back as `<br/>`.
    expect(renderTags(html.r!, 'en', { name: 'Ann' })).toBe("It's <strong>bold</strong><br/>Ann");
    const paragraphs = exported(doc('html_paragraphs'));
    expect(paragraphs.r).toBe("<p>It''s <strong>bold</strong></p><p>{name}</p>");
    expect(render(paragraphs.r!, 'en', { name: 'Ann' })).toBe("<p>It's <strong>bold</strong></p><p>Ann</p>");
    expect(renderTags(paragraphs.r!, 'en', { name: 'Ann' })).toBe("<p>It's <strong>bold</strong></p><p>Ann</p>");
    expect(render(exported(doc(null)).r!, 'en')).toBe("It's bold");
  });

  it('exports a plain record with richText as its escaped text, line breaks as <br />', () => {
    const plain = entry('p', "5 > 3 and 2 < 4 & it's {x}\nnext");
    expect(exported(document([plain], { options: { richText: 'html' } })).p).toBe(
      "5 &gt; 3 and 2 &lt; 4 &amp; it''s '{'x'}'<br />next",
    );
    const paragraphs = exported(document([plain], { options: { richText: 'html_paragraphs' } })).p!;
    expect(render(paragraphs, 'en')).toBe("<p>5 &gt; 3 and 2 &lt; 4 &amp; it's {x}</p><p>next</p>");
    expect(renderTags(paragraphs, 'en')).toBe("<p>5 &gt; 3 and 2 &lt; 4 &amp; it's {x}</p><p>next</p>");
    expect(render(exported(document([plain])).p!, 'en')).toBe(plain.text);
  });

  it('exports rich plural forms as markup, a form without markup escaped', () => {
    const rich = cart({ one: 'one <x>', other: '{{count}} items' });
    rich.richText = '{{count}} <em>items</em>';
    rich.plurals[1]!.richText = '{{count}} <em>items</em>';
    const message = exported(document([rich], { options: { richText: 'html' } })).cart!;
    expect(render(message, 'en', { count: 1 })).toBe('one &lt;x&gt;');
    expect(render(message, 'en', { count: 4 })).toBe('4 <em>items</em>');
    expect(renderTags(message, 'en', { count: 4 })).toBe('4 <em>items</em>');
  });

  it('carries variant metadata unless excluded', () => {
    const variant = { id: 'es', name: 'Español {formal}', description: "Spain's" };
    const withMeta = exported(document([entry('a', 'hola')], { locale: 'es', variant }));
    expect(Object.keys(withMeta)).toEqual(['__variant-name', '__variant-description', 'a']);
    expect(withMeta['__variant-name']).toBe('Español {formal}');
    expect(withMeta['__variant-description']).toBe("Spain's");
    const without = exported(document([entry('a', 'hola')], { variant, options: { excludeVariantMetadata: true } }));
    expect(Object.keys(without)).toEqual(['a']);
    expect(Object.keys(exported(document([entry('a', 'x')])))).toEqual(['a']);
  });

  it('keeps the record order, integer-like keys included', () => {
    const body = jsonIcu(document([entry('b', 'x'), entry('404', 'y'), entry('a', 'z')])).body;
    expect(body).toBe('{\n  "b": "x",\n  "404": "y",\n  "a": "z"\n}\n');
    expect(jsonIcu(document([])).body).toBe('{}\n');
  });

  it('compiles every message of a mixed file in strict mode for en, ru and ar', () => {
    const records = [cart(FORMS), cart(TRICKY_FORMS, 'tricky'), entry('s', '{{fruits}}', { variables: [fruits] })];
    for (const locale of ['en', 'ru', 'ar']) {
      const out = exported(document(records, { locale }));
      const mf = new MessageFormat(locale, { strict: true });
      for (const message of Object.values(out)) expect(() => mf.compile(message)).not.toThrow();
    }
    expect(() => new MessageFormat('en', { strict: true }).compile('{count, plural, few {x} other {y}}')).toThrow();
  });
});
