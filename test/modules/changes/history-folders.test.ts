import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

const ctx = await setupApp();

async function ok(res: Promise<{ status: number; body: any }>, status = 200) {
  const { status: got, body } = await res;
  expect(got, JSON.stringify(body)).toBe(status);
  return body;
}

const history = async (ws: Workspace, query: string) => (await ok(ws.api.get(`history?${query}`))).changes as any[];

/** Folders top > middle > leaf, component `inside` in middle and `deep` in leaf. */
async function world(ws: Workspace) {
  await ok(
    ws.api.post('componentFolders', {
      folders: [
        { name: 'Top', developerId: 'top' },
        { name: 'Middle', developerId: 'middle', parentId: 'top' },
        { name: 'Leaf', developerId: 'leaf', parentId: 'middle' },
      ],
    }),
    201,
  );
  await ok(
    ws.api.post('components', {
      components: [
        { developerId: 'inside', text: 'Inside', folderId: 'middle' },
        { developerId: 'deep', text: 'Deep', folderId: 'leaf' },
      ],
    }),
    201,
  );
}

describe('history of component folders', () => {
  it('records each created folder with its name and parent', async () => {
    const ws = await createWorkspace(ctx);
    const [key] = await ctx.services.accounts.listKeys(ws.id);
    await world(ws);
    const created = await history(ws, 'kind=folder');
    expect(created.map((c) => [c.developerId, c.action, c.fields])).toEqual([
      ['leaf', 'created', { name: { before: null, after: 'Leaf' }, parentId: { before: null, after: 'middle' } }],
      ['middle', 'created', { name: { before: null, after: 'Middle' }, parentId: { before: null, after: 'top' } }],
      ['top', 'created', { name: { before: null, after: 'Top' }, parentId: { before: null, after: null } }],
    ]);
    for (const change of created) {
      expect(change).toMatchObject({ actor: ws.email, keyId: key?.id, kind: 'folder', variantId: null });
    }
  });

  it('records the deleted folder, the subfolder and the components that moved up', async () => {
    const ws = await createWorkspace(ctx);
    const [key] = await ctx.services.accounts.listKeys(ws.id);
    await world(ws);
    await ok(ws.api.delete('componentFolders', { developerIds: ['middle'] }));

    const [deleted] = await history(ws, 'kind=folder&id=middle');
    const write = { actor: ws.email, keyId: key?.id, variantId: null, at: deleted.at };
    expect(deleted).toMatchObject({ ...write, kind: 'folder', developerId: 'middle', action: 'deleted' });
    expect(deleted.fields).toEqual({
      name: { before: 'Middle', after: null },
      parentId: { before: 'top', after: null },
    });
    const [leaf] = await history(ws, 'kind=folder&id=leaf');
    expect(leaf).toMatchObject({ ...write, developerId: 'leaf', action: 'moved' });
    expect(leaf.fields).toEqual({ parentId: { before: 'middle', after: 'top' } });

    const [inside] = (await history(ws, 'kind=component&id=inside')).filter((c) => c.at === deleted.at);
    expect(inside).toMatchObject({ ...write, kind: 'component', developerId: 'inside', action: 'moved' });
    expect(inside.fields).toEqual({ folderId: { before: 'middle', after: 'top' } });
    // Components of the moved subfolder stay where they are.
    expect((await history(ws, 'kind=component&id=deep')).filter((c) => c.at === deleted.at)).toEqual([]);
    expect((await history(ws, 'kind=folder&id=top')).map((c) => c.action)).toEqual(['created']);
  });

  it('moves contents to the nearest surviving ancestor, or to the library root', async () => {
    const ws = await createWorkspace(ctx);
    await world(ws);
    await ok(ws.api.delete('componentFolders', { developerIds: ['top', 'leaf'] }));
    const [middle] = await history(ws, 'kind=folder&id=middle&limit=1');
    expect(middle).toMatchObject({ action: 'moved', fields: { parentId: { before: 'top', after: null } } });
    const [deep] = await history(ws, 'kind=component&id=deep&limit=1');
    expect(deep).toMatchObject({ action: 'moved', at: middle.at });
    expect(deep.fields).toEqual({ folderId: { before: 'leaf', after: 'middle' } });
    expect((await history(ws, 'kind=component&id=inside')).filter((c) => c.at === middle.at)).toEqual([]);
    const gone = await history(ws, 'kind=folder');
    expect(gone.filter((c) => c.action === 'deleted').map((c) => c.developerId)).toEqual(['leaf', 'top']);
    // A deleted folder keeps its history.
    expect((await history(ws, 'id=leaf')).map((c) => c.action)).toEqual(['deleted', 'created']);
  });

  it('records nothing for a rejected batch, and other workspaces never see the changes', async () => {
    const ws = await createWorkspace(ctx);
    await world(ws);
    const before = await history(ws, 'limit=1000');
    const rejected = [
      await ws.api.delete('componentFolders', { developerIds: ['middle', 'ghost'] }),
      await ws.api.delete('componentFolders', { developerIds: ['middle', 'middle'] }),
      await ws.api.post('componentFolders', { folders: [{ name: 'New' }, { name: 'Bad', parentId: 'ghost' }] }),
    ];
    expect(rejected.map((res) => [res.status, res.body.message])).toEqual([
      [404, 'Folder id not found: ghost'],
      [400, "developerIds[1]: duplicate developer ID 'middle'"],
      [400, 'folders[1].parentId: Folder id not found: ghost'],
    ]);
    expect(await history(ws, 'limit=1000')).toEqual(before);
    expect((await ok(ws.api.get('componentFolders'))).map((f: any) => f.id)).toEqual(['top', 'middle', 'leaf']);

    const other = await createWorkspace(ctx);
    expect(await history(other, 'kind=folder')).toEqual([]);
    expect(await history(other, 'id=middle')).toEqual([]);
  });
});
