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
  /** Keys to leave as they are: nothing of them is created or updated. */
  skip?: string[];
}

export interface ImportSkip {
  key: string;
  /** The variant whose value was skipped; absent for the base text. */
  variantId?: string;
  reason: string;
}

/** One value a key's import changes: before (null for a new text) and after, as text. */
export interface ImportValueChange {
  /** The variant whose value it is; absent for the base text. */
  variantId?: string;
  field: 'text' | 'plurals' | 'notes' | 'variables';
  before: string | null;
  after: string;
}

export type ImportAction = 'create' | 'update' | 'unchanged' | 'skip';

/** What the import does with one key of the file. */
export interface ImportKey {
  key: string;
  action: ImportAction;
  /** Why the key (or one variant's value of it) is skipped. */
  reason?: string;
  changes: ImportValueChange[];
}

export interface ImportReport {
  dryRun: boolean;
  created: string[];
  updated: string[];
  unchanged: string[];
  skipped: ImportSkip[];
  /** Imported, with something to know: a placeholder that names no variable of the workspace. */
  warnings: Array<{ key: string; message: string }>;
  /** Every key of the file with its action (the parser's skipped keys first, then the file's order). */
  keys: ImportKey[];
}
