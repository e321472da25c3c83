import { describe, expect, it } from 'vitest';
import { regexProblem } from '../../../src/modules/styleguides/lint/regex-guard.js';
import { expandReplacement, REGEX_WINDOW, runRegexCheck } from '../../../src/modules/styleguides/lint/regex-rule.js';

const ACCEPTED: Array<[string, string]> = [
  ['\\d+\\.\\d+', ''],
  ['\\b(click here)\\b', 'i'],
  ['\\s+$', ''],
  ['^\\s+|\\s+$', ''],
  ['(?:foo|bar)+', ''],
  ['(?:[a-z]|\\d)+', ''],
  ['[A-Z]{2,}', ''],
  ['\\p{Lu}+\\s\\p{Ll}+', 'u'],
  ['colou?r', 'i'],
  ['(?<=\\d)\\s*%', ''],
  ['\\bfoo\\b.*\\bbar\\b', ''],
  ['\\w+\\s+\\w+', ''],
  ['(?<year>\\d{4})-(?<month>\\d{2})', ''],
  ['e\\.g\\.|i\\.e\\.', 'i'],
  ['\\.{3}', ''],
  ['https?://\\S+', ''],
  ['e-?mail', 'i'],
  ['(?:foo|bar)(?:baz|qux)', ''],
  ['[^]x', ''],
  // The separator must be something the first quantifier cannot eat.
  ['[^\\s@]+@[^\\s]+', ''],
];

const REJECTED: Array<[string, string, string]> = [
  ['(a+)+$', '', 'a quantifier inside a repeated group'],
  ['(a*)*', '', 'a quantifier inside a repeated group'],
  ['(a?a?)+$', '', 'a quantifier inside a repeated group'],
  ['(?:\\w+\\s?)+$', '', 'a quantifier inside a repeated group'],
  ['(\\d{1,3}\\.){3}', '', 'a quantifier inside a repeated group'],
  ['(a|a)*$', '', 'alternatives can start alike'],
  ['(a|ab)+c', '', 'alternatives can start alike'],
  ['(\\w|\\d)+$', '', 'alternatives can start alike'],
  ['(A|a)+$', 'i', 'alternatives can start alike'],
  ['(a|)+', '', 'an alternative that can match nothing'],
  ['(\\w+)\\s\\1', '', 'backreference'],
  ['(?<w>\\w+) \\k<w>', '', 'backreference'],
  ['\\w+\\s*\\w+!', '', 'two quantifiers or alternatives'],
  ['.*a.*b.*c', '', 'two quantifiers or alternatives'],
  ['\\d+\\d+x', '', 'two quantifiers or alternatives'],
  ['(?:x|\\w+)\\w+', '', 'two quantifiers or alternatives'],
  ['\\s*\\w*\\s*$', '', 'two quantifiers or alternatives'],
  ['[^\\s]+@[^\\s]+', '', 'two quantifiers or alternatives'],
  ['a?a?a?a?a?aaaaa$', '', 'two quantifiers or alternatives'],
  ['(a|a)(a|a)(a|a)$', '', 'two quantifiers or alternatives'],
  ['(?:ab|a)(?:bc|b)?c', '', 'two quantifiers or alternatives'],
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

  it('what it accepts stays fast on texts built to make it backtrack', () => {
    const texts = [
      'a'.repeat(5000),
      `${'a'.repeat(3000)}!`,
      `${' '.repeat(3000)}x`,
      `${'1'.repeat(3000)}.`,
      `${'ab'.repeat(2000)}`,
    ];
    for (const [pattern, flags] of ACCEPTED) {
      const check = { regex: new RegExp(pattern, `${flags}g`), message: 'm', replacement: null };
      const started = performance.now();
      for (const text of texts) runRegexCheck(check, text);
      expect([pattern, performance.now() - started < 250]).toEqual([pattern, true]);
    }
  });
});

describe('runRegexCheck', () => {
  const check = (pattern: string, replacement: string | null = null, flags = '') => ({
    regex: new RegExp(pattern, `${flags}g`),
    message: 'm',
    replacement,
  });

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
