/**
 * json_icu and arb: one ICU message per key, read with formatjs's parser. Arguments of any kind
 * become `{{name}}`; a plural (one per message) becomes plural forms, with the text around it
 * repeated in every form (rules and what is lost in docs/import.md).
 */
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import type { PluralForm } from '../../db/schema.js';
import { localeCategories } from '../shared/plurals.js';
import { flatStrings, type JsonString, readJsonObject } from './json.js';
import { isForm, settlePlurals } from './plurals.js';
import { MalformedFile, type ParsedEntry, type ParsedFile, type ParseOptions, type SkippedEntry } from './types.js';

class Unsupported extends Error {}

const EXACT: Readonly<Record<string, PluralForm>> = { '=1': 'one', '=2': 'two' };

function render(elements: readonly MessageFormatElement[], pound: string | null): string {
  let out = '';
  for (const element of elements) {
    switch (element.type) {
      case TYPE.literal:
        out += element.value;
        break;
      case TYPE.pound:
        if (pound === null) throw new Unsupported('# outside a plural');
        out += `{{${pound}}}`;
        break;
      case TYPE.argument:
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
      case TYPE.select:
        out += `{{${element.value}}}`;
        break;
      case TYPE.plural:
        throw new Unsupported('a plural inside a plural or a second plural in one message');
      case TYPE.tag:
        out += `<${element.value}>${render(element.children, pound)}</${element.value}>`;
        break;
    }
  }
  return out;
}

/** One ICU message as a stored text: its display text and plural forms. */
export function icuValue(message: string, where: string, locale: string) {
  let elements: MessageFormatElement[];
  try {
    elements = parse(message, { ignoreTag: true, requiresOtherClause: false });
  } catch (error) {
    const column = (error as { location?: { start: { column: number } } }).location?.start.column;
    const place = column === undefined ? '' : ` at column ${column}`;
    throw new MalformedFile(where, `not a valid ICU message (${(error as Error).message}${place})`);
  }
  const plurals = elements.filter((element) => element.type === TYPE.plural);
  if (plurals.length === 0) return settlePlurals(render(elements, null), new Map(), locale);
  if (plurals.length > 1) throw new Unsupported('more than one plural in one message');
  const plural = plurals[0]!;
  if (plural.pluralType === 'ordinal') throw new Unsupported('selectordinal has no stored equivalent');
  const at = elements.indexOf(plural);
  const before = render(elements.slice(0, at), null);
  const after = render(elements.slice(at + 1), null);
  const forms = new Map<PluralForm, string>();
  const exact = new Map<PluralForm, { selector: string; text: string }>();
  let explicitZero = false;
  for (const [selector, option] of Object.entries(plural.options)) {
    const text = before + render(option.value, plural.value) + after;
    if (selector === '=0') {
      forms.set('zero', text);
      explicitZero = true;
    } else if (isForm(selector)) {
      if (!(selector === 'zero' && explicitZero)) forms.set(selector, text);
    } else if (selector in EXACT) exact.set(EXACT[selector]!, { selector, text });
    else throw new Unsupported(`the plural case ${selector} has no stored equivalent`);
  }
  // Flutter writes `=1` and `=2` where CLDR has `one` and `two`: they become those forms when the
  // message does not give the category itself and the locale has it.
  for (const [form, { selector, text }] of exact) {
    if (forms.has(form)) continue;
    if (!localeCategories(locale).includes(form)) {
      throw new Unsupported(`the plural case ${selector} has no stored equivalent in locale ${locale}`);
    }
    forms.set(form, text);
  }
  return settlePlurals(null, forms, locale, explicitZero);
}

/** Messages of a flat file as entries; a message copydesk cannot hold is skipped with the reason. */
export function icuEntries(
  strings: readonly JsonString[],
  locale: string,
  notes: (key: string) => string | undefined,
): { entries: ParsedEntry[]; skipped: SkippedEntry[] } {
  const entries: ParsedEntry[] = [];
  const skipped: SkippedEntry[] = [];
  for (const { key, text, at } of strings) {
    try {
      const value = icuValue(text, at, locale);
      const note = notes(key);
      entries.push({ key, at, value: note === undefined ? value : { ...value, notes: note } });
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      skipped.push({ key, reason: error.message });
    }
  }
  return { entries, skipped };
}

export function parseJsonIcu(content: string, options: ParseOptions): ParsedFile {
  const { strings, variantName } = flatStrings(readJsonObject(content), options.keySeparator ?? '.');
  return { ...icuEntries(strings, options.locale, () => undefined), variantName, carriesPlurals: true };
}

/** arb: messages beside `@key` objects whose `description` is the notes; `@@` keys are the file's. */
export function parseArb(content: string, options: ParseOptions): ParsedFile {
  const object = readJsonObject(content);
  const strings: JsonString[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (key.startsWith('@')) {
      if (key.startsWith('@@') || value === null || typeof value === 'object') continue;
      throw new MalformedFile(`key "${key}"`, 'an @ key must hold an object of attributes');
    }
    if (typeof value !== 'string') throw new MalformedFile(`key "${key}"`, 'must be a string message');
    strings.push({ key, text: value, at: `key "${key}"` });
  }
  const notes = (key: string) => {
    const description = (object[`@${key}`] as { description?: unknown } | undefined)?.description;
    return typeof description === 'string' ? description : undefined;
  };
  const variant = object['@@x-variant-name'];
  return {
    ...icuEntries(strings, options.locale, notes),
    variantName: typeof variant === 'string' ? variant : null,
    carriesPlurals: true,
  };
}
