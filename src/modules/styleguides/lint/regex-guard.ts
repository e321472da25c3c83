import { parseRegex, type RegexNode } from './regex-parse.js';
import { compileLinear } from './regex-rule.js';

/**
 * What a regex rule may hold, checked when the rule is written (docs/styleguides.md). Rules run on
 * RE2, a linear-time engine: no pattern can make matching backtrack, so no shape of pattern needs
 * refusing for speed. RE2 has no backreferences and no lookaround, which are refused here with a
 * message naming them; the pattern must also be a valid JavaScript regex, so its syntax errors read
 * as before.
 */
export const MAX_PATTERN_LENGTH = 500;
export const ALLOWED_FLAGS = /^(?!.*(.).*\1)[imsu]*$/;

const UNSUPPORTED = 'which the linear-time regex engine (RE2) does not support';

function walk(nodes: readonly RegexNode[], visit: (node: RegexNode) => void): void {
  for (const node of nodes) {
    visit(node);
    if (node.type === 'quantifier') walk([node.body], visit);
    if (node.type === 'group') for (const alternative of node.body.alternatives) walk(alternative, visit);
  }
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
  let problem: string | null = null;
  walk(parseRegex(pattern, flags.includes('u')).alternatives.flat(), (node) => {
    if (problem) return;
    if (node.type === 'backreference') problem = `uses a backreference (\\1, \\k<name>), ${UNSUPPORTED}`;
    if (node.type === 'group' && node.lookaround) {
      problem = `uses a lookahead or lookbehind ((?=, (?!, (?<=, (?<!), ${UNSUPPORTED}`;
    }
  });
  if (problem) return problem;
  try {
    compileLinear(pattern, flags);
  } catch (error) {
    return `is not supported by the linear-time regex engine (RE2): ${(error as Error).message}`;
  }
  return null;
}
