/** Writing the JSON formats: key order as given, the variant metadata keys and the variable summary. */
import {
  type DocumentHeader,
  type ExportEntry,
  type FileWriter,
  fileWriter,
  spanBody,
  variableNames,
} from '../types.js';
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
    return this.place(memberAfterAnother(key, value));
  }

  /**
   * Members written as they would be after another one (each starts with `,`): an entry's
   * fragment, which `place` turns into the object's first members when nothing came before.
   */
  static fragment(pairs: JsonPairs): string {
    let out = '';
    for (const [key, value] of pairs) out += memberAfterAnother(key, value);
    return out;
  }

  /** Writes members made by `fragment` (or `memberAfterAnother`) at this point of the object. */
  place(members: string): string {
    if (members === '') return '';
    this.#members += 1;
    return this.#members === 1 ? `{${members.slice(1)}` : members;
  }

  /**
   * Members made by `fragment` and stored, placed whole: null when they go out as they are
   * (nothing, or members after others), else what writes them (the object's first members).
   */
  placeStored(empty: boolean): ((members: string) => string) | null {
    if (empty) return null;
    if (this.#members === 0) return (members) => this.place(members);
    this.#members += 1;
    return null;
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

/** One member as written after another: `,` then the indented `"key": value`. */
function memberAfterAnother(key: string, value: unknown): string {
  const json =
    typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value, null, 2).replaceAll('\n', '\n  ');
  return `,\n  ${JSON.stringify(key)}: ${json}`;
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

  addNames(names: readonly string[]): void {
    if (this.#names) for (const name of names) this.#names.add(name);
  }

  pairs(): JsonPairs {
    return this.#names ? [['__variables_used', [...this.#names].sort(compareNames)]] : [];
  }
}

/**
 * A JSON object of messages, as the i18next and vue-i18n files are: the variant's metadata, a
 * member or more per record (`pairsOf`), then `__variables_used` when the export asks for it.
 * Spans and stored runs of records are placed as their bytes, their variables still counted.
 */
export function jsonMessagesWriter(header: DocumentHeader, pairsOf: (entry: ExportEntry) => JsonPairs): FileWriter {
  const json = new JsonObjectWriter();
  const summary = new VariableSummary(header);
  return fileWriter({
    head: () => json.members(variantMetadata(header)),
    fragment: (entry) => ({ body: JsonObjectWriter.fragment(pairsOf(entry)), variables: variableNames(entry) }),
    place(fragment) {
      summary.addNames(fragment.variables);
      return json.place(fragment.body);
    },
    placeSpan(source, entries) {
      for (const entry of entries) if (entry.length >= 0) summary.addNames(entry.variables);
      return json.place(spanBody(source, entries));
    },
    placeRun(run) {
      if (summary.enabled) for (const entry of run.entries()) if (entry.length >= 0) summary.addNames(entry.variables);
      return json.placeStored(run.empty);
    },
    tail: () => json.members(summary.pairs()) + json.end(),
  });
}
