import { lineAt, MalformedFile } from './types.js';

/**
 * How deep an imported file may nest: JSON objects and arrays, XML elements. Real localisation
 * files nest a few levels (i18next namespaces, rich text marks); 64 leaves room for any of them.
 * Both checks scan the text once, before it is parsed, so a file of thousands of levels is a
 * 400 naming the line, never a stack overflow or a parser stalling the event loop.
 */
export const MAX_NESTING = 64;

/** Throws when JSON `content` opens more than MAX_NESTING objects or arrays inside each other. */
export function checkJsonNesting(content: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < content.length; i += 1) {
    const c = content.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > MAX_NESTING) throw tooDeep(content, i, 'objects and arrays');
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
}

/**
 * Markup that is not an element: comments, CDATA, processing instructions and the doctype are
 * skipped whole; every other `<` opens or closes an element (or is malformed, for the parser).
 */
const XML_TOKEN = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<\?[\s\S]*?(?:\?>|$)|<!|<\/|<[^>]*?\/>|</g;

/** Throws when XML `source` nests elements more than MAX_NESTING deep. */
export function checkXmlNesting(source: string): void {
  let depth = 0;
  XML_TOKEN.lastIndex = 0;
  for (let match = XML_TOKEN.exec(source); match !== null; match = XML_TOKEN.exec(source)) {
    const token = match[0];
    if (token === '</') depth -= 1;
    else if (token === '<') {
      depth += 1;
      if (depth > MAX_NESTING) throw tooDeep(source, match.index, 'elements');
    }
  }
}

function tooDeep(content: string, offset: number, what: string): MalformedFile {
  return new MalformedFile(`line ${lineAt(content, offset)}`, `${what} nested more than ${MAX_NESTING} levels deep`);
}
