/** Reading the JSON formats: the object, its metadata keys, nested keys flattened. */
import { checkJsonNesting } from './nesting.js';
import { lineAt, MalformedFile } from './types.js';

/** Keys the exporters write about the file rather than about a text. */
const METADATA_KEYS = new Set(['__variant-name', '__variant-description', '__variables_used']);

/** The file's top-level object; a syntax error names its line. */
export function readJsonObject(content: string): Record<string, unknown> {
  checkJsonNesting(content);
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch (error) {
    const offset = syntaxErrorAt(content.replace(/^\uFEFF/, ''));
    const message = (error as Error).message.replace(/, ".*" is not valid JSON$/s, '');
    throw new MalformedFile(
      offset === null ? 'file' : `line ${lineAt(content, offset)}`,
      `not valid JSON (${message})`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new MalformedFile('file', 'must be a JSON object of keys and messages');
  }
  return parsed as Record<string, unknown>;
}

export interface JsonString {
  key: string;
  text: string;
  at: string;
}

/**
 * The string values of the object with nested objects' keys joined by `separator` (i18next
 * reads nested files the same way). The exporters' metadata keys are left out; `name` and
 * `description` answer the variant a variant export names.
 */
export function flatStrings(
  object: Record<string, unknown>,
  separator: string,
): { strings: JsonString[]; variantName: string | null } {
  const strings: JsonString[] = [];
  const variantName = typeof object['__variant-name'] === 'string' ? object['__variant-name'] : null;
  const walk = (value: Record<string, unknown>, prefix: string) => {
    for (const [name, member] of Object.entries(value)) {
      if (prefix === '' && METADATA_KEYS.has(name)) continue;
      const key = prefix === '' ? name : `${prefix}${separator}${name}`;
      if (typeof member === 'string') strings.push({ key, text: member, at: `key "${key}"` });
      else if (member !== null && typeof member === 'object' && !Array.isArray(member)) {
        walk(member as Record<string, unknown>, key);
      } else {
        throw new MalformedFile(`key "${key}"`, `must be a string or an object of messages, not ${describe(member)}`);
      }
    }
  };
  walk(object, '');
  return { strings, variantName };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * Where the first syntax error of a JSON text is (an offset), or null: `JSON.parse` does not say
 * for every error on Node 20, and a 400 should name the line.
 */
export function syntaxErrorAt(text: string): number | null {
  let pos = 0;
  const space = () => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos]!)) pos++;
  };
  const fail = (): never => {
    throw pos;
  };
  const expect = (token: string) => {
    if (!text.startsWith(token, pos)) fail();
    pos += token.length;
  };
  const string = () => {
    expect('"');
    while (pos < text.length && text[pos] !== '"') {
      if (text.charCodeAt(pos) < 0x20) fail();
      pos += text[pos] === '\\' ? 2 : 1;
    }
    expect('"');
  };
  /** The members of an object or array up to `close`; `member` reads one. */
  const members = (close: string, member: () => void) => {
    pos++;
    space();
    if (text[pos] === close) {
      pos++;
      return;
    }
    for (;;) {
      member();
      space();
      if (text[pos] === close) break;
      expect(',');
    }
    pos++;
  };
  const value = (): void => {
    space();
    const char = text[pos];
    if (char === '{') {
      members('}', () => {
        space();
        string();
        space();
        expect(':');
        value();
      });
    } else if (char === '[') members(']', value);
    else if (char === '"') string();
    else if (char === 't') expect('true');
    else if (char === 'f') expect('false');
    else if (char === 'n') expect('null');
    else {
      const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(pos, pos + 400));
      if (!number) fail();
      pos += number![0].length;
    }
  };
  try {
    value();
    space();
    return pos < text.length ? pos : null;
  } catch (offset) {
    if (typeof offset === 'number') return offset;
    throw offset;
  }
}
