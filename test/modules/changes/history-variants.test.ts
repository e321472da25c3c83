import { describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../../src/modules/changes/changes.types.js';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

const ctx = await setupApp();

async function ok(res: Promise<{ status: number; body: any }>, status = 200) {
  const { status: got, body } = await res;
  expect(got, JSON.stringify(body)).toBe(status);
  return body;
}

const history = async (ws: Workspace, query: string) => (await ok(ws.api.get(`history?${query}`))).changes as any[];

async function keyIdOf(ws: Workspace) {
  const [key] = await ctx.services.accounts.listKeys(ws.id);
  return key?.id;
}

describe('history of variants', () => {
  it('records create, rename, update and delete, and follows the rename', async () => {
    const ws = await createWorkspace(ctx);
    const keyId = await keyIdOf(ws);
    const created = await ok(
      ws.api.post('variants', {
        variants: [
          { name: 'French', developerId: 'fr', localeCode: 'fr-fr' },
          { name: 'Pirate speak', description: 'Arr' },
        ],
      }),
      201,
    );
    expect(created.developerIds).toEqual(['fr', 'pirate-speak']);
    await ok(
      ws.api.patch('variants', { updates: [{ developerId: 'fr', newDeveloperId: 'fr-FR', description: 'Paris' }] }),
    );
    await ok(ws.api.patch('variants', { updates: [{ developerId: 'fr-FR', localeCode: null, name: 'French' }] }));
    await ok(ws.api.delete('variants', { developerIds: ['fr-FR'] }));

    const byNewId = await history(ws, 'kind=variant&id=fr-FR');
    expect(await history(ws, 'kind=variant&id=fr')).toEqual(byNewId);
    const [deleted, updated, renamed, create] = byNewId;
    expect(byNewId).toHaveLength(4);
    const common = { actor: ws.email, keyId, kind: 'variant', variantId: null };
    expect(create).toMatchObject({
      ...common,
      developerId: 'fr',
      action: 'created',
      fields: {
        developerId: { before: null, after: 'fr' },
        name: { before: null, after: 'French' },
        description: { before: null, after: '' },
        localeCode: { before: null, after: 'fr-FR' },
      },
    });
    expect(renamed).toMatchObject({ ...common, developerId: 'fr-FR', action: 'renamed' });
    expect(renamed.fields).toEqual({
      developerId: { before: 'fr', after: 'fr-FR' },
      description: { before: '', after: 'Paris' },
    });
    // `name` was sent unchanged, so only the locale is recorded.
    expect(updated).toMatchObject({ ...common, developerId: 'fr-FR', action: 'updated' });
    expect(updated.fields).toEqual({ localeCode: { before: 'fr-FR', after: null } });
    expect(deleted).toMatchObject({ ...common, developerId: 'fr-FR', action: 'deleted' });
    expect(deleted.fields).toEqual({
      developerId: { before: 'fr-FR', after: null },
      name: { before: 'French', after: null },
      description: { before: 'Paris', after: null },
      localeCode: { before: null, after: null },
    });

    const [pirate] = await history(ws, 'kind=variant&id=pirate-speak');
    expect(pirate).toMatchObject({ action: 'created', fields: { name: { after: 'Pirate speak' } } });
  });

  it('records a swap of developer IDs as two renames', async () => {
    const ws = await createWorkspace(ctx);
    await ok(
      ws.api.post('variants', {
        variants: [
          { name: 'A', developerId: 'a' },
          { name: 'B', developerId: 'b' },
        ],
      }),
      201,
    );
    await ok(
      ws.api.patch('variants', {
        updates: [
          { developerId: 'a', newDeveloperId: 'b', name: 'B' },
          { developerId: 'b', newDeveloperId: 'a', name: 'A' },
        ],
      }),
    );
    const renames = (await history(ws, 'kind=variant')).filter((c) => c.action === 'renamed');
    expect(renames.map((c) => c.fields)).toEqual([
      { developerId: { before: 'b', after: 'a' }, name: { before: 'B', after: 'A' } },
      { developerId: { before: 'a', after: 'b' }, name: { before: 'A', after: 'B' } },
    ]);
    // Both records have been called `a`, so the history of `a` holds both of them.
    const ofA = await history(ws, 'kind=variant&id=a');
    expect(ofA.map((c) => [c.action, c.developerId])).toEqual([
      ['renamed', 'a'],
      ['renamed', 'b'],
      ['created', 'b'],
      ['created', 'a'],
    ]);
  });

  it('records the removed value of every component and text item when a variant goes', async () => {
    const ws = await createWorkspace(ctx);
    const keyId = await keyIdOf(ws);
    await ok(
      ws.api.post('variants', {
        variants: [
          { name: 'French', developerId: 'fr' },
          { name: 'German', developerId: 'de' },
        ],
      }),
      201,
    );
    await ok(
      ws.api.post('components', {
        components: [
          {
            developerId: 'c',
            text: 'C',
            variants: [
              { variantId: 'fr', text: 'C fr' },
              { variantId: 'de', text: 'C de' },
            ],
          },
          { developerId: 'plain', text: 'Plain' },
        ],
      }),
      201,
    );
    await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }), 201);
    await ok(
      ws.api.post('textItems', {
        projectId: 'web',
        textItems: [{ developerId: 't', text: 'T', variants: [{ variantId: 'fr', text: 'T fr', status: 'WIP' }] }],
      }),
      201,
    );
    await ok(ws.api.delete('variants', { developerIds: ['fr'] }));

    const [variant] = await history(ws, 'kind=variant&id=fr');
    const write = { actor: ws.email, keyId, at: variant.at, action: 'deleted', variantId: 'fr' };
    const ofC = (await history(ws, 'kind=component&id=c')).filter((c) => c.at === variant.at);
    expect(ofC).toEqual([expect.objectContaining({ ...write, kind: 'component', developerId: 'c' })]);
    expect(ofC[0].fields).toMatchObject({
      text: { before: 'C fr', after: null },
      status: { before: 'NONE', after: null },
    });
    const ofT = (await history(ws, 'kind=textItem&id=t')).filter((c) => c.at === variant.at);
    expect(ofT).toEqual([expect.objectContaining({ ...write, kind: 'textItem', developerId: 't' })]);
    expect(ofT[0].fields).toMatchObject({
      text: { before: 'T fr', after: null },
      status: { before: 'WIP', after: null },
    });
    expect((await history(ws, 'kind=component&id=plain')).filter((c) => c.at === variant.at)).toEqual([]);
    // The other variant's values are untouched, and the deleted one keeps its history.
    expect((await history(ws, 'id=de')).map((c) => c.action)).toEqual(['created']);
    expect((await history(ws, 'kind=variant&id=fr')).map((c) => c.action)).toEqual(['deleted', 'created']);
  });

  it('lets forceVariantCreation record the variant it creates', async () => {
    const ws = await createWorkspace(ctx);
    const scope = { workspaceId: ws.id, actor: CLI_ACTOR };
    const { variants, writes } = ctx.services;
    await writes.write(scope, async (trx) => {
      const made = await variants.ensureVariant(trx, ws.id, 'pt-BR');
      const again = await variants.ensureVariant(trx, ws.id, 'pt-BR');
      expect(again.change).toBeNull();
      expect(again.variant.id).toBe(made.variant.id);
      return { changes: made.change ? [made.change] : [], result: undefined };
    });
    expect(await history(ws, 'kind=variant&id=pt-BR')).toEqual([
      expect.objectContaining({
        actor: 'cli',
        keyId: null,
        action: 'created',
        fields: {
          developerId: { before: null, after: 'pt-BR' },
          name: { before: null, after: 'pt-BR' },
          description: { before: null, after: '' },
          localeCode: { before: null, after: null },
        },
      }),
    ]);
  });

  it('records nothing for a rejected batch, and other workspaces never see the changes', async () => {
    const ws = await createWorkspace(ctx);
    await ok(ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] }), 201);
    const before = await history(ws, 'limit=1000');
    const rejected = [
      await ws.api.post('variants', { variants: [{ name: 'German', developerId: 'de' }, { name: 'French' }] }),
      await ws.api.patch('variants', {
        updates: [
          { developerId: 'fr', name: 'Français' },
          { developerId: 'zz', name: 'Z' },
        ],
      }),
      await ws.api.delete('variants', { developerIds: ['fr', 'zz'] }),
      await ws.api.delete('variants', { developerIds: ['fr', 'fr'] }),
    ];
    expect(rejected.map((res) => [res.status, res.body.message])).toEqual([
      [409, 'Variant with name French already exists in workspace'],
      [404, 'Variants not found: zz'],
      [404, 'Variants not found: zz'],
      [400, "developerIds[1]: duplicate developer ID 'fr'"],
    ]);
    expect(await history(ws, 'limit=1000')).toEqual(before);
    expect(await ok(ws.api.get('variants'))).toEqual([{ id: 'fr', name: 'French', description: '', localeCode: null }]);

    const other = await createWorkspace(ctx);
    expect(await history(other, 'kind=variant')).toEqual([]);
    expect(await history(other, 'id=fr')).toEqual([]);
  });
});
