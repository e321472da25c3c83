import { readFileSync } from 'node:fs';
import { parse } from '@formatjs/icu-messageformat-parser';
import { Ajv } from 'ajv';
import IntlMessageFormat from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { arb } from '../../src/formats/arb.js';
import type { ExportDocument } from '../../src/formats/types.js';
import { document, entry, PLURAL_COUNTS, TRICKY_TEXTS, variable } from './fixtures.js';
import {
  cart,
  count,
  expectedPlural,
  fill,
  fruits,
  link,
  name,
  price,
  sizes,
  TRICKY_FORMS,
  zeta,
} from './json-cases.js';

const schema = JSON.parse(readFileSync(new URL('../fixtures/arb.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv({ allErrors: true }).compile(schema);

/**
 * The file checked against the ARB schema, every message parsed strictly by formatjs. Flutter's
 * message parser has no rich-text tags, so `<` is text: formatjs reads the messages with
 * `ignoreTag` to see them the same way.
 */
function exported(doc: ExportDocument): Record<string, any> {
  const file = arb(doc);
  expect(file.contentType).toBe('application/json; charset=utf-8');
  const out = JSON.parse(file.body) as Record<string, any>;
  expect(validate(out), JSON.stringify(validate.errors)).toBe(true);
  for (const [key, value] of Object.entries(out)) {
    if (!key.startsWith('@')) {
      expect(() => parse(value, { requiresOtherClause: true, ignoreTag: true }), key).not.toThrow();
    }
  }
  return out;
}

const render = (message: string, locale: string, values: Record<string, unknown> = {}) =>
  new IntlMessageFormat(message, locale, undefined, { ignoreTag: true }).format(values) as string;

describe('arb', () => {
  it('validates, names the locale with _ and keeps every literal text intact', () => {
    const out = exported(
      document(
        TRICKY_TEXTS.map((text, index) => entry(`text_${index}`, text)),
        { locale: 'en-US' },
      ),
    );
    expect(out['@@locale']).toBe('en_US');
    for (const [index, text] of TRICKY_TEXTS.entries()) expect(render(out[`text_${index}`], 'en')).toBe(text);
    expect(out['@text_0']).toEqual({ placeholders: {} });
  });

  it('rejects what the schema forbids, so the validation means something', () => {
    expect(validate({ '@@locale': 'en', '@a': { placeholders: { n: { type: 'int', example: 3 } } } })).toBe(false);
    expect(validate({ '@@locale': 'en', '__variant-name': 'x', '@@variant': 'x' })).toBe(false);
    expect(validate({ a: 'x' })).toBe(false);
    expect(validate({ '@@locale': 'en', '@a': { placeholders: { n: { type: 'String', format: 'compact' } } } })).toBe(
      false,
    );
  });

  it.each(Object.entries(PLURAL_COUNTS))('selects the right form for every category of %s', (locale, counts) => {
    const out = exported(document([cart()], { locale }));
    expect(out.cart).toMatch(/^\{count, plural, =0 \{/);
    expect(out.cart).not.toMatch(/(?<!')#/);
    for (const n of counts) expect(render(out.cart, locale, { count: n, name: 'Ann' })).toBe(expectedPlural(locale, n));
  });

  it('declares count as num first, then the variables with String, int or double types', () => {
    const out = exported(document([cart(TRICKY_FORMS)]));
    expect(out['@cart'].placeholders).toEqual({
      count: { type: 'num', example: '3' },
      name: { type: 'String', example: 'Ann' },
    });
    expect(Object.keys(out['@cart'].placeholders)).toEqual(['count', 'name']);
    expect(render(out.cart, 'en', { count: 2 })).toBe(fill(TRICKY_FORMS.other!, { count: 2 }, [count]));
    const unlisted = exported(document([entry('c', 'x', { plurals: cart().plurals.slice(0, 2) })]));
    expect(unlisted['@c'].placeholders).toEqual({ count: { type: 'num' } });
  });

  it('substitutes variables by name; lists and maps are String placeholders', () => {
    const variables = [name, price, link, fruits, sizes, zeta, variable('total', 'number', { example: 12 }, 9)];
    const text = 'Hi {{name}}, {{ price }} on {{link}}: {{fruits}} / {{sizes}} {{zeta}} {{total}} {{unknown}}';
    const out = exported(document([entry('order', text, { variables, notes: 'Shown at checkout' })]));
    expect(out.order).toBe("Hi {name}, {price} on {link}: {fruits} / {sizes} {zeta} {total} '{{'unknown'}}'");
    expect(out['@order']).toEqual({
      description: 'Shown at checkout',
      placeholders: {
        zeta: { type: 'String', example: 'Z' },
        name: { type: 'String', example: 'Ann' },
        price: { type: 'double', example: '9.5' },
        link: { type: 'String', example: 'our site' },
        fruits: { type: 'String', example: 'apple' },
        sizes: { type: 'String', example: 'Small' },
        total: { type: 'int', example: '12' },
      },
    });
    const values = { name: 'Ann', price: 9.5, link: 'our site', fruits: 'pear', sizes: 'S', zeta: 'Z', total: 12 };
    expect(render(out.order, 'en', values)).toBe(fill(text, values, variables));
  });

  it('orders placeholders (the generated method parameters) by variableOrder', () => {
    const record = entry('v', '{{name}} {{zeta}}', { variables: [name, zeta] });
    const byDefault = exported(document([record]));
    expect(Object.keys(byDefault['@v'].placeholders)).toEqual(['zeta', 'name']);
    const alphabetical = exported(document([record], { options: { variableOrder: 'alphabetical' } }));
    expect(Object.keys(alphabetical['@v'].placeholders)).toEqual(['name', 'zeta']);
  });

  it('exports stored markup unquoted with richText, and plain records escaped', () => {
    const rich = entry('r', 'bold', { richText: "<strong>it's</strong> {{name}}<br>x", variables: [name] });
    const plain = entry('p', 'a < b & c');
    const out = exported(document([rich, plain], { options: { richText: 'html' } }));
    expect(out.r).toBe("<strong>it''s</strong> {name}<br />x");
    expect(render(out.r, 'en', { name: 'Ann' })).toBe("<strong>it's</strong> Ann<br />x");
    expect(out.p).toBe('a &lt; b &amp; c');
    expect(exported(document([rich])).r).toBe('bold');
  });

  it('carries variant metadata as @@x- custom attributes unless excluded', () => {
    const variant = { id: 'es', name: 'Español {formal}', description: "Spain's" };
    const withMeta = exported(document([entry('a', 'hola')], { locale: 'es-ES', variant }));
    expect(Object.keys(withMeta)).toEqual(['@@locale', '@@x-variant-name', '@@x-variant-description', 'a', '@a']);
    expect(withMeta['@@x-variant-name']).toBe('Español {formal}');
    expect(withMeta['@@x-variant-description']).toBe("Spain's");
    expect(withMeta).not.toHaveProperty('__variant-name');
    const without = exported(document([entry('a', 'hola')], { variant, options: { excludeVariantMetadata: true } }));
    expect(Object.keys(without)).toEqual(['@@locale', 'a', '@a']);
  });
});
