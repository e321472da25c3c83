/**
 * android: a `res/values/strings.xml` read by aapt2's rules (entities by the XML parser; then the
 * escapes `\' \" \\ \n \t \@ \? \uXXXX`, `"` quoting, whitespace collapsed outside quotes, an
 * apostrophe outside quotes an error). Keys are `ditto_api_id` when present, else `name`;
 * `<xliff:g id>` names a variable; the comment above a resource is its notes.
 */
import type { PluralForm } from '../../db/schema.js';
import { isForm, settlePlurals } from './plurals.js';
import { printfArguments } from './printf.js';
import { MalformedFile, type ParsedEntry, type ParsedFile, type ParseOptions, type SkippedEntry } from './types.js';
import { type Element, elementsWithComments, lineOf, readXml, variantNameOf } from './xml.js';

type Piece = { kind: 'text'; text: string } | { kind: 'variable'; name: string };
type Event =
  | { kind: 'text'; text: string }
  | { kind: 'style' }
  | { kind: 'variable'; name: string | null; content: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SPACE = /[ \t\n\v\f\r]/;
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t' };

class ResourceReference extends Error {}

function events(parent: Element, out: Event[] = []): Event[] {
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === node.TEXT_NODE || node.nodeType === node.CDATA_SECTION_NODE) {
      out.push({ kind: 'text', text: node.nodeValue ?? '' });
    } else if (node.nodeType === node.ELEMENT_NODE) {
      const element = node as unknown as Element;
      if (element.tagName === 'xliff:g') {
        const id = element.getAttribute('id');
        out.push({
          kind: 'variable',
          name: id !== null && NAME.test(id) ? id : null,
          content: element.textContent ?? '',
        });
      } else {
        // A style tag (<b>, <i>, ...): its text is kept, the styling is not (docs/import.md).
        out.push({ kind: 'style' });
        events(element, out);
        out.push({ kind: 'style' });
      }
    }
  }
  return out;
}

/** One `<string>` or `<item>` as pieces of text and variables. */
function decode(element: Element, at: string): Piece[] {
  const list = events(element);
  const raw = list
    .map((event) => (event.kind === 'text' ? event.text : event.kind === 'variable' ? event.content : ''))
    .join('');
  if (/^[ \t\n\v\f\r]*[@?]/.test(raw)) throw new ResourceReference();
  if (!list.some((event) => event.kind === 'style')) trimEdges(list);
  const pieces: Piece[] = [];
  const state = { quote: false, lastSpace: false };
  const pushText = (text: string) => {
    const last = pieces[pieces.length - 1];
    if (last?.kind === 'text') last.text += text;
    else pieces.push({ kind: 'text', text });
  };
  for (const event of list) {
    if (event.kind === 'style') {
      state.quote = false;
      state.lastSpace = false;
    } else if (event.kind === 'variable' && event.name !== null) {
      pieces.push({ kind: 'variable', name: event.name });
      state.lastSpace = false;
    } else pushText(decodeText(event.kind === 'text' ? event.text : event.content, state, at));
  }
  return pieces;
}

/** Trims the raw edges of the whole value; a placeholder's content is not white space. */
function trimEdges(list: Event[]): void {
  const trim = (events: Event[], edge: RegExp) => {
    for (const event of events) {
      if (event.kind !== 'text') break;
      event.text = event.text.replace(edge, '');
      if (event.text !== '') break;
    }
  };
  trim(list, /^[ \t\n\v\f\r]+/);
  trim([...list].reverse(), /[ \t\n\v\f\r]+$/);
}

function decodeText(text: string, state: { quote: boolean; lastSpace: boolean }, at: string): string {
  let out = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (!state.quote && SPACE.test(char)) {
      if (!state.lastSpace) out += ' ';
      state.lastSpace = true;
      continue;
    }
    state.lastSpace = false;
    if (char === '\\') {
      if (index + 1 >= text.length) continue;
      const next = text[++index]!;
      if (next === 'u') {
        const hex = text.slice(index + 1, index + 5);
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) throw new MalformedFile(at, `bad escape \\u${hex}`);
        out += String.fromCharCode(Number.parseInt(hex, 16));
        index += 4;
      } else out += ESCAPES[next] ?? next;
    } else if (char === '"') state.quote = !state.quote;
    else if (char === "'" && !state.quote)
      throw new MalformedFile(at, "unescaped apostrophe (write \\' or quote the text)");
    else out += char;
  }
  return out;
}

/** Pieces as stored text: in a formatted string (one with variables) `%%` is a literal `%`. */
function storedText(pieces: readonly Piece[], formatted: boolean): string {
  return pieces
    .map((piece) =>
      piece.kind === 'variable' ? `{{${piece.name}}}` : formatted ? piece.text.replaceAll('%%', '%') : piece.text,
    )
    .join('');
}

interface Resource {
  key: string;
  at: string;
  notes: string;
  text: string | null;
  forms: Map<PluralForm, string>;
  /** Printf arguments left for the importer to name. */
  positional: boolean;
}

export function parseAndroid(content: string, options: ParseOptions): ParsedFile {
  const document = readXml(content);
  const root = document.documentElement!;
  const at = (element: Element) => `line ${lineOf(element) ?? '?'}`;
  if (root.tagName !== 'resources')
    throw new MalformedFile(at(root), `the root element must be <resources>, found <${root.tagName}>`);
  const variantName = variantNameOf(document);
  const resources = new Map<string, Resource>();
  const skipped: SkippedEntry[] = [];
  for (const { element, comments } of elementsWithComments(root)) {
    const key = element.getAttribute('ditto_api_id') || element.getAttribute('name') || '';
    const where = `${at(element)} (${key || 'no name'})`;
    if (element.tagName !== 'string' && element.tagName !== 'plurals') {
      skipped.push({ key, reason: `<${element.tagName}> resources have no stored equivalent` });
      continue;
    }
    if (key === '') throw new MalformedFile(at(element), `<${element.tagName}> has no name`);
    let resource = resources.get(key);
    if (!resource) {
      resource = { key, at: where, notes: comments.join('\n'), text: null, forms: new Map(), positional: false };
      resources.set(key, resource);
    } else if (comments.length > 0) resource.notes = comments.join('\n');
    const unformatted = element.getAttribute('formatted') === 'false';
    try {
      if (element.tagName === 'string') {
        if (resource.text !== null) throw new MalformedFile(where, `<string> "${key}" repeats`);
        const pieces = decode(element, where);
        const formatted = pieces.some((piece) => piece.kind === 'variable');
        resource.text = storedText(pieces, formatted);
        if (!formatted && !unformatted && printfArguments(resource.text).length > 0) resource.positional = true;
      } else {
        if (resource.forms.size > 0) throw new MalformedFile(where, `<plurals> "${key}" repeats`);
        const items = elementsWithComments(element).map(({ element: item }) => item);
        const decoded = items.map((item) => {
          const quantity = item.getAttribute('quantity') ?? '';
          if (item.tagName !== 'item' || !isForm(quantity)) {
            throw new MalformedFile(
              at(item),
              `<plurals> "${key}" holds <${item.tagName} quantity="${quantity}">: expected <item> with a CLDR quantity`,
            );
          }
          return { form: quantity, pieces: decode(item, at(item)) };
        });
        const formatted = decoded.some(({ pieces }) => pieces.some((piece) => piece.kind === 'variable'));
        for (const { form, pieces } of decoded) {
          const text = storedText(pieces, formatted);
          if (!formatted && printfArguments(text).length > 0) resource.positional = true;
          resource.forms.set(form, text);
        }
      }
    } catch (error) {
      if (!(error instanceof ResourceReference)) throw error;
      resources.delete(key);
      skipped.push({ key, reason: 'a reference to another resource (@...), not text' });
    }
  }
  const entries: ParsedEntry[] = [...resources.values()].map((resource) => {
    const value = settlePlurals(resource.text, resource.forms, options.locale);
    const positional = resource.positional ? { positional: { kind: 'android' as const } } : {};
    return { key: resource.key, at: resource.at, value: { ...value, notes: resource.notes, ...positional } };
  });
  return { entries, skipped, variantName, carriesPlurals: true };
}
