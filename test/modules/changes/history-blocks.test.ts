import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { insertItem } from '../projects/fixtures.js';
import { changesOf, history } from './helpers.js';

const ctx = await setupApp();

async function withProjects(ws: Workspace) {
  await ws.api.post('projects', {
    projects: [
      { name: 'Web', developerId: 'web' },
      { name: 'App', developerId: 'app' },
    ],
  });
}

describe('history of blocks', () => {
  it('records create, rename and delete with actor, key, action and fields', async () => {
    const ws = await createWorkspace(ctx);
    await withProjects(ws);
    const created = await changesOf(ws, () =>
      ws.api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'Header' }, { name: 'Footer' }] }),
    );
    expect(created).toHaveLength(2);
    expect(created.find((c) => c.developerId === 'header')).toMatchObject({
      actor: ws.email,
      kind: 'block',
      variantId: null,
      action: 'created',
      fields: { projectId: { before: null, after: 'web' }, name: { before: null, after: 'Header' } },
    });
    expect(created[0]?.keyId).toEqual(expect.any(String));

    const renamed = await changesOf(ws, () =>
      ws.api.patch('projectBlocks', {
        projectId: 'web',
        updates: [
          { developerId: 'header', name: 'Top' },
          { developerId: 'footer', name: 'Footer' },
        ],
      }),
    );
    expect(renamed).toMatchObject([
      { kind: 'block', developerId: 'header', action: 'updated', fields: { name: { before: 'Header', after: 'Top' } } },
    ]);
    expect(Object.keys(renamed[0]?.fields ?? {})).toEqual(['name']);

    await ws.api.delete('projectBlocks', { projectId: 'web', developerIds: ['header'] });
    expect((await history(ws, '?kind=block&id=header')).map((c) => [c.action, c.fields])).toEqual([
      ['deleted', { projectId: { before: 'web', after: null }, name: { before: 'Top', after: null } }],
      ['updated', { name: { before: 'Header', after: 'Top' } }],
      ['created', { projectId: { before: null, after: 'web' }, name: { before: null, after: 'Header' } }],
    ]);
  });

  it('names the project of blocks that share a developer ID', async () => {
    const ws = await createWorkspace(ctx);
    await withProjects(ws);
    await ws.api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'Header' }] });
    await ws.api.post('projectBlocks', { projectId: 'app', blocks: [{ name: 'Header' }] });
    const changes = await history(ws, '?kind=block&id=header');
    expect(changes.map((c) => c.fields.projectId?.after)).toEqual(['app', 'web']);
  });

  it('records the text items a block delete moves out of it', async () => {
    const ws = await createWorkspace(ctx);
    await withProjects(ws);
    await ws.api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'Header' }, { name: 'Footer' }] });
    await insertItem(ctx, ws, { developerId: 'web.title', container: 'web', block: 'header' });
    await insertItem(ctx, ws, { developerId: 'web.footer', container: 'web', block: 'footer' });

    const changes = await changesOf(ws, () =>
      ws.api.delete('projectBlocks', { projectId: 'web', developerIds: ['header'] }),
    );
    expect(changes).toHaveLength(2);
    expect(changes.find((c) => c.kind === 'textItem')).toEqual(
      expect.objectContaining({
        actor: ws.email,
        developerId: 'web.title',
        variantId: null,
        action: 'moved',
        fields: { blockId: { before: 'header', after: null } },
      }),
    );
    expect(changes.find((c) => c.kind === 'block')).toMatchObject({ developerId: 'header', action: 'deleted' });
  });

  it('records nothing for a rejected batch', async () => {
    const ws = await createWorkspace(ctx);
    await withProjects(ws);
    await ws.api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'Header' }] });
    await insertItem(ctx, ws, { developerId: 'web.title', container: 'web', block: 'header' });
    const before = await history(ws);
    const rejected = [
      await ws.api.post('projectBlocks', {
        projectId: 'web',
        blocks: [{ name: 'A' }, { name: 'B', developerId: 'header' }],
      }),
      await ws.api.post('projectBlocks', { projectId: 'ghost', blocks: [{ name: 'A' }] }),
      await ws.api.patch('projectBlocks', {
        projectId: 'web',
        updates: [
          { developerId: 'header', name: 'X' },
          { developerId: 'ghost', name: 'Y' },
        ],
      }),
      await ws.api.delete('projectBlocks', { projectId: 'web', developerIds: ['header', 'ghost'] }),
      await ws.api.delete('projectBlocks', { projectId: 'web', developerIds: ['header', 'header'] }),
      await ws.api.put('projectOrder', { projectId: 'web', blockIds: ['header', 'ghost'], textItemIds: [] }),
      await ws.api.put('projectOrder', { projectId: 'web', textItemIds: ['web.title', 'web.title'] }),
    ];
    expect(rejected.map((r) => r.status)).toEqual([409, 400, 404, 404, 400, 400, 400]);
    expect(await history(ws)).toEqual(before);
  });

  it("never shows a workspace's changes to another workspace's key", async () => {
    const ws = await createWorkspace(ctx);
    const other = await createWorkspace(ctx);
    const seen = await history(other);
    await withProjects(ws);
    await ws.api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'Header' }] });
    await ws.api.put('projectOrder', { projectId: 'web', blockIds: ['header'], textItemIds: [] });
    await ws.api.delete('projectBlocks', { projectId: 'web', developerIds: ['header'] });
    expect(await history(other, '?kind=block')).toEqual([]);
    expect(await history(other)).toEqual(seen);
    expect(await history(ws, '?kind=block&id=header')).toHaveLength(2);
  });
});

describe('history of the project order', () => {
  async function ordered(ws: Workspace) {
    await withProjects(ws);
    await ws.api.post('projectBlocks', {
      projectId: 'web',
      blocks: [{ name: 'Header' }, { name: 'Body' }, { name: 'Footer' }],
    });
    await insertItem(ctx, ws, { developerId: 'h1', container: 'web', block: 'header', position: 0 });
    await insertItem(ctx, ws, { developerId: 'h2', container: 'web', block: 'header', position: 1 });
    await insertItem(ctx, ws, { developerId: 'loose', container: 'web', position: 2 });
  }

  it('records the block order and text item order before and after as an update of the project', async () => {
    const ws = await createWorkspace(ctx);
    await ordered(ws);
    const changes = await changesOf(ws, () =>
      ws.api.put('projectOrder', { projectId: 'web', blockIds: ['footer'], textItemIds: ['loose', 'h2'] }),
    );
    expect(changes).toEqual([
      expect.objectContaining({
        actor: ws.email,
        keyId: expect.any(String),
        kind: 'project',
        developerId: 'web',
        variantId: null,
        action: 'updated',
        fields: {
          blockOrder: { before: ['header', 'body', 'footer'], after: ['footer', 'header', 'body'] },
          textItemOrder: { before: ['h1', 'h2', 'loose'], after: ['loose', 'h2', 'h1'] },
        },
      }),
    ]);
  });

  it('lists only the order that changed, and nothing when neither did', async () => {
    const ws = await createWorkspace(ctx);
    await ordered(ws);
    const blocksOnly = await changesOf(ws, () =>
      ws.api.put('projectOrder', { projectId: 'web', blockIds: ['body'], textItemIds: ['h1'] }),
    );
    expect(blocksOnly).toHaveLength(1);
    expect(blocksOnly[0]?.fields).toEqual({
      blockOrder: { before: ['header', 'body', 'footer'], after: ['body', 'header', 'footer'] },
    });
    const same = await changesOf(ws, () =>
      ws.api.put('projectOrder', { projectId: 'web', blockIds: ['body', 'header'], textItemIds: [] }),
    );
    expect(same).toEqual([]);
    // The order's history is the project's.
    expect((await history(ws, '?kind=project&id=web')).map((c) => c.action)).toEqual(['updated', 'created']);
  });
});
