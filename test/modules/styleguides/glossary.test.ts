import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { addTerms, createGuide, createVariant } from './factories.js';

const ctx = await setupApp();

/**
 * Variants fr and fr-marketing (both fr-FR) and de; a French guide scoped to fr with two terms;
 * the built-in guide (enabled by default) with an English term.
 */
async function workspaceWithGlossary() {
  const workspace = await createWorkspace(ctx);
  const { api } = workspace;
  await createVariant(api, 'fr', 'fr-FR');
  await createVariant(api, 'fr-marketing', 'fr-FR');
  await createVariant(api, 'de', 'de-DE');
  const french = await createGuide(api, { name: 'French', variantId: 'fr' });
  await addTerms(
    api,
    [
      { developerId: 'courriel', preferred: 'courriel', replaces: ['e-mail', 'mail'], note: 'Loi Toubon' },
      { developerId: 'se-connecter', preferred: 'se connecter', replaces: ['loguer'] },
    ],
    french,
  );
  await addTerms(api, [{ developerId: 'sign-in', preferred: 'sign in', replaces: ['log in', 'login'] }]);
  await addTerms(api, [{ developerId: 'workspace', preferred: 'workspace', replaces: ['work space'] }]);
  return workspace;
}

type Term = { termId: string; scoped: boolean; inText: boolean; inVariantText: string | null };
const glossary = async (api: Awaited<ReturnType<typeof createWorkspace>>['api'], query: string) => {
  const res = await api.get(`glossary?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { variantId: string; localeCode: string | null; terms: Term[]; truncated: boolean };
};
const brief = (terms: Term[]) => terms.map((t) => [t.termId, t.scoped, t.inText, t.inVariantText]);

describe('GET /v2/glossary', () => {
  it("lists the locale's terms and the default guide's terms that occur, forbidden forms used first", async () => {
    const { api } = await workspaceWithGlossary();
    const text = encodeURIComponent('Log in with your email');
    const body = await glossary(
      api,
      `variantId=fr-marketing&text=${text}&variantText=${encodeURIComponent('Votre e-mail')}`,
    );
    expect(body.variantId).toBe('fr-marketing');
    expect(body.localeCode).toBe('fr-FR');
    expect(body.truncated).toBe(false);
    expect(brief(body.terms)).toEqual([
      ['courriel', true, false, 'forbidden'],
      ['sign-in', false, true, null],
      ['se-connecter', true, false, null],
    ]);
    expect(body.terms[0]).toEqual({
      styleguideId: 'french',
      sectionId: 'wordlist',
      termId: 'courriel',
      preferred: 'courriel',
      replaces: ['e-mail', 'mail'],
      caseSensitive: false,
      note: 'Loi Toubon',
      scoped: true,
      inText: false,
      inVariantText: 'forbidden',
    });

    // Written with the preferred form: among the terms that occur, in guide order (the built-in
    // guide first), marked as used.
    const fixed = await glossary(api, `variantId=fr&text=${text}&variantText=${encodeURIComponent('Votre courriel')}`);
    expect(brief(fixed.terms)).toEqual([
      ['sign-in', false, true, null],
      ['courriel', true, false, 'preferred'],
      ['se-connecter', true, false, null],
    ]);
  });

  it("gives another locale only the default guide's terms that occur", async () => {
    const { api } = await workspaceWithGlossary();
    const body = await glossary(api, `variantId=de&text=${encodeURIComponent('Your work space')}&variantText=Login`);
    expect(brief(body.terms)).toEqual([
      ['sign-in', false, false, 'forbidden'],
      ['workspace', false, true, null],
    ]);
    expect((await glossary(api, 'variantId=de')).terms).toEqual([]);
  });

  it('answers a 400 naming the field', async () => {
    const { api } = await workspaceWithGlossary();
    const missing = await api.get('glossary?text=Hello');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/variantId/);
    const unknown = await api.get('glossary?variantId=nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('variantId: Variant with id nope not found');
    const long = await api.get(`glossary?variantId=fr&text=${'a'.repeat(5001)}`);
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/text/);
  });
});
