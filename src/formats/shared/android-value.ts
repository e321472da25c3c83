/**
 * One Android resource value (the content of `<string>` or `<item>`) written by aapt2's rules:
 * see docs/formats/android.md for the rules and where they come from.
 */
import { EM, STRIKE, STRONG, SUB, SUP, UNDERLINE } from '../../richtext/marks.js';
import { type KnownNames, renderKnown } from './template.js';
import { xmlAttribute } from './xml.js';

/** Literal text or a variable, with the rich-text marks (bits of richtext/marks.ts) it carries. */
export type ValuePiece =
  | { kind: 'text'; text: string; marks: number }
  | { kind: 'variable'; name: string; spec: string; example: string; marks: number };

// Android's styled-string tags, outermost first (the stored markup's nesting order).
const ANDROID_TAGS: ReadonlyArray<readonly [number, string]> = [
  [STRONG, 'b'],
  [EM, 'i'],
  [UNDERLINE, 'u'],
  [STRIKE, 'strike'],
  [SUP, 'sup'],
  [SUB, 'sub'],
];

const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  "'": "\\'",
  '"': '\\"',
  '\n': '\\n',
  '\t': '\\t',
  '&': '&amp;',
  '<': '&lt;',
};

/**
 * Escapes literal text. Controls without a short escape (and the non-characters XML cannot carry)
 * use aapt2's `\uXXXX`; `%` doubles when the string is a format string.
 */
function escapeLiteral(text: string, formatted: boolean): string {
  if (!LITERAL_SPECIAL.test(text)) return text;
  return text.replace(LITERAL_SPECIALS, (char) => {
    if (char === '%') return formatted ? '%%' : '%';
    return ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
const LITERAL_SPECIAL = /[\\'"\n\t&<%\u0000-\u0008\u000b-\u001f\ufffe\uffff]/;
const LITERAL_SPECIALS = new RegExp(LITERAL_SPECIAL.source, 'g');
const escapeFormatted = (text: string) => escapeLiteral(text, true);
const escapeUnformatted = (text: string) => escapeLiteral(text, false);

/**
 * `androidValue` of a plain text (no marks), written straight from the text: each placeholder of
 * a `known` variable is `xliff(name)`, the runs between them literal text.
 */
export function plainAndroidValue(
  text: string,
  known: KnownNames,
  xliff: (name: string) => string,
  formatted: boolean,
): string {
  let body = renderKnown(text, known, xliff, formatted ? escapeFormatted : escapeUnformatted);
  if (body.startsWith('@') || body.startsWith('?')) body = `\\${body}`;
  // Variables count as one ordinary character each: they never add spaces, only part them.
  const quoted =
    text.startsWith(' ') ||
    text.endsWith(' ') ||
    (text.includes('  ') &&
      renderKnown(
        text,
        known,
        () => 'x',
        (literal) => literal,
      ).includes('  '));
  const out = quoted ? `"${body}"` : body;
  return out.includes(']]>') ? out.replaceAll(']]>', ']]&gt;') : out;
}

/** The `<xliff:g>` of a variable argument. */
export const xliffArgument = (name: string, example: string, spec: string) =>
  `<xliff:g id="${xmlAttribute(name)}" example="${xmlAttribute(example)}">${spec}</xliff:g>`;

/**
 * Writes the pieces. aapt2 collapses unquoted runs of spaces and trims the edges, so a group with
 * leading, trailing or doubled spaces is wrapped in `"..."`. Its quote state ends at every style
 * tag, so with rich text each run between tags is its own group; `<xliff:g>` is not a style tag.
 */
export function androidValue(pieces: readonly ValuePiece[], formatted: boolean): string {
  const styled = pieces.some((piece) => piece.marks !== 0);
  if (!styled) return unstyledValue(pieces, formatted);
  const plain = pieces.map((piece) => (piece.kind === 'text' ? piece.text : 'x')).join('');
  const open: Array<readonly [number, string]> = [];
  let out = '';
  let offset = 0;
  for (let start = 0; start < pieces.length; ) {
    let end = start + 1;
    while (end < pieces.length && (!styled || pieces[end]!.marks === pieces[start]!.marks)) end++;
    const group = pieces.slice(start, end);
    const marks = group[0]!.marks;
    const keep = open.findIndex(([mark]) => (marks & mark) === 0);
    if (keep !== -1) while (open.length > keep) out += `</${open.pop()![1]}>`;
    for (const entry of ANDROID_TAGS) {
      if ((marks & entry[0]) !== 0 && !open.includes(entry)) {
        out += `<${entry[1]}>`;
        open.push(entry);
      }
    }
    const text = group.map((piece) => (piece.kind === 'text' ? piece.text : 'x')).join('');
    const quoted =
      text.includes('  ') ||
      (text.startsWith(' ') && (offset === 0 || plain[offset - 1] === ' ')) ||
      (text.endsWith(' ') && (offset + text.length === plain.length || plain[offset + text.length] === ' '));
    let body = group.map((piece) => writePiece(piece, formatted)).join('');
    // A leading `@` or `?` would make the whole value a resource reference.
    if (offset === 0 && /^[@?]/.test(body)) body = `\\${body}`;
    out += quoted ? `"${body}"` : body;
    offset += text.length;
    start = end;
  }
  while (open.length > 0) out += `</${open.pop()![1]}>`;
  // `>` is written as is, except where XML forbids it: after `]]`.
  return out.replaceAll(']]>', ']]&gt;');
}

/** `androidValue` of pieces without marks: one group, no tags (the usual case, written without the groups' work). */
function unstyledValue(pieces: readonly ValuePiece[], formatted: boolean): string {
  let text = '';
  let body = '';
  for (const piece of pieces) {
    text += piece.kind === 'text' ? piece.text : 'x';
    body += writePiece(piece, formatted);
  }
  if (body.startsWith('@') || body.startsWith('?')) body = `\\${body}`;
  const quoted = text.includes('  ') || text.startsWith(' ') || text.endsWith(' ');
  const out = quoted ? `"${body}"` : body;
  return out.includes(']]>') ? out.replaceAll(']]>', ']]&gt;') : out;
}

function writePiece(piece: ValuePiece, formatted: boolean): string {
  if (piece.kind === 'text') return escapeLiteral(piece.text, formatted);
  return xliffArgument(piece.name, piece.example, piece.spec);
}
