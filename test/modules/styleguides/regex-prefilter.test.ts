import { describe, expect, it } from 'vitest';
import { foldForPrefilter, requiredLiterals } from '../../../src/modules/styleguides/lint/regex-prefilter.js';
import { compileRegexCheck, runRegexCheck } from '../../../src/modules/styleguides/lint/regex-rule.js';

describe('requiredLiterals', () => {
  it.each([
    ['\\b(?:kalomi|nerusa)s?\\b', 'iu', ['kalomi', 'nerusa']],
    ['Click here', 'i', ['click here']],
    ['Click here', '', ['Click here']],
    ['(\\d+) ?percent', 'i', ['percent']],
    ['\\.{3}', '', null],
    ['e\\.g\\.|i\\.e\\.', 'i', ['e.g.', 'i.e.']],
    ['foo|\\w+', '', null],
    ['ab?cd', '', ['cd']],
    ['(?:foo)+bar', '', ['foo']],
    ['Straße', 'i', ['stra']],
    ['Straße', '', ['Straße']],
    ['\\u0041BC', '', ['ABC']],
    ['\\x41\\u{42}', '', null],
    ['a\\012bc', '', ['bc']],
    ['\\p{Lu}{4,}', 'u', null],
  ])('%s /%s -> %j', (pattern, flags, expected) => {
    const literals = requiredLiterals(pattern, flags);
    expect(literals === null ? null : [...literals].sort()).toEqual(expected === null ? null : [...expected].sort());
  });
});

describe('the prefilter never hides a match', () => {
  const patterns: Array<[string, string]> = [
    ['\\b(?:kalomi|nerusa)s?\\b', 'iu'],
    ['sk', 'iu'],
    ['SK', 'i'],
    ['Straße', 'iu'],
    ['click here', 'i'],
    ['(\\d+) ?percent', 'i'],
    ['a\\012bc', ''],
    ['\\u{1F600}x', 'u'],
  ];
  const alphabet = [
    's',
    'S',
    'ſ',
    'k',
    'K',
    'K',
    'a',
    'b',
    'c',
    '\n',
    '1',
    ' ',
    'ß',
    'ẞ',
    'x',
    '😀',
    'percent',
    'PERCENT',
    'Click Here',
    'KALOMI',
    'nerusas',
    'Straße',
    'STRAßE',
  ];
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 48271) % 2147483647;
    return seed % n;
  };

  it.each(patterns)('%s /%s', (pattern, flags) => {
    const check = compileRegexCheck(pattern, flags, 'm', null);
    for (let n = 0; n < 2000; n += 1) {
      const text = Array.from({ length: 1 + random(8) }, () => alphabet[random(alphabet.length)]).join('');
      // The same engine without the prefilter (a plain string skips it).
      const expected = runRegexCheck(check, text).length > 0;
      const found = runRegexCheck(check, { text, folded: () => foldForPrefilter(text) }).length > 0;
      if (found !== expected) expect({ pattern, text, found }).toEqual({ pattern, text, found: expected });
    }
  });
});
