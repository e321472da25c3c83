/** Records and expectations shared by the tests of the JSON formats (json_icu, i18next, vue-i18n, arb). */
import type { PluralForm } from '../../src/db/schema.js';
import type { ExportEntry, ExportVariable } from '../../src/formats/types.js';
import { renderTemplate } from '../../src/text/placeholders.js';
import { entry, plurals, variable } from './fixtures.js';

export const count = variable('count', 'number', { example: 3 }, 0);
export const name = variable('name', 'string', { example: 'Ann' }, 1);
export const price = variable('price', 'number', { example: 9.5 }, 2);
export const link = variable('link', 'hyperlink', { text: 'our site', url: 'https://example.com' }, 3);
export const fruits = variable('fruits', 'list', ['apple', 'pear', 'New York', 'other'], 4);
export const sizes = variable('sizes', 'map', { s: 'Small', m: 'Medium' }, 5);
/** Created before `name`, so it comes first in default order and last in alphabetical order. */
export const zeta = variable('zeta', 'string', { example: 'Z' }, -1);

/** Every plural form, each text naming its form, with the count and a name in it. */
export const FORMS: Record<PluralForm, string> = {
  zero: 'No items for {{name}}',
  one: '{{count}} item (one) for {{name}}',
  two: '{{count}} items (two) for {{name}}',
  few: '{{count}} items (few) for {{name}}',
  many: '{{count}} items (many) for {{name}}',
  other: '{{count}} items (other) for {{name}}',
};

export function cart(forms: Partial<Record<PluralForm, string>> = FORMS, id = 'cart'): ExportEntry {
  return entry(id, forms.other ?? '{{count}} items', { plurals: plurals(forms), variables: [count, name] });
}

/** Plural forms that hold the characters each format must escape. */
export const TRICKY_FORMS: Partial<Record<PluralForm, string>> = {
  one: "It's #1 {braces} a|b @x $y \\ {{count}}",
  other: " <b>{{count}}</b> # items' {{unknown}} 100%\nnext ",
};

/** What the app must show for `n`: the zero form for exactly 0 when the record has one, else the category's form. */
export function expectedPlural(
  locale: string,
  n: number,
  forms: Partial<Record<PluralForm, string>> = FORMS,
  values: Record<string, unknown> = { name: 'Ann' },
): string {
  const category = new Intl.PluralRules(locale).select(n) as PluralForm;
  const text = n === 0 && forms.zero !== undefined ? forms.zero : (forms[category] ?? forms.other!);
  return fill(text, { ...values, count: n }, [count, name]);
}

/** The text with each listed variable replaced by its value, as the app should render it. */
export function fill(text: string, values: Record<string, unknown>, listed: readonly ExportVariable[]): string {
  return renderTemplate(text, new Set(listed.map((v) => v.name)), (key) => String(values[key]));
}

/** Deterministic random strings over `alphabet`, for round trips of escaping rules. */
export function randomTexts(alphabet: string, count: number, seed = 7): string[] {
  const chars = [...alphabet];
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(next() * 12) }, () => chars[Math.floor(next() * chars.length)]).join(''),
  );
}
