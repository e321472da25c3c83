import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { addRules, addTerms, lintOne, pairs } from './factories.js';

const ctx = await setupApp();

/** A workspace whose built-in guide holds the one check. */
async function withCheck(check: Record<string, unknown>) {
  const workspace = await createWorkspace(ctx);
  await addRules(workspace.api, [{ developerId: 'check', check }]);
  return workspace;
}

async function expectFindings(check: Record<string, unknown>, cases: ReadonlyArray<readonly [string, unknown[]]>) {
  const { api } = await withCheck(check);
  for (const [text, expected] of cases) {
    expect([text, pairs(text, await lintOne(api, text))]).toEqual([text, expected]);
  }
}

describe('POST /v2/styleguides/lint: built-in checks', () => {
  it('reports a finding with its rule, section, message, range and suggestion', async () => {
    const { api } = await withCheck({ type: 'no_exclamation_mark' });
    const res = await api.post('styleguides/lint', { texts: [{ text: 'Saved!', id: 'toast' }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        truncated: false,
        id: 'toast',
        source: 'text',
        variantId: null,
        pluralForm: null,
        text: 'Saved!',
        findings: [
          {
            kind: 'rule',
            styleguideId: 'default',
            sectionId: 'rules',
            ruleId: 'check',
            termId: null,
            message: 'Avoid exclamation marks',
            start: 5,
            end: 6,
            suggestion: '',
          },
        ],
      },
    ]);
  });

  it('sentence_case', () =>
    expectFindings({ type: 'sentence_case' }, [
      ['Save your changes', []],
      [
        'Save Your Changes',
        [
          ['Your', 'your'],
          ['Changes', 'changes'],
        ],
      ],
      ['save changes', [['save', 'Save']]],
      ['Open the API settings on your iPhone', []],
      ['Saved. Close the window', []],
      ['Click “Save” to continue', []],
      ['Note: Changes apply now', []],
      ['I’m done', []],
      ['Über Uns', [['Uns', 'uns']]],
      // A placeholder is not a word of the sentence, but it does start it.
      ['{{count}} files selected', []],
      ['Welcome back, {{Name}}', []],
    ]));

  it('sentence_case leaves alone the proper nouns of the wordlists in effect', async () => {
    const { api } = await withCheck({ type: 'sentence_case' });
    await addTerms(api, [{ preferred: 'Google Drive', replaces: ['GDrive'] }]);
    expect(await lintOne(api, 'Save to Google Drive')).toEqual([]);
  });

  it('title_case', () =>
    expectFindings({ type: 'title_case' }, [
      ['Save Your Changes', []],
      ['Terms of Service', []],
      [
        'Save your changes',
        [
          ['your', 'Your'],
          ['changes', 'Changes'],
        ],
      ],
      ['Terms Of Service', [['Of', 'of']]],
      ['the End', [['the', 'The']]],
      [
        'Where to go to',
        [
          ['go', 'Go'],
          ['to', 'To'],
        ],
      ],
      ['Log In', []],
    ]));

  it('no_trailing_period', () =>
    expectFindings({ type: 'no_trailing_period' }, [
      ['Saved.', [['.', '']]],
      ['Saved. ', [['.', '']]],
      ['Saved', []],
      ['Loading...', []],
      ['Files, folders, etc.', []],
      ['Done. Close', []],
    ]));

  it('no_exclamation_mark', () =>
    expectFindings({ type: 'no_exclamation_mark' }, [
      ['Saved!', [['!', '']]],
      ['Great! Let’s go', [['!', '.']]],
      ['Wow!!!', [['!!!', '']]],
      ['Really?!', [['!', '']]],
      ['Saved', []],
    ]));

  it('no_double_spaces', () =>
    expectFindings({ type: 'no_double_spaces' }, [
      [
        'Save  your   changes',
        [
          ['  ', ' '],
          ['   ', ' '],
        ],
      ],
      ['One line\n  indented', [['  ', ' ']]],
      ['Save your changes', []],
    ]));

  it('character_limit counts characters as a reader does', async () => {
    const { api } = await withCheck({ type: 'character_limit', limit: 5 });
    const findings = await lintOne(api, 'Hello world');
    expect(findings).toEqual([
      expect.objectContaining({
        start: 5,
        end: 11,
        suggestion: null,
        message: 'Text is 11 characters long, over the character limit of 5',
      }),
    ]);
    expect(await lintOne(api, 'Hello')).toEqual([]);
    // e + combining accent is one character; so is a flag made of two code points.
    expect(await lintOne(api, 'cafe\u0301s')).toEqual([]);
    expect(await lintOne(api, '🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷')).toEqual([]);
    expect(await lintOne(api, '🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷')).toEqual([expect.objectContaining({ start: 20, end: 24 })]);
  });

  it('a check’s own message replaces the built-in one', async () => {
    const { api } = await withCheck({ type: 'no_trailing_period', message: 'Labels end without a period' });
    expect((await lintOne(api, 'Save.'))[0]?.message).toBe('Labels end without a period');
  });
});

describe('POST /v2/styleguides/lint: regex rules', () => {
  it('reports each match with its message and the expanded replacement', async () => {
    const { api } = await withCheck({
      type: 'regex',
      pattern: '(\\d+) ?percent',
      flags: 'i',
      message: 'Use the % sign',
      replacement: '$1%',
    });
    const text = 'Save 20 percent, or 30Percent';
    const findings = await lintOne(api, text);
    expect(pairs(text, findings)).toEqual([
      ['20 percent', '20%'],
      ['30Percent', '30%'],
    ]);
    expect(findings[0]?.message).toBe('Use the % sign');
  });

  it('supports Unicode classes with the u flag, and no replacement', async () => {
    const { api } = await withCheck({ type: 'regex', pattern: '\\p{Lu}{3,}', flags: 'u', message: 'No shouting' });
    const text = 'Das ist ÄRGERLICH';
    expect(pairs(text, await lintOne(api, text))).toEqual([['ÄRGERLICH', null]]);
  });

  it('skips empty matches and counts offsets in UTF-16 code units', async () => {
    const { api } = await withCheck({ type: 'regex', pattern: 'x*', message: 'x' });
    expect(await lintOne(api, '😀 xx')).toEqual([expect.objectContaining({ start: 3, end: 5 })]);
  });
});
