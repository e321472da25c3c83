import { createRequire } from 'node:module';
import { parse as parseIcu } from '@formatjs/icu-messageformat-parser';
import i18next from 'i18next';
import IntlMessageFormat from 'intl-messageformat';
import * as plist from 'plist';
import { expect } from 'vitest';
import { decodeResources } from '../formats/aapt2-decoder.js';
import { formatPrintf } from '../formats/printf.js';
import { decodeStrings } from '../formats/strings-decoder.js';
import { type ExpectedRecord, fill, positional, VALUES } from './expected.js';
import { type Form, VARIABLES } from './workspace.js';

/**
 * Each pulled file loaded into the program an app would load it with, and every expected record
 * rendered through it: the texts, the variables, and each seeded plural form picked by count.
 */

const stringsFiles = createRequire(import.meta.url)('i18n-strings-files') as {
  parse(input: string, wantsComments?: boolean): Record<string, unknown>;
};

const COUNTS = [0, 1, 2, 3, 5, 11, 21, 22, 25, 100, 1_000_000];

/** Positional arguments as app code passes them: every variable a string, the count included. */
const args = (record: ExpectedRecord, count: number) =>
  positional(record.variables).map((name) => String(name === 'count' ? count : VALUES[name]));

/** The values for a record's primary text: a count too when it is a plain variable of the text. */
const PLAIN = { ...VALUES, count: 3 };

/** The counts whose plural category the record has a seeded form for, with that form. */
function countsOf(record: ExpectedRecord, locale: string): Array<[number, string]> {
  const rules = new Intl.PluralRules(locale);
  return COUNTS.flatMap((n): Array<[number, string]> => {
    const form = record.plurals?.[rules.select(n) as Form];
    return form === undefined ? [] : [[n, form]];
  });
}

const where = (file: string, record: ExpectedRecord) => `${file}: ${record.id}`;
const withoutMetadata = (json: Record<string, unknown>) => Object.keys(json).filter((k) => !k.startsWith('__variant'));
const jsonKeys = (records: readonly ExpectedRecord[]) =>
  records.flatMap((r) => [r.id, ...Object.keys(r.plurals ?? {}).map((form) => `${r.id}_${form}`)]).sort();

/** `flat`: i18next v4 JSON, plural forms as `<id>_<form>`. */
export async function checkFlat(file: string, body: string, records: readonly ExpectedRecord[], locale: string) {
  const json = JSON.parse(body) as Record<string, unknown>;
  expect(withoutMetadata(json).sort(), file).toEqual(jsonKeys(records));
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: locale,
    resources: { [locale]: { translation: json } },
    interpolation: { escapeValue: false },
  });
  for (const record of records) {
    // A plural record's plain key holds its primary text; i18next reads it when no count is given.
    const values: Record<string, unknown> = record.plurals ? VALUES : PLAIN;
    expect(i18n.t(record.id, values), where(file, record)).toBe(fill(record.text, values));
    for (const [count, form] of countsOf(record, locale)) {
      expect(i18n.t(record.id, { ...VALUES, count }), `${where(file, record)} count ${count}`).toBe(
        fill(form, { ...VALUES, count }),
      );
    }
  }
}

/** `structured`: one object per record with text, status, plurals, variables, rich text. */
export function checkStructured(
  file: string,
  body: string,
  records: readonly ExpectedRecord[],
  variant: string | null,
  folderNames: Record<string, string> | null,
) {
  const json = JSON.parse(body) as Record<string, any>;
  expect(withoutMetadata(json).sort(), file).toEqual(records.map((r) => r.id).sort());
  for (const record of records) {
    const entry = json[record.id];
    const source = record.source;
    expect(entry.text, where(file, record)).toBe(record.text);
    expect(entry.status, where(file, record)).toBe(
      variant === null ? source.status : source.variants![variant]!.status,
    );
    if (record.plurals) expect(entry.plurals, where(file, record)).toMatchObject(record.plurals);
    else expect(entry.plurals ?? {}, where(file, record)).toEqual({});
    if (source.html && variant === null) expect(entry.rich_text, where(file, record)).toBe(`<p>${source.html}</p>`);
    expect(Object.keys(entry.variables ?? {}).sort(), where(file, record)).toEqual([...record.variables].sort());
    for (const name of record.variables) {
      const variable = VARIABLES.find((v) => v.name === name)!;
      // As ditto-react reads them: a list is the array of its values, a map's keys sit beside __type.
      if (variable.type === 'list') expect(entry.variables[name], where(file, record)).toEqual(variable.data);
      else expect(entry.variables[name].__type, where(file, record)).toBe(variable.type);
      if (variable.type === 'map')
        expect(entry.variables[name], where(file, record)).toEqual({ ...(variable.data as object), __type: 'map' });
      if ('example' in variable.data)
        expect(entry.variables[name].example, where(file, record)).toBe(variable.data.example);
    }
    if (variant === null && source.notes) expect(entry.notes, where(file, record)).toBe(source.notes);
    if (variant === null && source.tags) expect(entry.tags, where(file, record)).toEqual(source.tags);
    if (folderNames !== null) {
      expect(entry.name, where(file, record)).toBe(record.id);
      const folder = source.folder;
      if (folder === undefined) expect(entry.folder ?? null, where(file, record)).toBeNull();
      else expect([folder, folderNames[folder]], where(file, record)).toContain(entry.folder);
    }
  }
}

/** `icu`: one ICU message per record, rendered by formatjs for the file's locale. */
export function checkIcu(file: string, body: string, records: readonly ExpectedRecord[], locale: string) {
  const json = JSON.parse(body) as Record<string, string>;
  expect(withoutMetadata(json).sort(), file).toEqual(records.map((r) => r.id).sort());
  for (const record of records) {
    const message = json[record.id]!;
    expect(() => parseIcu(message, { requiresOtherClause: true }), where(file, record)).not.toThrow();
    const format = (values: Record<string, unknown>) =>
      new IntlMessageFormat(message, locale).format(values as Record<string, string>);
    if (!record.plurals) expect(format(PLAIN), where(file, record)).toBe(fill(record.text, PLAIN));
    for (const [count, form] of countsOf(record, locale)) {
      const values = { ...VALUES, count };
      expect(format(values), `${where(file, record)} count ${count}`).toBe(fill(form, values));
    }
  }
}

/** `android`: well-formed XML whose values, decoded by aapt2's rules, print the texts. */
export function checkAndroid(file: string, body: string, records: readonly ExpectedRecord[], locale: string) {
  const { resources } = decodeResources(body);
  const byName = (kind: string) => new Map(resources.filter((r) => r.kind === kind).map((r) => [r.attributes.name, r]));
  const strings = byName('string');
  const plurals = byName('plurals');
  expect([...strings.keys()].sort(), file).toEqual(records.map((r) => r.id).sort());
  expect([...plurals.keys()].sort(), file).toEqual(
    records
      .filter((r) => r.plurals)
      .map((r) => r.id)
      .sort(),
  );
  for (const record of records) {
    const text = strings.get(record.id)!.values.get('')!.text;
    expect(formatPrintf(text, args(record, 3)), where(file, record)).toBe(fill(record.text, PLAIN));
    for (const [count, form] of countsOf(record, locale)) {
      const item = plurals.get(record.id)!.values.get(new Intl.PluralRules(locale).select(count));
      expect(item, `${where(file, record)} count ${count}`).toBeDefined();
      expect(formatPrintf(item!.text, args(record, count)), `${where(file, record)} count ${count}`).toBe(
        fill(form, { ...VALUES, count }),
      );
    }
  }
}

/** `ios-strings`: a CoreFoundation-grammar decoder and i18n-strings-files agree on every text. */
export function checkStrings(file: string, body: string, records: readonly ExpectedRecord[]) {
  const decoded = decodeStrings(body);
  expect([...decoded.keys()].sort(), file).toEqual(records.map((r) => r.id).sort());
  expect(Object.keys(stringsFiles.parse(body)).sort(), file).toEqual(records.map((r) => r.id).sort());
  for (const record of records) {
    const value = decoded.get(record.id)!.value;
    expect(formatPrintf(value, args(record, 3)), where(file, record)).toBe(fill(record.text, PLAIN));
  }
}

/** `ios-stringsdict`: a plist of the plural records; the count is argument 1, the rest follow. */
export function checkStringsDict(file: string, body: string, records: readonly ExpectedRecord[], locale: string) {
  const dict = plist.parse(body) as Record<string, any>;
  const plural = records.filter((r) => r.plurals);
  expect(Object.keys(dict).sort(), file).toEqual(plural.map((r) => r.id).sort());
  for (const record of plural) {
    const entry = dict[record.id];
    expect(entry.NSStringLocalizedFormatKey, where(file, record)).toBe('%1$#@count@');
    expect(entry.count.NSStringFormatSpecTypeKey, where(file, record)).toBe('NSStringPluralRuleType');
    const rest = positional(record.variables).filter((name) => name !== 'count');
    for (const [count, form] of countsOf(record, locale)) {
      const text = entry.count[new Intl.PluralRules(locale).select(count)];
      const values = [count, ...rest.map((name) => String(VALUES[name]))];
      expect(formatPrintf(text, values), `${where(file, record)} count ${count}`).toBe(
        fill(form, { ...VALUES, count }),
      );
    }
  }
}
