/**
 * `{{name}}` placeholders as the writers render them, text by text: the same result as
 * `renderTemplate` (src/text/placeholders.ts) without building the list of parts, and with the
 * variables known given as any lookup (an entry's map of variables by name).
 */
import { eachPlaceholder } from '../../text/placeholders.js';

/** The names of the variables whose placeholders are rendered; other placeholders stay literal. */
export interface KnownNames {
  has(name: string): boolean;
}

/**
 * The text with each placeholder of a known variable replaced by `variable(name)` and each run
 * between them (unknown placeholders included) passed through `literal` once.
 */
export function renderKnown(
  text: string,
  known: KnownNames,
  variable: (name: string) => string,
  literal: (value: string) => string,
): string {
  if (!text.includes('{{')) return text === '' ? '' : literal(text);
  let out = '';
  let from = 0;
  eachPlaceholder(text, (name, start, end) => {
    if (!known.has(name)) return;
    if (start > from) out += literal(text.slice(from, start));
    out += variable(name);
    from = end;
  });
  if (from < text.length) out += literal(text.slice(from));
  return out;
}

/** Whether the text holds a placeholder of a known variable. */
export function usesKnown(text: string, known: KnownNames): boolean {
  let found = false;
  eachPlaceholder(text, (name) => {
    if (!found && known.has(name)) found = true;
  });
  return found;
}

/** Adds the name of every placeholder in the text to `names`. */
export function placeholderNames(text: string, names: Set<string>): void {
  eachPlaceholder(text, (name) => {
    names.add(name);
  });
}
