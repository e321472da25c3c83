/**
 * ios-stringsdict: the plist's top dictionary, one entry per plural record. The entry's format
 * key (`%1$#@count@`, or text around one `%#@name@`) names the dictionary of the forms; comments
 * above an entry are its notes and its `Variables: a, b` list, which names the arguments.
 */
import type { PluralForm } from '../../db/schema.js';
import { isForm, settlePlurals } from './plurals.js';
import { namePrintf } from './printf.js';
import { MalformedFile, type ParsedEntry, type ParsedFile, type ParseOptions } from './types.js';
import { type Element, elementsWithComments, lineOf, readXml, variantNameOf } from './xml.js';

export interface StringsdictEntry {
  forms: Map<PluralForm, string>;
  notes: string;
  /** The argument names of the `Variables:` comment, when there is one. */
  names?: string[];
  /** Whether some argument of the forms is still unnamed. */
  positional: boolean;
  at: string;
}

const where = (node: Element) => `line ${lineOf(node) ?? '?'}`;

/** `<key>`/value pairs of a `<dict>`, with the comments above each key. */
function dictPairs(dict: Element): Array<{ key: string; value: Element; comments: string[]; at: string }> {
  const children = elementsWithComments(dict);
  const pairs = [];
  for (let index = 0; index < children.length; index += 2) {
    const { element: keyNode, comments } = children[index]!;
    const value = children[index + 1]?.element;
    if (keyNode.tagName !== 'key')
      throw new MalformedFile(where(keyNode), `expected <key> in <dict>, found <${keyNode.tagName}>`);
    if (!value) throw new MalformedFile(where(keyNode), `<key>${keyNode.textContent}</key> has no value`);
    pairs.push({ key: keyNode.textContent ?? '', value, comments, at: where(keyNode) });
  }
  return pairs;
}

function stringOf(node: Element, what: string): string {
  if (node.tagName !== 'string')
    throw new MalformedFile(where(node), `${what} must be a <string>, found <${node.tagName}>`);
  return node.textContent ?? '';
}

export function readStringsdict(source: string): {
  entries: Map<string, StringsdictEntry>;
  variantName: string | null;
} {
  const document = readXml(source);
  const root = document.documentElement!;
  if (root.tagName !== 'plist')
    throw new MalformedFile(where(root), `the root element must be <plist>, found <${root.tagName}>`);
  const top = elementsWithComments(root)[0]?.element;
  if (top?.tagName !== 'dict') throw new MalformedFile(where(root), '<plist> must hold a <dict>');
  const variantName = variantNameOf(document);
  const entries = new Map<string, StringsdictEntry>();
  for (const { key, value, comments, at } of dictPairs(top)) {
    if (value.tagName !== 'dict') throw new MalformedFile(at, `"${key}" must be a <dict>`);
    if (entries.has(key)) throw new MalformedFile(at, `key "${key}" repeats`);
    const fields = new Map(dictPairs(value).map((pair) => [pair.key, pair]));
    const formatKey = fields.get('NSStringLocalizedFormatKey');
    if (!formatKey) throw new MalformedFile(at, `"${key}" has no NSStringLocalizedFormatKey`);
    const format = stringOf(formatKey.value, `${key}.NSStringLocalizedFormatKey`);
    const rule = /%(?:\d+\$)?#@([^@]+)@/.exec(format);
    if (!rule)
      throw new MalformedFile(formatKey.at, `"${key}": NSStringLocalizedFormatKey names no plural variable (%#@name@)`);
    const before = format.slice(0, rule.index);
    const after = format.slice(rule.index + rule[0].length);
    const spec = fields.get(rule[1]!);
    if (spec?.value.tagName !== 'dict') throw new MalformedFile(formatKey.at, `"${key}" has no <dict> for ${rule[1]}`);
    const variables = comments.map((c) => /^Variables: (.*)$/.exec(c)).find((match) => match !== null);
    const names = variables ? variables[1]!.split(',').map((name) => name.trim()) : undefined;
    // Argument 1 is the plural count; a `count` listed first is that argument.
    const nameOf = (position: number) =>
      names?.[0] === 'count' ? names[position - 1] : position === 1 ? 'count' : names?.[position - 2];
    const forms = new Map<PluralForm, string>();
    let positional = false;
    for (const pair of dictPairs(spec.value)) {
      if (!isForm(pair.key)) continue;
      const raw = before + stringOf(pair.value, `${key}.${pair.key}`) + after;
      const named = namePrintf(raw, nameOf, true);
      if (named === null) positional = true;
      forms.set(pair.key, named ?? raw);
    }
    if (forms.size === 0) throw new MalformedFile(spec.at, `"${key}" has no plural forms`);
    const notes = comments.filter((c) => !/^Variables: /.test(c)).join('\n');
    entries.set(key, { forms, notes, ...(names && { names }), positional, at });
  }
  return { entries, variantName };
}

export function parseIosStringsdict(content: string, options: ParseOptions): ParsedFile {
  const { entries, variantName } = readStringsdict(content);
  return {
    entries: [...entries].map(([key, dict]) => stringsdictEntry(key, dict, options.locale)),
    skipped: [],
    variantName,
    carriesPlurals: true,
  };
}

/** A plural record of the stringsdict alone: without a display text, `other` is it. */
export function stringsdictEntry(key: string, dict: StringsdictEntry, locale: string): ParsedEntry {
  const value = settlePlurals(null, dict.forms, locale);
  const positional = dict.positional ? { positional: { kind: 'stringsdict' as const } } : {};
  return { key, at: dict.at, value: { ...value, notes: dict.notes, ...positional } };
}
