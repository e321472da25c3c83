/** Writing the JSON formats: key order as given, the variant metadata keys and the variable summary. */
import type { ExportDocument, ExportedFile } from '../types.js';
import { compareNames } from './variables.js';

export type JsonPairs = Array<[key: string, value: unknown]>;

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON object with its keys in the given order, two-space indented, with a final newline.
 * Built by hand because `JSON.stringify` of an object moves integer-like keys (a developer ID
 * such as `404`) to the front.
 */
export function jsonFile(pairs: JsonPairs): ExportedFile {
  if (pairs.length === 0) return { body: '{}\n', contentType: JSON_CONTENT_TYPE };
  const members = pairs.map(
    ([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replaceAll('\n', '\n  ')}`,
  );
  return { body: `{\n${members.join(',\n')}\n}\n`, contentType: JSON_CONTENT_TYPE };
}

/**
 * `__variant-name` and `__variant-description` of a variant export, unless excluded. The values
 * are the variant's own strings, unescaped: they are metadata, not messages.
 */
export function variantMetadata(document: ExportDocument): JsonPairs {
  const { variant, options } = document;
  if (variant === null || options.excludeVariantMetadata) return [];
  return [
    ['__variant-name', variant.name],
    ['__variant-description', variant.description],
  ];
}

/** `__variables_used`: the names of the variables the exported records use, deduplicated, alphabetical. */
export function variableSummary(document: ExportDocument): JsonPairs {
  if (!document.options.includeVariableSummary) return [];
  const names = new Set(document.entries.flatMap((entry) => entry.variables.map((variable) => variable.name)));
  return [['__variables_used', [...names].sort(compareNames)]];
}
