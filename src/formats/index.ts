/** The formats, keyed by the `format` query parameter: written whole (`exporters`) or entry by entry (`fileFormats`). */
import { android, androidFormat } from './android.js';
import { arb, arbFormat } from './arb.js';
import { iosStrings, iosStringsFormat } from './ios-strings.js';
import { iosStringsdict, iosStringsdictFormat } from './ios-stringsdict.js';
import { jsonI18next, jsonI18nextFormat } from './json-i18next.js';
import { jsonIcu, jsonIcuFormat } from './json-icu.js';
import { jsonVueI18n, jsonVueI18nFormat } from './json-vue-i18n.js';
import type { Exporter, FileFormat, FormatName } from './types.js';

export const fileFormats: Record<FormatName, FileFormat> = {
  json_icu: jsonIcuFormat,
  json_i18next: jsonI18nextFormat,
  json_vue_i18n: jsonVueI18nFormat,
  'ios-strings': iosStringsFormat,
  'ios-stringsdict': iosStringsdictFormat,
  android: androidFormat,
  arb: arbFormat,
};

export const exporters: Record<FormatName, Exporter> = {
  json_icu: jsonIcu,
  json_i18next: jsonI18next,
  json_vue_i18n: jsonVueI18n,
  'ios-strings': iosStrings,
  'ios-stringsdict': iosStringsdict,
  android,
  arb,
};
