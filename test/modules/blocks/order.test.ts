import { describe, expect, it } from 'vitest';
import { now } from '../../../src/db/transaction.js';
import { compareProjectOrder, projectOrderKey } from '../../../src/modules/blocks/blocks.service.js';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { insertItem } from '../projects/fixtures.js';

const ctx = await setupApp();

/** Web: blocks header, body, footer; items h1, h2 (header), b1 (body), loose1, loose2 (no block). */
async function setup() {
  const ws = await createWorkspace(ctx);
  await ws.api.post('bases', { bases: [{ name: 'Core', developerId: 'core' }] });
  await ws.api.post('projects', {
    projects: [
      { name: 'Web', developerId: 'web' },
      { name: 'App', developerId: 'app' },
    ],
  });
  await ws.api.post('projectBlocks', {
    projectId: 'web',
    blocks: [{ name: 'Header' }, { name: 'Body' }, { name: 'Footer' }],
  });
  await ws.api.post('projectBlocks', { projectId: 'app', blocks: [{ name: 'Elsewhere' }] });
  const items: [string, string | undefined][] = [
    ['loose1', undefined],
    ['h1', 'header'],
    ['b1', 'body'],
    ['h2', 'header'],
    ['loose2', undefined],
  ];
  for (const [developerId, block] of items) {
    await insertItem(ctx, ws, { developerId, container: 'web', ...(block ? { block } : {}) });
  }
  await insertItem(ctx, ws, { developerId: 'app.item', container: 'app' });
  await insertItem(ctx, ws, { developerId: 'core.item', container: 'core' });
  return ws;
}

/** The project's items sorted the way sort=project_order will, with the exported comparator. */
async function projectOrder(ws: Workspace, projectId = 'web'): Promise<string[]> {
  const db = ctx.database.db;
  const project = await ctx.services.projects.resolveProject(db, ws.id, projectId);
  const rows = await db
    .selectFrom('texts')
    .selectAll()
    .where('workspace_id', '=', ws.id)
    .where('project_id', '=', project?.id as number)
    .execute();
  const blocks = await ctx.services.blocks.loadBlocks(db, ws.id, [project?.id as number]);
  return rows.sort(compareProjectOrder(blocks)).map((r) => r.developer_id);
}

const blockIds = async (ws: Workspace, projectId = 'web') =>
  (await ws.api.get(`projectBlocks?projectId=${projectId}`)).body.map((b: { id: string }) => b.id);

describe('PUT /v2/projectOrder', () => {
  it('starts in block order, then creation order within blocks, items outside blocks last', async () => {
    const ws = await setup();
    expect(await projectOrder(ws)).toEqual(['h1', 'h2', 'b1', 'loose1', 'loose2']);
  });

  it('puts the listed blocks and items first, the others after in their previous order', async () => {
    const ws = await setup();
    const res = await ws.api.put('projectOrder', {
      projectId: 'web',
      blockIds: ['footer', 'body'],
      textItemIds: ['loose2', 'h2'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await blockIds(ws)).toEqual(['footer', 'body', 'header']);
    expect(await projectOrder(ws)).toEqual(['b1', 'h2', 'h1', 'loose2', 'loose1']);

    // Without blockIds the block order stays; an empty textItemIds list keeps the items' order.
    await ws.api.put('projectOrder', { projectId: 'web', textItemIds: [] });
    expect(await blockIds(ws)).toEqual(['footer', 'body', 'header']);
    expect(await projectOrder(ws)).toEqual(['b1', 'h2', 'h1', 'loose2', 'loose1']);

    // New blocks go to the end of the current order; other projects are untouched.
    await ws.api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'Late' }] });
    expect(await blockIds(ws)).toEqual(['footer', 'body', 'header', 'late']);
    expect(await blockIds(ws, 'app')).toEqual(['elsewhere']);
  });

  it('keys items by block rank, item position and row id', () => {
    const blocks = new Map([[7, { id: 7, projectId: 1, developerId: 'b', name: 'B', rank: 0 }]]);
    expect(projectOrderKey({ id: 3, block_id: 7, position: 2 }, blocks)).toEqual([0, 2, 3]);
    expect(projectOrderKey({ id: 4, block_id: null, position: 0 }, blocks)).toEqual([Number.MAX_SAFE_INTEGER, 0, 4]);
  });

  it('gives new items a position after every existing one', async () => {
    const ws = await setup();
    const db = ctx.database.db;
    const web = await ctx.services.projects.resolveProject(db, ws.id, 'web');
    const empty = await ctx.services.projects.resolveProject(db, ws.id, 'app');
    await ws.api.put('projectOrder', { projectId: 'web', textItemIds: ['b1', 'h1', 'h2', 'loose1', 'loose2'] });
    expect(await ctx.services.blocks.nextItemPosition(db, ws.id, web?.id as number)).toBe(5);
    await ws.api.delete('projects', { developerIds: ['app'] });
    expect(await ctx.services.blocks.nextItemPosition(db, ws.id, empty?.id as number)).toBe(0);
  });

  it('answers 400 naming an unknown, foreign or repeated id, and changes nothing', async () => {
    const ws = await setup();
    const cases: [unknown, string][] = [
      [{ projectId: 'web', blockIds: ['header', 'ghost'], textItemIds: [] }, 'blockIds[1]: Block id not found: ghost'],
      [{ projectId: 'web', blockIds: ['elsewhere'], textItemIds: [] }, 'blockIds[0]: Block id not found: elsewhere'],
      [{ projectId: 'web', blockIds: ['body', 'body'], textItemIds: [] }, "blockIds[1]: duplicate developer ID 'body'"],
      [
        { projectId: 'web', blockIds: ['footer'], textItemIds: ['h2', 'app.item'] },
        'textItemIds[1]: Text item with developer ID app.item not found in project web',
      ],
      [
        { projectId: 'web', textItemIds: ['h2', 'h1', 'core.item'] },
        'textItemIds[2]: Text item with developer ID core.item not found in project web',
      ],
      [{ projectId: 'web', textItemIds: ['h1', 'h1'] }, "textItemIds[1]: duplicate developer ID 'h1'"],
      [{ projectId: 'ghost', textItemIds: [] }, 'projectId: Project with developer ID ghost not found'],
      [{ projectId: 'core', textItemIds: [] }, 'projectId: Project with developer ID core not found'],
      [{ projectId: 'web' }, 'textItemIds is required'],
      [{ projectId: 'web', textItemIds: [], sort: 'x' }, 'sort is not a known field'],
    ];
    for (const [body, message] of cases) {
      const res = await ws.api.put('projectOrder', body);
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await blockIds(ws)).toEqual(['header', 'body', 'footer']);
    expect(await projectOrder(ws)).toEqual(['h1', 'h2', 'b1', 'loose1', 'loose2']);
  });

  it('orders a thousand items in one request', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('projects', { projects: [{ name: 'Big', developerId: 'big' }] });
    const project = await ctx.services.projects.resolveProject(ctx.database.db, ws.id, 'big');
    const at = now();
    const ids = Array.from({ length: 1000 }, (_, i) => `item-${String(i).padStart(4, '0')}`);
    await ctx.database.db
      .insertInto('texts')
      .values(
        ids.map((developer_id) => ({
          workspace_id: ws.id,
          kind: 'text_item' as const,
          developer_id,
          project_id: project?.id as number,
          text: developer_id,
          status: 'NONE',
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    const reversed = [...ids].reverse();
    const res = await ws.api.put('projectOrder', { projectId: 'big', textItemIds: reversed });
    expect(res.status).toBe(200);
    expect(await projectOrder(ws, 'big')).toEqual(reversed);
    const tooMany = await ws.api.put('projectOrder', { projectId: 'big', textItemIds: [...ids, 'one-more'] });
    expect(tooMany.body.message).toBe('textItemIds must NOT have more than 1000 items');
  });
});
