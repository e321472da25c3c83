import { describe, expect, it } from 'vitest';
import { sentenceCase, titleCase } from '../../../src/modules/styleguides/lint/case-checks.js';
import {
  noDoubleSpaces,
  noExclamationMark,
  noTrailingPeriod,
  overLimit,
} from '../../../src/modules/styleguides/lint/checks.js';
import { Linter } from '../../../src/modules/styleguides/lint/engine.js';
import type { GuideData, GuideTerm, RawFinding } from '../../../src/modules/styleguides/lint/types.js';
import { adaptCase, compileWordlist, matchWordlist, tokenize } from '../../../src/modules/styleguides/lint/wordlist.js';
import { caseShape, wordsOf } from '../../../src/modules/styleguides/lint/words.js';

const pairs = (text: string, findings: readonly RawFinding[]) =>
  findings.map((f) => [text.slice(f.start, f.end), f.suggestion]);

describe('words', () => {
  it.each([
    ['Save', 'capitalized'],
    ['save', 'lower'],
    ['API', 'other'],
    ['iPhone', 'other'],
    ['GitHub', 'other'],
    ['I', 'other'],
    ["I'm", 'other'],
    ["Don't", 'capitalized'],
    ['Über', 'capitalized'],
    ['3D', 'other'],
    ['東京', 'other'],
  ])('caseShape(%s) = %s', (word, shape) => {
    expect(caseShape(word)).toBe(shape);
  });

  it('keeps non-ASCII words and contractions whole', () => {
    expect(wordsOf('Die Straße, l’été, café\u0301s, 2FA').map((w) => w.text)).toEqual([
      'Die',
      'Straße',
      'l’été',
      'café\u0301s',
      '2FA',
    ]);
  });
});

describe('case checks', () => {
  const none = new Set<string>();
  it.each([
    ['Save your changes', []],
    [
      'Save Your Changes',
      [
        ['Your', 'your'],
        ['Changes', 'changes'],
      ],
    ],
    ['save', [['save', 'Save']]],
    ['Done. next step', [['next', 'Next']]],
    [
      'e.g. Use this',
      [
        ['e', 'E'],
        ['Use', 'use'],
      ],
    ],
    ['Line one\nline two', [['line', 'Line']]],
  ])('sentenceCase(%j)', (text, expected) => {
    expect(pairs(text, sentenceCase(text, wordsOf(text), none))).toEqual(expected);
  });

  it.each([
    ['Save Your Changes', []],
    ['A Tale of Two Cities', []],
    [
      'a tale',
      [
        ['a', 'A'],
        ['tale', 'Tale'],
      ],
    ],
    ['Sign In With Google', []],
    ['Settings: the Basics', [['the', 'The']]],
    ['Read The Docs', [['The', 'the']]],
  ])('titleCase(%j)', (text, expected) => {
    expect(pairs(text, titleCase(text, wordsOf(text), none))).toEqual(expected);
  });
});

describe('punctuation and spacing checks', () => {
  it.each([
    ['Saved.', [['.', '']]],
    ['Loading…', []],
    ['Loading...', []],
    ['Acme Inc.', []],
    ['', []],
  ])('noTrailingPeriod(%j)', (text, expected) => {
    expect(pairs(text, noTrailingPeriod(text))).toEqual(expected);
  });

  it.each([
    ['Saved!', [['!', '']]],
    [
      '¡Hola!',
      [
        ['¡', ''],
        ['!', ''],
      ],
    ],
    ['Yes! Go', [['!', '.']]],
    ['Done!"', [['!', '']]],
  ])('noExclamationMark(%j)', (text, expected) => {
    expect(pairs(text, noExclamationMark(text))).toEqual(expected);
  });

  it.each([
    ['a  b', [['  ', ' ']]],
    ['a\u00a0 b', [['\u00a0 ', ' ']]],
    ['a\n\nb', []],
    ['a b', []],
  ])('noDoubleSpaces(%j)', (text, expected) => {
    expect(pairs(text, noDoubleSpaces(text))).toEqual(expected);
  });

  it.each([
    ['Hello', 5, null],
    ['Hello!', 5, { length: 6, cut: 5 }],
    ['cafe\u0301', 4, null],
    ['👍🏽👍🏽', 1, { length: 2, cut: 4 }],
  ])('overLimit(%j, %d)', (text, limit, expected) => {
    expect(overLimit(text, limit)).toEqual(expected);
  });
});

describe('wordlist', () => {
  const term = (preferred: string, replaces: string[], caseSensitive = false): GuideTerm => ({
    id: preferred,
    sectionId: 'w',
    preferred,
    replaces,
    caseSensitive,
    note: '',
  });
  const match = (terms: GuideTerm[], text: string) =>
    pairs(text, matchWordlist(compileWordlist(terms), text, tokenize(text)));

  it.each([
    [
      [term('sign in', ['log in'])],
      'Log in, then log\t in.',
      [
        ['Log in', 'Sign in'],
        ['log\t in', 'sign in'],
      ],
    ],
    [[term('sign in', ['log in'])], 'login blog in', []],
    [
      [term('OK', ['okay'])],
      'Okay, okay',
      [
        ['Okay', 'OK'],
        ['okay', 'OK'],
      ],
    ],
    [[term('Straße', ['strasse'])], 'STRASSE Straße strassen', [['STRASSE', 'Straße']]],
    [[term('…', ['...'])], 'Loading...', [['...', '…']]],
    [[term('C#', ['C sharp'])], 'Learn C sharp', [['C sharp', 'C#']]],
    [[term('hello', ['ΟΔΟΣ'])], 'η οδος', [['οδος', 'hello']]],
    [[term('do not', ["don't"])], 'Don’t go', [['Don’t', 'Do not']]],
  ])('%#: %j in %j', (terms, text, expected) => {
    expect(match(terms, text)).toEqual(expected);
  });

  it.each([
    ['sign in', 'Log in', 'Sign in'],
    ['sign in', 'log in', 'sign in'],
    ['Sign in', 'log in', 'sign in'],
    ['GitHub', 'github', 'GitHub'],
    ['Wi-Fi', 'wifi', 'Wi-Fi'],
    ['über', 'Ueber', 'Über'],
  ])('adaptCase(%j, %j) = %j', (preferred, matched, expected) => {
    expect(adaptCase(preferred, matched)).toBe(expected);
  });
});

describe('Linter: guides in effect', () => {
  const guide = (id: string, enabledByDefault: boolean, variantId: string | null): GuideData => ({
    id,
    enabledByDefault,
    variantId,
    rules: [{ id: 'calm', sectionId: 'r', check: { type: 'no_exclamation_mark' } }],
    terms: [],
  });
  const linter = new Linter([
    guide('on', true, null),
    guide('off', false, null),
    guide('fr', false, 'fr'),
    guide('fr-on', true, 'fr'),
  ]);
  it.each([
    [null, ['on', 'fr-on']],
    ['fr', ['on', 'fr', 'fr-on']],
    ['de', ['on', 'fr-on']],
  ])('variant %s', (variantId, expected) => {
    const budget = { perText: 100, findings: 100, chars: 10_000 };
    expect(linter.lint({ text: 'Hi!', variantId }, budget).findings.map((f) => f.styleguideId)).toEqual(expected);
  });
});
