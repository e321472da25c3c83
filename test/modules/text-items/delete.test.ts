import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { countTexts, createItems, failure, keys, list, post, world } from './helpers.js';

const ctx = await setupApp();
const everything = { projects: [{ id: 'web' }, { id: 'app' }], bases: [{ id: 'core' }], variants: [{ id: 'all' }] };

/** `world` plus web items (one derived from core-a, in a block, with a fr value), an app item and a component. */
async function populated(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await world(ws);
  await createItems(ws, { projectId: 'web' }, [
    {
      developerId: 'w1',
      text: 'One',
      baseTextItemId: 'core-a',
      blockId: 'header',
      variants: [{ variantId: 'fr', text: 'Un' }],
    },
    { developerId: 'w2', text: 'Two', baseTextItemId: 'core-b' },
  ]);
  await createItems(ws, { projectId: 'app' }, [{ developerId: 'a1', text: 'App' }]);
  await post(ws, 'components', { components: [{ developerId: 'c1', text: 'Component' }] });
  return ws;
}

async function remove(ws: Workspace, developerIds: string[]) {
  const res = await ws.api.delete('textItems', { developerIds });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ success: true });
}

describe('DELETE /v2/textItems', () => {
  it('deletes items of several projects with their variant values', async () => {
    const ws = await populated();
    await remove(ws, ['w1', 'a1']);
    expect(keys(await list(ws, everything))).toEqual(['core-a', 'core-a@fr', 'core-b', 'w2']);
    await createItems(ws, { projectId: 'web' }, [{ developerId: 'w1', text: 'Again' }]);
    expect(keys(await list(ws, { projects: [{ id: 'web' }], variants: [{ id: 'all' }] }))).toEqual(['w1', 'w2']);
  });

  it('items deriving from a deleted base item keep their text and lose baseTextItemId', async () => {
    const ws = await populated();
    await remove(ws, ['core-a']);
    const records = await list(ws, everything);
    expect(records.find((r) => r.id === 'w1')).toMatchObject({ text: 'One', baseTextItemId: null });
    expect(records.find((r) => r.id === 'w2')).toMatchObject({ baseTextItemId: 'core-b' });
  });

  it('an unknown id is a 404 and a repeated one a 400; nothing is deleted', async () => {
    const ws = await populated();
    expect(await failure(ws, 'delete', 'textItems', { developerIds: ['w1', 'ghost'] }, 404)).toBe(
      'Text item with developer ID ghost not found',
    );
    expect(await failure(ws, 'delete', 'textItems', { developerIds: ['w1', 'w1'] })).toBe(
      "developerIds[1]: duplicate developer ID 'w1'",
    );
    expect(await failure(ws, 'delete', 'textItems', { developerIds: [] })).toMatch(/developerIds/);
    expect(await failure(ws, 'delete', 'textItems', { developerIds: ['c1'] }, 404)).toBe(
      'Text item with developer ID c1 not found',
    );
    expect(await countTexts(ctx, ws, 'text_item')).toBe(5);
  });

  it('cannot delete another workspace’s items', async () => {
    const ws = await populated();
    const other = await createWorkspace(ctx);
    expect(await failure(other, 'delete', 'textItems', { developerIds: ['w1'] }, 404)).toBe(
      'Text item with developer ID w1 not found',
    );
    expect(await countTexts(ctx, ws, 'text_item')).toBe(5);
  });
});

describe('deleting containers', () => {
  it('deleting a project removes its items and blocks and nothing else', async () => {
    const ws = await populated();
    const other = await populated();
    expect((await ws.api.delete('projects', { developerIds: ['web'] })).status).toBe(200);
    expect(
      keys(await list(ws, { projects: [{ id: 'app' }], bases: [{ id: 'core' }], variants: [{ id: 'all' }] })),
    ).toEqual(['a1', 'core-a', 'core-a@fr', 'core-b']);
    expect((await ws.api.get('projectBlocks?projectId=web')).status).toBe(400);
    const blocks = await ctx.database.db.selectFrom('blocks').select('id').where('workspace_id', '=', ws.id).execute();
    expect(blocks).toEqual([]);
    expect((await ws.api.get('components')).body.map((c: any) => c.id)).toEqual(['c1']);
    expect((await ws.api.get('projects')).body.map((p: any) => p.id)).toEqual(['app']);
    expect((await list(other, everything)).length).toBe(7);
    expect((await other.api.get('projectBlocks?projectId=web')).body.map((b: any) => b.id)).toEqual([
      'header',
      'footer',
    ]);
  });

  it('deleting a base removes its items; derived items lose the link and their project its base', async () => {
    const ws = await populated();
    expect((await ws.api.delete('bases', { developerIds: ['core'] })).status).toBe(200);
    const records = await list(ws);
    expect(keys(records)).toEqual(['a1', 'w1', 'w2']);
    expect(records.map((r) => [r.baseId, r.baseTextItemId])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
  });
});
