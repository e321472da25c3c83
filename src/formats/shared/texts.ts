/** The text a JSON format writes for a record or one of its plural forms, plain or rich. */
import { plainToRichText, type RichTextMode, renderRichText } from '../../richtext/index.js';
import type { ExportEntry, ExportOptions, ExportVariable } from '../types.js';

/** The markup mode for this entry: only records stored as rich text export markup. */
export function richTextMode(entry: ExportEntry, options: ExportOptions): RichTextMode | null {
  return options.richText !== null && entry.richText !== null ? options.richText : null;
}

/**
 * One text of a record. In a rich record a form stored without markup is still written as markup
 * (escaped, line breaks as tags), so every form of one message reads the same way.
 */
export function exportText(text: string, richText: string | null, mode: RichTextMode | null): string {
  if (mode === null) return text;
  return richText === null ? plainToRichText(text, mode) : renderRichText(richText, mode);
}

/** The variables an entry uses, by name: the placeholders that resolve. */
export function variablesByName(entry: ExportEntry): Map<string, ExportVariable> {
  return new Map(entry.variables.map((variable) => [variable.name, variable]));
}
