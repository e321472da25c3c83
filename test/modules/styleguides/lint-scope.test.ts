import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { addRules, addTerms, createGuide, createVariant, lintOne } from './factories.js';

const ctx = await setupApp();

/** A workspace with variants fr (fr-FR) and de (de), and a French guide with one term. */
async function withFrenchGuide(guide: Record<string, unknown> = {}) {
  const workspace = await createWorkspace(ctx);
  const { api } = workspace;
  await createVariant(api, 'fr', 'fr-FR');
  await createVariant(api, 'de', 'de');
  const french = await createGuide(api, { name: 'French', variantId: 'fr', ...guide });
  await addTerms(api, [{ developerId: 'courriel', preferred: 'courriel', replaces: ['email'] }], french);
  return { ...workspace, french };
}

const termIds = (findings: Awaited<ReturnType<typeof lintOne>>) => findings.map((f) => f.termId ?? f.ruleId);

describe('POST /v2/styleguides/lint: the guides in effect', () => {
  it('applies a guide scoped to a variant to that variant’s text only', async () => {
    const { api } = await withFrenchGuide();
    expect(termIds(await lintOne(api, 'Votre email', 'fr'))).toEqual(['courriel']);
    expect(await lintOne(api, 'Your email')).toEqual([]);
    expect(await lintOne(api, 'Ihre email', 'de')).toEqual([]);
  });

  it('applies a guide enabled by default everywhere, even when it is scoped to a variant', async () => {
    const { api } = await withFrenchGuide({ enabledByDefault: true });
    expect(termIds(await lintOne(api, 'Votre email', 'fr'))).toEqual(['courriel']);
    expect(termIds(await lintOne(api, 'Your email'))).toEqual(['courriel']);
  });

  it('applies unscoped guides only when enabled by default, the built-in one included', async () => {
    const { api } = await createWorkspace(ctx);
    await addRules(api, [{ developerId: 'calm', check: { type: 'no_exclamation_mark' } }]);
    const off = await createGuide(api, { name: 'Off' });
    await addRules(api, [{ developerId: 'short', check: { type: 'character_limit', limit: 3 } }], off);
    expect(termIds(await lintOne(api, 'Done!'))).toEqual(['calm']);
    await api.patch('styleguides', { developerId: off, enabledByDefault: true });
    expect(termIds(await lintOne(api, 'Done!'))).toEqual(['short', 'calm']);
    await api.patch('styleguides', { developerId: 'default', enabledByDefault: false });
    expect(termIds(await lintOne(api, 'Done!'))).toEqual(['short']);
  });

  it('follows the scope as it changes', async () => {
    const { api, french } = await withFrenchGuide();
    await api.patch('styleguides', { developerId: french, variantId: null, enabledByDefault: true });
    expect(termIds(await lintOne(api, 'Your email'))).toEqual(['courriel']);
    expect(termIds(await lintOne(api, 'Ihre email', 'de'))).toEqual(['courriel']);
  });

  it('applies a scoped guide to every variant of its locale, stored translations included', async () => {
    const { api } = await withFrenchGuide();
    await createVariant(api, 'fr-marketing', 'fr-fr');
    await createVariant(api, 'fr-ca', 'fr-CA');
    expect(termIds(await lintOne(api, 'Votre email', 'fr-marketing'))).toEqual(['courriel']);
    expect(await lintOne(api, 'Votre email', 'fr-ca')).toEqual([]);
    await api.post('projects', { projects: [{ name: 'App', developerId: 'app' }] });
    const created = await api.post('textItems', {
      projectId: 'app',
      textItems: [
        {
          developerId: 'contact',
          text: 'Your email',
          variants: [
            { variantId: 'fr-marketing', text: 'Votre email' },
            { variantId: 'fr-ca', text: 'Votre email' },
          ],
        },
      ],
    });
    expect(created.status).toBe(201);
    const stored = await api.post('styleguides/lint', { filter: { textItems: { variants: [{ id: 'all' }] } } });
    expect(
      stored.body.map((r: { variantId: string | null; findings: { termId: string | null }[] }) => [
        r.variantId,
        r.findings.map((f) => f.termId),
      ]),
    ).toEqual([
      [null, []],
      ['fr-marketing', ['courriel']],
      ['fr-ca', []],
    ]);
  });

  it('lints only with the workspace’s own guides', async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await addTerms(a.api, [{ preferred: 'sign in', replaces: ['log in'] }]);
    expect(await lintOne(b.api, 'Log in')).toEqual([]);
  });
});

describe('POST /v2/styleguides/lint: the body', () => {
  it.each([
    [{}, 'body must have either texts or filter, not both'],
    [{ texts: [{ text: 'a' }], filter: { components: {} } }, 'body must have either texts or filter, not both'],
    [{ filter: {} }, 'filter must have components, textItems or both'],
    [
      { texts: [{ text: 'a' }, { text: 'b', variantId: 'nope' }] },
      'texts[1].variantId: Variant with id nope not found',
    ],
    [{ texts: [] }, 'texts must NOT have fewer than 1 items'],
    [
      { filter: { components: { statuses: ['NOPE'] } } },
      "filter.components.statuses[0]: 'NOPE' is not a status of the workspace",
    ],
    [{ filter: { components: { colour: 'red' } } }, 'filter.components.colour is not a known field'],
  ])('rejects %j', async (body, message) => {
    const { api } = await createWorkspace(ctx);
    const res = await api.post('styleguides/lint', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('checks the character limit a text is given', async () => {
    const { api } = await createWorkspace(ctx);
    const res = await api.post('styleguides/lint', { texts: [{ text: 'Continue', characterLimit: 5 }] });
    expect(res.body[0].findings).toEqual([
      {
        kind: 'characterLimit',
        styleguideId: null,
        sectionId: null,
        ruleId: null,
        termId: null,
        message: 'Text is 8 characters long, over its character limit of 5',
        start: 5,
        end: 8,
        suggestion: null,
      },
    ]);
  });
});

describe('POST /v2/styleguides/lint: stored components', () => {
  async function seed() {
    const workspace = await withFrenchGuide();
    const { api } = workspace;
    await addTerms(api, [{ developerId: 'sign-in', preferred: 'sign in', replaces: ['log in'] }]);
    const res = await api.post('components', {
      components: [
        {
          developerId: 'login',
          name: 'Login',
          text: 'Log in',
          characterLimit: 4,
          variants: [{ variantId: 'fr', text: 'Votre email', characterLimit: 20 }],
        },
        {
          developerId: 'items',
          name: 'Items',
          text: 'One item',
          status: 'FINAL',
          plurals: [
            { form: 'one', text: 'One item' },
            { form: 'other', text: 'Log in to see them' },
          ],
        },
      ],
    });
    expect(res.status).toBe(201);
    return workspace;
  }

  const summary = (
    results: Array<{ id: string; variantId: string | null; findings: { kind: string; termId: string | null }[] }>,
  ) => results.map((r) => [r.id, r.variantId, r.findings.map((f) => f.termId ?? f.kind)]);

  it('selects records with the GET /components filter and checks their own character limits', async () => {
    const { api } = await seed();
    const res = await api.post('styleguides/lint', { filter: { components: {} } });
    expect(res.status).toBe(200);
    expect(summary(res.body)).toEqual([
      ['items', null, []],
      ['items_one', null, []],
      ['items_other', null, ['sign-in']],
      ['login', null, ['sign-in', 'characterLimit']],
    ]);
    expect(res.body[0]).toMatchObject({ source: 'component', pluralForm: null, text: 'One item' });
    expect(res.body[2]).toMatchObject({ pluralForm: 'other', text: 'Log in to see them' });
  });

  it('lints variant records with the guides of their variant', async () => {
    const { api } = await seed();
    const res = await api.post('styleguides/lint', {
      filter: { components: { variants: [{ id: 'fr' }], statuses: [] } },
    });
    expect(summary(res.body)).toEqual([['login', 'fr', ['courriel']]]);
  });

  it('narrows by status like the fetch does', async () => {
    const { api } = await seed();
    const res = await api.post('styleguides/lint', { filter: { components: { statuses: ['FINAL'] } } });
    expect(res.body.map((r: { id: string }) => r.id)).toEqual(['items', 'items_one', 'items_other']);
  });
});

describe('POST /v2/styleguides/lint: stored text items', () => {
  it('selects records with the GET /textItems filter, alone or with components', async () => {
    const { api } = await withFrenchGuide();
    await addTerms(api, [{ developerId: 'sign-in', preferred: 'sign in', replaces: ['log in'] }]);
    expect((await api.post('projects', { projects: [{ name: 'App', developerId: 'app' }] })).status).toBe(201);
    expect((await api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] })).status).toBe(201);
    const created = await api.post('textItems', {
      projectId: 'app',
      textItems: [
        {
          developerId: 'cta',
          text: 'Log in now',
          characterLimit: 6,
          variants: [{ variantId: 'fr', text: 'Votre email' }],
        },
        { developerId: 'ok', text: 'Continue' },
      ],
    });
    expect(created.status).toBe(201);
    await api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'web-cta', text: 'Log in' }] });
    await api.post('components', { components: [{ developerId: 'button', name: 'Button', text: 'Log in' }] });

    const items = await api.post('styleguides/lint', {
      filter: { textItems: { projects: [{ id: 'app' }], variants: [{ id: 'all' }] } },
    });
    expect(items.status).toBe(200);
    expect(
      items.body.map(
        (r: {
          id: string;
          source: string;
          variantId: string | null;
          findings: { termId: string | null; kind: string }[];
        }) => [r.id, r.source, r.variantId, r.findings.map((f) => f.termId ?? f.kind)],
      ),
    ).toEqual([
      ['cta', 'textItem', null, ['sign-in', 'characterLimit']],
      ['cta', 'textItem', 'fr', ['courriel']],
      ['ok', 'textItem', null, []],
    ]);

    const both = await api.post('styleguides/lint', { filter: { components: {}, textItems: {} } });
    expect(both.body.map((r: { id: string; source: string }) => [r.source, r.id])).toEqual([
      ['component', 'button'],
      ['textItem', 'cta'],
      ['textItem', 'ok'],
      ['textItem', 'web-cta'],
    ]);

    const bad = await api.post('styleguides/lint', { filter: { textItems: { projects: [{ id: 'nope' }] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/nope/);
  });
});
