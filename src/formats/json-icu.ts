/**
 * json_icu: `{ "<developer id>": "<ICU message>" }`, one message per record (rules and choices
 * in docs/formats/json_icu.md).
 */
import { icuMessage } from './shared/icu.js';
import { JSON_CONTENT_TYPE, JsonObjectWriter, variantMetadata } from './shared/json.js';
import { type FileFormat, wholeFile } from './types.js';

export const jsonIcuFormat: FileFormat = {
  contentType: JSON_CONTENT_TYPE,
  writer(header) {
    const json = new JsonObjectWriter();
    return {
      head: () => json.members(variantMetadata(header)),
      entry: (entry) => json.member(entry.id, icuMessage(entry, header, { collectionsAsSelect: true })),
      tail: () => json.end(),
    };
  },
};

export const jsonIcu = wholeFile(jsonIcuFormat);
