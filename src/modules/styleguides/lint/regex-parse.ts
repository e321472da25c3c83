/**
 * A small parser for JavaScript regular expressions, enough for the backtracking guard to see the
 * structure: groups, alternatives, quantifiers and the atoms they repeat. It runs only on patterns
 * that `new RegExp` has already accepted, so it does not re-check the syntax.
 */
export type RegexNode =
  | { type: 'atom'; source: string; char: number | null }
  | { type: 'assertion' }
  | { type: 'backreference' }
  | { type: 'group'; lookaround: boolean; body: Alternation }
  | { type: 'quantifier'; min: number; max: number; body: RegexNode };

export interface Alternation {
  alternatives: RegexNode[][];
}

const QUANTIFIER_BRACES = /^\{(\d+)(,(\d*))?\}/;
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S']);
const CONTROL_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11 };

export function parseRegex(pattern: string, unicode: boolean): Alternation {
  let i = 0;
  const peek = (offset = 0) => pattern[i + offset];

  function alternation(): Alternation {
    const alternatives = [sequence()];
    while (peek() === '|') {
      i += 1;
      alternatives.push(sequence());
    }
    return { alternatives };
  }

  function sequence(): RegexNode[] {
    const nodes: RegexNode[] = [];
    while (i < pattern.length && peek() !== '|' && peek() !== ')') nodes.push(quantified(term()));
    return nodes;
  }

  function quantified(node: RegexNode): RegexNode {
    let min: number;
    let max: number;
    const c = peek();
    if (c === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (c === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{' && QUANTIFIER_BRACES.test(pattern.slice(i))) {
      const m = QUANTIFIER_BRACES.exec(pattern.slice(i)) as RegExpExecArray;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
      i += m[0].length - 1;
    } else return node;
    i += 1;
    if (peek() === '?') i += 1; // lazy: the same search space, explored in another order
    return quantified({ type: 'quantifier', min, max, body: node });
  }

  function term(): RegexNode {
    const start = i;
    const c = peek() as string;
    if (c === '(') return group();
    if (c === '^' || c === '$') {
      i += 1;
      return { type: 'assertion' };
    }
    if (c === '.') {
      i += 1;
      return { type: 'atom', source: '.', char: null };
    }
    if (c === '[') {
      i += 1;
      if (peek() === '^') i += 1; // `[]` never matches and `[^]` matches anything: `]` closes at once
      while (i < pattern.length && peek() !== ']') i += peek() === '\\' ? 2 : 1;
      i += 1;
      return { type: 'atom', source: pattern.slice(start, i), char: null };
    }
    if (c === '\\') return escapeSequence();
    // Without the u flag a pattern is code units: an astral character is two atoms.
    const point = (unicode ? pattern.codePointAt(i) : pattern.charCodeAt(i)) as number;
    i += point > 0xffff ? 2 : 1;
    return { type: 'atom', source: pattern.slice(start, i), char: point };
  }

  function group(): RegexNode {
    let lookaround = false;
    if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i)) [lookaround, i] = [true, i + 3];
    else if (pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) [lookaround, i] = [true, i + 4];
    else if (pattern.startsWith('(?<', i)) i = pattern.indexOf('>', i) + 1;
    else if (pattern.startsWith('(?', i))
      i = pattern.indexOf(':', i) + 1; // (?: and modifier groups
    else i += 1;
    const body = alternation();
    i += 1; // ')'
    return { type: 'group', lookaround, body };
  }

  function escapeSequence(): RegexNode {
    const start = i;
    const c = pattern[i + 1] as string;
    i += 2;
    const atom = (char: number | null): RegexNode => ({ type: 'atom', source: pattern.slice(start, i), char });
    if (c === 'b' || c === 'B') return { type: 'assertion' };
    if (/[1-9]/.test(c)) {
      while (/\d/.test(peek() ?? '')) i += 1;
      return { type: 'backreference' };
    }
    if (c === 'k' && peek() === '<') {
      i = pattern.indexOf('>', i) + 1;
      return { type: 'backreference' };
    }
    if (CLASS_ESCAPES.has(c)) return atom(null);
    if ((c === 'p' || c === 'P') && unicode) {
      i = pattern.indexOf('}', i) + 1;
      return atom(null);
    }
    // Escapes whose meaning depends on what follows (`\\01` is octal without the u flag, `\\c`
    // needs a letter...) stay atoms of unknown character: the guard measures them by testing.
    if (c === '0' && /\d/.test(peek() ?? '')) {
      while (i < start + 4 && /[0-7]/.test(peek() ?? '')) i += 1; // legacy octal, as in `\012`
      return atom(null);
    }
    if (c === '0') return atom(0);
    if (c in CONTROL_ESCAPES) return atom(CONTROL_ESCAPES[c] as number);
    if (c === 'c') {
      if (!/[A-Za-z]/.test(peek() ?? '')) return atom(null);
      i += 1;
      return atom((pattern.charCodeAt(i - 1) as number) % 32);
    }
    if (c === 'x' && /^[\da-f]{2}/i.test(pattern.slice(i))) {
      i += 2;
      return atom(Number.parseInt(pattern.slice(i - 2, i), 16));
    }
    if (c === 'u' && unicode && peek() === '{') {
      const end = pattern.indexOf('}', i);
      const value = Number.parseInt(pattern.slice(i + 1, end), 16);
      i = end + 1;
      return atom(value);
    }
    if (c === 'u' && /^[\da-f]{4}/i.test(pattern.slice(i))) {
      i += 4;
      return atom(Number.parseInt(pattern.slice(i - 4, i), 16));
    }
    if (c === 'x' || c === 'u') return atom(c.charCodeAt(0));
    const point = (unicode ? pattern.codePointAt(start + 1) : pattern.charCodeAt(start + 1)) as number;
    if (point > 0xffff) i += 1;
    return atom(point);
  }

  return alternation();
}
