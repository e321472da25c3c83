/** XML read with @xmldom/xmldom: the first error (with its line) is the file's 400. */
import { DOMParser, type Document, type Node } from '@xmldom/xmldom';
import { checkXmlNesting } from './nesting.js';
import { MalformedFile } from './types.js';

export function readXml(source: string): Document {
  checkXmlNesting(source);
  let problem: { message: string; line: number | undefined } | null = null;
  const parser = new DOMParser({
    onError: (level, message, context) => {
      if (level === 'warning' || problem !== null) return;
      const line = (context as { locator?: { lineNumber?: number } } | undefined)?.locator?.lineNumber;
      problem = { message: message.replace(/\s+/g, ' ').trim(), line };
    },
  });
  let document: Document | undefined;
  try {
    document = parser.parseFromString(source.replace(/^\uFEFF/, ''), 'text/xml');
  } catch {
    // The error handler has the message and line; a fatal error throws after reporting it.
  }
  const found = problem as { message: string; line: number | undefined } | null;
  if (found !== null || document === undefined || document.documentElement === null) {
    const where = found?.line === undefined ? 'file' : `line ${found.line}`;
    throw new MalformedFile(where, `not well-formed XML (${found?.message ?? 'no root element'})`);
  }
  return document;
}

/** Element children, skipping text, with the comments just before each (no blank line between). */
export function elementsWithComments(parent: Node): Array<{ element: Element; comments: string[] }> {
  const out: Array<{ element: Element; comments: string[] }> = [];
  let comments: string[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === node.COMMENT_NODE) comments.push(unescapeComment((node as unknown as { data: string }).data));
    else if (node.nodeType === node.ELEMENT_NODE) {
      out.push({ element: node as unknown as Element, comments });
      comments = [];
    } else if (node.nodeType === node.TEXT_NODE && /\n[ \t]*\n/.test(node.nodeValue ?? '')) comments = [];
  }
  return out;
}

/** Comments are not parsed by XML, but the exporters escape their text: `&amp;` is `&`. */
export function unescapeComment(data: string): string {
  return data
    .trim()
    .replace(/- (?=-)/g, '-')
    .replace(/&(amp|lt|gt);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>' })[name]!)
    .replace(/\s$/, '');
}

/** The variant a variant export names in its comment before the root element. */
export function variantNameOf(document: Document): string | null {
  for (let node = document.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType !== node.COMMENT_NODE) continue;
    const name = /^\s*Variant Name: (.*?)\s*$/.exec(node.nodeValue ?? '');
    if (name) return name[1]!;
  }
  return null;
}

export const lineOf = (node: Node) => (node as unknown as { lineNumber?: number }).lineNumber;

export type Element = import('@xmldom/xmldom').Element;
