/** The exporter of each format, keyed by the `format` query parameter. */
import { android } from './android.js';
import { arb } from './arb.js';
import { iosStrings } from './ios-strings.js';
import { iosStringsdict } from './ios-stringsdict.js';
import { jsonI18next } from './json-i18next.js';
import { jsonIcu } from './json-icu.js';
import { jsonVueI18n } from './json-vue-i18n.js';
import type { Exporter, FormatName } from './types.js';

export const exporters: Record<FormatName, Exporter> = {
  json_icu: jsonIcu,
  json_i18next: jsonI18next,
  json_vue_i18n: jsonVueI18n,
  'ios-strings': iosStrings,
  'ios-stringsdict': iosStringsdict,
  android,
  arb,
};
