import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

/**
 * Text either database can store as sent. PostgreSQL refuses the NUL character in `text` and in
 * `jsonb` (a 500 once it reaches the database, while SQLite would keep it), and a lone UTF-16
 * surrogate (which JSON's `\uD800` escape can produce) has no UTF-8 form: the driver would store
 * U+FFFD in its place, silently changing the text. Both are refused up front, on both databases,
 * so a request is stored whole or answered with a 400 that names the field.
 */
// A high surrogate not followed by a low one, or a low one not preceded by a high one (no `u`
// flag: the pattern must see UTF-16 code units).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function unstorableProblem(text: string): string | null {
  const nul = text.indexOf('\u0000');
  if (nul !== -1) return `must not contain the NUL character (U+0000, at position ${nul})`;
  const lone = LONE_SURROGATE.exec(text);
  if (lone) {
    const hex = lone[0].charCodeAt(0).toString(16).toUpperCase();
    return `must not contain an unpaired surrogate (U+${hex}, at position ${lone.index})`;
  }
  return null;
}

/** A step of the walk: its value and how to name it (the parent link builds the path on failure). */
interface Step {
  value: unknown;
  key: string | number | null;
  parent: Step | null;
}

function pathOf(step: Step, root: string): string {
  const keys: (string | number)[] = [];
  for (let s: Step | null = step; s !== null; s = s.parent) if (s.key !== null) keys.push(s.key);
  let path = '';
  for (const key of keys.reverse()) {
    if (typeof key === 'number') path += `[${key}]`;
    else path += path ? `.${key}` : key;
  }
  return path || root;
}

/**
 * The first string (or object key) of a parsed JSON value that cannot be stored, as the message
 * of a 400 (`texts[2].text: must not contain ...`), or null. Iterative: a deeply nested body
 * must not overflow the stack.
 */
export function findUnstorableText(value: unknown, root: string): string | null {
  const stack: Step[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    const current = step.value;
    if (typeof current === 'string') {
      const problem = unstorableProblem(current);
      if (problem) return `${pathOf(step, root)}: ${problem}`;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push({ value: current[i], key: i, parent: step });
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current);
      for (const key of keys) {
        const problem = unstorableProblem(key);
        // The path stops at the object: the name itself holds the character.
        if (problem) return `${pathOf(step, root)}: a field name ${problem}`;
      }
      for (let i = keys.length - 1; i >= 0; i -= 1) {
        const key = keys[i] as string;
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: step });
      }
    }
  }
  return null;
}

/**
 * Every request's body, query string and path parameters are checked once, before schema
 * validation, so no route can forget it.
 */
export function registerStorableText(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const problem =
      findUnstorableText(request.params, 'params') ??
      findUnstorableText(request.query, 'querystring') ??
      findUnstorableText(request.body, 'body');
    if (problem) throw badRequest(problem);
  });
}
