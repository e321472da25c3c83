/**
 * json_vue_i18n: `{ "<developer id>": "message" }` in vue-i18n's message syntax, plural records as
 * one message with ` | ` between forms (rules in docs/formats/json_vue_i18n.md).
 */
import { JSON_CONTENT_TYPE, jsonMessagesWriter } from './shared/json.js';
import { pluralCases, zeroCategoryIsExactlyZero } from './shared/plurals.js';
import { type KnownNames, renderKnown } from './shared/template.js';
import { exportText, variablesByName } from './shared/texts.js';
import { type DocumentHeader, type ExportEntry, type FileFormat, wholeFile } from './types.js';

/**
 * A literal interpolation. Inside one, `\` and `'` are escaped, and line ends are `\uXXXX`: the
 * scanner turns CRLF, U+2028 and U+2029 into LF, and a literal may not hold a newline.
 */
const literal = (char: string) => {
  if (/[\r\n\u2028\u2029]/.test(char))
    return `{'\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}'}`;
  return `{'${char === '\\' || char === "'" ? `\\${char}` : char}'}`;
};

/**
 * Literal text: `{ } @ $ |` would be syntax, and a backslash before them an escape (vue-i18n
 * 11.1+ reads `\@` as `@`), so each of them is a literal interpolation, as is every line end
 * the scanner would rewrite.
 */
function escapeVueLiteral(text: string): string {
  return text.replace(/[{}@$|\\\r\u2028\u2029]/g, literal);
}

/**
 * The compiler trims spaces and newlines around the ` | ` between plural forms, so a form that
 * starts or ends with one keeps it as a literal interpolation; an empty form is an empty literal.
 */
function pluralForm(form: string): string {
  if (form === '') return "{''}";
  const start = /^[ \n]+/.exec(form)?.[0] ?? '';
  const rest = form.slice(start.length);
  const end = /[ \n]+$/.exec(rest)?.[0] ?? '';
  const middle = rest.slice(0, rest.length - end.length);
  const edge = (run: string) => [...run].map(literal).join('');
  return edge(start) + middle + edge(end);
}

const vueVariable = (name: string) => `{${name}}`;

function vueText(text: string, known: KnownNames): string {
  return renderKnown(text, known, vueVariable, escapeVueLiteral);
}

/**
 * A plural record lists exactly the locale's categories in CLDR order, after the record's zero
 * form when the locale has no exact-zero category of its own: `one | other`, `zero | one |
 * other`, ... which vue-i18n's default rule reads right for English-like locales; the others
 * install the `pluralRules` function the docs give.
 */
function vueMessage(entry: ExportEntry, document: DocumentHeader): string {
  const mode = document.options.richText;
  const known = variablesByName(entry);
  if (entry.plurals.length === 0) return vueText(exportText(entry.text, entry.richText, mode), known);
  const { exactZero, categories } = pluralCases(entry, document.locale);
  const form = (text: string, richText: string | null) => pluralForm(vueText(exportText(text, richText, mode), known));
  let out = exactZero && !zeroCategoryIsExactlyZero(document.locale) ? form(exactZero.text, exactZero.richText) : null;
  for (const category of categories) {
    const written = form(category.text, category.richText);
    out = out === null ? written : `${out} | ${written}`;
  }
  return out ?? '';
}

export const jsonVueI18nFormat: FileFormat = {
  contentType: JSON_CONTENT_TYPE,
  writer: (header) => jsonMessagesWriter(header, (entry) => [[entry.id, vueMessage(entry, header)]]),
};

export const jsonVueI18n = wholeFile(jsonVueI18nFormat);
