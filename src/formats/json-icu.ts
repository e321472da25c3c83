/**
 * json_icu: `{ "<developer id>": "<ICU message>" }`, one message per record (rules and choices
 * in docs/formats/json_icu.md).
 */
import { icuMessage } from './shared/icu.js';
import { JSON_CONTENT_TYPE, JsonObjectWriter, variantMetadata } from './shared/json.js';
import { type FileFormat, fileWriter, spanBody, wholeFile } from './types.js';

export const jsonIcuFormat: FileFormat = {
  contentType: JSON_CONTENT_TYPE,
  writer(header) {
    const json = new JsonObjectWriter();
    return fileWriter({
      head: () => json.members(variantMetadata(header)),
      fragment: (entry) => ({
        body: JsonObjectWriter.fragment([[entry.id, icuMessage(entry, header, { collectionsAsSelect: true })]]),
        variables: [],
      }),
      place: (fragment) => json.place(fragment.body),
      placeSpan: (source, entries) => json.place(spanBody(source, entries)),
      placeRun: (run) => json.placeStored(run.empty),
      tail: () => json.end(),
    });
  },
};

export const jsonIcu = wholeFile(jsonIcuFormat);
