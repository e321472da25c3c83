import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { countRows, insertComponent, insertItem, rowIdOf, textsOf } from './fixtures.js';

const ctx = await setupApp();

/** Two bases, two projects with blocks, items everywhere, a component and a variant value on each item. */
async function populate(ws: Workspace) {
  await ws.api.post('bases', { bases: [{ name: 'Core', developerId: 'core' }] });
  await ws.api.post('projects', {
    projects: [
      { name: 'Web', developerId: 'web', baseId: 'core' },
      { name: 'App', developerId: 'app', baseId: 'core' },
    ],
  });
  await ws.api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'Header' }, { name: 'Footer' }] });
  await ws.api.post('projectBlocks', { projectId: 'app', blocks: [{ name: 'Header' }] });
  await ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] });
  await insertItem(ctx, ws, { developerId: 'core.title', container: 'core' });
  await insertItem(ctx, ws, { developerId: 'web.title', container: 'web', block: 'header', derivesFrom: 'core.title' });
  await insertItem(ctx, ws, { developerId: 'web.footer', container: 'web', block: 'footer' });
  await insertItem(ctx, ws, { developerId: 'web.loose', container: 'web' });
  await insertItem(ctx, ws, { developerId: 'app.title', container: 'app', block: 'header', derivesFrom: 'core.title' });
  await insertComponent(ctx, ws, 'lib.ok');
  const [variant] = (await ctx.services.variants.resolveVariants(ctx.database.db, ws.id, ['fr'])).values();
  for (const id of ['core.title', 'web.title', 'web.footer', 'web.loose', 'app.title']) {
    await ctx.database.db
      .insertInto('text_variants')
      .values({ text_id: await rowIdOf(ctx, ws, id), variant_id: variant?.id as number, text: 'fr', status: 'NONE' })
      .execute();
  }
}

describe('DELETE /v2/projects: what goes with a project', () => {
  it('removes its blocks, items and their variant values, and nothing else', async () => {
    const ws = await createWorkspace(ctx);
    const other = await createWorkspace(ctx);
    await populate(ws);
    await populate(other);
    const before = await textsOf(ctx, ws);

    expect((await ws.api.delete('projects', { developerIds: ['web'] })).status).toBe(200);

    expect(await textsOf(ctx, ws)).toEqual(before.filter((t) => t.container !== 'web'));
    expect((await ws.api.get('projectBlocks?projectId=app')).body).toEqual([{ id: 'header', name: 'Header' }]);
    expect(await countRows(ctx, 'blocks', ws.id)).toBe(1);
    // core.title and app.title keep theirs; the three web items' values are gone.
    expect(await countRows(ctx, 'text_variants', ws.id)).toBe(2);
    expect((await ws.api.get('bases')).body).toEqual([{ id: 'core', name: 'Core' }]);
    expect((await ws.api.get('variants')).body.map((v: { id: string }) => v.id)).toEqual(['fr']);

    // The other workspace, with the same developer IDs, is untouched.
    expect(await textsOf(ctx, other)).toHaveLength(6);
    expect(await countRows(ctx, 'blocks', other.id)).toBe(3);
    expect(await countRows(ctx, 'text_variants', other.id)).toBe(5);
  });

  it('gives the same result through the foreign keys alone (a project row deleted directly)', async () => {
    const ws = await createWorkspace(ctx);
    await populate(ws);
    const before = await textsOf(ctx, ws);
    const web = await ctx.services.projects.resolveProject(ctx.database.db, ws.id, 'web');
    await ctx.database.db
      .deleteFrom('projects')
      .where('id', '=', web?.id as number)
      .execute();
    expect(await textsOf(ctx, ws)).toEqual(before.filter((t) => t.container !== 'web'));
    expect(await countRows(ctx, 'blocks', ws.id)).toBe(1);
    expect(await countRows(ctx, 'text_variants', ws.id)).toBe(2);
  });

  it('deletes several projects at once; their block ids are free again', async () => {
    const ws = await createWorkspace(ctx);
    await populate(ws);
    expect((await ws.api.delete('projects', { developerIds: ['web', 'app'] })).status).toBe(200);
    expect((await textsOf(ctx, ws)).map((t) => t.id)).toEqual(['core.title', 'lib.ok']);
    expect(await countRows(ctx, 'blocks', ws.id)).toBe(0);
    expect(await countRows(ctx, 'projects', ws.id)).toBe(1);
    await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    const blocks = await ws.api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'Header' }] });
    expect(blocks.body).toEqual({ developerIds: ['header'] });
  });

  it('changing a project base drops derivations from the old base only', async () => {
    const ws = await createWorkspace(ctx);
    await populate(ws);
    await ws.api.post('bases', { bases: [{ name: 'Next', developerId: 'next' }] });
    await insertItem(ctx, ws, { developerId: 'next.title', container: 'next' });
    await insertItem(ctx, ws, { developerId: 'app.next', container: 'app', derivesFrom: 'next.title' });
    // Re-sending the same base keeps every link.
    await ws.api.patch('projects', { updates: [{ developerId: 'web', baseId: 'core' }] });
    expect((await textsOf(ctx, ws)).find((t) => t.id === 'web.title')?.derivesFrom).toBe('core.title');
    await ws.api.patch('projects', {
      updates: [
        { developerId: 'web', baseId: null },
        { developerId: 'app', baseId: 'next' },
      ],
    });
    const derived = Object.fromEntries((await textsOf(ctx, ws)).map((t) => [t.id, t.derivesFrom]));
    expect(derived).toMatchObject({ 'web.title': null, 'app.title': null, 'app.next': 'next.title' });
  });
});
