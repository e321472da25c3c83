/**
 * ICU MessageFormat writing, shared by json_icu and arb (rules in docs/formats/json_icu.md). The
 * output is read alike by formatjs (`@formatjs/icu-messageformat-parser`, `intl-messageformat`)
 * and `@messageformat/core`, whose quoting rules differ: only what both read the same is written.
 */
import type { DocumentHeader, ExportEntry, ExportVariable } from '../types.js';
import { pluralCases } from './plurals.js';
import { renderKnown } from './template.js';
import { exportText, variablesByName } from './texts.js';

export interface IcuOptions {
  /** json_icu writes list and map variables as a `select`; ARB declares them as strings. */
  collectionsAsSelect: boolean;
}

const ICU_SYNTAX = /['{}]/;
const ICU_SYNTAX_IN_PLURAL = /['{}#]/;
/** The characters that open a quoted run (an apostrophe never does). */
const ICU_QUOTED = /[{}]/;
const ICU_QUOTED_IN_PLURAL = /[{}#]/;

/**
 * Literal text as ICU. Every apostrophe is doubled. `{`, `}` (and `#` in a plural branch) open a
 * quoted run that stays open over further syntax characters and apostrophes (written `''` inside
 * it) and closes before the next ordinary character: closing and then writing `''` would read as
 * an apostrophe inside the quote. Markup and any other `<` are written as they are: strict ICU
 * (`@messageformat/core`) would print a quoted `'<'` with its apostrophes, and formatjs reads
 * tags as rich-text elements, which its apps render with tag functions or `ignoreTag`.
 */
export function escapeIcuLiteral(text: string, inPlural: boolean): string {
  // Most literal runs hold no syntax character: they are written as they are.
  if (!(inPlural ? ICU_SYNTAX_IN_PLURAL : ICU_SYNTAX).test(text)) return text;
  // Apostrophes alone (English text has many) are only doubled: no quoted run opens.
  if (!(inPlural ? ICU_QUOTED_IN_PLURAL : ICU_QUOTED).test(text)) return text.replaceAll("'", "''");
  let out = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === "'") {
      out += "''";
      continue;
    }
    const syntax = char === '{' || char === '}' || (inPlural && char === '#');
    if (syntax && !quoted) {
      out += "'";
      quoted = true;
    } else if (!syntax && quoted) {
      out += "'";
      quoted = false;
    }
    out += char;
  }
  return quoted ? `${out}'` : out;
}

// A select key is an ICU identifier: no white space and no pattern syntax (which covers `=`).
const SELECT_KEY = /^[^\p{White_Space}\p{Pattern_White_Space}\p{Pattern_Syntax}]+$/u;

/**
 * `{name, select, <value> {<value>} ... other {<first value>}}` for a list (a map selects by key
 * and shows the value). Values that cannot be keys, duplicates and the key `other` itself are
 * left to the `other` case.
 */
function collectionSelect(variable: ExportVariable): string {
  const data = variable.data;
  const pairs: Array<[string, string]> = Array.isArray(data)
    ? data.map((value) => [String(value), String(value)])
    : Object.entries((data ?? {}) as Record<string, unknown>).map(([key, value]) => [key, String(value)]);
  if (pairs.length === 0) return `{${variable.name}}`;
  const cases = new Map<string, string>();
  for (const [key, value] of pairs) {
    if (SELECT_KEY.test(key) && key !== 'other' && !cases.has(key)) cases.set(key, value);
  }
  cases.set('other', pairs[0]![1]);
  const body = [...cases].map(([key, value]) => `${key} {${escapeIcuLiteral(value, false)}}`).join(' ');
  return `{${variable.name}, select, ${body}}`;
}

const plainLiteral = (literal: string) => escapeIcuLiteral(literal, false);
const pluralLiteral = (literal: string) => escapeIcuLiteral(literal, true);

function icuText(text: string, variables: Map<string, ExportVariable>, inPlural: boolean, options: IcuOptions) {
  // Most texts hold no placeholder of a listed variable: their literal text is the message.
  if (variables.size === 0 || !text.includes('{{')) return text === '' ? '' : escapeIcuLiteral(text, inPlural);
  return renderKnown(
    text,
    variables,
    (name) => {
      const variable = variables.get(name)!;
      const collection = variable.type === 'list' || variable.type === 'map';
      return options.collectionsAsSelect && collection ? collectionSelect(variable) : `{${name}}`;
    },
    inPlural ? pluralLiteral : plainLiteral,
  );
}

/**
 * One ICU message per record. A plural record is one `plural` on `count` enclosing the whole
 * message: `=0` for the record's zero form, then exactly the locale's categories, since strict
 * consumers reject the others. `#` is never written; forms show the count as `{count}`.
 */
export function icuMessage(entry: ExportEntry, document: DocumentHeader, options: IcuOptions): string {
  const mode = document.options.richText;
  const variables = variablesByName(entry);
  if (entry.plurals.length === 0)
    return icuText(exportText(entry.text, entry.richText, mode), variables, false, options);
  const { exactZero, categories } = pluralCases(entry, document.locale);
  // One case, `key {message}`; the cases are joined as they are written, with no list of them.
  const icuCase = (key: string, text: string, richText: string | null) =>
    `${key} {${icuText(exportText(text, richText, mode), variables, true, options)}}`;
  let body = exactZero ? icuCase('=0', exactZero.text, exactZero.richText) : '';
  for (const { form, text, richText } of categories)
    body += `${body === '' ? '' : ' '}${icuCase(form, text, richText)}`;
  return `{count, plural, ${body}}`;
}
