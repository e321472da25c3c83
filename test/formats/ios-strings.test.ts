import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { iosStrings } from '../../src/formats/ios-strings.js';
import type { ExportVariable } from '../../src/formats/types.js';
import { renderTemplate } from '../../src/text/placeholders.js';
import { document, entry, plurals, TRICKY_TEXTS, variable } from './fixtures.js';
import { formatPrintf, positionsAreContiguous } from './printf.js';
import { decodeStrings } from './strings-decoder.js';

const stringsFiles = createRequire(import.meta.url)('i18n-strings-files') as {
  parse(input: string, wantsComments?: boolean): Record<string, { text: string; comment?: string }>;
};

const name = variable('name', 'string', { example: 'Ann' }, 0);
const total = variable('total', 'number', { example: 12 }, 1);
const price = variable('price', 'number', { example: 9.5 }, 2);
const link = variable('link', 'hyperlink', { text: 'our site', url: 'https://example.com' }, 3);
const fruits = variable('fruits', 'list', ['apple', 'pear'], 4);
const count = variable('count', 'number', { example: 3 }, 5);

/** The text with each listed variable replaced by a value, as the app would render it. */
function rendered(text: string, values: Record<string, unknown>, listed: readonly ExportVariable[]): string {
  return renderTemplate(text, new Set(listed.map((v) => v.name)), (key) => String(values[key]));
}

describe('ios-strings', () => {
  it('returns every stored text exactly through a CoreFoundation-grammar decoder', () => {
    const texts = [...TRICKY_TEXTS, 'bell\u0007 del\u007f nbsp\u00a0 ls\u2028', '\\', '"'];
    const entries = texts.map((text, index) => entry(`text.${index}`, text));
    const file = iosStrings(document(entries));
    expect(file.contentType).toBe('text/plain; charset=utf-8');
    const decoded = decodeStrings(file.body);
    expect([...decoded.keys()]).toEqual(entries.map((e) => e.id));
    for (const e of entries) expect(decoded.get(e.id)!.value).toBe(e.text);
  });

  it('is found key by key by i18n-strings-files', () => {
    const entries = TRICKY_TEXTS.map((text, index) =>
      entry(`text-${index}`, text, { notes: index % 2 ? 'a note' : '' }),
    );
    entries.push(
      entry('cart', '{{count}} items', { plurals: plurals({ one: 'One', other: 'Many' }), variables: [count] }),
    );
    const parsed = stringsFiles.parse(iosStrings(document(entries)).body, true);
    expect(Object.keys(parsed).sort()).toEqual(entries.map((e) => e.id).sort());
    expect(parsed['text-1']!.comment).toBe('a note');
  });

  it('writes one pair per record with a blank line between them', () => {
    const body = iosStrings(document([entry('a', 'x'), entry('b', 'y')])).body;
    expect(body).toBe('"a" = "x";\n\n"b" = "y";\n');
    expect(iosStrings(document([])).body).toBe('');
  });

  it('numbers every variable, numbers included, as a string argument and escapes a literal %', () => {
    const variables = [name, total, price, link, fruits];
    const text = '{{name}} has {{total}} items at {{price}} (100%) on {{link}}: {{fruits}} {{unknown}} {{ name }}';
    const decoded = decodeStrings(iosStrings(document([entry('order', text, { variables })])).body);
    const value = decoded.get('order')!.value;
    expect(value).toBe('%1$@ has %2$@ items at %3$@ (100%%) on %4$@: %5$@ {{unknown}} %1$@');
    const args = ['Ann', '12', '9.5', 'our site', 'apple'];
    const values = { name: 'Ann', total: 12, price: 9.5, link: 'our site', fruits: 'apple' };
    expect(formatPrintf(value, args)).toBe(rendered(text, values, variables));
  });

  it.each(TRICKY_TEXTS)('keeps %j intact next to a variable', (literal) => {
    const text = `${literal}{{name}}${literal}`;
    const value = decodeStrings(iosStrings(document([entry('t', text, { variables: [name] })])).body).get('t')!.value;
    expect(formatPrintf(value, ['Bo'])).toBe(`${literal}Bo${literal}`);
  });

  it('keeps % as is when the string has no placeholders', () => {
    const value = decodeStrings(iosStrings(document([entry('p', '50% off %d')])).body).get('p')!.value;
    expect(value).toBe('50% off %d');
  });

  it.each([
    ['default', '%2$@ then %1$@', ['B', 'A']],
    ['alphabetical', '%1$@ then %2$@', ['A', 'B']],
  ] as const)('orders arguments by variableOrder=%s', (variableOrder, expected, args) => {
    const b = variable('b', 'string', { example: 'B' }, 0);
    const a = variable('a', 'string', { example: 'A' }, 1);
    const file = iosStrings(
      document([entry('t', '{{a}} then {{b}}', { variables: [a, b] })], { options: { variableOrder } }),
    );
    const value = decodeStrings(file.body).get('t')!.value;
    expect(value).toBe(expected);
    expect(formatPrintf(value, args)).toBe('A then B');
  });

  it('writes plural records with their primary text, numbered like any string (the forms are in the stringsdict)', () => {
    const cart = entry('cart', '{{count}} items for {{name}} (5%)', {
      plurals: plurals({ one: '{{count}} item', other: '{{count}} items' }),
      variables: [name, count],
    });
    const noCount = entry('left', '{{name}} left', {
      plurals: plurals({ one: 'one', other: 'many' }),
      variables: [name],
    });
    const plain = entry('plain', '5% of 100%', { plurals: plurals({ one: 'one', other: 'many' }) });
    const decoded = decodeStrings(iosStrings(document([cart, noCount, plain])).body);
    // name was created before count, so it is argument 1.
    expect(decoded.get('cart')!.value).toBe('%2$@ items for %1$@ (5%%)');
    expect(formatPrintf(decoded.get('cart')!.value, ['Ann', '4'])).toBe('4 items for Ann (5%)');
    expect(decoded.get('left')!.value).toBe('%1$@ left');
    expect(decoded.get('plain')!.value).toBe('5% of 100%');
    for (const { value } of decoded.values()) expect(positionsAreContiguous(value), value).toBe(true);
  });

  it('puts notes in a comment above the pair, with */ escaped', () => {
    const decoded = decodeStrings(
      iosStrings(document([entry('n', 'x', { notes: 'Shown on */ the\nhome screen' })])).body,
    );
    expect(decoded.get('n')!.comments).toEqual(['Shown on *\\/ the\nhome screen']);
  });

  it('exports plain text even when rich text is asked for', () => {
    const rich = entry('r', 'Hello world', { richText: 'Hello <strong>world</strong>' });
    const body = iosStrings(document([rich], { options: { richText: 'html' } })).body;
    expect(decodeStrings(body).get('r')!.value).toBe('Hello world');
  });

  it('has a decoder that follows the grammar, not our writer', () => {
    const source = '// line\n"a"="\\U00e9\\t";/* c */"b" =\n "x\\"y" ;';
    expect(decodeStrings(source).get('a')!.value).toBe('\u00e9\t');
    expect(decodeStrings(source).get('b')).toEqual({ value: 'x"y', comments: ['c'] });
    expect(() => decodeStrings('"a" = "x"')).toThrow("expected ';'");
    expect(() => decodeStrings('"a" = "\\q";')).toThrow('unknown escape');
    expect(() => decodeStrings('"a" = "x";\n"a" = "y";')).toThrow('duplicate key');
  });

  describe('variant comments', () => {
    const variant = { id: 'fr', name: 'French */ FR', description: 'For France' };
    it('start the file with the variant name and description, as the original writes them', () => {
      const body = iosStrings(document([entry('a', 'x')], { variant, locale: 'fr' })).body;
      expect(body).toBe('/* Variant Name: French *\\/ FR */\n/* Variant Description: For France */\n\n"a" = "x";\n');
      expect(decodeStrings(body).get('a')).toEqual({
        value: 'x',
        comments: ['Variant Name: French *\\/ FR', 'Variant Description: For France'],
      });
      expect(Object.keys(stringsFiles.parse(body))).toEqual(['a']);
    });
    it('write both lines when the description is empty, even in an empty file', () => {
      const empty = { ...variant, name: 'French', description: '' };
      expect(iosStrings(document([], { variant: empty })).body).toBe(
        '/* Variant Name: French */\n/* Variant Description: */\n',
      );
      expect(decodeStrings(iosStrings(document([], { variant: empty })).body).size).toBe(0);
    });
    it('stay with excludeVariantMetadata (a JSON parameter), and base text has none', () => {
      const kept = iosStrings(document([entry('a', 'x')], { variant, options: { excludeVariantMetadata: true } }));
      expect(kept.body.startsWith('/* Variant Name: French *\\/ FR */\n/* Variant Description: For France */\n')).toBe(
        true,
      );
      expect(iosStrings(document([entry('a', 'x')])).body).toBe('"a" = "x";\n');
    });
  });
});
