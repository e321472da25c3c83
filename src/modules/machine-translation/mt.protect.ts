/**
 * What must come back from a provider exactly as it went: `{{name}}` placeholders, rich-text marks
 * and line breaks. A text goes out as a small XML/HTML fragment (placeholders as empty `<x id="N">`
 * elements, line breaks as `<br/>`, marks as their own elements), which DeepL's tag handling,
 * LibreTranslate's `format=html` and a prompted model all leave in place; what comes back is
 * checked (every placeholder once, as many line breaks, the same marks, nothing else) and turned
 * back into stored text, or refused. Pure functions of their input.
 */
import { findPlaceholders } from '../../text/placeholders.js';

/** A text made ready for a provider, and what restoring its answer needs. */
export interface Protected {
  /** The fragment sent. */
  wire: string;
  /** Placeholder id to the placeholder as written (`{{ name }}`). */
  placeholders: Map<string, string>;
  lineBreaks: number;
  /** Mark element names, each as many times as it opens. */
  marks: Map<string, number>;
  rich: boolean;
}

export const MARKS = ['strong', 'em', 'u', 's', 'sup', 'sub'] as const;
const MARK_SET = new Set<string>(MARKS);

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Placeholders of a run of (escaped) text as `<x>` elements, numbered on from `next`. */
function protectPlaceholders(escaped: string, state: { next: number; placeholders: Map<string, string> }): string {
  let out = '';
  let at = 0;
  for (const p of findPlaceholders(escaped)) {
    state.next += 1;
    const id = String(state.next);
    state.placeholders.set(id, escaped.slice(p.start, p.end));
    out += `${escaped.slice(at, p.start)}<x id="${id}"></x>`;
    at = p.end;
  }
  return out + escaped.slice(at);
}

/**
 * A text as a provider gets it: `html` (the stored markup of a rich text) or the plain `text`.
 * Stored markup holds only the subset (docs/rich-text.md), already escaped.
 */
export function protect(input: { text: string; html: string | null }): Protected {
  const state = { next: 0, placeholders: new Map<string, string>() };
  const marks = new Map<string, number>();
  let lineBreaks = 0;
  if (input.html === null) {
    const lines = input.text.split(/\r\n|\r|\n/);
    lineBreaks = lines.length - 1;
    const wire = lines.map((line) => protectPlaceholders(escapeXml(line), state)).join('<br/>');
    return { wire, placeholders: state.placeholders, lineBreaks, marks, rich: false };
  }
  // The stored subset: text runs, `<br>` and the mark elements, nothing else.
  const html = input.html.replace(/&nbsp;/g, '\u00a0');
  let wire = '';
  for (const part of html.split(/(<[^>]*>)/)) {
    if (part.startsWith('<')) {
      const tag = /^<(\/?)([a-z]+)\s*\/?>$/.exec(part);
      if (tag?.[2] === 'br') {
        lineBreaks += 1;
        wire += '<br/>';
      } else if (tag && MARK_SET.has(tag[2] as string)) {
        if (tag[1] === '') marks.set(tag[2] as string, (marks.get(tag[2] as string) ?? 0) + 1);
        wire += part;
      }
    } else {
      wire += protectPlaceholders(part, state);
    }
  }
  return { wire, placeholders: state.placeholders, lineBreaks, marks, rich: true };
}

/** Why an answer is refused: what it lost, added or broke. */
export class RefusedTranslation extends Error {}

/**
 * The stored form of a provider's answer to `sent`: plain text, or markup for a rich text (the
 * write sanitises it as any client's). Refused when a placeholder is missing, doubled or unknown,
 * when line breaks or marks differ in number, when marks do not nest, or another tag appears.
 */
export function restore(answer: string, sent: Protected): string {
  const seen = new Map<string, number>();
  const opened = new Map<string, number>();
  const stack: string[] = [];
  let lineBreaks = 0;
  let out = '';
  for (const part of answer.split(/(<[^>]*>)/)) {
    if (!part.startsWith('<')) {
      out += sent.rich ? part : decodeEntities(part);
      continue;
    }
    const placeholder = /^<x\s+id\s*=\s*["']?(\d+)["']?\s*\/?>$/i.exec(part);
    if (placeholder) {
      const id = placeholder[1] as string;
      const written = sent.placeholders.get(id);
      if (written === undefined)
        throw new RefusedTranslation(`the answer has a placeholder that was not sent (id ${id})`);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      out += sent.rich ? written : decodeEntities(written);
      continue;
    }
    if (/^<\/x\s*>$/i.test(part)) continue;
    const tag = /^<(\/?)([a-z]+)\s*(\/?)>$/i.exec(part);
    const name = tag?.[2]?.toLowerCase();
    if (tag && name === 'br') {
      lineBreaks += 1;
      out += sent.rich ? '<br>' : '\n';
      continue;
    }
    if (!tag || !name || !MARK_SET.has(name) || tag[3] === '/') {
      throw new RefusedTranslation(`the answer has markup that was not sent: ${part}`);
    }
    if (tag[1] === '') {
      stack.push(name);
      opened.set(name, (opened.get(name) ?? 0) + 1);
    } else if (stack.pop() !== name) {
      throw new RefusedTranslation(`the answer's formatting does not nest: ${part}`);
    }
    out += sent.rich ? `<${tag[1]}${name}>` : '';
  }
  for (const [id, written] of sent.placeholders) {
    const count = seen.get(id) ?? 0;
    if (count !== 1) {
      throw new RefusedTranslation(
        count === 0 ? `the answer dropped the placeholder ${written}` : `the answer repeats the placeholder ${written}`,
      );
    }
  }
  if (stack.length > 0) throw new RefusedTranslation(`the answer leaves <${stack.at(-1)}> open`);
  if (lineBreaks !== sent.lineBreaks) {
    throw new RefusedTranslation(`the answer has ${lineBreaks} line breaks where the text has ${sent.lineBreaks}`);
  }
  for (const name of new Set([...sent.marks.keys(), ...opened.keys()])) {
    if ((sent.marks.get(name) ?? 0) !== (opened.get(name) ?? 0)) {
      throw new RefusedTranslation(`the answer's <${name}> formatting differs from the text's`);
    }
  }
  return out;
}

/** Characters as a reader counts them (grapheme clusters), as the lint's character limit does. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) count += 1;
  return count;
}
