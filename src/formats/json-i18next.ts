/**
 * json_i18next: `{ "<developer id>": "text" }` with `{{name}}` kept, and plural records as
 * `<id>_<category>` keys beside the primary text (rules in docs/formats/json_i18next.md).
 */
import { type JsonPairs, jsonFile, variableSummary, variantMetadata } from './shared/json.js';
import { pluralForms } from './shared/plurals.js';
import { exportText } from './shared/texts.js';
import type { ExportDocument, ExportedFile, Exporter } from './types.js';

export const jsonI18next: Exporter = (document: ExportDocument): ExportedFile => {
  const pairs: JsonPairs = variantMetadata(document);
  for (const entry of document.entries) {
    const mode = document.options.richText;
    pairs.push([entry.id, exportText(entry.text, entry.richText, mode)]);
    if (entry.plurals.length === 0) continue;
    // i18next looks up `_zero` for a count of 0 in every language before the locale's own
    // category, so one `_zero` key serves both, as the zero key does in stringsdict.
    for (const form of pluralForms(entry, document.locale)) {
      pairs.push([`${entry.id}_${form.form}`, exportText(form.text, form.richText, mode)]);
    }
  }
  pairs.push(...variableSummary(document));
  return jsonFile(pairs);
};
