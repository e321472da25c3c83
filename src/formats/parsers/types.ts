import type { PluralForm } from '../../db/schema.js';

/**
 * What a parser reads out of a localisation file: one value per key, in the stored model of
 * copydesk (`{{name}}` placeholders, plural forms beside the display text, notes). Parsers are
 * pure functions of the file's text; the import service decides what each value does.
 */

export interface ParsedForm {
  form: PluralForm;
  text: string;
}

/** Positional arguments (`%1$s`, `%@`) the file could not name, to be named by the importer. */
export interface Positional {
  /** `%%` is a literal `%` only in a string that is formatted; the writer decides per value. */
  kind: 'strings' | 'stringsdict' | 'android';
}

export interface ParsedText {
  /** The display text. */
  text: string;
  /** Plural forms, CLDR order, the display text's form first when it has one; empty: none. */
  plurals: ParsedForm[];
  /** Notes as the file carries them; undefined when the format has nowhere to put them. */
  notes?: string;
  /** Set when `text` and `plurals` still hold printf arguments the file could not name. */
  positional?: Positional;
}

export interface ParsedEntry {
  /** The key: the developer ID to be. */
  key: string;
  /** Where the entry is, for messages: `line 12` or `key "welcome"`. */
  at: string;
  value: ParsedText;
}

export interface SkippedEntry {
  key: string;
  reason: string;
}

export interface ParsedFile {
  entries: ParsedEntry[];
  /** Entries the file holds but copydesk cannot store, with the reason. */
  skipped: SkippedEntry[];
  /** The variant a variant export names in its metadata (`__variant-name`, `Variant Name:`). */
  variantName: string | null;
  /** Whether the format writes plural forms: an entry without them then means "no plurals". */
  carriesPlurals: boolean;
}

export interface ParseOptions {
  /** BCP 47 locale of the imported text: it says which plural categories the file has. */
  locale: string;
  /** The workspace's variable names in the request's `variableOrder`: how positional formats number them. */
  variables: readonly string[];
  /** Key separator of nested JSON (`.` unless given). */
  keySeparator?: string;
}

/** A file copydesk cannot read, with where: the importer answers it as a 400 naming the place. */
export class MalformedFile extends Error {
  constructor(
    readonly where: string,
    readonly problem: string,
  ) {
    super(`${where}: ${problem}`);
    this.name = 'MalformedFile';
  }
}

/** The line (1-based) of an offset in a text. */
export function lineAt(source: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < source.length; index++) if (source[index] === '\n') line++;
  return line;
}

export const emptyFile = (carriesPlurals: boolean): ParsedFile => ({
  entries: [],
  skipped: [],
  variantName: null,
  carriesPlurals,
});
