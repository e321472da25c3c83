import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { addRules, addTerms, createGuide, createVariant } from '../styleguides/factories.js';

const ctx = await setupApp();

/** The style guide changes of one guide, newest first. */
async function guideHistory(ws: Workspace, guideId: string) {
  const res = await ws.api.get(`history?kind=styleGuide&id=${guideId}`);
  expect(res.status).toBe(200);
  return res.body.changes as any[];
}

const rule = (id: string, name: string, sectionId = 'rules') => ({
  id,
  sectionId,
  name,
  description: '',
  examples: [],
  check: null,
});

describe('history of style guides', () => {
  it('records a guide created, updated and deleted, and keeps it after deletion', async () => {
    const ws = await createWorkspace(ctx);
    await createVariant(ws.api, 'fr', 'fr-FR');
    await createGuide(ws.api, { developerId: 'tone', name: 'Tone', variantId: 'fr' });
    expect((await ws.api.patch('styleguides', { developerId: 'tone', name: 'Voice' })).status).toBe(200);
    expect((await ws.api.delete('styleguides', { developerIds: ['tone'] })).status).toBe(200);

    const [deleted, updated, created] = await guideHistory(ws, 'tone');
    expect(created).toMatchObject({
      actor: ws.email,
      keyId: expect.any(String),
      kind: 'styleGuide',
      developerId: 'tone',
      variantId: null,
      action: 'created',
      fields: {
        name: { before: null, after: 'Tone' },
        description: { before: null, after: '' },
        enabledByDefault: { before: null, after: false },
        variantId: { before: null, after: 'fr' },
        sections: {
          before: null,
          after: [
            { sectionId: 'rules', kind: 'rules', name: 'Rules' },
            { sectionId: 'wordlist', kind: 'wordlist', name: 'Wordlist' },
          ],
        },
      },
    });
    expect(updated).toMatchObject({ action: 'updated', fields: { name: { before: 'Tone', after: 'Voice' } } });
    expect(Object.keys(updated.fields)).toEqual(['name']);
    expect(deleted).toMatchObject({
      developerId: 'tone',
      action: 'deleted',
      fields: { name: { before: 'Voice', after: null }, variantId: { before: 'fr', after: null } },
    });
  });

  it('records rules as fields of their guide, one change per guide per request', async () => {
    const ws = await createWorkspace(ctx);
    await createGuide(ws.api, { developerId: 'tone', name: 'Tone' });
    await ws.api.post('styleguides/rules', {
      rules: [
        { styleguideId: 'default', sectionId: 'rules', developerId: 'short', name: 'Be short' },
        { styleguideId: 'default', sectionId: 'rules', developerId: 'kind', name: 'Be kind' },
        { styleguideId: 'tone', sectionId: 'rules', developerId: 'short', name: 'Short here too' },
      ],
    });
    const [created] = await guideHistory(ws, 'default');
    expect(created).toMatchObject({ developerId: 'default', action: 'updated', actor: ws.email });
    expect(created.fields).toEqual({
      'rules.short': { before: null, after: rule('short', 'Be short') },
      'rules.kind': { before: null, after: rule('kind', 'Be kind') },
    });
    expect((await guideHistory(ws, 'tone'))[0].fields).toEqual({
      'rules.short': { before: null, after: rule('short', 'Short here too') },
    });

    const check = { type: 'no_exclamation_mark' };
    await ws.api.patch('styleguides/rules', { updates: [{ styleguideId: 'default', developerId: 'kind', check }] });
    await ws.api.delete('styleguides/rules', { rules: [{ styleguideId: 'default', developerId: 'short' }] });
    const [removed, changed] = await guideHistory(ws, 'default');
    expect(changed.fields).toEqual({
      'rules.kind': { before: rule('kind', 'Be kind'), after: { ...rule('kind', 'Be kind'), check } },
    });
    expect(removed).toMatchObject({
      action: 'updated',
      fields: { 'rules.short': { before: rule('short', 'Be short'), after: null } },
    });
  });

  it('records terms as fields of their guide', async () => {
    const ws = await createWorkspace(ctx);
    const [id] = await addTerms(ws.api, [{ preferred: 'sign in', replaces: ['log in'] }]);
    await ws.api.patch('styleguides/terms', {
      updates: [{ styleguideId: 'default', developerId: id, note: 'UI verb' }],
    });
    await ws.api.delete('styleguides/terms', { terms: [{ styleguideId: 'default', developerId: id }] });
    const term = {
      id,
      sectionId: 'wordlist',
      preferred: 'sign in',
      replaces: ['log in'],
      caseSensitive: false,
      note: '',
    };
    const [deleted, updated, created] = await guideHistory(ws, 'default');
    expect(id).toBe('sign-in');
    expect(created.fields).toEqual({ 'terms.sign-in': { before: null, after: term } });
    expect(updated.fields).toEqual({ 'terms.sign-in': { before: term, after: { ...term, note: 'UI verb' } } });
    expect(deleted.fields).toEqual({ 'terms.sign-in': { before: { ...term, note: 'UI verb' }, after: null } });
  });

  it('records the entries that a section change moves', async () => {
    const ws = await createWorkspace(ctx);
    await createGuide(ws.api, {
      developerId: 'tone',
      name: 'Tone',
      sections: [
        { sectionId: 'a', kind: 'rules' },
        { sectionId: 'b', kind: 'rules' },
        { sectionId: 'words', kind: 'wordlist' },
      ],
    });
    await addRules(ws.api, [{ developerId: 'r', sectionId: 'b' }], 'tone');
    const sections = [
      { sectionId: 'a', kind: 'rules', name: 'Main' },
      { sectionId: 'words', kind: 'wordlist' },
    ];
    expect((await ws.api.patch('styleguides', { developerId: 'tone', sections })).status).toBe(200);
    const [moved] = await guideHistory(ws, 'tone');
    expect(moved.action).toBe('updated');
    expect(moved.fields['rules.r']).toEqual({ before: rule('r', 'Rule', 'b'), after: rule('r', 'Rule', 'a') });
    expect(moved.fields.sections.after).toEqual([
      { sectionId: 'a', kind: 'rules', name: 'Main' },
      { sectionId: 'words', kind: 'wordlist', name: 'Wordlist' },
    ]);
    expect(Object.keys(moved.fields).sort()).toEqual(['rules.r', 'sections']);
  });

  it('records nothing for a rejected batch, a change to nothing, or a lint', async () => {
    const ws = await createWorkspace(ctx);
    await addRules(ws.api, [{ developerId: 'r', check: { type: 'no_trailing_period' } }]);
    const before = (await ws.api.get('history')).body;
    const rejected = await ws.api.post('styleguides/rules', {
      rules: [
        { styleguideId: 'default', sectionId: 'rules', name: 'Fine' },
        { styleguideId: 'default', sectionId: 'wordlist', name: 'Wrong section' },
      ],
    });
    expect(rejected.status).toBe(400);
    const missing = await ws.api.delete('styleguides', { developerIds: ['nope'] });
    expect(missing.status).toBe(404);
    expect((await ws.api.patch('styleguides', { developerId: 'default', enabledByDefault: true })).status).toBe(200);
    const lint = await ws.api.post('styleguides/lint', { texts: [{ text: 'Hello.' }] });
    expect(lint.body[0].findings).toHaveLength(1);
    expect((await ws.api.get('history')).body).toEqual(before);
  });

  it("never shows one workspace's guide changes to another", async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await createGuide(a.api, { developerId: 'tone', name: 'Tone' });
    expect(await guideHistory(a, 'tone')).toHaveLength(1);
    expect(await guideHistory(b, 'tone')).toEqual([]);
    expect((await b.api.get('history?kind=styleGuide')).body.changes).toEqual([]);
  });

  it('records the scope a guide loses when its variant goes, for the variants module', async () => {
    const ws = await createWorkspace(ctx);
    await createVariant(ws.api, 'fr', 'fr-FR');
    await createGuide(ws.api, { developerId: 'tone', name: 'Tone', variantId: 'fr' });
    const fr = (await ctx.services.variants.listVariants(ctx.database.db, ws.id)).find((v) => v.developerId === 'fr');
    const scope = { workspaceId: ws.id, actor: { email: ws.email, keyId: null } };
    await ctx.services.writes.write(scope, async (trx) => ({
      changes: await ctx.services.styleguides.clearVariantScopes(trx, ws.id, [fr!.id]),
      result: undefined,
    }));
    const [cleared] = await guideHistory(ws, 'tone');
    expect(cleared).toMatchObject({ action: 'updated', fields: { variantId: { before: 'fr', after: null } } });
    expect(Object.keys(cleared.fields)).toEqual(['variantId']);
    expect((await ws.api.get('styleguides')).body.find((g: any) => g.id === 'tone').variantId).toBeNull();
  });
});
