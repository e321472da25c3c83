/** The shape of the android file that app code written against the original's files relies on. */
import asr2js from 'android-string-resource/asr2js';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { android } from '../../src/formats/android.js';
import { decodeResources } from './aapt2-decoder.js';
import { document, entry, plurals, variable } from './fixtures.js';
import { formatPrintf, positionsAreContiguous } from './printf.js';

const count = variable('count', 'number', { example: 3 }, 0);
const name = variable('name', 'string', { example: 'Ann' }, 1);
const zeta = variable('zeta', 'string', { example: 'Z' }, 2);

const cart = entry('cart-badge', '{{name}} has {{zeta}}', {
  notes: 'Cart badge',
  plurals: plurals({ one: '{{count}} item for {{name}}', other: '{{count}} items for {{name}}, {{zeta}}' }),
  variables: [count, name, zeta],
});

describe('android file shape', () => {
  it('names each element after its developer ID and carries the ID in ditto_api_id on every element', () => {
    const file = decodeResources(
      android(document([entry('welcome-title', 'a'), entry('welcome_title', 'b'), entry('home.v2', 'c'), cart])).body,
    );
    expect(file.resources.map((r) => [r.kind, r.attributes.name, r.attributes.ditto_api_id])).toEqual([
      ['string', 'welcome_title', 'welcome-title'],
      ['string', 'welcome_title_2', 'welcome_title'],
      ['string', 'home.v2', 'home.v2'],
      ['string', 'cart_badge', 'cart-badge'],
      ['plurals', 'cart_badge', 'cart-badge'],
    ]);
    for (const resource of file.resources) expect(resource.attributes).not.toHaveProperty('developer_id');
  });

  it('keeps a <string> of the primary text just before the <plurals>, numbered on its own', () => {
    const body = android(document([cart])).body;
    const lines = body.split('\n');
    const plural = lines.findIndex((line) =>
      line.startsWith('  <plurals name="cart_badge" ditto_api_id="cart-badge">'),
    );
    expect(lines[plural - 1]).toMatch(/^ {2}<string name="cart_badge" ditto_api_id="cart-badge">/);
    expect(lines[plural - 2]).toBe('  <!-- Cart badge -->');
    const [twin, plurals] = decodeResources(body).resources;
    expect(twin!.comments).toEqual(['Cart badge']);
    // The twin uses name and zeta only: %1$s and %2$s, as getString(R.string.cart_badge, name, zeta).
    const primary = twin!.values.get('')!.text;
    expect(primary).toBe('%1$s has %2$s');
    expect(formatPrintf(primary, ['Ann', 'Z'])).toBe('Ann has Z');
    // The plurals take every variable: getQuantityString(R.plurals.cart_badge, n, "2", "Ann", "Z").
    expect(formatPrintf(plurals!.values.get('other')!.text, ['2', 'Ann', 'Z'])).toBe('2 items for Ann, Z');
    for (const value of [twin!.values.get('')!, ...plurals!.values.values()]) {
      expect(positionsAreContiguous(value.text), value.text).toBe(true);
    }
  });

  it('writes a variable exactly as <xliff:g id="name" example="...">%1$s</xliff:g>, a number too', () => {
    const body = android(document([entry('n', '{{count}} left', { variables: [count] })])).body;
    expect(body).toContain(
      '<string name="n" ditto_api_id="n"><xliff:g id="count" example="3">%1$s</xliff:g> left</string>',
    );
  });

  it('writes & and < as entities and > as is, but never the sequence ]]>', () => {
    const body = android(document([entry('x', 'a > b & c < d ]]> e')])).body;
    expect(body).toContain('>a > b &amp; c &lt; d ]]&gt; e</string>');
    expect(decodeResources(body).resources[0]!.values.get('')!.text).toBe('a > b & c < d ]]> e');
  });

  describe('variant comments', () => {
    const variant = { id: 'fr', name: 'French', description: 'For France' };

    it('come before the root element, name and description, as the original writes them', () => {
      const body = android(document([entry('a', 'x', { notes: 'Shown --> here' })], { variant, locale: 'fr' })).body;
      expect(
        body.startsWith(
          '<?xml version="1.0" encoding="utf-8"?>\n<!-- Variant Name: French -->\n<!-- Variant Description: For France -->\n<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n',
        ),
      ).toBe(true);
      const file = decodeResources(body);
      expect(file.leadingComments).toEqual(['Variant Name: French', 'Variant Description: For France']);
      expect(file.comments).toEqual(['Shown - -&gt; here']);
    });

    it('write both lines when the description is empty, and neither for base text', () => {
      const empty = android(document([entry('a', 'x')], { variant: { ...variant, description: '' } })).body;
      expect(empty).toContain('<!-- Variant Name: French -->\n<!-- Variant Description: -->\n<resources');
      expect(android(document([entry('a', 'x')])).body).not.toContain('Variant');
    });

    it('stay with excludeVariantMetadata, which is a parameter of the JSON formats', () => {
      const body = android(document([entry('a', 'x')], { variant, options: { excludeVariantMetadata: true } })).body;
      expect(decodeResources(body).leadingComments).toEqual([
        'Variant Name: French',
        'Variant Description: For France',
      ]);
    });

    it('keep the file readable by fast-xml-parser and android-string-resource', async () => {
      const body = android(document([entry('greeting', 'Hello'), cart], { variant })).body;
      expect(XMLValidator.validate(body)).toBe(true);
      const parsed = new XMLParser({ ignoreAttributes: false }).parse(body);
      expect(parsed.resources.string[0]['#text']).toBe('Hello');
      expect(parsed.resources.string[0]['@_ditto_api_id']).toBe('greeting');
      const asr = await asr2js(body);
      expect(asr.greeting).toBe('Hello');
    });
  });
});
