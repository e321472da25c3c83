import { flatBody } from './flat.js';
import type { LegacyText } from './types.js';

export interface NestedBody {
  [key: string]: string | NestedBody;
}

/**
 * `nested`: `flat` with each key split at `.` into nested objects (`home.title` becomes
 * `{ home: { title } }`), the layout i18next and vue-i18n read with their default key separator.
 * Shorter paths are placed first, so `home` keeps its text and `home.title`, which cannot nest
 * under a text, stays whole at the top level. The same goes for a key with an empty segment
 * (`a..b`, `a.`). Such a whole key has a dot in it, so it never meets a nested one.
 */
export function nestedBody(texts: readonly LegacyText[]): NestedBody {
  const body = node();
  const entries = Object.entries(flatBody(texts)).map(([key, value]) => ({ key, path: key.split('.'), value }));
  // Stable: keys of one depth keep the order of the texts.
  entries.sort((a, b) => a.path.length - b.path.length);
  for (const { key, path, value } of entries) {
    if (!place(body, path, value)) body[key] = value;
  }
  return body;
}

/** Objects without a prototype, so that a segment such as `__proto__` is an ordinary key. */
const node = (): NestedBody => Object.create(null) as NestedBody;

/** Puts `value` at `path`; false, with nothing changed, when the path does not fit. */
function place(root: NestedBody, path: readonly string[], value: string): boolean {
  if (path.some((segment) => segment === '')) return false;
  let at = root;
  for (const segment of path.slice(0, -1)) {
    let next = at[segment];
    if (typeof next === 'string') return false;
    if (next === undefined) {
      // Once a node is new, every node below it is too: nothing is left half-built.
      next = node();
      at[segment] = next;
    }
    at = next;
  }
  const leaf = path[path.length - 1] as string;
  if (leaf in at) return false;
  at[leaf] = value;
  return true;
}
