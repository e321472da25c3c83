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
