/** Writing the JSON formats: key order as given, the variant metadata keys and the variable summary. */
import type { DocumentHeader, ExportEntry } from '../types.js';
import { compareNames } from './variables.js';

export type JsonPairs = Array<[key: string, value: unknown]>;

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * One JSON object written member by member, keys in the order given, two-space indented, with a
 * final newline. Written by hand because `JSON.stringify` of an object moves integer-like keys (a
 * developer ID such as `404`) to the front, and because a file is written in pieces.
 */
export class JsonObjectWriter {
  #members = 0;

  /** `{` before the first member, `,` before the others. */
  member(key: string, value: unknown): string {
    const json =
      typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value, null, 2).replaceAll('\n', '\n  ');
    const text = `  ${JSON.stringify(key)}: ${json}`;
    this.#members += 1;
    return this.#members === 1 ? `{\n${text}` : `,\n${text}`;
  }

  members(pairs: JsonPairs): string {
    let out = '';
    for (const [key, value] of pairs) out += this.member(key, value);
    return out;
  }

  end(): string {
    return this.#members === 0 ? '{}\n' : '\n}\n';
  }
}

/**
 * `__variant-name` and `__variant-description` of a variant export, unless excluded. The values
 * are the variant's own strings, unescaped: they are metadata, not messages.
 */
export function variantMetadata(header: DocumentHeader): JsonPairs {
  const { variant, options } = header;
  if (variant === null || options.excludeVariantMetadata) return [];
  return [
    ['__variant-name', variant.name],
    ['__variant-description', variant.description],
  ];
}

/**
 * `__variables_used`: the names of the variables the exported records use, deduplicated,
 * alphabetical. Collected as entries are written, when the export asks for it.
 */
export class VariableSummary {
  readonly #names: Set<string> | null;

  constructor(header: DocumentHeader) {
    this.#names = header.options.includeVariableSummary ? new Set() : null;
  }

  add(entry: ExportEntry): void {
    if (this.#names) for (const variable of entry.variables) this.#names.add(variable.name);
  }

  pairs(): JsonPairs {
    return this.#names ? [['__variables_used', [...this.#names].sort(compareNames)]] : [];
  }
}
