import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { addTerms, createGuide, lintOne, pairs } from './factories.js';

const ctx = await setupApp();

async function withTerms(terms: Record<string, unknown>[]) {
  const workspace = await createWorkspace(ctx);
  await addTerms(workspace.api, terms);
  return workspace;
}

async function expectMatches(terms: Record<string, unknown>[], cases: ReadonlyArray<readonly [string, unknown[]]>) {
  const { api } = await withTerms(terms);
  for (const [text, expected] of cases) {
    expect([text, pairs(text, await lintOne(api, text))]).toEqual([text, expected]);
  }
}

describe('POST /v2/styleguides/lint: wordlist terms', () => {
  it('reports the term, its section, the message with the note, and the range', async () => {
    const { api } = await withTerms([
      { developerId: 'sign-in', preferred: 'sign in', replaces: ['log in'], note: 'Matches the button' },
    ]);
    expect(await lintOne(api, 'Please log in')).toEqual([
      {
        kind: 'term',
        styleguideId: 'default',
        sectionId: 'wordlist',
        ruleId: null,
        termId: 'sign-in',
        message: 'Use "sign in" instead of "log in" (Matches the button)',
        start: 7,
        end: 13,
        suggestion: 'sign in',
      },
    ]);
  });

  it('matches whole words only', () =>
    expectMatches(
      [{ preferred: 'sign in', replaces: ['login'] }],
      [
        ['Login', [['Login', 'Sign in']]],
        ['Your login, please', [['login', 'sign in']]],
        ['logins', []],
        ['relogin', []],
        ['login2', []],
        ['(login)', [['login', 'sign in']]],
        ['user_login', [['login', 'sign in']]],
        ['Hello {{login}}', []],
      ],
    ));

  it('is case-insensitive by default, keeping the case of the first letter', () =>
    expectMatches(
      [{ preferred: 'email', replaces: ['e-mail'] }],
      [
        ['E-mail us', [['E-mail', 'Email']]],
        ['Send an E-MAIL', [['E-MAIL', 'Email']]],
        ['e-mail', [['e-mail', 'email']]],
        ['e - mail', []],
      ],
    ));

  it('keeps a capitalized preferred term that is a proper noun', () =>
    expectMatches(
      [{ preferred: 'GitHub', replaces: ['github', 'git hub'] }],
      [
        ['Push to github', [['github', 'GitHub']]],
        ['Push to GitHub', []],
        ['Git Hub', [['Git Hub', 'GitHub']]],
      ],
    ));

  it('matches case-sensitive terms only as written', () =>
    expectMatches(
      [{ preferred: 'GitHub', replaces: ['Github'], caseSensitive: true }],
      [
        ['Open Github', [['Github', 'GitHub']]],
        ['Open github', []],
        ['Open GITHUB', []],
      ],
    ));

  it('matches multi-word terms across any whitespace, preferring the longest term', () =>
    expectMatches(
      [
        { preferred: 'sign in', replaces: ['log in'] },
        { preferred: 'sign in to', replaces: ['log in to'] },
      ],
      [
        ['Log  in', [['Log  in', 'Sign in']]],
        ['log\nin', [['log\nin', 'sign in']]],
        ['log in to GitHub', [['log in to', 'sign in to']]],
        ['login', []],
      ],
    ));

  it('handles words beyond ASCII', () =>
    expectMatches(
      [
        { preferred: 'Straße', replaces: ['Strasse'] },
        { preferred: 'coffee shop', replaces: ['café'] },
        { preferred: 'вход', replaces: ['логин'] },
      ],
      [
        ['Die Strasse', [['Strasse', 'Straße']]],
        ['Die Strassenbahn', []],
        ['Die Straße', []],
        ['Un café', [['café', 'coffee shop']]],
        ['Café au lait', [['Café', 'Coffee shop']]],
        ['Les cafés', []],
        ['Un cafe\u0301', [['cafe\u0301', 'coffee shop']]],
        ['Ваш логин', [['логин', 'вход']]],
        ['Логины', []],
      ],
    ));

  it('matches the terms of a non-ASCII preferred term too', () =>
    expectMatches(
      [{ preferred: 'Fußgänger', replaces: ['Fussgänger'] }],
      [
        ['FUSSGÄNGER', [['FUSSGÄNGER', 'Fußgänger']]],
        ['Fussgängerin', []],
      ],
    ));

  it('counts ranges in UTF-16 code units', async () => {
    const { api } = await withTerms([{ preferred: 'sign in', replaces: ['log in'] }]);
    expect(await lintOne(api, '👋 log in')).toEqual([expect.objectContaining({ start: 3, end: 9 })]);
  });

  it('applies the wordlists of every guide in effect', async () => {
    const { api } = await withTerms([{ preferred: 'sign in', replaces: ['log in'] }]);
    const other = await createGuide(api, { name: 'Brand', enabledByDefault: true });
    await addTerms(api, [{ preferred: 'workspace', replaces: ['team'] }], other);
    const findings = await lintOne(api, 'Log in to your team');
    expect(findings.map((f) => [f.styleguideId, f.termId])).toEqual([
      ['default', 'sign-in'],
      [other, 'workspace'],
    ]);
  });
});
