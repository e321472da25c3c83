/**
 * ios-strings: a `.strings` table read by the CoreFoundation grammar (quoted or bare keys, `=`,
 * quoted values, a mandatory `;`, `/* *\/` and `//` comments), with its `.stringsdict` when one
 * is given. The comment directly above a pair is its notes; printf arguments are named by the
 * stringsdict's `Variables:` comment or, later, by the existing text's variables.
 */

import { settlePlurals } from './plurals.js';
import { namePrintf, printfArguments } from './printf.js';
import { readStringsdict, type StringsdictEntry, stringsdictEntry } from './stringsdict.js';
import { lineAt, MalformedFile, type ParsedEntry, type ParsedFile, type ParseOptions } from './types.js';

interface Pair {
  key: string;
  value: string;
  line: number;
  notes: string | null;
}

const BARE = /[A-Za-z0-9_.$:/-]/;
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '\\': '\\', '"': '"', "'": "'" };

/** The pairs of a `.strings` file in order, and the variant its header comments name. */
export function readStrings(source: string): { pairs: Pair[]; variantName: string | null } {
  const text = source.replace(/^\uFEFF/, '');
  const pairs: Pair[] = [];
  let variantName: string | null = null;
  let pos = 0;
  // The last comment and whether it ends right above the next token (no blank line between).
  let comment: { text: string; end: number } | null = null;
  const fail = (message: string, at = pos): never => {
    throw new MalformedFile(`line ${lineAt(text, at)}`, message);
  };
  const skip = () => {
    for (;;) {
      while (pos < text.length && /\s/.test(text[pos]!)) pos++;
      if (text.startsWith('/*', pos)) {
        const end = text.indexOf('*/', pos + 2);
        if (end === -1) fail('unterminated comment');
        comment = {
          text: text
            .slice(pos + 2, end)
            .trim()
            .replaceAll('*\\/', '*/'),
          end: end + 2,
        };
        const variant = /^Variant Name: (.*)$/.exec(comment.text);
        if (variant && pairs.length === 0) variantName = variant[1]!;
        pos = end + 2;
      } else if (text.startsWith('//', pos)) {
        const end = text.indexOf('\n', pos);
        comment = {
          text: text.slice(pos + 2, end === -1 ? text.length : end).trim(),
          end: end === -1 ? text.length : end,
        };
        pos = end === -1 ? text.length : end;
      } else return;
    }
  };
  const token = (what: string): string => {
    if (text[pos] === '"') {
      const start = pos++;
      let out = '';
      for (;;) {
        if (pos >= text.length) fail(`unterminated string in ${what}`, start);
        const char = text[pos++]!;
        if (char === '"') return out;
        if (char !== '\\') {
          out += char;
          continue;
        }
        const code = text[pos++] ?? '';
        if (code === 'U' || code === 'u') {
          const hex = text.slice(pos, pos + 4);
          if (!/^[0-9A-Fa-f]{4}$/.test(hex)) fail(`bad \\${code} escape "\\${code}${hex}" in ${what}`);
          out += String.fromCharCode(Number.parseInt(hex, 16));
          pos += 4;
        } else out += ESCAPES[code] ?? code;
      }
    }
    const start = pos;
    while (pos < text.length && BARE.test(text[pos]!)) pos++;
    if (pos === start)
      fail(`expected a quoted string as ${what}, found ${JSON.stringify(text[pos] ?? 'the end of the file')}`);
    return text.slice(start, pos);
  };
  const expect = (char: string, after: string) => {
    skip();
    if (text[pos] !== char) {
      fail(`expected "${char}" after ${after}, found ${JSON.stringify(text[pos] ?? 'the end of the file')}`);
    }
    pos++;
  };
  for (;;) {
    comment = null;
    skip();
    if (pos >= text.length) return { pairs, variantName };
    const above = comment as { text: string; end: number } | null;
    const notes = above && !/\n\s*\n/.test(text.slice(above.end, pos)) ? above.text : null;
    const start = pos;
    const key = token('key');
    expect('=', `key "${key}"`);
    skip();
    const value = token(`the value of "${key}"`);
    expect(';', `the value of "${key}"`);
    pairs.push({ key, value, line: lineAt(text, start), notes });
  }
}

/** A `.strings` table (and its stringsdict's plural forms) as entries. */
export function parseIosStrings(content: string, options: ParseOptions, stringsdict?: string): ParsedFile {
  const { pairs, variantName } = readStrings(content);
  const plurals =
    stringsdict === undefined ? new Map<string, StringsdictEntry>() : readStringsdict(stringsdict).entries;
  const seen = new Map<string, number>();
  const entries: ParsedEntry[] = [];
  for (const pair of pairs) {
    const earlier = seen.get(pair.key);
    if (earlier !== undefined)
      throw new MalformedFile(`line ${pair.line}`, `key "${pair.key}" repeats line ${earlier}`);
    seen.set(pair.key, pair.line);
    const dict = plurals.get(pair.key);
    let text = pair.value;
    if (dict?.names && printfArguments(text).length > 0) {
      // The table numbers the variables its own text uses, in the workspace's order.
      const order = options.variables.filter((name) => dict.names!.includes(name));
      text = namePrintf(text, (position) => order[position - 1]) ?? text;
    }
    const value = settlePlurals(text, dict?.forms ?? new Map(), options.locale);
    const notes = pair.notes ?? dict?.notes ?? '';
    const positional = printfArguments(value.text).length > 0 || dict?.positional;
    entries.push({
      key: pair.key,
      at: `line ${pair.line}`,
      value: { ...value, notes, ...(positional && { positional: { kind: 'strings' as const } }) },
    });
  }
  // Plural records the table lacks still come in, from the stringsdict alone.
  for (const [key, dict] of plurals) if (!seen.has(key)) entries.push(stringsdictEntry(key, dict, options.locale));
  return { entries, skipped: [], variantName, carriesPlurals: stringsdict !== undefined };
}
