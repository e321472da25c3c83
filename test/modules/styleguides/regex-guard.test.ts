import { describe, expect, it } from 'vitest';
import { regexProblem } from '../../../src/modules/styleguides/lint/regex-guard.js';
import {
  compileRegexCheck,
  expandReplacement,
  REGEX_WINDOW,
  runRegexCheck,
} from '../../../src/modules/styleguides/lint/regex-rule.js';

const ACCEPTED: Array<[string, string]> = [
  ['\\d+\\.\\d+', ''],
  ['\\b(click here)\\b', 'i'],
  ['\\s+$', ''],
  ['^\\s+|\\s+$', ''],
  ['(?:foo|bar)+', ''],
  ['\\p{Lu}+\\s\\p{Ll}+', 'u'],
  ['colou?r', 'i'],
  ['(?<year>\\d{4})-(?<month>\\d{2})', ''],
  ['https?://\\S+', ''],
  // Shapes that make a backtracking engine take exponential time: linear on RE2.
  ['(a+)+$', ''],
  ['(a|ab)+c', ''],
  ['(\\w|\\d)+$', ''],
  ['\\w+\\s*\\w+!', ''],
  ['.*a.*b.*c', ''],
  ['a?a?a?a?a?aaaaa$', ''],
  ['(?:\\u03D1|\\u03F4)+$', 'iu'],
];

const REJECTED: Array<[string, string, string]> = [
  ['(\\w+)\\s\\1', '', 'uses a backreference'],
  ['(?<w>\\w+) \\k<w>', '', 'uses a backreference'],
  ['(?<=\\d)\\s*%', '', 'uses a lookahead or lookbehind'],
  ['\\d(?=%)', '', 'uses a lookahead or lookbehind'],
  ['(?<!x)y', '', 'uses a lookahead or lookbehind'],
  ['[^]x', '', 'is not supported by the linear-time regex engine (RE2)'],
  ['a{1001}', '', 'is not supported by the linear-time regex engine (RE2)'],
  ['(', '', 'is not a valid regular expression'],
  ['x', 'g', "flags 'g' may only hold"],
  ['x', 'ii', "flags 'ii' may only hold"],
  ['a'.repeat(501), '', 'is longer than 500 characters'],
];

describe('regexProblem', () => {
  it.each(ACCEPTED)('accepts %s (flags %s)', (pattern, flags) => {
    expect(regexProblem(pattern, flags)).toBeNull();
  });

  it.each(REJECTED)('rejects %s (flags %s)', (pattern, flags, reason) => {
    expect(regexProblem(pattern, flags)).toContain(reason);
  });
});

describe('RE2 reads patterns as JavaScript would where UI text differs', () => {
  const matches = (pattern: string, flags: string, text: string) =>
    runRegexCheck(compileRegexCheck(pattern, flags, 'm', null), text).map((f) => text.slice(f.start, f.end));

  it('\\s and \\S include the no-break and other Unicode spaces', () => {
    expect(matches('\\s:', '', 'Prix\u00a0: 3')).toEqual(['\u00a0:']);
    expect(matches('[\\s,]+', '', 'a,\u2009b')).toEqual([',\u2009']);
    expect(matches('\\S+', '', 'a\u00a0b')).toEqual(['a', 'b']);
  });

  it('. stops at any line terminator unless the s flag is given', () => {
    expect(matches('a.b', '', 'a\rb a\u2028b axb')).toEqual(['axb']);
    expect(matches('a.b', 's', 'a\rb')).toEqual(['a\rb']);
  });

  it('the case-folding pattern that stalled the old engine answers at once', () => {
    expect(matches('(?:\\u03D1|\\u03F4)+$', 'iu', '\u03b8'.repeat(30))).toEqual(['\u03b8'.repeat(30)]);
    expect(matches('(a+)+b', '', 'a'.repeat(5000))).toEqual([]);
  });
});

describe('runRegexCheck', () => {
  const check = (pattern: string, replacement: string | null = null, flags = '') =>
    compileRegexCheck(pattern, flags, 'm', replacement);

  it('searches long texts window by window, with offsets into the whole text', () => {
    const text = `${'x'.repeat(REGEX_WINDOW + 10)}needle`;
    expect(runRegexCheck(check('needle'), text)).toEqual([
      { start: REGEX_WINDOW + 10, end: REGEX_WINDOW + 16, message: 'm', suggestion: null },
    ]);
  });

  it('never splits a surrogate pair between windows', () => {
    const text = `${'x'.repeat(REGEX_WINDOW - 1)}😀`;
    expect(runRegexCheck(check('😀', null, 'u'), text)).toEqual([
      { start: REGEX_WINDOW - 1, end: REGEX_WINDOW + 1, message: 'm', suggestion: null },
    ]);
  });

  it('skips empty matches', () => {
    expect(runRegexCheck(check('\\b'), 'a b')).toEqual([]);
    expect(runRegexCheck(check('x*', null, 'u'), '😀x').map((f) => f.start)).toEqual([2]);
  });
});

describe('expandReplacement', () => {
  const match = /(\d+) (?<unit>percent)/.exec('20 percent') as RegExpExecArray;
  it.each([
    ['$1%', '20%'],
    ['$&!', '20 percent!'],
    ['$$1', '$1'],
    ['$<unit>', 'percent'],
    ['$<nope>', ''],
    ['$12', '202'],
    ['$9', '$9'],
    ['plain', 'plain'],
  ])('%s -> %s', (replacement, expected) => {
    expect(expandReplacement(replacement, match)).toBe(expected);
  });
});
