/**
 * The HTML subset of rich text: parse and sanitise what clients send, render what is stored.
 * Decisions are in docs/rich-text.md.
 */
import { normalize, type Run } from './normalize.js';
import { escapeText, runsToText, serializeRuns, splitLines } from './serialize.js';
import { tokenize } from './tokenize.js';

export type RichTextMode = 'html' | 'html_paragraphs';

export interface ParsedRichText {
  /** The stored markup: the subset only, canonical, `<br>` for line breaks. */
  html: string;
  /** The plain text: tags removed, entities decoded, a line break as `\n`. */
  text: string;
}

export interface ParseRichTextOptions {
  /** The workspace enables superscript and subscript; otherwise `sup`/`sub` are dropped, text kept. */
  supSub: boolean;
}

/** Sanitises client markup to the stored subset. Pure and idempotent on its own `html`. */
export function parseRichText(markup: string, options: ParseRichTextOptions): ParsedRichText {
  const runs = normalize(tokenize(markup, options.supSub), { dropWholeBold: true });
  return { html: serializeRuns(runs, '<br>'), text: runsToText(runs) };
}

/** Stored markup as the API returns it for `richText=html` or `richText=html_paragraphs`. */
export function renderRichText(storedHtml: string, mode: RichTextMode): string {
  return renderRuns(storedRuns(storedHtml), mode);
}

/** A plain text asked for as rich text: escaped, with its newlines as line breaks. */
export function plainToRichText(text: string, mode: RichTextMode): string {
  const lines = text.split(/\r\n|\r|\n/).map(escapeText);
  return mode === 'html' ? lines.join('<br />') : lines.map((line) => `<p>${line}</p>`).join('');
}

/** The plain text of stored markup (the same as the `text` that `parseRichText` gave for it). */
export function richTextToPlain(storedHtml: string): string {
  return runsToText(storedRuns(storedHtml));
}

// Stored markup is re-read rather than string-edited, so rendering stays correct even for
// markup stored before a rule changed; the whole-bold rule belongs to writes only.
function storedRuns(storedHtml: string): Run[] {
  return normalize(tokenize(storedHtml, true), { dropWholeBold: false });
}

function renderRuns(runs: Run[], mode: RichTextMode): string {
  if (mode === 'html') return serializeRuns(runs, '<br />');
  return splitLines(runs)
    .map((line) => `<p>${serializeRuns(line, '')}</p>`)
    .join('');
}

/**
 * The `richText` of a record as the API returns it: the stored markup rendered in `mode`, or for a
 * plain record its escaped text. Fetches and exports both use this, so they agree byte for byte.
 */
export function richTextOf(record: { text: string; richText: string | null }, mode: RichTextMode): string {
  return record.richText !== null ? renderRichText(record.richText, mode) : plainToRichText(record.text, mode);
}
