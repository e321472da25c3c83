import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { addRules, createGuide } from './factories.js';

const ctx = await setupApp();

const defaultGuide = async (api: Awaited<ReturnType<typeof createWorkspace>>['api']) =>
  (await api.get('styleguides')).body[0];

describe('POST /v2/styleguides/rules', () => {
  it('creates rules with their checks, ids unique within a guide', async () => {
    const { api } = await createWorkspace(ctx);
    const other = await createGuide(api, { name: 'Other' });
    const res = await api.post('styleguides/rules', {
      rules: [
        {
          styleguideId: 'default',
          sectionId: 'rules',
          name: 'Sentence case',
          description: 'Buttons and titles use sentence case',
          examples: [{ before: 'Save Changes', after: 'Save changes' }],
          check: { type: 'sentence_case' },
        },
        { styleguideId: 'default', sectionId: 'rules', name: 'Sentence case' },
        { styleguideId: other, sectionId: 'rules', name: 'Sentence case' },
        {
          styleguideId: 'default',
          sectionId: 'rules',
          developerId: 'percent',
          name: 'Percent sign',
          check: { type: 'regex', pattern: '(\\d+) percent', flags: 'i', message: 'Use %', replacement: '$1%' },
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.developerIds).toEqual(['sentence-case', 'sentence-case-2', 'sentence-case', 'percent']);
    const guide = await defaultGuide(api);
    expect(guide.rules).toEqual([
      {
        id: 'sentence-case',
        sectionId: 'rules',
        name: 'Sentence case',
        description: 'Buttons and titles use sentence case',
        examples: [{ before: 'Save Changes', after: 'Save changes' }],
        check: { type: 'sentence_case' },
      },
      { id: 'sentence-case-2', sectionId: 'rules', name: 'Sentence case', description: '', examples: [], check: null },
      {
        id: 'percent',
        sectionId: 'rules',
        name: 'Percent sign',
        description: '',
        examples: [],
        check: { type: 'regex', pattern: '(\\d+) percent', flags: 'i', message: 'Use %', replacement: '$1%' },
      },
    ]);
  });

  it.each([
    [{ type: 'character_limit' }, 'rules[0].check.limit is required for type character_limit'],
    [{ type: 'sentence_case', limit: 3 }, 'rules[0].check.limit is only allowed with type character_limit'],
    [{ type: 'title_case', pattern: 'x' }, 'rules[0].check.pattern is only allowed with type regex'],
    [{ type: 'regex', message: 'm' }, 'rules[0].check.pattern is required for type regex'],
    [{ type: 'regex', pattern: 'x' }, 'rules[0].check.message is required for type regex'],
    [
      { type: 'regex', pattern: 'x', flags: 'g', message: 'm' },
      "rules[0].check.flags: 'g' may only hold each of i, m, s and u once",
    ],
    [
      { type: 'spelling' },
      'rules[0].check.type must be one of: "sentence_case", "title_case", "no_trailing_period", "no_exclamation_mark", "no_double_spaces", "character_limit", "regex"',
    ],
  ])('validates the check %j', async (check, message) => {
    const { api } = await createWorkspace(ctx);
    const res = await api.post('styleguides/rules', {
      rules: [{ styleguideId: 'default', sectionId: 'rules', name: 'R', check }],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it.each([
    ['(\\w)\\1', 'uses a backreference (\\1, \\k<name>), which the linear-time regex engine (RE2) does not support'],
    ['(?<=\\d)%', 'uses a lookahead or lookbehind ((?=, (?!, (?<=, (?<!), which the linear-time regex engine'],
    ['x(?!y)', 'uses a lookahead or lookbehind'],
    ['[^]x', 'is not supported by the linear-time regex engine (RE2): missing ]'],
    ['(unclosed', 'is not a valid regular expression'],
  ])('rejects the pattern %s at write time', async (pattern, reason) => {
    const { api } = await createWorkspace(ctx);
    const res = await api.post('styleguides/rules', {
      rules: [
        { styleguideId: 'default', sectionId: 'rules', name: 'R', check: { type: 'regex', pattern, message: 'm' } },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(`rules[0].check.pattern: '${pattern}' ${reason}`);
  });

  it('rejects bad references with a 400 and an existing id with a 409, writing nothing', async () => {
    const { api } = await createWorkspace(ctx);
    await addRules(api, [{ developerId: 'taken' }]);
    const cases = [
      [{ styleguideId: 'nope' }, 400, 'rules[1].styleguideId: Style guide with developer ID nope not found'],
      [{ sectionId: 'nope' }, 400, "rules[1].sectionId: style guide default has no section 'nope'"],
      [
        { sectionId: 'wordlist' },
        400,
        "rules[1].sectionId: section 'wordlist' of style guide default is a wordlist section; rules go in a rules section",
      ],
      [{ developerId: 'taken' }, 409, 'Rule with developer ID taken already exists in style guide default'],
    ] as const;
    for (const [change, status, message] of cases) {
      const res = await api.post('styleguides/rules', {
        rules: [
          { styleguideId: 'default', sectionId: 'rules', name: 'Fine' },
          { styleguideId: 'default', sectionId: 'rules', name: 'Bad', ...change },
        ],
      });
      expect(res.status).toBe(status);
      expect(res.body.message).toBe(message);
    }
    expect((await defaultGuide(api)).rules.map((r: { id: string }) => r.id)).toEqual(['taken']);
  });
});

describe('PATCH and DELETE /v2/styleguides/rules', () => {
  it('changes only the fields given, moves between sections and removes a check', async () => {
    const { api } = await createWorkspace(ctx);
    const id = await createGuide(api, {
      name: 'Voice',
      sections: [
        { sectionId: 'a', kind: 'rules' },
        { sectionId: 'b', kind: 'rules' },
        { sectionId: 'w', kind: 'wordlist' },
      ],
    });
    await addRules(api, [{ sectionId: 'a', name: 'Short', check: { type: 'character_limit', limit: 20 } }], id);
    const res = await api.patch('styleguides/rules', {
      updates: [{ styleguideId: id, developerId: 'short', sectionId: 'b', description: 'Keep it short' }],
    });
    expect(res.body).toEqual({ success: true });
    let rule = (await api.get('styleguides')).body[1].rules[0];
    expect(rule).toMatchObject({ sectionId: 'b', name: 'Short', description: 'Keep it short', check: { limit: 20 } });
    await api.patch('styleguides/rules', { updates: [{ styleguideId: id, developerId: 'short', check: null }] });
    rule = (await api.get('styleguides')).body[1].rules[0];
    expect(rule.check).toBeNull();
  });

  it('answers 404 for an unknown rule or guide, and is all-or-nothing', async () => {
    const { api } = await createWorkspace(ctx);
    await addRules(api, [{ name: 'One' }]);
    const rule = await api.patch('styleguides/rules', {
      updates: [
        { styleguideId: 'default', developerId: 'one', name: 'Renamed' },
        { styleguideId: 'default', developerId: 'two', name: 'x' },
      ],
    });
    expect(rule.status).toBe(404);
    expect(rule.body.message).toBe('Rule with developer ID two not found in style guide default');
    const guide = await api.patch('styleguides/rules', { updates: [{ styleguideId: 'nope', developerId: 'one' }] });
    expect(guide.status).toBe(404);
    expect(guide.body.message).toBe('Style guide with developer ID nope not found');
    const badCheck = await api.patch('styleguides/rules', {
      updates: [
        { styleguideId: 'default', developerId: 'one', name: 'Renamed' },
        { styleguideId: 'default', developerId: 'one', check: { type: 'regex', pattern: '(a*)*', message: 'm' } },
      ],
    });
    expect(badCheck.status).toBe(400);
    expect((await defaultGuide(api)).rules[0].name).toBe('One');
  });

  it('deletes rules, all or none', async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await addRules(a.api, [{ name: 'One' }, { name: 'Two' }]);
    const missing = await a.api.delete('styleguides/rules', {
      rules: [
        { styleguideId: 'default', developerId: 'one' },
        { styleguideId: 'default', developerId: 'three' },
      ],
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Rule with developer ID three not found in style guide default');
    const foreign = await b.api.delete('styleguides/rules', {
      rules: [{ styleguideId: 'default', developerId: 'one' }],
    });
    expect(foreign.status).toBe(404);
    const res = await a.api.delete('styleguides/rules', { rules: [{ styleguideId: 'default', developerId: 'one' }] });
    expect(res.body).toEqual({ success: true });
    expect((await defaultGuide(a.api)).rules.map((r: { id: string }) => r.id)).toEqual(['two']);
  });
});
