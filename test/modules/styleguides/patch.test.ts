import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { addRules, addTerms, createGuide, createVariant } from './factories.js';

const ctx = await setupApp();

const guideOf = async (api: Awaited<ReturnType<typeof createWorkspace>>['api'], id: string) =>
  ((await api.get('styleguides')).body as Array<{ id: string }>).find((g) => g.id === id) as Record<string, any>;

describe('PATCH /v2/styleguides: the built-in guide', () => {
  it('changes enabledByDefault of default, and nothing else', async () => {
    const { api } = await createWorkspace(ctx);
    expect((await api.patch('styleguides', { developerId: 'default', enabledByDefault: false })).body).toEqual({
      success: true,
    });
    expect((await guideOf(api, 'default')).enabledByDefault).toBe(false);
    await api.patch('styleguides', { developerId: 'default', enabledByDefault: true });
    expect((await guideOf(api, 'default')).enabledByDefault).toBe(true);
  });

  it.each([
    ['name', { name: 'Mine' }],
    ['description', { description: 'Mine' }],
    ['variantId', { variantId: null }],
    [
      'sections',
      {
        sections: [
          { sectionId: 'r', kind: 'rules' },
          { sectionId: 'w', kind: 'wordlist' },
        ],
      },
    ],
  ])('rejects %s on default with a 400 naming the field, changing nothing', async (field, change) => {
    const { api } = await createWorkspace(ctx);
    const before = await guideOf(api, 'default');
    const res = await api.patch('styleguides', { developerId: 'default', enabledByDefault: false, ...change });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `${field}: only enabledByDefault can be updated on the built-in style guide 'default'`,
    );
    expect(await guideOf(api, 'default')).toEqual(before);
  });
});

describe('PATCH /v2/styleguides: fields', () => {
  it('changes only the fields given', async () => {
    const { api } = await createWorkspace(ctx);
    const id = await createGuide(api, { name: 'Voice', description: 'How we sound' });
    await api.patch('styleguides', { developerId: id, name: 'Tone' });
    expect(await guideOf(api, id)).toMatchObject({
      name: 'Tone',
      description: 'How we sound',
      enabledByDefault: false,
    });
    await api.patch('styleguides', { developerId: id, description: 'How we write', enabledByDefault: true });
    expect(await guideOf(api, id)).toMatchObject({ name: 'Tone', description: 'How we write', enabledByDefault: true });
  });

  it.each(['name', 'description'])('rejects an empty %s (minimum length 1)', async (field) => {
    const { api } = await createWorkspace(ctx);
    const id = await createGuide(api, { name: 'Voice' });
    const res = await api.patch('styleguides', { developerId: id, [field]: '' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`${field} must NOT have fewer than 1 characters`);
  });

  it('requires developerId and rejects unknown fields', async () => {
    const { api } = await createWorkspace(ctx);
    expect((await api.patch('styleguides', { name: 'x' })).body.message).toBe('developerId is required');
    const res = await api.patch('styleguides', { developerId: 'default', enabled: true });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('enabled is not a known field');
  });

  it('answers 404 naming an unknown guide, also one of another workspace', async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    const res = await a.api.patch('styleguides', { developerId: 'nope', name: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Style guide with developer ID nope not found');
    const id = await createGuide(a.api, { name: 'Private' });
    const other = await b.api.patch('styleguides', { developerId: id, name: 'Taken over' });
    expect(other.status).toBe(404);
    expect(other.body.message).toBe(`Style guide with developer ID ${id} not found`);
    expect((await guideOf(a.api, id)).name).toBe('Private');
  });
});

describe('PATCH /v2/styleguides: variantId', () => {
  it('scopes to a variant with a locale code, null clears, omitted leaves it', async () => {
    const { api } = await createWorkspace(ctx);
    await createVariant(api, 'fr', 'fr-FR');
    const id = await createGuide(api, { name: 'French' });
    await api.patch('styleguides', { developerId: id, variantId: 'fr' });
    expect((await guideOf(api, id)).variantId).toBe('fr');
    await api.patch('styleguides', { developerId: id, name: 'Français' });
    expect((await guideOf(api, id)).variantId).toBe('fr');
    await api.patch('styleguides', { developerId: id, variantId: null });
    expect((await guideOf(api, id)).variantId).toBeNull();
  });

  it('rejects a variant without a locale code, and an unknown one, changing nothing', async () => {
    const { api } = await createWorkspace(ctx);
    await createVariant(api, 'formal');
    const id = await createGuide(api, { name: 'Voice' });
    const noLocale = await api.patch('styleguides', { developerId: id, name: 'Changed', variantId: 'formal' });
    expect(noLocale.status).toBe(400);
    expect(noLocale.body.message).toBe(
      'variantId: variant formal has no locale code; only variants with a locale code can scope a style guide',
    );
    const unknown = await api.patch('styleguides', { developerId: id, variantId: 'xx' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('variantId: Variant with id xx not found');
    expect(await guideOf(api, id)).toMatchObject({ name: 'Voice', variantId: null });
  });
});

describe('PATCH /v2/styleguides: sections', () => {
  const rules = (sectionId: string, name?: string) => ({ sectionId, kind: 'rules', ...(name ? { name } : {}) });
  const wordlist = (sectionId: string) => ({ sectionId, kind: 'wordlist' });

  it.each([
    ['no wordlist section', [rules('a')], 'At least one wordlist section is required'],
    ['no rules section', [wordlist('w')], 'At least one rules section is required'],
    ['an empty list', [], 'At least one wordlist section is required'],
    ['a repeated sectionId', [rules('a'), wordlist('a')], "sections[1].sectionId: 'a' appears more than once"],
  ])('rejects %s', async (_, sections, message) => {
    const { api } = await createWorkspace(ctx);
    const id = await createGuide(api, { name: 'Voice' });
    const res = await api.patch('styleguides', { developerId: id, sections });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await guideOf(api, id)).sections.map((s: { sectionId: string }) => s.sectionId)).toEqual([
      'rules',
      'wordlist',
    ]);
  });

  it('replaces the list in order, keeping names unless given', async () => {
    const { api } = await createWorkspace(ctx);
    const id = await createGuide(api, { name: 'Voice' });
    const res = await api.patch('styleguides', {
      developerId: id,
      sections: [wordlist('wordlist'), rules('buttons', 'Buttons'), rules('rules')],
    });
    expect(res.status).toBe(200);
    expect((await guideOf(api, id)).sections).toEqual([
      { sectionId: 'wordlist', kind: 'wordlist', name: 'Wordlist' },
      { sectionId: 'buttons', kind: 'rules', name: 'Buttons' },
      { sectionId: 'rules', kind: 'rules', name: 'Rules' },
    ]);
  });

  it('moves the rules of a removed section to the first remaining rules section', async () => {
    const { api } = await createWorkspace(ctx);
    const id = await createGuide(api, {
      name: 'Voice',
      sections: [rules('a'), rules('b'), rules('c'), wordlist('w')],
    });
    await addRules(
      api,
      [
        { sectionId: 'a', name: 'One' },
        { sectionId: 'c', name: 'Two' },
      ],
      id,
    );
    // `new` comes first but is not a remaining section: `b` is.
    await api.patch('styleguides', { developerId: id, sections: [rules('new'), rules('b'), wordlist('w')] });
    const guide = await guideOf(api, id);
    expect(guide.rules.map((r: { id: string; sectionId: string }) => [r.id, r.sectionId])).toEqual([
      ['one', 'b'],
      ['two', 'b'],
    ]);
  });

  it('moves rules to the first new rules section when none remains, and wordlist terms alike', async () => {
    const { api } = await createWorkspace(ctx);
    const id = await createGuide(api, { name: 'Voice', sections: [rules('a'), wordlist('w1'), wordlist('w2')] });
    await addRules(api, [{ sectionId: 'a', name: 'One' }], id);
    await addTerms(api, [{ sectionId: 'w1', preferred: 'sign in', replaces: ['log in'] }], id);
    await api.patch('styleguides', { developerId: id, sections: [wordlist('w2'), rules('z')] });
    const guide = await guideOf(api, id);
    expect(guide.rules[0].sectionId).toBe('z');
    expect(guide.terms[0].sectionId).toBe('w2');
  });

  it('moves the entries of a section that changes kind', async () => {
    const { api } = await createWorkspace(ctx);
    const id = await createGuide(api, { name: 'Voice', sections: [rules('a'), rules('b'), wordlist('w')] });
    await addRules(api, [{ sectionId: 'a', name: 'One' }], id);
    await api.patch('styleguides', { developerId: id, sections: [wordlist('a'), rules('b'), wordlist('w')] });
    const guide = await guideOf(api, id);
    expect(guide.rules[0].sectionId).toBe('b');
    expect(guide.sections[0]).toEqual({ sectionId: 'a', kind: 'wordlist', name: 'Rules' });
  });
});
