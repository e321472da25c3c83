/**
 * json_vue_i18n: vue-i18n messages read with its own compiler's parser. `{name}` becomes
 * `{{name}}`, literal interpolations their text, and a message of ` | `-separated forms the
 * plural forms the exporter wrote: the locale's categories, after a `zero` form when there is one
 * more form than categories.
 */
import { createParser } from '@intlify/message-compiler';
import type { PluralForm } from '../../db/schema.js';
import { localeCategories, zeroCategoryIsExactlyZero } from '../shared/plurals.js';
import { flatStrings, readJsonObject } from './json.js';
import { settlePlurals } from './plurals.js';
import { MalformedFile, type ParsedEntry, type ParsedFile, type ParseOptions } from './types.js';

// The compiler's node types (a const enum in its typings, so not importable as values).
const NODE = { Plural: 1, Text: 3, Named: 4, List: 5, Linked: 6, Literal: 9 } as const;

interface VueNode {
  type: number;
  value?: string;
  key?: string | VueNode;
  index?: number;
  items?: VueNode[];
  cases?: VueNode[];
  start?: number;
  end?: number;
}

function messageText(message: VueNode, source: string): string {
  return (message.items ?? [])
    .map((item) => {
      if (item.type === NODE.Text || item.type === NODE.Literal) return item.value ?? '';
      if (item.type === NODE.Named) return `{{${item.key as string}}}`;
      // List interpolations and linked messages have no stored equivalent: kept as written.
      return source.slice(item.start ?? 0, item.end ?? 0);
    })
    .join('');
}

function formsOf(count: number, locale: string): PluralForm[] | null {
  const categories = localeCategories(locale);
  if (count === categories.length) return categories;
  if (count === categories.length + 1 && !zeroCategoryIsExactlyZero(locale)) return ['zero', ...categories];
  // vue-i18n's own default rule: two forms are one | other, three zero | one | other.
  if (count === 2) return ['one', 'other'];
  if (count === 3) return ['zero', 'one', 'other'];
  return null;
}

export function parseVueI18n(content: string, options: ParseOptions): ParsedFile {
  const { strings, variantName } = flatStrings(readJsonObject(content), options.keySeparator ?? '.');
  const entries: ParsedEntry[] = strings.map(({ key, text, at }) => {
    let problem: string | null = null;
    const parser = createParser({
      location: false,
      onError: (error) => {
        problem ??= error.message;
      },
    });
    const resource = parser.parse(text) as unknown as { body: VueNode };
    if (problem !== null) throw new MalformedFile(at, `not a valid vue-i18n message (${problem})`);
    const body = resource.body;
    if (body.type !== NODE.Plural)
      return { key, at, value: settlePlurals(messageText(body, text), new Map(), options.locale) };
    const cases = body.cases ?? [];
    const forms = formsOf(cases.length, options.locale);
    if (forms === null) {
      const expected = localeCategories(options.locale).length;
      throw new MalformedFile(at, `${cases.length} plural forms, but locale ${options.locale} has ${expected}`);
    }
    const found = new Map(forms.map((form, index) => [form, messageText(cases[index]!, text)]));
    return {
      key,
      at,
      value: settlePlurals(null, found, options.locale, forms.length > localeCategories(options.locale).length),
    };
  });
  return { entries, skipped: [], variantName, carriesPlurals: true };
}
