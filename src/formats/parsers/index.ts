/** The parser of each import format, keyed by the `format` of POST /v2/import. */
import { parseAndroid } from './android.js';
import { parseI18next } from './i18next.js';
import { parseArb, parseJsonIcu } from './icu.js';
import { parseIosStrings } from './ios-strings.js';
import { parseIosStringsdict } from './stringsdict.js';
import type { ParsedFile, ParseOptions } from './types.js';
import { parseVueI18n } from './vue-i18n.js';

export const IMPORT_FORMATS = [
  'json_i18next',
  'json_vue_i18n',
  'json_icu',
  'arb',
  'ios-strings',
  'ios-stringsdict',
  'android',
  'json_nested',
  'csv',
] as const;

export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export type Parser = (content: string, options: ParseOptions, companion?: string) => ParsedFile;

/** The one-column formats; csv has its own entry (`parseCsv`), since its columns are several texts. */
export const parsers: Record<Exclude<ImportFormat, 'csv'>, Parser> = {
  json_i18next: parseI18next,
  json_vue_i18n: parseVueI18n,
  json_icu: parseJsonIcu,
  arb: parseArb,
  'ios-strings': parseIosStrings,
  'ios-stringsdict': parseIosStringsdict,
  android: parseAndroid,
  // Nested objects are read by every JSON parser; `json_nested` names the i18next reading of them.
  json_nested: parseI18next,
};

export { type CsvMapping, parseCsv } from './csv.js';
export { namePrintf, printfArguments } from './printf.js';
export * from './types.js';
