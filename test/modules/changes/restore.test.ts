import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace, withFilter } from '../../helpers/app.js';
import { type Change, history } from './helpers.js';

const ctx = await setupApp();

async function ok(res: Promise<{ status: number; body: unknown; headers: Record<string, unknown> }>) {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r;
}

/** The revision a write made, from its header. */
async function revisionOf(res: Promise<{ status: number; body: unknown; headers: Record<string, unknown> }>) {
  const r = await ok(res);
  const revision = r.headers['copydesk-revision'];
  expect(revision).toMatch(/^\d+$/);
  return String(revision);
}

const restore = (ws: Workspace, body: object) => ws.api.post('history/restore', body);

async function restored(ws: Workspace, body: object): Promise<string> {
  const res = await restore(ws, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.success).toBe(true);
  expect(res.body.revision).toMatch(/^\d+$/);
  expect(res.headers['copydesk-revision']).toBe(res.body.revision);
  return res.body.revision;
}

/** The text items (or components) of the workspace by developer ID, variant records included. */
async function records(ws: Workspace, path: 'textItems' | 'components') {
  const res = await ws.api.get(withFilter(path, { variants: [{ id: 'all' }] }, '&richText=html'));
  expect(res.status).toBe(200);
  return res.body as Record<string, any>[];
}
const base = (list: Record<string, any>[], id: string) => list.find((r) => r.id === id && !r.variantId);
const variant = (list: Record<string, any>[], id: string, variantId: string) =>
  list.find((r) => r.id === id && r.variantId === variantId);

/** Drops what a restore cannot give back the same (none of the record's own fields). */
const comparable = (list: Record<string, any>[]) =>
  list
    .map(({ etag: _etag, ...rest }) => rest)
    .sort((a, b) => `${a.id}:${a.variantId}`.localeCompare(`${b.id}:${b.variantId}`));

async function project(ws: Workspace) {
  await ok(ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] }));
  await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }));
  await ok(ws.api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'Header', developerId: 'header' }] }));
  await ok(
    ws.api.post('textItems', {
      projectId: 'web',
      textItems: [
        {
          developerId: 'cart',
          text: '{{n}} items',
          blockId: 'header',
          notes: 'In the cart',
          tags: ['cart', 'count'],
          status: 'WIP',
          assignee: ws.email,
          characterLimit: 40,
          plurals: [
            { form: 'other', text: '{{n}} items' },
            { form: 'one', text: '{{n}} item' },
          ],
          variants: [
            {
              variantId: 'fr',
              text: '{{n}} articles',
              status: 'FINAL',
              plurals: [
                { form: 'other', text: '{{n}} articles' },
                { form: 'one', text: '{{n}} article' },
              ],
            },
          ],
        },
        { developerId: 'title', text: 'Welcome', blockId: 'header' },
        { developerId: 'footer', text: 'Bye' },
      ],
    }),
  );
}

describe('POST /v2/history/restore', () => {
  it('restores a text item to an older version, variant values included', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    const before = comparable(await records(ws, 'textItems'));
    await ok(
      ws.api.patch('textItems', {
        updates: [{ developerId: 'cart', text: 'Basket', plurals: [], notes: null, tags: ['x'], status: 'FINAL' }],
      }),
    );
    await ok(
      ws.api.patch('textItems', {
        variantId: 'fr',
        updates: [{ developerId: 'cart', text: 'Panier', plurals: [] }],
      }),
    );
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'cart', text: 'Bag' }] }));
    // The version the create left: every change since is undone.
    const created = (await history(ws, '?kind=textItem&id=cart')).find((c) => c.action === 'created');
    const revision = await restored(ws, { changeId: (created as Change).id });
    expect(comparable(await records(ws, 'textItems'))).toEqual(before);

    // The restore is one write in history, with ordinary actions.
    const changes = await history(ws, `?revision=${revision}`);
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((c) => c.developerId === 'cart' && c.action === 'updated')).toBe(true);
    expect(changes.some((c) => c.variantId === 'fr')).toBe(true);

    // Restoring the version it already has changes nothing.
    const again = await restore(ws, { changeId: (created as Change).id });
    expect(again.status).toBe(200);
    const latest = (await history(ws, '?kind=textItem&id=cart&limit=1'))[0] as Change;
    const none = await restore(ws, { changeId: latest.id });
    expect(none.body).toEqual({ success: true, revision: null });
    expect(none.headers['copydesk-revision']).toBeUndefined();
  });

  it('re-creates a deleted text item with its variant values and plural forms', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    const before = comparable(await records(ws, 'textItems'));
    await ok(ws.api.delete('textItems', { developerIds: ['cart'] }));
    expect(base(await records(ws, 'textItems'), 'cart')).toBeUndefined();
    const deleted = (await history(ws, '?id=cart')).find((c) => c.action === 'deleted' && c.variantId === null);
    await restored(ws, { changeId: (deleted as Change).id });
    const after = await records(ws, 'textItems');
    expect(base(after, 'cart')).toMatchObject({
      text: '{{n}} items',
      blockName: 'Header',
      notes: 'In the cart',
      tags: ['cart', 'count'],
      status: 'WIP',
      assignee: ws.email,
      characterLimit: 40,
    });
    expect(variant(after, 'cart', 'fr')).toMatchObject({ text: '{{n}} articles', status: 'FINAL' });
    expect(comparable(after)).toEqual(before);

    // Its developer ID is taken again now: restoring the delete once more is a 409 naming it.
    const taken = await restore(ws, { changeId: (deleted as Change).id });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain('cart');
  });

  it('undoes a bulk PATCH of many texts in one write, and a move', async () => {
    const ws = await createWorkspace(ctx);
    await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }));
    await ok(ws.api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'A', developerId: 'a' }] }));
    const ids = Array.from({ length: 60 }, (_, i) => `t${i}`);
    await ok(
      ws.api.post('textItems', {
        projectId: 'web',
        textItems: ids.map((id, i) => ({ developerId: id, text: `Text ${i}`, tags: i % 2 ? ['odd'] : [] })),
      }),
    );
    const before = comparable(await records(ws, 'textItems'));
    const bulk = await revisionOf(
      ws.api.patch('textItems', {
        updates: ids.map((id) => ({ developerId: id, status: 'REVIEW', tags: ['bulk'], assignee: ws.email })),
      }),
    );
    expect(before).not.toEqual(comparable(await records(ws, 'textItems')));
    const undo = await restored(ws, { revision: bulk });
    expect(comparable(await records(ws, 'textItems'))).toEqual(before);
    expect(await history(ws, `?revision=${undo}&limit=1000`)).toHaveLength(60);

    // A move into a block, undone.
    const move = await revisionOf(
      ws.api.patch('textItems', { updates: ids.slice(0, 5).map((id) => ({ developerId: id, blockId: 'a' })) }),
    );
    await restored(ws, { revision: move });
    expect(comparable(await records(ws, 'textItems'))).toEqual(before);

    // Undoing the undo brings the bulk edit back.
    await restored(ws, { revision: undo });
    expect(base(await records(ws, 'textItems'), 't3')).toMatchObject({ status: 'REVIEW', tags: ['bulk'] });
  });

  it('restores rich text, and undoes a move of components between folders', async () => {
    const ws = await createWorkspace(ctx);
    await ok(
      ws.api.post('componentFolders', {
        folders: [
          { name: 'A', developerId: 'a' },
          { name: 'B', developerId: 'b' },
        ],
      }),
    );
    await ok(
      ws.api.post('components', {
        richText: 'html',
        components: [
          { developerId: 'rich', text: '<strong>Save</strong> &amp; go', folderId: 'a' },
          { developerId: 'plain', text: 'x < y', folderId: 'a' },
        ],
      }),
    );
    const before = comparable(await records(ws, 'components'));
    expect(base(before, 'rich')?.richText).toContain('<strong>Save</strong>');
    await ok(ws.api.patch('components', { updates: [{ developerId: 'rich', text: 'Plain now' }] }));
    const move = await revisionOf(
      ws.api.patch('components', {
        updates: [
          { developerId: 'rich', folderId: 'b' },
          { developerId: 'plain', folderId: 'b' },
        ],
      }),
    );
    expect(await history(ws, `?revision=${move}`)).toMatchObject([{ action: 'moved' }, { action: 'moved' }]);
    await restored(ws, { revision: move });
    expect(base(await records(ws, 'components'), 'plain')?.folderId).toBe('a');
    const created = (await history(ws, '?kind=component&id=rich')).find((c) => c.action === 'created');
    await restored(ws, { changeId: (created as Change).id });
    expect(comparable(await records(ws, 'components'))).toEqual(before);
  });

  it('undoes a create by deleting what it created', async () => {
    const ws = await createWorkspace(ctx);
    await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }));
    const create = await revisionOf(
      ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'x', text: 'X' }] }),
    );
    const undo = await restored(ws, { revision: create });
    expect(await records(ws, 'textItems')).toEqual([]);
    expect(await history(ws, `?revision=${undo}`)).toMatchObject([{ developerId: 'x', action: 'deleted' }]);
  });

  it('re-creates a deleted component, and its instances come back linked', async () => {
    const ws = await createWorkspace(ctx);
    await ok(ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] }));
    await ok(ws.api.post('componentFolders', { folders: [{ name: 'Buttons', developerId: 'buttons' }] }));
    await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }));
    await ok(
      ws.api.post('components', {
        components: [
          {
            developerId: 'save',
            name: 'Save button',
            folderId: 'buttons',
            text: 'Save',
            tags: ['button'],
            variants: [{ variantId: 'fr', text: 'Enregistrer' }],
          },
        ],
      }),
    );
    await ok(ws.api.post('textItems/instances', { componentId: 'save', projectId: 'web', developerId: 'save-1' }));
    const components = comparable(await records(ws, 'components'));
    const items = comparable(await records(ws, 'textItems'));
    expect(base(items, 'save-1')?.componentId).toBe('save');

    const del = await revisionOf(ws.api.delete('components', { developerIds: ['save'] }));
    expect(base(await records(ws, 'textItems'), 'save-1')?.componentId).toBeNull();
    const deleted = (await history(ws, `?revision=${del}`)).find((c) => c.kind === 'component' && !c.variantId);
    await restored(ws, { changeId: (deleted as Change).id });
    expect(comparable(await records(ws, 'components'))).toEqual(components);
    expect(comparable(await records(ws, 'textItems'))).toEqual(items);
    expect(base(await records(ws, 'textItems'), 'save-1')).toMatchObject({ text: 'Save', componentId: 'save' });
    // The instance shows the component again: a change to the component reaches it.
    await ok(ws.api.patch('components', { updates: [{ developerId: 'save', text: 'Store' }] }));
    expect(base(await records(ws, 'textItems'), 'save-1')).toMatchObject({ text: 'Store' });
  });

  it('re-creates a deleted folder with its components and subfolders', async () => {
    const ws = await createWorkspace(ctx);
    await ok(
      ws.api.post('componentFolders', {
        folders: [
          { name: 'Top', developerId: 'top' },
          { name: 'Middle', developerId: 'middle', parentId: 'top' },
          { name: 'Leaf', developerId: 'leaf', parentId: 'middle' },
        ],
      }),
    );
    await ok(
      ws.api.post('components', {
        components: [
          { developerId: 'a', text: 'A', folderId: 'middle' },
          { developerId: 'b', text: 'B', folderId: 'leaf' },
        ],
      }),
    );
    const folders = (await ws.api.get('componentFolders')).body;
    const components = comparable(await records(ws, 'components'));
    await ok(ws.api.delete('componentFolders', { developerIds: ['middle'] }));
    expect(base(await records(ws, 'components'), 'a')?.folderId).toBe('top');
    const deleted = (await history(ws, '?kind=folder&id=middle')).find((c) => c.action === 'deleted');
    await restored(ws, { changeId: (deleted as Change).id });
    expect((await ws.api.get('componentFolders')).body).toEqual(expect.arrayContaining(folders));
    expect((await ws.api.get('componentFolders')).body).toHaveLength(folders.length);
    expect(comparable(await records(ws, 'components'))).toEqual(components);
  });

  it('re-creates a deleted block with its text items in it', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    const items = comparable(await records(ws, 'textItems'));
    await ok(ws.api.delete('projectBlocks', { projectId: 'web', developerIds: ['header'] }));
    expect(base(await records(ws, 'textItems'), 'title')?.blockName).toBeNull();
    const deleted = (await history(ws, '?kind=block&id=header')).find((c) => c.action === 'deleted');
    await restored(ws, { changeId: (deleted as Change).id });
    expect((await ws.api.get('projectBlocks?projectId=web')).body).toEqual([{ id: 'header', name: 'Header' }]);
    expect(comparable(await records(ws, 'textItems'))).toEqual(items);
  });

  it('re-creates a deleted project with its blocks and texts; its texts alone are refused first', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    const projects = (await ws.api.get('projects')).body;
    const items = comparable(await records(ws, 'textItems'));
    await ok(ws.api.delete('projects', { developerIds: ['web'] }));
    expect(await records(ws, 'textItems')).toEqual([]);

    const item = (await history(ws, '?kind=textItem&id=title')).find((c) => c.action === 'deleted');
    const orphan = await restore(ws, { changeId: (item as Change).id });
    expect(orphan.status).toBe(409);
    expect(orphan.body.message).toContain('project web no longer exists');

    const deleted = (await history(ws, '?kind=project&id=web')).find((c) => c.action === 'deleted');
    await restored(ws, { changeId: (deleted as Change).id });
    expect((await ws.api.get('projects')).body).toEqual(projects);
    expect((await ws.api.get('projectBlocks?projectId=web')).body).toEqual([{ id: 'header', name: 'Header' }]);
    expect(comparable(await records(ws, 'textItems'))).toEqual(items);
  });

  it('undoes a new developer ID and a move to another project, variant values kept', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    await ok(ws.api.post('projects', { projects: [{ name: 'App', developerId: 'app' }] }));
    await ok(ws.api.post('projectBlocks', { projectId: 'app', blocks: [{ name: 'Top', developerId: 'top' }] }));
    const before = comparable(await records(ws, 'textItems'));

    const renamed = await revisionOf(
      ws.api.patch('textItems', { updates: [{ developerId: 'cart', newDeveloperId: 'basket', notes: 'Renamed' }] }),
    );
    const moved = await revisionOf(
      ws.api.patch('textItems', { updates: [{ developerId: 'title', projectId: 'app', blockId: 'top' }] }),
    );
    expect(base(await records(ws, 'textItems'), 'basket')?.projectId).toBe('web');
    expect(base(await records(ws, 'textItems'), 'title')).toMatchObject({ projectId: 'app', blockId: 'top' });

    await restored(ws, { revision: moved });
    await restored(ws, { revision: renamed });
    const after = await records(ws, 'textItems');
    expect(base(after, 'basket')).toBeUndefined();
    expect(base(after, 'title')).toMatchObject({ projectId: 'web', blockId: 'header' });
    expect(variant(after, 'cart', 'fr')?.text).toBe('{{n}} articles');
    expect(comparable(after)).toEqual(before);
  });

  it('restores a project and a block to an older name', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    await ok(ws.api.patch('projects', { updates: [{ developerId: 'web', name: 'Site', developerMode: true }] }));
    await ok(ws.api.patch('projectBlocks', { projectId: 'web', updates: [{ developerId: 'header', name: 'Top' }] }));
    const renamed = await revisionOf(
      ws.api.patch('projectBlocks', { projectId: 'web', updates: [{ developerId: 'header', name: 'Head' }] }),
    );
    await restored(ws, { revision: renamed });
    expect((await ws.api.get('projectBlocks?projectId=web')).body).toEqual([{ id: 'header', name: 'Top' }]);
    const created = (await history(ws, '?kind=project&id=web')).find((c) => c.action === 'created');
    await restored(ws, { changeId: (created as Change).id });
    expect((await ws.api.get('projects')).body).toMatchObject([{ id: 'web', name: 'Web', developerMode: false }]);
  });

  it('refuses unknown changes and revisions, kinds it cannot restore, and other workspaces', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    const bad = async (body: object, status: number, field: string, text?: string) => {
      const res = await restore(ws, body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.message).toContain(field);
      if (text) expect(res.body.message).toContain(text);
    };
    await bad({ changeId: '999999999' }, 400, 'changeId');
    await bad({ changeId: 'abc' }, 400, 'changeId');
    await bad({ revision: '999999' }, 400, 'revision');
    await bad({ revision: 'x' }, 400, 'revision');
    await bad({}, 400, 'changeId');
    await bad({ changeId: '1', revision: '1' }, 400, 'changeId');
    const variantChange = (await history(ws, '?kind=variant'))[0] as Change;
    await bad({ changeId: variantChange.id }, 400, 'changeId', 'cannot be restored');

    // Another workspace's key cannot restore this workspace's changes.
    const other = await createWorkspace(ctx);
    await ok(ws.api.delete('textItems', { developerIds: ['footer'] }));
    const deleted = (await history(ws, '?id=footer')).find((c) => c.action === 'deleted') as Change;
    const res = await restore(other, { changeId: deleted.id });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('changeId');
    const revision = (await history(ws, '?id=footer'))[0]?.revision as string;
    expect((await restore(other, { revision })).status).toBe(400);
    expect(base(await records(ws, 'textItems'), 'footer')).toBeUndefined();
    expect(await records(other, 'textItems')).toEqual([]);
  });

  it('writes nothing when a step fails', async () => {
    const ws = await createWorkspace(ctx);
    await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }));
    await ok(
      ws.api.post('textItems', {
        projectId: 'web',
        textItems: [
          { developerId: 'a', text: 'A' },
          { developerId: 'b', text: 'B' },
        ],
      }),
    );
    const del = await revisionOf(ws.api.delete('textItems', { developerIds: ['a', 'b'] }));
    await ok(ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'b', text: 'New B' }] }));
    const last = (await history(ws, '?limit=1'))[0] as Change;
    const res = await restore(ws, { revision: del });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('b');
    expect((await records(ws, 'textItems')).map((r) => r.id)).toEqual(['b']);
    expect((await history(ws, '?limit=1'))[0]?.id).toBe(last.id);
  });
});
