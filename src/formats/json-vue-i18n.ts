/**
 * json_vue_i18n: `{ "<developer id>": "message" }` in vue-i18n's message syntax, plural records as
 * one message with ` | ` between forms (rules in docs/formats/json_vue_i18n.md).
 */
import { renderTemplate } from '../text/placeholders.js';
import { JSON_CONTENT_TYPE, jsonMessagesWriter } from './shared/json.js';
import { pluralCases, zeroCategoryIsExactlyZero } from './shared/plurals.js';
import { exportText } from './shared/texts.js';
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

function vueText(text: string, known: ReadonlySet<string>): string {
  return renderTemplate(text, known, (name) => `{${name}}`, escapeVueLiteral);
}

/**
 * A plural record lists exactly the locale's categories in CLDR order, after the record's zero
 * form when the locale has no exact-zero category of its own: `one | other`, `zero | one |
 * other`, ... which vue-i18n's default rule reads right for English-like locales; the others
 * install the `pluralRules` function the docs give.
 */
function vueMessage(entry: ExportEntry, document: DocumentHeader): string {
  const mode = document.options.richText;
  const known = new Set(entry.variables.map((variable) => variable.name));
  if (entry.plurals.length === 0) return vueText(exportText(entry.text, entry.richText, mode), known);
  const { exactZero, categories } = pluralCases(entry, document.locale);
  const forms = [...categories];
  if (exactZero && !zeroCategoryIsExactlyZero(document.locale)) forms.unshift(exactZero);
  return forms.map((form) => pluralForm(vueText(exportText(form.text, form.richText, mode), known))).join(' | ');
}

export const jsonVueI18nFormat: FileFormat = {
  contentType: JSON_CONTENT_TYPE,
  writer: (header) => jsonMessagesWriter(header, (entry) => [[entry.id, vueMessage(entry, header)]]),
};

export const jsonVueI18n = wholeFile(jsonVueI18nFormat);
