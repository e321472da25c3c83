/**
 * json_i18next and nested JSON: `{ "key": "text" }` with `{{name}}` placeholders as stored, plural
 * forms as `<key>_<form>` keys beside the display text (nested objects join their keys).
 */
import { findPlaceholders } from '../../text/placeholders.js';
import { flatStrings, readJsonObject } from './json.js';
import { formTexts, groupPluralKeys, settlePlurals } from './plurals.js';
import type { ParsedFile, ParseOptions } from './types.js';

export function parseI18next(content: string, options: ParseOptions): ParsedFile {
  const { strings, variantName } = flatStrings(readJsonObject(content), options.keySeparator ?? '.');
  const entries = groupPluralKeys(strings).map(({ key, primary, forms }) => {
    const value = settlePlurals(primary?.text ?? null, formTexts(forms), options.locale);
    return { key, at: (primary ?? [...forms.values()][0]!).at, value };
  });
  return { entries, skipped: [], variantName, carriesPlurals: true };
}

/** The placeholder names a text uses, for listing the workspace's variables. */
export const placeholderNames = (texts: readonly string[]) => [
  ...new Set(texts.flatMap((text) => findPlaceholders(text).map((p) => p.name))),
];
