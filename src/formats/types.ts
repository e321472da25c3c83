import type { PluralForm } from '../db/schema.js';

/**
 * What every exporter receives: records already selected, filtered, sorted and resolved to the
 * exported variant's text (or base text). Exporters are pure functions of this document.
 */

export type VariableType = 'string' | 'number' | 'hyperlink' | 'list' | 'map';

export interface ExportVariable {
  /** The variable's name, which is also its developer ID and the `{{name}}` placeholder. */
  name: string;
  type: VariableType;
  /** As stored: `{ example, fallback? }`, `{ text, url }`, `string[]` or `Record<string, string>`. */
  data: unknown;
  /** Position in the workspace's variable creation order (0-based), for `variableOrder=default`. */
  creationIndex: number;
}

export interface ExportPlural {
  form: PluralForm;
  text: string;
  /** Stored rich-text markup of this form, when the record is rich text. */
  richText: string | null;
}

export interface ExportEntry {
  /** Developer ID: the key in every format. */
  id: string;
  /** Plain text of the primary record (the display text). */
  text: string;
  /** Stored rich-text markup, when the record is rich text. */
  richText: string | null;
  /** Plural forms of the record, empty when it has none. */
  plurals: ExportPlural[];
  notes: string;
  /** The listed variables this entry's texts use (any order; exporters order them). */
  variables: ExportVariable[];
}

export interface ExportDocument {
  /** BCP 47 tag: the variant's locale code, or the workspace's base language. */
  locale: string;
  /** The exported variant, or null for base text. */
  variant: { id: string; name: string; description: string } | null;
  entries: ExportEntry[];
  options: ExportOptions;
}

export interface ExportOptions {
  /** Export stored markup instead of plain text (formats that carry markup). */
  richText: 'html' | 'html_paragraphs' | null;
  variableOrder: 'default' | 'alphabetical';
  excludeVariantMetadata: boolean;
  includeVariableSummary: boolean;
}

export interface ExportedFile {
  body: string;
  contentType: string;
}

export type Exporter = (document: ExportDocument) => ExportedFile;

/** A document without its entries: what a file's head and tail depend on. */
export type DocumentHeader = Omit<ExportDocument, 'entries'>;

/**
 * One entry rendered on its own: what the exports' fragment store keeps (docs/exports.md). The
 * same entry and header always give the same fragment, whatever comes before or after it in the
 * file; what does depend on the neighbours is applied by `FileWriter.place`.
 */
export interface EntryFragment {
  /**
   * The entry's text as written after another entry (a JSON member starts with its `,`, a
   * `.strings` block with its blank line); '' when the format writes nothing of it.
   */
  body: string;
  /** The names of the variables the entry uses (for `__variables_used`), in any order. */
  variables: readonly string[];
  /** Android: the offsets in `body` where the resource name (the sanitised ID) is written. */
  nameAt?: readonly number[];
}

/**
 * One file being written in order, entry by entry: the concatenation of `head()`, `entry()` of
 * each entry in file order and `tail()` is the file. `entry(e)` is `place(fragment(e), e.id)`: a
 * fragment is the entry on its own, and `place` writes it at its position (the first JSON member
 * opens the object, a second Android resource of the same name is renamed). A writer keeps only
 * what the tail and the placing need (the variables used, the Android names taken), so a file of
 * any size is written from one page of entries, or of stored fragments, at a time.
 */
export interface FileWriter {
  head(): string;
  entry(entry: ExportEntry): string;
  /** Pure: depends on the entry and the header only. */
  fragment(entry: ExportEntry): EntryFragment;
  place(fragment: EntryFragment, id: string): string;
  /**
   * Consecutive fragments at once: `entries` say where each one's bytes are in `source` (an entry
   * of negative length has none and is skipped), and the span is `source` from the first one's
   * bytes to the last one's. The same bytes as `place` of each in turn, without taking the span
   * apart when no fragment of it needs changing (the usual case: only a file's first entry or a
   * clashing Android name does).
   */
  placeSpan(source: string, entries: readonly SpanEntry[]): string;
  /**
   * A stored run placed whole (its fragments end to end): takes its entries into account as
   * `placeSpan` does, and answers null when the run's bytes go out exactly as stored (so an
   * export that keeps them compressed sends them as they are), else what writes them, to call at
   * once with the run's bytes. A format that needs no more than `empty` never reads `entries`.
   */
  placeRun(run: StoredRunShape): ((source: string) => string) | null;
  tail(): string;
}

/** One fragment of a span: its entry's developer ID, its bytes' place in the source, and what placing needs. */
export interface SpanEntry {
  id: string;
  at: number;
  length: number;
  variables: readonly string[];
  nameAt?: readonly number[];
}

/** A stored run as a writer sees it: whether it has any bytes, and its entries (read on demand). */
export interface StoredRunShape {
  empty: boolean;
  entries(): readonly SpanEntry[];
}

/** The bytes of a span: `source` from its first placed entry's bytes to its last one's. */
export function spanBody(source: string, entries: readonly SpanEntry[]): string {
  let first = 0;
  while (first < entries.length && (entries[first] as SpanEntry).length < 0) first += 1;
  let last = entries.length - 1;
  while (last >= first && (entries[last] as SpanEntry).length < 0) last -= 1;
  if (first > last) return '';
  const start = (entries[first] as SpanEntry).at;
  const end = (entries[last] as SpanEntry).at + (entries[last] as SpanEntry).length;
  return start === 0 && end === source.length ? source : source.slice(start, end);
}

/**
 * The parts of a writer a format defines; `entry` is derived, and so are `placeSpan` and
 * `placeRun` unless the format has faster ones.
 */
export type FormatWriter = Omit<FileWriter, 'entry' | 'placeSpan' | 'placeRun'> &
  Partial<Pick<FileWriter, 'placeSpan' | 'placeRun'>>;

/** A format as the export engine drives it. */
export interface FileFormat {
  contentType: string;
  writer(header: DocumentHeader): FileWriter;
}

/** A writer whose `entry` places the entry's own fragment. */
export function fileWriter(parts: FormatWriter): FileWriter {
  const placeSpan = parts.placeSpan ?? ((source, entries) => placeEach(parts, source, entries));
  return {
    ...parts,
    placeSpan,
    // Without a format's own, a run is always written from its bytes.
    placeRun: parts.placeRun ?? ((run) => (source) => placeSpan(source, run.entries())),
    entry: (entry) => parts.place(parts.fragment(entry), entry.id),
  };
}

/** A span placed fragment by fragment. */
export function placeEach(writer: Pick<FileWriter, 'place'>, source: string, entries: readonly SpanEntry[]): string {
  let out = '';
  for (const { id, at, length, variables, nameAt } of entries) {
    if (length < 0) continue;
    out += writer.place({ body: source.slice(at, at + length), variables, ...(nameAt && { nameAt }) }, id);
  }
  return out;
}

/** The variable names of an entry, for `EntryFragment.variables`. */
export const variableNames = (entry: ExportEntry): string[] => entry.variables.map((variable) => variable.name);

/** The whole file at once, for callers that hold every entry (the v0/v1 API, the tests). */
export function wholeFile(format: FileFormat): Exporter {
  return (document) => {
    const writer = format.writer(document);
    let body = writer.head();
    for (const entry of document.entries) body += writer.entry(entry);
    return { body: body + writer.tail(), contentType: format.contentType };
  };
}

export const FORMATS = [
  'json_icu',
  'json_i18next',
  'json_vue_i18n',
  'ios-strings',
  'ios-stringsdict',
  'android',
  'arb',
] as const;

export type FormatName = (typeof FORMATS)[number];
