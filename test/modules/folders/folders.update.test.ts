import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

const ctx = await setupApp();

const create = async (ws: Workspace, folders: unknown[]) => {
  const res = await ws.api.post('componentFolders', { folders });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
};
const list = async (ws: Workspace) => (await ws.api.get('componentFolders')).body;
const patch = (ws: Workspace, updates: unknown[]) => ws.api.patch('componentFolders', { updates });
const history = async (ws: Workspace, id: string) =>
  (await ws.api.get(`history?kind=folder&id=${id}`)).body.changes as any[];

/** `a` > `b` > `c` (nested), `d` at the root; component `btn` in `c`. */
async function tree(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await create(ws, [
    { name: 'A', developerId: 'a' },
    { name: 'B', developerId: 'b', parentId: 'a' },
    { name: 'C', developerId: 'c', parentId: 'b' },
    { name: 'D', developerId: 'd' },
  ]);
  const res = await ws.api.post('components', { components: [{ developerId: 'btn', text: 'OK', folderId: 'c' }] });
  expect(res.status).toBe(201);
  return ws;
}

async function expectUnchanged(ws: Workspace, before: unknown) {
  expect(await list(ws)).toEqual(before);
}

describe('PATCH /v2/componentFolders', () => {
  it('renames, moves and gives new developer IDs in one request, recorded as renamed, moved, updated', async () => {
    const ws = await tree();
    const res = await patch(ws, [
      { developerId: 'b', parentId: 'd' },
      { developerId: 'c', newDeveloperId: 'cc' },
      { developerId: 'a', name: 'Alpha' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await list(ws)).toEqual([
      { id: 'a', name: 'Alpha', parentId: null },
      { id: 'b', name: 'B', parentId: 'd' },
      { id: 'cc', name: 'C', parentId: 'b' },
      { id: 'd', name: 'D', parentId: null },
    ]);
    // A component follows its folder: its folderId is the new developer ID.
    const components = (await ws.api.get('components')).body;
    expect(components[0]).toMatchObject({ id: 'btn', folderId: 'cc' });
    // The folder moved with what it holds: a filter on `d` finds the component below it.
    const filter = encodeURIComponent(JSON.stringify({ folders: [{ id: 'd' }] }));
    expect((await ws.api.get(`components?filter=${filter}`)).body.map((r: any) => r.id)).toEqual(['btn']);

    const [moved] = await history(ws, 'b');
    expect(moved).toMatchObject({ action: 'moved', fields: { parentId: { before: 'a', after: 'd' } } });
    const renamed = await history(ws, 'cc');
    expect(renamed[0]).toMatchObject({
      action: 'renamed',
      developerId: 'cc',
      fields: { developerId: { before: 'c', after: 'cc' } },
    });
    // The history follows the row: the create under the old ID is part of it.
    expect(renamed.map((c) => c.action)).toEqual(['renamed', 'created']);
    expect((await history(ws, 'a'))[0]).toMatchObject({
      action: 'updated',
      fields: { name: { before: 'A', after: 'Alpha' } },
    });
  });

  it('moves to the library root with null or root, and a parent renamed in the same request is named by its new ID', async () => {
    const ws = await tree();
    expect((await patch(ws, [{ developerId: 'c', parentId: null }])).status).toBe(200);
    expect((await patch(ws, [{ developerId: 'b', parentId: 'root' }])).status).toBe(200);
    expect((await list(ws)).map((f: any) => [f.id, f.parentId])).toEqual([
      ['a', null],
      ['b', null],
      ['c', null],
      ['d', null],
    ]);
    expect(
      (
        await patch(ws, [
          { developerId: 'c', parentId: 'd' },
          { developerId: 'd', newDeveloperId: 'dd' },
        ])
      ).status,
    ).toBe(200);
    expect((await history(ws, 'c'))[0]).toMatchObject({
      action: 'moved',
      fields: { parentId: { before: null, after: 'dd' } },
    });
  });

  it('a change to nothing records nothing', async () => {
    const ws = await tree();
    expect((await patch(ws, [{ developerId: 'a', name: 'A', parentId: null, newDeveloperId: 'a' }])).status).toBe(200);
    expect((await history(ws, 'a')).map((c) => c.action)).toEqual(['created']);
  });

  it('refuses a move into itself or below itself with a 400 naming updates[i].parentId, writing nothing', async () => {
    const ws = await tree();
    const before = await list(ws);
    for (const [updates, field, words] of [
      [[{ developerId: 'a', parentId: 'a' }], 'updates[0].parentId', 'itself'],
      [[{ developerId: 'a', parentId: 'c' }], 'updates[0].parentId', 'its own subfolder c'],
      // Two moves that make a cycle only together.
      [
        [
          { developerId: 'd', parentId: 'c' },
          { developerId: 'a', parentId: 'd' },
        ],
        'updates[0].parentId',
        'its own subfolder c',
      ],
    ] as const) {
      const res = await patch(ws, updates as unknown as unknown[]);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toContain(field);
      expect(res.body.message).toContain(words);
      await expectUnchanged(ws, before);
    }
  });

  it('answers 400, 404 and 409 naming the field, all or none', async () => {
    const ws = await tree();
    const before = await list(ws);
    const cases: [unknown[], number, string][] = [
      [
        [
          { developerId: 'a', name: 'X' },
          { developerId: 'b', parentId: 'nope' },
        ],
        400,
        'updates[1].parentId: Folder id not found: nope',
      ],
      [
        [
          { developerId: 'a', name: 'X' },
          { developerId: 'zz', name: 'Y' },
        ],
        404,
        'Folder id not found: zz',
      ],
      [
        [
          { developerId: 'a', name: 'X' },
          { developerId: 'a', name: 'Y' },
        ],
        400,
        'updates[1].developerId: duplicate',
      ],
      [
        [
          { developerId: 'a', name: 'X' },
          { developerId: 'b', newDeveloperId: 'd' },
        ],
        409,
        'updates[1].newDeveloperId: Folder with developer ID d already exists',
      ],
      [
        [
          { developerId: 'a', newDeveloperId: 'n' },
          { developerId: 'b', newDeveloperId: 'n' },
        ],
        400,
        "updates[1].newDeveloperId: developer ID 'n' is also given to updates[0]",
      ],
      [[{ developerId: 'a', newDeveloperId: 'root' }], 400, "updates[0].newDeveloperId: 'root' is reserved"],
      [[{ developerId: 'a', newDeveloperId: 'bad id' }], 400, 'newDeveloperId'],
      [[{ developerId: 'a', name: '' }], 400, 'name'],
      [
        [{ developerId: 'd', name: 'A' }],
        409,
        'updates[0].name: Folder A already exists in workspace under the library root',
      ],
      [
        [{ developerId: 'd', name: 'B', parentId: 'a' }],
        409,
        'updates[0].name: Folder B already exists in workspace under folder a',
      ],
      [
        [
          { developerId: 'b', parentId: 'root' },
          { developerId: 'd', name: 'B' },
        ],
        409,
        'updates[0].parentId',
      ],
      [[{ developerId: 'a', name: 'X', color: 'red' }], 400, 'color'],
    ];
    for (const [updates, status, message] of cases) {
      const res = await patch(ws, updates);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.message).toContain(message);
      await expectUnchanged(ws, before);
    }
    expect((await ws.api.patch('componentFolders', { updates: [] })).status).toBe(400);
  });

  it('touches only the workspace of the key', async () => {
    const ws = await tree();
    const other = await tree();
    expect((await patch(other, [{ developerId: 'a', name: 'Other', newDeveloperId: 'other-a' }])).status).toBe(200);
    expect((await list(ws))[0]).toEqual({ id: 'a', name: 'A', parentId: null });
    expect((await patch(ws, [{ developerId: 'other-a', name: 'X' }])).status).toBe(404);
    expect((await patch(ws, [{ developerId: 'a', newDeveloperId: 'other-a' }])).status).toBe(200);
  });

  it('is documented in the OpenAPI document', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v2/openapi.json' });
    const doc = JSON.parse(res.body);
    const body = doc.paths['/v2/componentFolders'].patch.requestBody.content['application/json'].schema;
    const item = body.properties.updates.items;
    expect(Object.keys(item.properties).sort()).toEqual(['developerId', 'name', 'newDeveloperId', 'parentId']);
  });
});
