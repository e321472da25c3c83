import { describe, expect, it } from 'vitest';
import { now } from '../../../src/db/transaction.js';
import { slugify, uniqueDeveloperId } from '../../../src/shared/developer-id.js';
import { apiClient, createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

const ctx = await setupApp();

const create = (ws: Workspace, folders: unknown[]) => ws.api.post('componentFolders', { folders });
const list = async (ws: Workspace) => (await ws.api.get('componentFolders')).body;

/** A component filed in `folderDeveloperId` (null: the library root), written directly: components are another module. */
async function insertComponent(ws: Workspace, developerId: string, folderDeveloperId: string | null) {
  const folder = folderDeveloperId
    ? await ctx.services.folders.resolveFolder(ctx.database.db, ws.id, folderDeveloperId)
    : null;
  const at = now();
  await ctx.database.db
    .insertInto('texts')
    .values({
      workspace_id: ws.id,
      kind: 'component',
      developer_id: developerId,
      name: developerId,
      folder_id: folder?.id ?? null,
      position: 0,
      text: 'Hello',
      notes: '',
      tags: '[]',
      status: 'NONE',
      integrated: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

async function componentFolder(ws: Workspace, developerId: string): Promise<string | null> {
  const row = await ctx.database.db
    .selectFrom('texts')
    .select('folder_id')
    .where('workspace_id', '=', ws.id)
    .where('developer_id', '=', developerId)
    .executeTakeFirstOrThrow();
  const ids = await ctx.services.folders.folderDeveloperIds(ctx.database.db, ws.id);
  return row.folder_id === null ? null : (ids.get(row.folder_id) ?? `missing row ${row.folder_id}`);
}

describe('GET /v2/componentFolders', () => {
  it('starts empty and lists folders in creation order with parent developer IDs', async () => {
    const ws = await createWorkspace(ctx);
    expect(await list(ws)).toEqual([]);
    await create(ws, [{ name: 'Zeta', developerId: 'zeta' }]);
    await create(ws, [
      { name: 'Alpha', developerId: 'alpha', parentId: 'zeta' },
      { name: 'Beta', developerId: 'beta' },
    ]);
    expect(await list(ws)).toEqual([
      { id: 'zeta', name: 'Zeta', parentId: null },
      { id: 'alpha', name: 'Alpha', parentId: 'zeta' },
      { id: 'beta', name: 'Beta', parentId: null },
    ]);
  });

  it('answers 401 without a key or with a wrong one, on every route', async () => {
    for (const api of [apiClient(ctx.app, null), apiClient(ctx.app, 'not-a-key')]) {
      expect((await api.get('componentFolders')).status).toBe(401);
      expect((await api.post('componentFolders', { folders: [{ name: 'A' }] })).status).toBe(401);
      expect((await api.delete('componentFolders', { developerIds: ['a'] })).status).toBe(401);
    }
  });
});

describe('POST /v2/componentFolders', () => {
  it('creates folders and answers 201 with the developer IDs in request order', async () => {
    const ws = await createWorkspace(ctx);
    const res = await create(ws, [
      { name: 'B', developerId: 'b-folder' },
      { name: 'A', developerId: 'a-folder' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ developerIds: ['b-folder', 'a-folder'] });
  });

  it('generates slugs, suffixed against the workspace and earlier elements; root is never generated', async () => {
    const ws = await createWorkspace(ctx);
    await create(ws, [{ name: 'Marketing Site' }]);
    const res = await create(ws, [
      { name: 'Marketing  site!', parentId: 'marketing-site' },
      { name: 'marketing—SITE', parentId: 'marketing-site' },
      { name: 'Root' },
      { name: 'Café Menu' },
      { name: '!!!' },
      { name: 'Taken later' },
      { name: 'Other', developerId: 'taken-later' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.developerIds).toEqual([
      'marketing-site-2',
      'marketing-site-3',
      'root-2',
      'cafe-menu',
      'item',
      'taken-later-2',
      'taken-later',
    ]);
  });

  it('nests under a parent created earlier in the same request, or at the root for null and root', async () => {
    const ws = await createWorkspace(ctx);
    const res = await create(ws, [
      { name: 'Top', developerId: 'top', parentId: null },
      { name: 'Mid', developerId: 'mid', parentId: 'top' },
      { name: 'Leaf', developerId: 'leaf', parentId: 'mid' },
      { name: 'Also top', developerId: 'also-top', parentId: 'root' },
    ]);
    expect(res.status).toBe(201);
    expect(await list(ws)).toEqual([
      { id: 'top', name: 'Top', parentId: null },
      { id: 'mid', name: 'Mid', parentId: 'top' },
      { id: 'leaf', name: 'Leaf', parentId: 'mid' },
      { id: 'also-top', name: 'Also top', parentId: null },
    ]);
  });

  it('rejects a parent named only later in the request, and writes nothing', async () => {
    const ws = await createWorkspace(ctx);
    const res = await create(ws, [
      { name: 'Child', developerId: 'child', parentId: 'parent' },
      { name: 'Parent', developerId: 'parent' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('folders[0].parentId: Folder id not found: parent');
    expect(await list(ws)).toEqual([]);
  });

  it('is all-or-nothing: an unknown parent in the last element leaves nothing written', async () => {
    const ws = await createWorkspace(ctx);
    const res = await create(ws, [
      { name: 'One', developerId: 'one' },
      { name: 'Two', developerId: 'two', parentId: 'one' },
      { name: 'Three', developerId: 'three', parentId: 'nowhere' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('folders[2].parentId: Folder id not found: nowhere');
    expect(await list(ws)).toEqual([]);
  });

  it('reserves root as a developer ID', async () => {
    const ws = await createWorkspace(ctx);
    const res = await create(ws, [
      { name: 'A', developerId: 'a' },
      { name: 'Root', developerId: 'root' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("folders[1].developerId: 'root' is reserved for the library root");
    expect(await list(ws)).toEqual([]);
  });

  it('answers 409 for a developer ID that exists, 400 for one repeated in the request', async () => {
    const ws = await createWorkspace(ctx);
    await create(ws, [{ name: 'Existing', developerId: 'existing' }]);
    const exists = await create(ws, [
      { name: 'New', developerId: 'new' },
      { name: 'Other', developerId: 'existing' },
    ]);
    expect(exists.status).toBe(409);
    expect(exists.body.message).toBe(
      'folders[1].developerId: Folder with developer ID existing already exists in workspace',
    );
    const twice = await create(ws, [
      { name: 'X', developerId: 'dup' },
      { name: 'Y', developerId: 'dup' },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe("folders[1].developerId: duplicate developer ID 'dup'");
    expect((await list(ws)).map((f: { id: string }) => f.id)).toEqual(['existing']);
  });

  it('answers 409 for a name that a sibling already has, and allows it under another parent', async () => {
    const ws = await createWorkspace(ctx);
    await create(ws, [
      { name: 'Shared', developerId: 'shared-root' },
      { name: 'Parent', developerId: 'parent' },
      { name: 'Shared', developerId: 'shared-child', parentId: 'parent' },
    ]);
    const atRoot = await create(ws, [{ name: 'Shared' }]);
    expect(atRoot.status).toBe(409);
    expect(atRoot.body.message).toBe(
      'folders[0].name: Folder Shared already exists in workspace under the library root',
    );
    const inParent = await create(ws, [
      { name: 'Fresh', parentId: 'parent' },
      { name: 'Shared', parentId: 'parent' },
    ]);
    expect(inParent.status).toBe(409);
    expect(inParent.body.message).toBe(
      'folders[1].name: Folder Shared already exists in workspace under folder parent',
    );
    const inRequest = await create(ws, [{ name: 'Twin' }, { name: 'Twin' }]);
    expect(inRequest.status).toBe(409);
    expect(inRequest.body.message).toBe(
      'folders[1].name: Folder Twin already exists in workspace under the library root',
    );
    const elsewhere = await create(ws, [{ name: 'Shared', developerId: 'shared-in-shared', parentId: 'shared-root' }]);
    expect(elsewhere.status).toBe(201);
    expect(await list(ws)).toHaveLength(4);
  });

  it('validates the body with the field named', async () => {
    const ws = await createWorkspace(ctx);
    const cases: [unknown, string][] = [
      [{ folders: [] }, 'folders must NOT have fewer than 1 items'],
      [{ folders: [{ name: '' }] }, 'folders[0].name must NOT have fewer than 1 characters'],
      [{ folders: [{ developerId: 'x' }] }, 'folders[0].name is required'],
      [{ folders: [{ name: 'A', color: 'red' }] }, 'folders[0].color is not a known field'],
      [
        { folders: [{ name: 'A' }, { name: 'B', developerId: '-bad' }] },
        "folders[1].developerId must be 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit",
      ],
      [{}, 'folders is required'],
    ];
    for (const [body, message] of cases) {
      const res = await ws.api.post('componentFolders', body);
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const tooMany = await ws.api.post('componentFolders', {
      folders: Array.from({ length: 1001 }, (_, i) => ({ name: `F${i}` })),
    });
    expect(tooMany.status).toBe(400);
    expect(await list(ws)).toEqual([]);
  });
});

describe('DELETE /v2/componentFolders', () => {
  it('moves subfolders and components to the parent folder, or to the library root', async () => {
    const ws = await createWorkspace(ctx);
    await create(ws, [
      { name: 'Top', developerId: 'top' },
      { name: 'Mid', developerId: 'mid', parentId: 'top' },
      { name: 'Leaf', developerId: 'leaf', parentId: 'mid' },
      { name: 'Side', developerId: 'side', parentId: 'mid' },
    ]);
    await insertComponent(ws, 'in-mid', 'mid');
    await insertComponent(ws, 'in-top', 'top');
    await insertComponent(ws, 'in-leaf', 'leaf');

    const res = await ws.api.delete('componentFolders', { developerIds: ['mid'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await list(ws)).toEqual([
      { id: 'top', name: 'Top', parentId: null },
      { id: 'leaf', name: 'Leaf', parentId: 'top' },
      { id: 'side', name: 'Side', parentId: 'top' },
    ]);
    expect(await componentFolder(ws, 'in-mid')).toBe('top');
    expect(await componentFolder(ws, 'in-leaf')).toBe('leaf');

    await ws.api.delete('componentFolders', { developerIds: ['top'] });
    expect(await list(ws)).toEqual([
      { id: 'leaf', name: 'Leaf', parentId: null },
      { id: 'side', name: 'Side', parentId: null },
    ]);
    expect(await componentFolder(ws, 'in-mid')).toBeNull();
    expect(await componentFolder(ws, 'in-top')).toBeNull();
  });

  it('sends the contents to the nearest surviving ancestor when a folder and its parent go together', async () => {
    const ws = await createWorkspace(ctx);
    await create(ws, [
      { name: 'A', developerId: 'a' },
      { name: 'B', developerId: 'b', parentId: 'a' },
      { name: 'C', developerId: 'c', parentId: 'b' },
      { name: 'D', developerId: 'd', parentId: 'c' },
    ]);
    await insertComponent(ws, 'in-c', 'c');
    await insertComponent(ws, 'in-b', 'b');
    const res = await ws.api.delete('componentFolders', { developerIds: ['c', 'b'] });
    expect(res.status).toBe(200);
    expect(await list(ws)).toEqual([
      { id: 'a', name: 'A', parentId: null },
      { id: 'd', name: 'D', parentId: 'a' },
    ]);
    expect(await componentFolder(ws, 'in-c')).toBe('a');
    expect(await componentFolder(ws, 'in-b')).toBe('a');
  });

  it('answers 404 for an unknown id and deletes nothing', async () => {
    const ws = await createWorkspace(ctx);
    await create(ws, [{ name: 'Keep', developerId: 'keep' }]);
    const res = await ws.api.delete('componentFolders', { developerIds: ['keep', 'ghost'] });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Folder id not found: ghost');
    expect(await list(ws)).toHaveLength(1);
  });

  it('rejects a repeated id and an empty list', async () => {
    const ws = await createWorkspace(ctx);
    await create(ws, [{ name: 'Keep', developerId: 'keep' }]);
    const twice = await ws.api.delete('componentFolders', { developerIds: ['keep', 'keep'] });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe("developerIds[1]: duplicate developer ID 'keep'");
    const empty = await ws.api.delete('componentFolders', { developerIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('developerIds must NOT have fewer than 1 items');
    expect(await list(ws)).toHaveLength(1);
  });
});

describe('workspace isolation', () => {
  it('keeps each workspace to its own folders', async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await create(a, [{ name: 'Private', developerId: 'private' }]);
    expect(await list(b)).toEqual([]);
    const asParent = await create(b, [{ name: 'Child', parentId: 'private' }]);
    expect(asParent.status).toBe(400);
    expect(asParent.body.message).toBe('folders[0].parentId: Folder id not found: private');
    const removal = await b.api.delete('componentFolders', { developerIds: ['private'] });
    expect(removal.status).toBe(404);
    expect((await create(b, [{ name: 'Private', developerId: 'private' }])).status).toBe(201);
    expect(await list(a)).toEqual([{ id: 'private', name: 'Private', parentId: null }]);
    expect(await ctx.services.folders.resolveFolder(ctx.database.db, b.id, 'private')).not.toEqual(
      await ctx.services.folders.resolveFolder(ctx.database.db, a.id, 'private'),
    );
  });
});

describe('folder lookups for the components module', () => {
  it('resolves folders, their nested row ids and their developer IDs', async () => {
    const ws = await createWorkspace(ctx);
    await create(ws, [
      { name: 'A', developerId: 'a' },
      { name: 'B', developerId: 'b', parentId: 'a' },
      { name: 'C', developerId: 'c', parentId: 'b' },
      { name: 'D', developerId: 'd' },
    ]);
    const { folders } = ctx.services;
    const db = ctx.database.db;
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((id) => folders.resolveFolder(db, ws.id, id)));
    expect(a).toMatchObject({ developerId: 'a', name: 'A', parentId: null });
    expect(b?.parentId).toBe(a?.id);
    expect(await folders.resolveFolder(db, ws.id, 'nope')).toBeNull();
    expect(await folders.folderRowIds(db, ws.id, 'a')).toEqual(new Set([a?.id, b?.id, c?.id]));
    expect(await folders.folderRowIds(db, ws.id, 'a', { excludeNested: true })).toEqual(new Set([a?.id]));
    expect(await folders.folderRowIds(db, ws.id, 'nope')).toBeNull();
    const names = await folders.folderDeveloperIds(db, ws.id);
    expect([...names.values()]).toEqual(['a', 'b', 'c', 'd']);
    const tree = await folders.loadFolderTree(db, ws.id);
    expect(tree.developerIdOf(c?.id ?? null)).toBe('c');
    expect(tree.developerIdOf(null)).toBeNull();
  });
});

describe('developer ID slugs', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['  --Trim me--  ', 'trim-me'],
    ['Crème brûlée', 'creme-brulee'],
    ['日本語', 'item'],
    ['a'.repeat(70), 'a'.repeat(64)],
    [`${'a'.repeat(63)} b`, 'a'.repeat(63)],
  ])('slugify(%j) is %j', (text, slug) => {
    expect(slugify(text)).toBe(slug);
  });

  it('suffixes -2, -3 on collision and records what it hands out', () => {
    const taken = new Set(['x']);
    expect(uniqueDeveloperId('x', taken)).toBe('x-2');
    expect(uniqueDeveloperId('x', taken)).toBe('x-3');
    expect(uniqueDeveloperId('y', taken)).toBe('y');
    expect(taken).toEqual(new Set(['x', 'x-2', 'x-3', 'y']));
  });
});
