/** The request and answer of POST /v2/import, shared by its routes, service and plan. */
import type { ImportFormat } from '../../formats/parsers/index.js';

export interface CsvColumns {
  /** Header of the column that holds the keys. */
  key: string;
  /** Header of the base text column (or of the `variantId` text when the request names one). */
  text?: string;
  /** Header of the notes column of that text. */
  notes?: string;
  /** Variant developer ID -> header of its text column: several languages from one file. */
  variants?: Record<string, string>;
}

export interface ImportRequest {
  format: ImportFormat;
  content: string;
  /** ios-strings: the `.stringsdict` that carries the plural forms of the same table. */
  stringsdict?: string;
  projectId?: string;
  blockId?: string;
  /** Into the component library rather than a project. */
  library?: boolean;
  folderId?: string;
  /** The file is this variant's text; none or `base`: base text. */
  variantId?: string;
  dryRun?: boolean;
  keySeparator?: string;
  /** How `%1$s` arguments without names are numbered, as in the export. */
  variableOrder?: 'default' | 'alphabetical';
  richText?: 'html';
  columns?: CsvColumns;
}

export interface ImportSkip {
  key: string;
  /** The variant whose value was skipped; absent for the base text. */
  variantId?: string;
  reason: string;
}

export interface ImportReport {
  dryRun: boolean;
  created: string[];
  updated: string[];
  unchanged: string[];
  skipped: ImportSkip[];
  /** Imported, with something to know: a placeholder that names no variable of the workspace. */
  warnings: Array<{ key: string; message: string }>;
}
