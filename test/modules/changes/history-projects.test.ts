import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { insertItem, rowIdOf } from '../projects/fixtures.js';
import { type Change, changesOf, history } from './helpers.js';

const ctx = await setupApp();

/** The one change of `kind`/`developerId` (and variant) in `changes`; fails when there is not exactly one. */
function only(changes: Change[], kind: string, developerId: string, variantId: string | null = null): Change {
  const found = changes.filter((c) => c.kind === kind && c.developerId === developerId && c.variantId === variantId);
  expect(found, `${kind} ${developerId} ${variantId ?? ''}`).toHaveLength(1);
  return found[0] as Change;
}

/** A base with an item, a project connected to it with blocks and items (one derived), a French value on each. */
async function populate(ws: Workspace) {
  await ws.api.post('bases', { bases: [{ name: 'Core', developerId: 'core' }] });
  await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web', baseId: 'core' }] });
  await ws.api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'Header' }] });
  await ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] });
  await insertItem(ctx, ws, { developerId: 'core.title', container: 'core' });
  await insertItem(ctx, ws, { developerId: 'web.title', container: 'web', block: 'header', derivesFrom: 'core.title' });
  await insertItem(ctx, ws, { developerId: 'web.loose', container: 'web' });
  const [variant] = (await ctx.services.variants.resolveVariants(ctx.database.db, ws.id, ['fr'])).values();
  for (const id of ['core.title', 'web.title', 'web.loose']) {
    await ctx.database.db
      .insertInto('text_variants')
      .values({ text_id: await rowIdOf(ctx, ws, id), variant_id: variant?.id as number, text: 'fr', status: 'NONE' })
      .execute();
  }
}

describe('history of projects', () => {
  it('records create, update and delete with actor, key, action and fields', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('bases', { bases: [{ name: 'Core', developerId: 'core' }] });
    expect(
      (await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web', baseId: 'core' }] })).status,
    ).toBe(201);
    expect(
      (await ws.api.patch('projects', { updates: [{ developerId: 'web', name: 'Website', developerMode: true }] }))
        .status,
    ).toBe(200);
    expect((await ws.api.delete('projects', { developerIds: ['web'] })).status).toBe(200);

    const [deleted, updated, created, ...rest] = await history(ws, '?kind=project&id=web');
    expect(rest).toEqual([]);
    expect(created).toMatchObject({
      actor: ws.email,
      kind: 'project',
      developerId: 'web',
      variantId: null,
      action: 'created',
      fields: {
        name: { before: null, after: 'Web' },
        baseId: { before: null, after: 'core' },
        developerMode: { before: null, after: false },
      },
    });
    expect(created?.keyId).toEqual(expect.any(String));
    expect(updated).toMatchObject({
      actor: ws.email,
      action: 'updated',
      fields: { name: { before: 'Web', after: 'Website' }, developerMode: { before: false, after: true } },
    });
    expect(Object.keys(updated?.fields ?? {}).sort()).toEqual(['developerMode', 'name']);
    expect(deleted).toMatchObject({
      action: 'deleted',
      fields: {
        name: { before: 'Website', after: null },
        baseId: { before: 'core', after: null },
        developerMode: { before: true, after: null },
      },
    });
  });

  it('records an update that changes nothing as nothing', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    await ws.api.patch('projects', { updates: [{ developerId: 'web', name: 'Web', baseId: null }] });
    expect((await history(ws, '?kind=project')).map((c) => c.action)).toEqual(['created']);
  });

  it('records bases as kind base', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('bases', { bases: [{ name: 'Core strings' }] });
    await ws.api.delete('bases', { developerIds: ['core-strings'] });
    const changes = await history(ws, '?kind=base');
    expect(changes).toMatchObject([
      { kind: 'base', developerId: 'core-strings', action: 'deleted', fields: { name: { before: 'Core strings' } } },
      { kind: 'base', developerId: 'core-strings', action: 'created', fields: { name: { after: 'Core strings' } } },
    ]);
    expect(await history(ws, '?kind=project')).toEqual([]);
  });

  it('records a change of base and the derivations it drops', async () => {
    const ws = await createWorkspace(ctx);
    await populate(ws);
    await ws.api.post('bases', { bases: [{ name: 'Other', developerId: 'other' }] });
    const changes = await changesOf(ws, () =>
      ws.api.patch('projects', { updates: [{ developerId: 'web', baseId: 'other' }] }),
    );
    expect(changes).toHaveLength(2);
    expect(only(changes, 'project', 'web')).toMatchObject({
      action: 'updated',
      fields: { baseId: { before: 'core', after: 'other' } },
    });
    expect(only(changes, 'textItem', 'web.title')).toMatchObject({
      actor: ws.email,
      action: 'updated',
      fields: { baseTextItemId: { before: 'core.title', after: null } },
    });
  });

  it('records every record a project delete removes: items, their variant values, blocks', async () => {
    const ws = await createWorkspace(ctx);
    await populate(ws);
    const changes = await changesOf(ws, () => ws.api.delete('projects', { developerIds: ['web'] }));
    expect(changes.every((c) => c.action === 'deleted' && c.actor === ws.email)).toBe(true);
    expect(only(changes, 'project', 'web').fields.baseId).toEqual({ before: 'core', after: null });
    expect(only(changes, 'block', 'header').fields).toEqual({
      projectId: { before: 'web', after: null },
      name: { before: 'Header', after: null },
    });
    expect(only(changes, 'textItem', 'web.title').fields).toMatchObject({
      projectId: { before: 'web', after: null },
      blockId: { before: 'header', after: null },
      baseTextItemId: { before: 'core.title', after: null },
    });
    expect(only(changes, 'textItem', 'web.title', 'fr').fields.text).toEqual({ before: 'fr', after: null });
    only(changes, 'textItem', 'web.loose');
    only(changes, 'textItem', 'web.loose', 'fr');
    expect(changes).toHaveLength(6);
    // Nothing of the base changed.
    expect(changes.some((c) => c.developerId.startsWith('core'))).toBe(false);
  });

  it('records what a base delete removes and what it detaches', async () => {
    const ws = await createWorkspace(ctx);
    await populate(ws);
    const changes = await changesOf(ws, () => ws.api.delete('bases', { developerIds: ['core'] }));
    expect(only(changes, 'base', 'core')).toMatchObject({ action: 'deleted', fields: { name: { before: 'Core' } } });
    expect(only(changes, 'textItem', 'core.title')).toMatchObject({
      action: 'deleted',
      fields: { projectId: { before: 'core', after: null } },
    });
    only(changes, 'textItem', 'core.title', 'fr');
    expect(only(changes, 'project', 'web')).toMatchObject({
      action: 'updated',
      fields: { baseId: { before: 'core', after: null } },
    });
    expect(Object.keys(only(changes, 'project', 'web').fields)).toEqual(['baseId']);
    expect(only(changes, 'textItem', 'web.title')).toMatchObject({
      action: 'updated',
      fields: { baseTextItemId: { before: 'core.title', after: null } },
    });
    expect(changes).toHaveLength(5);
    expect((await ws.api.get('projects')).body).toEqual([
      { id: 'web', name: 'Web', baseId: null, developerMode: false },
    ]);
  });

  it('keeps the history of a deleted project, and a new project of the same id continues it', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    await ws.api.delete('projects', { developerIds: ['web'] });
    expect((await history(ws, '?id=web')).map((c) => c.action)).toEqual(['deleted', 'created']);
    await ws.api.post('projects', { projects: [{ name: 'Web again', developerId: 'web' }] });
    const changes = await history(ws, '?kind=project&id=web');
    expect(changes.map((c) => [c.action, c.fields.name])).toEqual([
      ['created', { before: null, after: 'Web again' }],
      ['deleted', { before: 'Web', after: null }],
      ['created', { before: null, after: 'Web' }],
    ]);
  });

  it('records nothing for a rejected batch', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    const before = await history(ws);
    const rejected = [
      await ws.api.post('projects', { projects: [{ name: 'A' }, { name: 'B', baseId: 'ghost' }] }),
      await ws.api.post('projects', { projects: [{ name: 'A' }, { name: 'B', developerId: 'web' }] }),
      await ws.api.post('bases', { bases: [{ name: 'A' }, { name: 'B', developerId: 'web' }] }),
      await ws.api.patch('projects', {
        updates: [
          { developerId: 'web', name: 'X' },
          { developerId: 'ghost', name: 'Y' },
        ],
      }),
      await ws.api.patch('projects', {
        updates: [
          { developerId: 'web', name: 'X' },
          { developerId: 'web', name: 'Y' },
        ],
      }),
      await ws.api.delete('projects', { developerIds: ['web', 'ghost'] }),
      await ws.api.delete('bases', { developerIds: ['web'] }),
    ];
    expect(rejected.map((r) => r.status)).toEqual([400, 409, 409, 404, 400, 404, 404]);
    expect(await history(ws)).toEqual(before);
    expect((await ws.api.get('projects')).body).toEqual([
      { id: 'web', name: 'Web', baseId: null, developerMode: false },
    ]);
  });

  it("never shows a workspace's changes to another workspace's key", async () => {
    const ws = await createWorkspace(ctx);
    const other = await createWorkspace(ctx);
    const seen = await history(other);
    await populate(ws);
    await ws.api.delete('projects', { developerIds: ['web'] });
    expect(await history(other)).toEqual(seen);
    expect(await history(other, '?id=web')).toEqual([]);
    expect((await history(ws, '?id=web')).length).toBeGreaterThan(0);
  });
});
