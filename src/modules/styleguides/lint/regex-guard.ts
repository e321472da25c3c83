import { type CharSet, charSetOf, overlaps, union } from './char-sets.js';
import { type Alternation, parseRegex, type RegexNode } from './regex-parse.js';

/**
 * The write-time guard against catastrophic backtracking (docs/styleguides.md). V8's regex engine
 * backtracks, so a pattern that can match one piece of text in many ways takes exponential or
 * high-polynomial time on a text that almost matches. The guard rejects the shapes that cause it:
 *
 * 1. backreferences;
 * 2. a quantifier inside a repeated group, like `(a+)+` or `(ab?)*` (star height above one);
 * 3. a repeated group whose alternatives can start with the same character, like `(a|ab)+`;
 * 4. two choice points (a quantifier of variable count, or alternatives that can match the same
 *    text) that can match the same characters with nothing required between them that the first
 *    cannot also match, like `\w+\s*\w+`, `.*a.*`, `a?a?a?aaa` or `(a|a)(a|a)`.
 *
 * What it accepts runs in about quadratic time at worst, and lint runs every regex on at most
 * `REGEX_WINDOW` code units at a time, which bounds each run.
 */
export const MAX_PATTERN_LENGTH = 500;
export const ALLOWED_FLAGS = /^(?!.*(.).*\1)[imsu]*$/;

const EXPONENTIAL = 'which can make matching take exponential time (catastrophic backtracking)';

class Rejection extends Error {}

interface Element {
  sets: () => CharSet;
  nullable: boolean;
  variable: () => boolean;
}

/** Null when the pattern is acceptable, else why not (a sentence fragment after the field name). */
export function regexProblem(pattern: string, flags: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  if (!ALLOWED_FLAGS.test(flags)) return `flags '${flags}' may only hold each of i, m, s and u once`;
  try {
    new RegExp(pattern, `${flags}g`);
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`;
  }
  try {
    checkAlternation(parseRegex(pattern, flags.includes('u')), flags, false);
    return null;
  } catch (error) {
    if (error instanceof Rejection) return error.message;
    throw error;
  }
}

function walk(node: RegexNode, visit: (node: RegexNode) => void): void {
  visit(node);
  if (node.type === 'quantifier') walk(node.body, visit);
  if (node.type === 'group') for (const alt of node.body.alternatives) for (const n of alt) walk(n, visit);
}

const atomsOf = (nodes: readonly RegexNode[], flags: string): CharSet => {
  const sets: CharSet[] = [];
  for (const node of nodes) walk(node, (n) => n.type === 'atom' && sets.push(charSetOf(n.source, n.char, flags)));
  return union(sets);
};

function nullable(nodes: readonly RegexNode[]): boolean {
  return nodes.every((node) => {
    if (node.type === 'atom') return false;
    if (node.type === 'quantifier') return node.min === 0 || nullable([node.body]);
    if (node.type === 'group' && !node.lookaround) return node.body.alternatives.some(nullable);
    return true;
  });
}

function checkAlternation(body: Alternation, flags: string, repeated: boolean): void {
  if (repeated) checkRepeatedAlternatives(body, flags);
  for (const alternative of body.alternatives) {
    for (const node of alternative) checkNode(node, flags, repeated);
    checkAdjacentChoices(linearize(alternative, flags));
  }
}

function checkNode(node: RegexNode, flags: string, repeated: boolean): void {
  if (node.type === 'backreference') throw new Rejection(`uses a backreference, ${EXPONENTIAL}`);
  if (node.type === 'group') checkAlternation(node.body, flags, repeated && !node.lookaround);
  if (node.type !== 'quantifier') return;
  if (repeated) throw new Rejection(`has a quantifier inside a repeated group, like (a+)+, ${EXPONENTIAL}`);
  if (node.body.type === 'quantifier') {
    throw new Rejection(`has a quantifier directly on a quantifier, like a{2}*, ${EXPONENTIAL}`);
  }
  checkNode(node.body, flags, node.max > 1);
}

/** The characters each alternative can start with; null for one that can match nothing. */
function firstSets(body: Alternation, flags: string): (CharSet | null)[] {
  return body.alternatives.map((alternative) => {
    const sets: CharSet[] = [];
    for (const element of linearize(alternative, flags)) {
      sets.push(element.sets());
      if (!element.nullable) return union(sets);
    }
    return null;
  });
}

/** Whether some text can be matched by two alternatives, judged by their first characters. */
function alternativesOverlap(body: Alternation, flags: string): boolean {
  const firsts = firstSets(body, flags);
  return firsts.some(
    (set, k) => set === null || firsts.slice(0, k).some((other) => other === null || overlaps(set, other)),
  );
}

/** Rule 3: inside a repetition every alternative consumes something, and no two start alike. */
function checkRepeatedAlternatives(body: Alternation, flags: string): void {
  if (body.alternatives.length < 2) return;
  if (firstSets(body, flags).includes(null)) {
    throw new Rejection(`repeats a group with an alternative that can match nothing, ${EXPONENTIAL}`);
  }
  if (alternativesOverlap(body, flags)) {
    throw new Rejection(`repeats a group whose alternatives can start alike, like (a|ab)+, ${EXPONENTIAL}`);
  }
}

/** A choice point: a quantifier of variable count, or alternatives that can match the same text. */
function isVariable(node: RegexNode, flags: string): boolean {
  if (node.type === 'quantifier') return node.min < node.max || isVariable(node.body, flags);
  if (node.type !== 'group' || node.lookaround) return false;
  const { alternatives } = node.body;
  if (alternatives.length > 1 && alternativesOverlap(node.body, flags)) return true;
  return alternatives.some((alternative) => alternative.some((n) => isVariable(n, flags)));
}

/** The sequence as consecutive elements; a group with alternatives stays one opaque element. */
function linearize(nodes: readonly RegexNode[], flags: string): Element[] {
  const out: Element[] = [];
  for (const node of nodes) {
    if (node.type === 'assertion' || node.type === 'backreference') continue;
    if (node.type === 'group' && node.lookaround) continue;
    if (node.type === 'group' && node.body.alternatives.length === 1) {
      out.push(...linearize(node.body.alternatives[0] as RegexNode[], flags));
      continue;
    }
    let sets: CharSet | undefined;
    out.push({
      sets: () => (sets ??= atomsOf([node], flags)),
      nullable: nullable([node]),
      variable: () => isVariable(node, flags),
    });
  }
  return out;
}

/**
 * Rule 4: two choice points that can match the same characters, with nothing required between
 * them that the first cannot also match, split one stretch of text in many ways (`a?a?a?aaa`).
 */
function checkAdjacentChoices(elements: readonly Element[]): void {
  elements.forEach((first, i) => {
    if (!first.variable()) return;
    for (let j = i + 1; j < elements.length; j += 1) {
      const next = elements[j] as Element;
      if (!next.nullable && !overlaps(first.sets(), next.sets())) return; // a separator `first` cannot eat
      if (next.variable() && overlaps(first.sets(), next.sets())) {
        throw new Rejection(
          'has two quantifiers or alternatives that can match the same text with nothing between them to tell them apart, like \\w+\\s*\\w+, .*a.* or a?a?, which makes matching slow',
        );
      }
    }
  });
}
