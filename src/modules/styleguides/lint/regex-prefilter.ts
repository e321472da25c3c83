import { type Alternation, parseRegex, type RegexNode } from './regex-parse.js';

/**
 * A cheap test that rules a regex out before it runs: the literal strings of which every match
 * must contain at least one ("kalomi" or "nerusa" for `\b(?:kalomi|nerusa)s?\b`). Most texts
 * match most rules nowhere, and `includes` is much cheaper than a regex run, above all a
 * case-insensitive Unicode one. The test may let through texts the regex does not match, never
 * the other way round.
 *
 * With the `i` flag, literals are kept only when they are ASCII letters, digits and punctuation,
 * and texts are compared in `foldForPrefilter` form: lower case, with the two non-ASCII
 * characters that Unicode case folding maps to ASCII letters (ſ to s, K to k) mapped too.
 */
const MIN_LITERAL = 2;
const ASCII_LITERAL = /^[\x20-\x7e]*$/;

type Literals = string[] | null;

/** The shortest literal decides how selective a set is; sets without literals are worthless. */
function strength(set: Literals): number {
  if (set === null) return 0;
  let shortest = Number.POSITIVE_INFINITY;
  for (const literal of set) shortest = Math.min(shortest, literal.length);
  return shortest;
}

function better(a: Literals, b: Literals): Literals {
  return strength(b) > strength(a) ? b : a;
}

function fromAlternation(body: Alternation, caseless: boolean): Literals {
  const sets = body.alternatives.map((alternative) => fromSequence(alternative, caseless));
  if (sets.some((set) => set === null)) return null;
  return [...new Set(sets.flat() as string[])];
}

function fromSequence(nodes: readonly RegexNode[], caseless: boolean): Literals {
  let best: Literals = null;
  let run = '';
  const endRun = () => {
    if (run.length >= MIN_LITERAL) best = better(best, [run]);
    run = '';
  };
  const visit = (node: RegexNode): void => {
    if (node.type === 'assertion' || (node.type === 'group' && node.lookaround)) return; // consume nothing
    if (node.type === 'atom' && node.char !== null) {
      const char = String.fromCodePoint(node.char);
      if (caseless && !ASCII_LITERAL.test(char)) endRun();
      else run += caseless ? char.toLowerCase() : char;
      return;
    }
    if (node.type === 'group' && node.body.alternatives.length === 1) {
      for (const inner of node.body.alternatives[0] as RegexNode[]) visit(inner);
      return;
    }
    endRun();
    if (node.type === 'group') best = better(best, fromAlternation(node.body, caseless));
    if (node.type === 'quantifier' && node.min >= 1) {
      const inner =
        node.body.type === 'group' ? fromAlternation(node.body.body, caseless) : fromSequence([node.body], caseless);
      best = better(best, inner);
    }
  };
  for (const node of nodes) visit(node);
  endRun();
  return best;
}

/** Null when no useful literal is required. Assumes a pattern that `new RegExp` accepted. */
export function requiredLiterals(pattern: string, flags: string): string[] | null {
  const literals = fromAlternation(parseRegex(pattern, flags.includes('u')), flags.includes('i'));
  return strength(literals) >= MIN_LITERAL ? literals : null;
}

export const foldForPrefilter = (text: string) => text.toLowerCase().replace(/\u017f/g, 's');
