/** The text a JSON format writes for a record or one of its plural forms, plain or rich. */

import type { RichTextMode } from '../../richtext/index.js';
import { richTextOf } from '../../richtext/index.js';
import type { ExportEntry, ExportVariable } from '../types.js';

/**
 * One text of a record (the primary text or a plural form). With a markup mode (the export's
 * `richText`, which applies to every record, plain ones too) it is the record's `richText` as the
 * fetches render it: stored markup, or the plain text escaped with its line breaks as tags. The
 * fetches' own renderer is called so that the two can never disagree.
 */
export function exportText(text: string, richText: string | null, mode: RichTextMode | null): string {
  return mode === null ? text : richTextOf({ text, richText }, mode);
}

/** The variables an entry uses, by name: the placeholders that resolve. */
export function variablesByName(entry: ExportEntry): Map<string, ExportVariable> {
  const byName = new Map<string, ExportVariable>();
  for (const variable of entry.variables) byName.set(variable.name, variable);
  return byName;
}
