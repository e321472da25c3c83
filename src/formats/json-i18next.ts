/**
 * json_i18next: `{ "<developer id>": "text" }` with `{{name}}` kept, and plural records as
 * `<id>_<category>` keys beside the primary text (rules in docs/formats/json_i18next.md).
 */
import { JSON_CONTENT_TYPE, type JsonPairs, jsonMessagesWriter } from './shared/json.js';
import { pluralForms } from './shared/plurals.js';
import { exportText } from './shared/texts.js';
import { type FileFormat, wholeFile } from './types.js';

export const jsonI18nextFormat: FileFormat = {
  contentType: JSON_CONTENT_TYPE,
  writer(header) {
    const mode = header.options.richText;
    return jsonMessagesWriter(header, (entry) => {
      const pairs: JsonPairs = [[entry.id, exportText(entry.text, entry.richText, mode)]];
      // i18next looks up `_zero` for a count of 0 in every language before the locale's own
      // category, so one `_zero` key serves both, as the zero key does in stringsdict.
      if (entry.plurals.length > 0) {
        for (const form of pluralForms(entry, header.locale)) {
          pairs.push([`${entry.id}_${form.form}`, exportText(form.text, form.richText, mode)]);
        }
      }
      return pairs;
    });
  },
};

export const jsonI18next = wholeFile(jsonI18nextFormat);
