import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { type Api, createWorkspace, setupApp } from '../../helpers/app.js';
import { addRules, addTerms } from './factories.js';

// Small bounds, so that a few short texts reach them.
const limits = {
  ...loadConfig({}).limits,
  lintChars: 1000,
  lintRecords: 3,
  lintFindingsPerText: 10,
  lintFindings: 25,
  lintFindingChars: 100_000,
};
const ctx = await setupApp({ limits });

const everyCharacter = { developerId: 'any', check: { type: 'regex', pattern: '.', message: 'x' } };

const lint = (api: Api, body: unknown) => api.post('styleguides/lint', body);

describe('POST /v2/styleguides/lint: bounded answers', () => {
  it('caps findings per text and per request, and says which texts were cut', async () => {
    const { api } = await createWorkspace(ctx);
    await addRules(api, [everyCharacter]);
    const texts = [{ text: 'y'.repeat(100) }, { text: 'ab' }, { text: 'z'.repeat(100) }, { text: 'w'.repeat(100) }];
    const res = await lint(api, { texts: [...texts, { text: 'v'.repeat(100) }] });
    expect(res.status).toBe(200);
    const summary = res.body.map((r: { findings: { start: number }[]; truncated: boolean }) => [
      r.findings.length,
      r.truncated,
    ]);
    // 10 + 2 + 10 reach 22 of 25; the fourth text gets the last 3; the fifth is not checked.
    expect(summary).toEqual([
      [10, true],
      [2, false],
      [10, true],
      [3, true],
      [0, true],
    ]);
    // The first findings by position are the ones kept.
    expect(res.body[0].findings.map((f: { start: number }) => f.start)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('caps a wordlist term that matches everywhere the same way', async () => {
    const { api } = await createWorkspace(ctx);
    await addTerms(api, [{ preferred: 'b', replaces: ['a'] }]);
    const res = await lint(api, { texts: [{ text: 'a '.repeat(200) }] });
    expect(res.status).toBe(200);
    expect(res.body[0].findings).toHaveLength(10);
    expect(res.body[0].truncated).toBe(true);
  });

  it('refuses texts over the character limit with a 400 naming it', async () => {
    const { api } = await createWorkspace(ctx);
    const res = await lint(api, { texts: [{ text: 'a'.repeat(600) }, { text: 'b'.repeat(600) }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'texts: 1,200 characters of text, more than the 1,000 one lint may cover (LIMIT_LINT_CHARS)',
    );
  });

  it('refuses a filter that selects more stored records than the limit', async () => {
    const { api } = await createWorkspace(ctx);
    const created = await api.post('components', {
      components: ['one', 'two', 'three', 'four'].map((text) => ({ text })),
    });
    expect(created.status).toBe(201);
    const res = await lint(api, { filter: { components: {} } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'filter: selects 4 records, more than the 3 one lint may cover (LIMIT_LINT_RECORDS); narrow the filter',
    );
    const narrowed = await lint(api, { filter: { components: { statuses: ['FINAL'] } } });
    expect(narrowed.status).toBe(200);
  });

  it('refuses stored records over the character limit', async () => {
    const { api } = await createWorkspace(ctx);
    await api.post('components', { components: [{ text: 'x'.repeat(700) }, { text: 'y'.repeat(400) }] });
    const res = await lint(api, { filter: { components: {} } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'filter: 1,100 characters of text, more than the 1,000 one lint may cover (LIMIT_LINT_CHARS); narrow the filter',
    );
  });
});

describe('POST /v2/styleguides/rules: regexes run on a linear-time engine', () => {
  it('accepts the case-folding pattern that stalled the server, and lints with it at once', async () => {
    const { api } = await createWorkspace(ctx);
    await addRules(api, [
      {
        developerId: 'theta',
        check: { type: 'regex', pattern: '(?:\\u03D1|\\u03F4)+$', flags: 'iu', message: 'theta' },
      },
    ]);
    const res = await lint(api, { texts: [{ text: '\u03b8'.repeat(30) }, { text: `${'\u03b8'.repeat(30)}!` }] });
    expect(res.status).toBe(200);
    expect(res.body.map((r: { findings: unknown[] }) => r.findings.length)).toEqual([1, 0]);
    expect(res.body[0].findings[0]).toMatchObject({ ruleId: 'theta', start: 0, end: 30 });
  });

  it('refuses lookaround, naming the field', async () => {
    const { api } = await createWorkspace(ctx);
    const res = await api.post('styleguides/rules', {
      rules: [
        {
          styleguideId: 'default',
          sectionId: 'rules',
          name: 'R',
          check: { type: 'regex', pattern: '(?<=\\d) %', message: 'm' },
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      "rules[0].check.pattern: '(?<=\\d) %' uses a lookahead or lookbehind ((?=, (?!, (?<=, (?<!), which the linear-time regex engine (RE2) does not support",
    );
  });
});
