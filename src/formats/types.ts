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
 * One file being written in order: the concatenation of `head()`, `entry()` of each entry in
 * file order and `tail()` is the file. A writer keeps only what its later output needs (whether
 * something was written yet, the Android names taken, the variables used for
 * `__variables_used`), so a file of any size is written from one page of entries at a time.
 */
export interface FileWriter {
  head(): string;
  entry(entry: ExportEntry): string;
  tail(): string;
}

/** A format as the export engine drives it. */
export interface FileFormat {
  contentType: string;
  writer(header: DocumentHeader): FileWriter;
}

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
