/** Reading the JSON formats: the object, its metadata keys, nested keys flattened. */
import { lineAt, MalformedFile } from './types.js';

/** Keys the exporters write about the file rather than about a text. */
const METADATA_KEYS = new Set(['__variant-name', '__variant-description', '__variables_used']);

/** The file's top-level object; a syntax error names its line. */
export function readJsonObject(content: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    const line = position ? lineAt(content, Number(position[1])) : null;
    throw new MalformedFile(line === null ? 'file' : `line ${line}`, `not valid JSON (${message})`);
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
