import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

const ctx = await setupApp();
const { db } = ctx.database;

const stamp = new Date().toISOString();

async function withVariants(variants: object[]): Promise<Workspace> {
  const workspace = await createWorkspace(ctx);
  const res = await workspace.api.post('variants', { variants });
  expect(res.status).toBe(201);
  return workspace;
}

const ids = async (workspace: Workspace) =>
  ((await workspace.api.get('variants')).body as { id: string }[]).map((v) => v.id);

describe('GET /v2/variants', () => {
  it('lists the variants in creation order with description and localeCode filled in', async () => {
    const { api } = await withVariants([
      { name: 'Spanish', localeCode: 'es' },
      { name: 'Formal', developerId: 'formal', description: 'Sie, not du' },
    ]);
    const res = await api.get('variants');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: 'spanish', name: 'Spanish', description: '', localeCode: 'es' },
      { id: 'formal', name: 'Formal', description: 'Sie, not du', localeCode: null },
    ]);
  });

  it('is empty for a new workspace, and 401 without a valid key', async () => {
    const { api } = await createWorkspace(ctx);
    expect((await api.get('variants')).body).toEqual([]);
    expect((await apiClient(ctx.app, null).get('variants')).status).toBe(401);
    expect((await apiClient(ctx.app, 'nope').post('variants', { variants: [{ name: 'X' }] })).status).toBe(401);
  });
});

describe('POST /v2/variants', () => {
  it('answers 201 with the developer IDs in request order, generating slugs that avoid every collision', async () => {
    const { api } = await withVariants([{ name: 'French' }]);
    const res = await api.post('variants', {
      variants: [
        { name: 'Français' },
        { name: 'French (Canada)' },
        { name: 'All' },
        { name: 'Base' },
        { name: 'Explicit', developerId: 'french-2' },
        { name: 'French!' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      developerIds: ['francais', 'french-canada', 'all-2', 'base-2', 'french-2', 'french-3'],
    });
  });

  it('stores locale codes in canonical form and accepts null', async () => {
    const { api } = await withVariants([
      { name: 'US', localeCode: 'en-us' },
      { name: 'Hant', localeCode: 'ZH-hant-tw' },
      { name: 'None', localeCode: null },
    ]);
    expect((await api.get('variants')).body.map((v: { localeCode: string }) => v.localeCode)).toEqual([
      'en-US',
      'zh-Hant-TW',
      null,
    ]);
  });

  it('rejects an invalid locale code, naming the element, and writes nothing', async () => {
    const { api } = await createWorkspace(ctx);
    const res = await api.post('variants', { variants: [{ name: 'A' }, { name: 'B', localeCode: 'xx_' }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("variants[1].localeCode: 'xx_' is not a valid BCP 47 language tag");
    expect((await api.get('variants')).body).toEqual([]);
  });

  it.each(['all', 'base'])('rejects the reserved developer ID %s', async (reserved) => {
    const { api } = await createWorkspace(ctx);
    const res = await api.post('variants', { variants: [{ name: 'A' }, { name: 'B', developerId: reserved }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`variants[1].developerId: '${reserved}' is a reserved variant id`);
    expect(await ids({ api } as Workspace)).toEqual([]);
  });

  it('answers 409 for a developer ID that exists, 400 for one twice in the request, and writes nothing', async () => {
    const workspace = await withVariants([{ name: 'French', developerId: 'fr' }]);
    const existing = await workspace.api.post('variants', {
      variants: [{ name: 'New' }, { name: 'Other', developerId: 'fr' }],
    });
    expect(existing.status).toBe(409);
    expect(existing.body.message).toBe('Variant with developer ID fr already exists in workspace');
    const twice = await workspace.api.post('variants', {
      variants: [
        { name: 'One', developerId: 'x' },
        { name: 'Two', developerId: 'x' },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe("variants[1].developerId: duplicate developer ID 'x'");
    expect(await ids(workspace)).toEqual(['fr']);
  });

  it('answers 409 for a name that exists, or twice in the request, and writes nothing', async () => {
    const workspace = await withVariants([{ name: 'French' }]);
    const existing = await workspace.api.post('variants', { variants: [{ name: 'German' }, { name: 'French' }] });
    expect(existing.status).toBe(409);
    expect(existing.body.message).toBe('Variant with name French already exists in workspace');
    const twice = await workspace.api.post('variants', { variants: [{ name: 'Dutch' }, { name: 'Dutch' }] });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Variant with name Dutch already exists in workspace');
    expect(await ids(workspace)).toEqual(['french']);
  });

  it('validates the body: name, array bounds, unknown fields', async () => {
    const { api } = await createWorkspace(ctx);
    const cases: [object, string | RegExp][] = [
      [{ variants: [{ name: '' }] }, /^variants\[0\]\.name /],
      [{ variants: [{ description: 'x' }] }, 'variants[0].name is required'],
      [{ variants: [] }, /^variants /],
      [{ variants: Array.from({ length: 1001 }, (_, i) => ({ name: `V${i}` })) }, /^variants /],
      [{ variants: [{ name: 'A', locale: 'fr' }] }, 'variants[0].locale is not a known field'],
      [{ variants: [{ name: 'A', developerId: 'no spaces' }] }, /^variants\[0\]\.developerId must be/],
    ];
    for (const [body, message] of cases) {
      const res = await api.post('variants', body);
      expect(res.status).toBe(400);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    }
  });
});

describe('PATCH /v2/variants', () => {
  it('changes only the fields given; null clears the locale', async () => {
    const workspace = await withVariants([
      { name: 'French', developerId: 'fr', description: 'd', localeCode: 'fr' },
      { name: 'German', developerId: 'de', localeCode: 'de' },
    ]);
    const res = await workspace.api.patch('variants', {
      updates: [
        { developerId: 'fr', name: 'Français', localeCode: 'fr-ca', newDeveloperId: 'fr-CA' },
        { developerId: 'de', localeCode: null, description: 'Deutsch' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await workspace.api.get('variants')).body).toEqual([
      { id: 'fr-CA', name: 'Français', description: 'd', localeCode: 'fr-CA' },
      { id: 'de', name: 'German', description: 'Deutsch', localeCode: null },
    ]);
  });

  it('swaps developer IDs and names between variants, and follows a chain of renames', async () => {
    const workspace = await withVariants([
      { name: 'A', developerId: 'a' },
      { name: 'B', developerId: 'b' },
      { name: 'C', developerId: 'c' },
    ]);
    const swap = await workspace.api.patch('variants', {
      updates: [
        { developerId: 'a', newDeveloperId: 'b', name: 'B' },
        { developerId: 'b', newDeveloperId: 'a', name: 'A' },
      ],
    });
    expect(swap.status).toBe(200);
    const chain = await workspace.api.patch('variants', {
      updates: [
        { developerId: 'c', newDeveloperId: 'd' },
        { developerId: 'b', newDeveloperId: 'c' },
      ],
    });
    expect(chain.status).toBe(200);
    expect(
      (await workspace.api.get('variants')).body.map((v: { id: string; name: string }) => `${v.id}:${v.name}`),
    ).toEqual(['c:B', 'a:A', 'd:C']);
  });

  it('rejects repeated new developer IDs with the exact message', async () => {
    const workspace = await withVariants([
      { name: 'A', developerId: 'a' },
      { name: 'B', developerId: 'b' },
      { name: 'C', developerId: 'c' },
      { name: 'D', developerId: 'd' },
    ]);
    const res = await workspace.api.patch('variants', {
      updates: [
        { developerId: 'a', newDeveloperId: 'y' },
        { developerId: 'b', newDeveloperId: 'x' },
        { developerId: 'c', newDeveloperId: 'y' },
        { developerId: 'd', newDeveloperId: 'x' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Duplicate new developer IDs in request: y, x');
    expect(await ids(workspace)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('answers 404 listing every unknown developer ID in request order, and changes nothing', async () => {
    const workspace = await withVariants([{ name: 'A', developerId: 'a' }]);
    const res = await workspace.api.patch('variants', {
      updates: [
        { developerId: 'zz', name: 'Z' },
        { developerId: 'a', name: 'Renamed' },
        { developerId: 'all', name: 'All' },
      ],
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Variants not found: zz, all');
    expect((await workspace.api.get('variants')).body[0].name).toBe('A');
  });

  it('rejects a name another variant keeps, with the exact message, and changes nothing', async () => {
    const workspace = await withVariants([
      { name: 'French', developerId: 'fr' },
      { name: 'German', developerId: 'de' },
    ]);
    const res = await workspace.api.patch('variants', {
      updates: [
        { developerId: 'de', description: 'changed' },
        { developerId: 'fr', name: 'German' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Variant with name German already exists');
    expect((await workspace.api.get('variants')).body[1].description).toBe('');
  });

  it('rejects bad elements with the field named, the bad one last, and changes nothing', async () => {
    const workspace = await withVariants([
      { name: 'French', developerId: 'fr' },
      { name: 'German', developerId: 'de' },
    ]);
    const first = { developerId: 'fr', name: 'Changed', newDeveloperId: 'fr2' };
    const cases: [object, string][] = [
      [{ developerId: 'de', newDeveloperId: 'all' }, "updates[1].newDeveloperId: 'all' is a reserved variant id"],
      [{ developerId: 'de', newDeveloperId: 'base' }, "updates[1].newDeveloperId: 'base' is a reserved variant id"],
      [{ developerId: 'de', localeCode: 'en_US' }, "updates[1].localeCode: 'en_US' is not a valid BCP 47 language tag"],
      [{ developerId: 'fr', name: 'Again' }, "updates[1].developerId: duplicate developer ID 'fr'"],
      [{ developerId: 'de', name: 'Changed' }, 'Variant with name Changed already exists'],
      [{ developerId: 'de', name: '' }, 'updates[1].name must NOT have fewer than 1 characters'],
    ];
    for (const [bad, message] of cases) {
      const res = await workspace.api.patch('variants', { updates: [first, bad] });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const taken = await workspace.api.patch('variants', { updates: [{ developerId: 'fr', newDeveloperId: 'de' }] });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe('updates[0].newDeveloperId: a variant with developer ID de already exists');
    expect((await workspace.api.patch('variants', { updates: [] })).status).toBe(400);
    expect((await workspace.api.get('variants')).body.map((v: { name: string }) => v.name)).toEqual([
      'French',
      'German',
    ]);
    expect(await ids(workspace)).toEqual(['fr', 'de']);
  });
});

describe('DELETE /v2/variants', () => {
  it('deletes the variants with their values on texts, and unscopes their style guides', async () => {
    const workspace = await withVariants([
      { name: 'French', developerId: 'fr', localeCode: 'fr' },
      { name: 'German', developerId: 'de' },
    ]);
    const [fr, de] = await db
      .selectFrom('variants')
      .select('id')
      .where('workspace_id', '=', workspace.id)
      .orderBy('id')
      .execute();
    const text = await db
      .insertInto('texts')
      .values({
        workspace_id: workspace.id,
        kind: 'component',
        developer_id: 'hello',
        name: 'hello',
        position: 0,
        text: 'Hello',
        notes: '',
        tags: '[]',
        status: 'NONE',
        integrated: 0,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const value = {
      text_id: text.id,
      rich_text: null,
      plurals: null,
      status: 'NONE',
      notes: '',
      character_limit: null,
    };
    await db
      .insertInto('text_variants')
      .values([
        { ...value, variant_id: fr!.id, text: 'Bonjour' },
        { ...value, variant_id: de!.id, text: 'Hallo' },
      ])
      .execute();
    await db
      .insertInto('styleguides')
      .values({
        workspace_id: workspace.id,
        developer_id: 'fr-guide',
        name: 'French guide',
        description: '',
        enabled_by_default: 0,
        variant_id: fr!.id,
        created_at: stamp,
      })
      .execute();

    const res = await workspace.api.delete('variants', { developerIds: ['fr'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await ids(workspace)).toEqual(['de']);
    const values = await db
      .selectFrom('text_variants')
      .select(['variant_id', 'text'])
      .where('text_id', '=', text.id)
      .execute();
    expect(values).toEqual([{ variant_id: de!.id, text: 'Hallo' }]);
    const guide = await db
      .selectFrom('styleguides')
      .select('variant_id')
      .where('workspace_id', '=', workspace.id)
      .where('developer_id', '=', 'fr-guide')
      .executeTakeFirstOrThrow();
    expect(guide.variant_id).toBeNull();
    expect(await db.selectFrom('texts').select('text').where('id', '=', text.id).executeTakeFirst()).toEqual({
      text: 'Hello',
    });
  });

  it('answers 404 listing the unknown IDs, and deletes nothing', async () => {
    const workspace = await withVariants([{ name: 'A', developerId: 'a' }]);
    const res = await workspace.api.delete('variants', { developerIds: ['a', 'nope', 'gone'] });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Variants not found: nope, gone');
    expect(await ids(workspace)).toEqual(['a']);
    expect((await workspace.api.delete('variants', { developerIds: [] })).status).toBe(400);
  });
});

describe('workspace isolation', () => {
  it("a key of workspace A neither sees nor changes B's variants", async () => {
    const b = await withVariants([{ name: 'French', developerId: 'fr' }]);
    const a = await createWorkspace(ctx);
    expect((await a.api.get('variants')).body).toEqual([]);
    const patch = await a.api.patch('variants', { updates: [{ developerId: 'fr', name: 'Hijacked' }] });
    expect(patch.status).toBe(404);
    expect(patch.body.message).toBe('Variants not found: fr');
    const del = await a.api.delete('variants', { developerIds: ['fr'] });
    expect(del.status).toBe(404);
    expect(del.body.message).toBe('Variants not found: fr');
    // Ids and names are unique per workspace only.
    expect((await a.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] })).status).toBe(201);
    expect((await b.api.get('variants')).body).toEqual([
      { id: 'fr', name: 'French', description: '', localeCode: null },
    ]);
  });
});

describe('variants service for other modules', () => {
  it('resolves developer IDs and creates a missing variant named after its id', async () => {
    const workspace = await withVariants([{ name: 'French', developerId: 'fr' }]);
    const { variants } = ctx.services;
    const found = await variants.resolveVariants(db, workspace.id, ['fr', 'nope', 'fr']);
    expect([...found.keys()]).toEqual(['fr']);
    expect(found.get('fr')?.name).toBe('French');

    const created = await db.transaction().execute((trx) => variants.ensureVariant(trx, workspace.id, 'pt-BR'));
    expect(created.variant).toMatchObject({ developerId: 'pt-BR', name: 'pt-BR', description: '', localeCode: null });
    expect(created.change).toMatchObject({ kind: 'variant', developerId: 'pt-BR', action: 'created' });
    const again = await variants.ensureVariant(db, workspace.id, 'fr');
    expect(again.variant.name).toBe('French');
    expect(again.change).toBeNull();
    await expect(variants.ensureVariant(db, workspace.id, 'all')).rejects.toThrow(
      "variantId: 'all' is a reserved variant id",
    );
    expect((await variants.listVariants(db, workspace.id)).map((row) => row.developerId)).toEqual(['fr', 'pt-BR']);
  });
});
