import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { addTerms } from './factories.js';

const ctx = await setupApp();

const defaultGuide = async (api: Awaited<ReturnType<typeof createWorkspace>>['api']) =>
  (await api.get('styleguides')).body[0];

describe('/v2/styleguides/terms', () => {
  it('creates, updates and deletes wordlist terms', async () => {
    const { api } = await createWorkspace(ctx);
    const ids = await addTerms(api, [
      { preferred: 'sign in', replaces: ['log in', 'login'], note: 'Matches the button' },
      { preferred: 'GitHub', replaces: ['Github'], caseSensitive: true },
    ]);
    expect(ids).toEqual(['sign-in', 'github']);
    expect((await defaultGuide(api)).terms).toEqual([
      {
        id: 'sign-in',
        sectionId: 'wordlist',
        preferred: 'sign in',
        replaces: ['log in', 'login'],
        caseSensitive: false,
        note: 'Matches the button',
      },
      { id: 'github', sectionId: 'wordlist', preferred: 'GitHub', replaces: ['Github'], caseSensitive: true, note: '' },
    ]);
    await api.patch('styleguides/terms', {
      updates: [{ styleguideId: 'default', developerId: 'sign-in', replaces: ['log on'] }],
    });
    expect((await defaultGuide(api)).terms[0]).toMatchObject({
      preferred: 'sign in',
      replaces: ['log on'],
      note: 'Matches the button',
    });
    await api.delete('styleguides/terms', { terms: [{ styleguideId: 'default', developerId: 'github' }] });
    expect((await defaultGuide(api)).terms.map((t: { id: string }) => t.id)).toEqual(['sign-in']);
  });

  it('validates terms, all-or-nothing', async () => {
    const { api } = await createWorkspace(ctx);
    const cases = [
      [{ preferred: ' ' }, 'terms[1].preferred must not be blank'],
      [{ preferred: 'ok', replaces: ['fine', '  '] }, 'terms[1].replaces[1] must not be blank'],
      [
        { preferred: 'ok', sectionId: 'rules' },
        "terms[1].sectionId: section 'rules' of style guide default is a rules section; terms go in a wordlist section",
      ],
    ] as const;
    for (const [bad, message] of cases) {
      const res = await api.post('styleguides/terms', {
        terms: [
          { styleguideId: 'default', sectionId: 'wordlist', preferred: 'fine' },
          { styleguideId: 'default', sectionId: 'wordlist', ...bad },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const missing = await api.patch('styleguides/terms', {
      updates: [{ styleguideId: 'default', developerId: 'x', note: '' }],
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Term with developer ID x not found in style guide default');
    expect((await defaultGuide(api)).terms).toEqual([]);
  });
});
