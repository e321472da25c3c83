/**
 * json_icu: `{ "<developer id>": "<ICU message>" }`, one message per record (rules and choices
 * in docs/formats/json_icu.md).
 */
import { icuMessage } from './shared/icu.js';
import { type JsonPairs, jsonFile, variantMetadata } from './shared/json.js';
import type { ExportDocument, ExportedFile, Exporter } from './types.js';

export const jsonIcu: Exporter = (document: ExportDocument): ExportedFile => {
  const pairs: JsonPairs = variantMetadata(document);
  for (const entry of document.entries) {
    pairs.push([entry.id, icuMessage(entry, document, { collectionsAsSelect: true })]);
  }
  return jsonFile(pairs);
};
