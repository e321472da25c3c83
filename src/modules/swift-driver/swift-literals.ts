/**
 * Text inside Swift source (pure): string literals and one-line comments. Everything a writer
 * types (developer IDs, notes, fallbacks, project names) passes through here, so no text can end
 * a literal or a comment early, start an interpolation, or put a character Swift rejects into
 * the file.
 */

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\0': '\\0',
};

// C0 and C1 controls, DEL, the Unicode line and paragraph separators and the byte order mark.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
const ESCAPED = /[\\"\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/g;
// A lone surrogate cannot be written in UTF-8 (nor as `\u{...}` in Swift).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\ufffd');

/**
 * A single-line Swift string literal holding exactly `text` (a lone surrogate, which no source
 * file can hold, becomes U+FFFD). `\(` cannot start an interpolation, because `\` is escaped.
 */
export function swiftString(text: string): string {
  const body = wellFormed(text).replace(
    ESCAPED,
    (char) => SHORT_ESCAPES[char] ?? `\\u{${char.charCodeAt(0).toString(16).toUpperCase()}}`,
  );
  return `"${body}"`;
}

// Anything that ends a `//` comment (or that an editor shows as a line break), and controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
const NOT_IN_COMMENT = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]+/g;

/** Text for a `//` or `///` comment: one line, controls and line breaks as single spaces, trimmed. */
export function commentText(text: string, maxLength = 160): string {
  const line = wellFormed(text).replace(NOT_IN_COMMENT, ' ').replace(/ {2,}/g, ' ').trim();
  if (line.length <= maxLength) return line;
  // Cut on a code point boundary so the comment stays well-formed.
  return `${Array.from(line).slice(0, maxLength).join('').trimEnd()}…`;
}
