/**
 * Android resource values decoded by aapt2's rules (its StringBuilder and ResourceParser), written
 * from those rules rather than from our exporter:
 * - XML entities are resolved first, by the XML parser.
 * - A string without style spans has its raw leading and trailing ASCII whitespace trimmed.
 * - Escapes `\' \" \\ \n \t \@ \? \#` and `\uXXXX` (exactly four hex digits); an unknown `\x`
 *   gives `x`; a backslash at the end of a text node is dropped.
 * - `"` toggles quoting and is not emitted. Outside quotes, runs of ASCII whitespace collapse to
 *   one space and an apostrophe is an error ("unescaped apostrophe").
 * - Quote and whitespace state end at every style tag; `<xliff:g>` is not a style tag.
 * - A value whose raw text starts with `@` or `?` is a resource reference, not text: an error.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

type XmlNode = Record<string, unknown> & { ':@'?: Record<string, string> };

export interface Span {
  tag: string;
  start: number;
  end: number;
}

export interface DecodedValue {
  text: string;
  spans: Span[];
  /** The `<xliff:g>` placeholders in order: their attributes and decoded content. */
  placeholders: Array<{ id: string; example: string; content: string }>;
}

export interface DecodedResource {
  kind: 'string' | 'plurals';
  attributes: Record<string, string>;
  /** The value of a `<string>`, or each `<item>` of `<plurals>` by quantity. */
  values: Map<string, DecodedValue>;
  /** Comments directly above the element. */
  comments: string[];
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: true,
  commentPropName: '#comment',
});

const SPACE = /[ \t\n\v\f\r]/;

export interface DecodedFile {
  resources: DecodedResource[];
  /** Every comment inside `<resources>`. */
  comments: string[];
  /** The comments before the root element (after the XML declaration). */
  leadingComments: string[];
}

export function decodeResources(xml: string): DecodedFile {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`not well-formed XML: ${valid.err.msg} at line ${valid.err.line}`);
  const top = parser.parse(xml) as XmlNode[];
  const rootIndex = top.findIndex((node) => 'resources' in node);
  if (rootIndex === -1) throw new Error('no <resources> element');
  const root = top[rootIndex]!;
  const leadingComments = top
    .slice(0, rootIndex)
    .filter((node) => '#comment' in node)
    .map((node) => textOf(node['#comment'] as XmlNode[]).trim());
  const resources: DecodedResource[] = [];
  const allComments: string[] = [];
  let comments: string[] = [];
  for (const node of root.resources as XmlNode[]) {
    if ('#comment' in node) {
      const text = textOf(node['#comment'] as XmlNode[]);
      comments.push(text.trim());
      allComments.push(text.trim());
    } else if ('string' in node) {
      const values = new Map([['', decodeValue(node.string as XmlNode[])]]);
      resources.push({ kind: 'string', attributes: node[':@'] ?? {}, values, comments });
      comments = [];
    } else if ('plurals' in node) {
      const values = new Map<string, DecodedValue>();
      for (const item of node.plurals as XmlNode[]) {
        if (!('item' in item)) continue;
        const quantity = item[':@']?.quantity ?? '';
        if (values.has(quantity)) throw new Error(`duplicate quantity ${quantity}`);
        values.set(quantity, decodeValue(item.item as XmlNode[]));
      }
      resources.push({ kind: 'plurals', attributes: node[':@'] ?? {}, values, comments });
      comments = [];
    }
  }
  return { resources, comments: allComments, leadingComments };
}

function textOf(nodes: XmlNode[]): string {
  return nodes.map((node) => ('#text' in node ? String(node['#text']) : '')).join('');
}

type Event =
  | { kind: 'text'; text: string }
  | { kind: 'span'; tag: string; open: boolean }
  | { kind: 'xliff'; open: boolean; attributes: Record<string, string> };

function flatten(nodes: XmlNode[], out: Event[] = [], inXliff = false): Event[] {
  for (const node of nodes) {
    if ('#text' in node) {
      out.push({ kind: 'text', text: String(node['#text']) });
      continue;
    }
    const tag = Object.keys(node).find((key) => key !== ':@')!;
    if (inXliff) throw new Error(`<${tag}> inside <xliff:g>`);
    const xliff = tag === 'xliff:g';
    const attributes = node[':@'] ?? {};
    out.push(xliff ? { kind: 'xliff', open: true, attributes } : { kind: 'span', tag, open: true });
    flatten(node[tag] as XmlNode[], out, xliff);
    out.push(xliff ? { kind: 'xliff', open: false, attributes } : { kind: 'span', tag, open: false });
  }
  return out;
}

export function decodeValue(nodes: XmlNode[]): DecodedValue {
  const events = flatten(nodes);
  const raw = events.map((event) => (event.kind === 'text' ? event.text : '')).join('');
  if (/^[ \t\n\v\f\r]*[@?]/.test(raw)) throw new Error(`value ${JSON.stringify(raw)} is a resource reference`);
  const styled = events.some((event) => event.kind === 'span');
  if (!styled) trimEdges(events);
  const state = { text: '', quote: false, lastSpace: false };
  const spans: Span[] = [];
  const open: Span[] = [];
  const placeholders: DecodedValue['placeholders'] = [];
  let placeholderStart = 0;
  for (const event of events) {
    if (event.kind === 'text') appendText(state, event.text);
    else if (event.kind === 'xliff') {
      if (event.open) placeholderStart = state.text.length;
      else {
        const { id = '', example = '' } = event.attributes;
        placeholders.push({ id, example, content: state.text.slice(placeholderStart) });
      }
    } else {
      // A style span ends the quote and whitespace state; an untranslatable section does not.
      state.quote = false;
      state.lastSpace = false;
      if (event.open) open.push({ tag: event.tag, start: state.text.length, end: -1 });
      else spans.push({ ...open.pop()!, end: state.text.length });
    }
  }
  return { text: state.text, spans, placeholders };
}

/** Trims the raw edges of the whole value, across text nodes (placeholder content included). */
function trimEdges(events: Event[]): void {
  const texts = events.filter((event): event is Extract<Event, { kind: 'text' }> => event.kind === 'text');
  for (const event of texts) {
    event.text = event.text.replace(/^[ \t\n\v\f\r]+/, '');
    if (event.text !== '') break;
  }
  for (const event of texts.reverse()) {
    event.text = event.text.replace(/[ \t\n\v\f\r]+$/, '');
    if (event.text !== '') break;
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { t: '\t', n: '\n' };

function appendText(state: { text: string; quote: boolean; lastSpace: boolean }, text: string): void {
  const chars = Array.from(text);
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index]!;
    if (!state.quote && SPACE.test(char)) {
      if (!state.lastSpace) state.text += ' ';
      state.lastSpace = true;
      continue;
    }
    state.lastSpace = false;
    if (char === '\\') {
      if (index + 1 >= chars.length) continue;
      const next = chars[++index]!;
      if (next === 'u') {
        const hex = chars.slice(index + 1, index + 5).join('');
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) throw new Error(`bad \\u escape in ${JSON.stringify(text)}`);
        state.text += String.fromCharCode(Number.parseInt(hex, 16));
        index += 4;
      } else state.text += SIMPLE_ESCAPES[next] ?? next;
    } else if (char === '"') state.quote = !state.quote;
    else if (char === "'" && !state.quote) throw new Error(`unescaped apostrophe in string ${JSON.stringify(text)}`);
    else state.text += char;
  }
}
