/**
 * `{{name}}` placeholders in component and text item text (rules in docs/variables.md).
 * Pure functions shared by the write path (`variableIds`) and the exporters.
 */

export interface Placeholder {
  /** The variable name inside the braces. */
  name: string;
  /** Index of the first `{` of the placeholder in the text. */
  start: number;
  /** Index just past the last `}`. */
  end: number;
}

export type TemplatePart = { kind: 'text'; value: string } | { kind: 'variable'; name: string; raw: string };

// A name is a variable developer ID (an identifier, so it is a placeholder in every format). Spaces (U+0020 only) may pad it inside
// the braces. Scanning from the left, `{{{name}}}` is a literal `{`, `{{name}}` and a literal `}`.
const PLACEHOLDER = /\{\{ *([A-Za-z_][A-Za-z0-9_]*) *\}\}/g;

/** Every well-formed placeholder, listed or not, in text order. */
export function findPlaceholders(text: string): Placeholder[] {
  // Most texts have none, and exports call this for every text: skip the regex for them.
  if (!text.includes('{{')) return [];
  const found: Placeholder[] = [];
  PLACEHOLDER.lastIndex = 0;
  for (let match = PLACEHOLDER.exec(text); match !== null; match = PLACEHOLDER.exec(text)) {
    found.push({ name: match[1]!, start: match.index, end: match.index + match[0].length });
  }
  return found;
}

/**
 * Calls `visit` with each well-formed placeholder in text order, without building a list: the
 * exporters' per-text path. `visit` may itself scan other texts.
 */
export function eachPlaceholder(text: string, visit: (name: string, start: number, end: number) => void): void {
  if (!text.includes('{{')) return;
  PLACEHOLDER.lastIndex = 0;
  for (let match = PLACEHOLDER.exec(text); match !== null; match = PLACEHOLDER.exec(text)) {
    const next = PLACEHOLDER.lastIndex;
    visit(match[1]!, match.index, next);
    PLACEHOLDER.lastIndex = next;
  }
}

/**
 * The listed variables that any of the texts uses, in the order of `listed` and without
 * duplicates: the `variableIds` of a record.
 */
export function usedVariables(texts: readonly string[], listed: readonly string[]): string[] {
  if (listed.length === 0) return [];
  const used = new Set<string>();
  for (const text of texts) {
    if (!text.includes('{{')) continue;
    PLACEHOLDER.lastIndex = 0;
    for (let match = PLACEHOLDER.exec(text); match !== null; match = PLACEHOLDER.exec(text)) used.add(match[1]!);
  }
  if (used.size === 0) return [];
  return [...new Set(listed)].filter((name) => used.has(name));
}

/**
 * Splits text into literal runs and placeholders of known (listed) variables. A placeholder of
 * an unknown variable stays part of the literal run around it; literal runs are never empty and
 * never adjacent.
 */
export function splitTemplate(text: string, known: ReadonlySet<string>): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literalStart = 0;
  for (const { name, start, end } of findPlaceholders(text)) {
    if (!known.has(name)) continue;
    if (start > literalStart) parts.push({ kind: 'text', value: text.slice(literalStart, start) });
    parts.push({ kind: 'variable', name, raw: text.slice(start, end) });
    literalStart = end;
  }
  if (literalStart < text.length) parts.push({ kind: 'text', value: text.slice(literalStart) });
  return parts;
}

/**
 * Renders text with each known placeholder replaced by `variable(name)` and each literal run
 * passed through `literal` (an exporter's escaping, such as `%` to `%%` in printf formats).
 */
export function renderTemplate(
  text: string,
  known: ReadonlySet<string>,
  variable: (name: string) => string,
  literal: (value: string) => string = (value) => value,
): string {
  return splitTemplate(text, known)
    .map((part) => (part.kind === 'variable' ? variable(part.name) : literal(part.value)))
    .join('');
}
