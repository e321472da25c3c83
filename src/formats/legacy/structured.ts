import { plainToRichText, renderRichText } from '../../richtext/index.js';
import type { ExportVariable } from '../types.js';
import type { LegacyOptions, LegacyText } from './types.js';
import { structuredVariable } from './variables.js';

/** One text of `structured` (and of `full`); the optional fields appear only when they hold something. */
export interface StructuredText {
  text: string;
  status: string;
  notes?: string;
  tags?: string[];
  variables?: Record<string, unknown>;
  /** Form to text, with `<form>_rich_text` beside each form when rich text is asked for. */
  plurals?: Record<string, string>;
  rich_text?: string;
  /** Components only. */
  name?: string;
  /** Components only: the folder's developer ID, null at the library root. */
  folder?: string | null;
}

/** Rich text as the legacy bodies give it: each line wrapped in `<p>`; plain text escaped. */
const paragraphs = (text: string, richText: string | null) =>
  richText === null ? plainToRichText(text, 'html_paragraphs') : renderRichText(richText, 'html_paragraphs');

function variablesOf(variables: readonly ExportVariable[]) {
  const sorted = [...variables].sort((a, b) => a.creationIndex - b.creationIndex);
  return Object.fromEntries(sorted.map((variable) => [variable.name, structuredVariable(variable)]));
}

export function structuredText(text: LegacyText, options: LegacyOptions): StructuredText {
  const out: StructuredText = { text: text.text, status: text.status };
  if (text.notes) out.notes = text.notes;
  if (text.tags.length > 0) out.tags = [...text.tags];
  if (text.variables.length > 0) out.variables = variablesOf(text.variables);
  if (text.plurals.length > 0) {
    const plurals: Record<string, string> = {};
    for (const plural of text.plurals) {
      plurals[plural.form] = plural.text;
      if (options.richText) plurals[`${plural.form}_rich_text`] = paragraphs(plural.text, plural.richText);
    }
    out.plurals = plurals;
  }
  if (options.richText) out.rich_text = paragraphs(text.text, text.richText);
  if (text.component) {
    out.name = text.component.name;
    out.folder = text.component.folder;
  }
  return out;
}

/** `structured`: developer ID to the text with its metadata. */
export function structuredBody(texts: readonly LegacyText[], options: LegacyOptions): Record<string, StructuredText> {
  const body: Record<string, StructuredText> = {};
  for (const text of texts) body[text.id] = structuredText(text, options);
  return body;
}
