/** Small builders of export documents for the format tests. */
import type {
  ExportDocument,
  ExportEntry,
  ExportOptions,
  ExportPlural,
  ExportVariable,
  VariableType,
} from '../../src/formats/types.js';

let creation = 0;

/** A variable; `creationIndex` defaults to the order of the calls. */
export function variable(
  name: string,
  type: VariableType,
  data: unknown,
  creationIndex: number = creation++,
): ExportVariable {
  return { name, type, data, creationIndex };
}

export function entry(id: string, text: string, fields: Partial<Omit<ExportEntry, 'id' | 'text'>> = {}): ExportEntry {
  return { id, text, richText: null, plurals: [], notes: '', variables: [], ...fields };
}

/** Plural forms from `{ one: '...', other: '...' }`. */
export function plurals(forms: Partial<Record<ExportPlural['form'], string>>): ExportPlural[] {
  return Object.entries(forms).map(([form, text]) => ({
    form: form as ExportPlural['form'],
    text: text!,
    richText: null,
  }));
}

export function document(
  entries: ExportEntry[],
  fields: { locale?: string; variant?: ExportDocument['variant']; options?: Partial<ExportOptions> } = {},
): ExportDocument {
  return {
    locale: fields.locale ?? 'en',
    variant: fields.variant ?? null,
    entries,
    options: {
      richText: null,
      variableOrder: 'default',
      excludeVariantMetadata: false,
      includeVariableSummary: false,
      ...fields.options,
    },
  };
}

/** Counts that hit every plural category of en, ru and ar (0 and 1 hit `=0`/`one` too). */
export const PLURAL_COUNTS: Readonly<Record<string, readonly number[]>> = {
  en: [0, 1, 2, 5],
  ru: [0, 1, 2, 5, 11, 21, 22, 25],
  ar: [0, 1, 2, 3, 11, 100, 102],
};

/** Literal text that must survive every format intact. */
export const TRICKY_TEXTS: readonly string[] = [
  "It's Ann's",
  'Say "hi"',
  'C:\\path\\to\\file \\n not a newline',
  '100% sure, 50%% off, %s %d %1$s',
  '@home',
  '?question',
  'email@example.com?',
  '{braces} {{notAVariable}} }{ {{{x',
  'a | b || c',
  'line one\nline two\r\nline three',
  'tab\there',
  '  leading and trailing  ',
  'double  space',
  'Ünïcødé — 日本語 — العربية',
  'emoji 👩‍💻🎉',
  '<b>not markup</b> & &amp; ]]>',
  "'quoted' 'apostrophes'",
  '#hash \\u0041 $dollar',
  '',
];
