/** Writing the JSON formats: key order as given, the variant metadata keys and the variable summary. */
import type { DocumentHeader, ExportEntry, FileWriter } from '../types.js';
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
    this.#members += 1;
    return `${this.#members === 1 ? '{' : ','}${indentedMember(key, value)}`;
  }

  members(pairs: JsonPairs): string {
    let out = '';
    for (const pair of pairs) out += this.member(pair[0], pair[1]);
    return out;
  }

  end(): string {
    return this.#members === 0 ? '{}\n' : '\n}\n';
  }
}

/** One member on a line of its own: the indented `"key": value`, after the `{` or `,` before it. */
function indentedMember(key: string, value: unknown): string {
  const json =
    typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value, null, 2).replaceAll('\n', '\n  ');
  return `\n  ${JSON.stringify(key)}: ${json}`;
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
class VariableSummary {
  readonly #names: Set<string> | null;

  constructor(header: DocumentHeader) {
    this.#names = header.options.includeVariableSummary ? new Set() : null;
  }

  /** Whether the file lists the variables used (`includeVariableSummary`). */
  get enabled(): boolean {
    return this.#names !== null;
  }

  add(name: string): void {
    this.#names?.add(name);
  }

  pairs(): JsonPairs {
    return this.#names ? [['__variables_used', [...this.#names].sort(compareNames)]] : [];
  }
}

/**
 * A JSON object of messages, as the i18next and vue-i18n files are: the variant's metadata, a
 * member or more per record (`pairsOf`), then `__variables_used` when the export asks for it.
 */
export function jsonMessagesWriter(header: DocumentHeader, pairsOf: (entry: ExportEntry) => JsonPairs): FileWriter {
  const json = new JsonObjectWriter();
  const summary = new VariableSummary(header);
  return {
    head: () => json.members(variantMetadata(header)),
    entry(entry) {
      if (summary.enabled) for (const variable of entry.variables) summary.add(variable.name);
      return json.members(pairsOf(entry));
    },
    tail: () => json.members(summary.pairs()) + json.end(),
  };
}
