import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { insertItem, textsOf } from '../projects/fixtures.js';

const ctx = await setupApp();

async function workspaceWithProjects() {
  const ws = await createWorkspace(ctx);
  await ws.api.post('projects', {
    projects: [
      { name: 'Web', developerId: 'web' },
      { name: 'App', developerId: 'app' },
    ],
  });
  await ws.api.post('bases', { bases: [{ name: 'Core', developerId: 'core' }] });
  return ws;
}
const createBlocks = (ws: Workspace, projectId: string, blocks: unknown[]) =>
  ws.api.post('projectBlocks', { projectId, blocks });
const listBlocks = async (ws: Workspace, projectId: string) =>
  (await ws.api.get(`projectBlocks?projectId=${projectId}`)).body;

describe('GET /v2/projectBlocks', () => {
  it('lists the blocks of one project in block order', async () => {
    const ws = await workspaceWithProjects();
    expect(await listBlocks(ws, 'web')).toEqual([]);
    await createBlocks(ws, 'web', [{ name: 'Header' }, { name: 'Body' }]);
    await createBlocks(ws, 'app', [{ name: 'Other' }]);
    await createBlocks(ws, 'web', [{ name: 'Footer' }]);
    expect(await listBlocks(ws, 'web')).toEqual([
      { id: 'header', name: 'Header' },
      { id: 'body', name: 'Body' },
      { id: 'footer', name: 'Footer' },
    ]);
  });

  it('needs projectId, and answers 400 for an unknown project or a base', async () => {
    const ws = await workspaceWithProjects();
    const cases: [string, string][] = [
      ['projectBlocks', 'projectId is required'],
      ['projectBlocks?projectId=ghost', 'projectId: Project with developer ID ghost not found'],
      ['projectBlocks?projectId=core', 'projectId: Project with developer ID core not found'],
      [
        'projectBlocks?projectId=%20bad',
        "projectId must be 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit",
      ],
    ];
    for (const [url, message] of cases) {
      const res = await ws.api.get(url);
      expect(res.status, url).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });

  it('answers 401 without a valid key, and keeps workspaces apart', async () => {
    for (const api of [apiClient(ctx.app, null), apiClient(ctx.app, 'wrong')]) {
      expect((await api.get('projectBlocks?projectId=web')).status).toBe(401);
      expect((await api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'A' }] })).status).toBe(401);
      expect((await api.patch('projectBlocks', { projectId: 'web', updates: [] })).status).toBe(401);
      expect((await api.delete('projectBlocks', { projectId: 'web', developerIds: ['a'] })).status).toBe(401);
      expect((await api.put('projectOrder', { projectId: 'web', textItemIds: [] })).status).toBe(401);
    }
    const a = await workspaceWithProjects();
    const b = await createWorkspace(ctx);
    await createBlocks(a, 'web', [{ name: 'Header' }]);
    const res = await b.api.get('projectBlocks?projectId=web');
    expect(res.body.message).toBe('projectId: Project with developer ID web not found');
    const del = await b.api.delete('projectBlocks', { projectId: 'web', developerIds: ['header'] });
    expect(del.status).toBe(400);
    expect(await listBlocks(a, 'web')).toEqual([{ id: 'header', name: 'Header' }]);
  });
});

describe('POST /v2/projectBlocks', () => {
  it('appends in request order; ids are unique within a project only', async () => {
    const ws = await workspaceWithProjects();
    const res = await createBlocks(ws, 'web', [
      { name: 'Sign up' },
      { name: 'x', developerId: 'sign-up-2' },
      { name: 'Sign up' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ developerIds: ['sign-up', 'sign-up-2', 'sign-up-3'] });
    expect((await createBlocks(ws, 'app', [{ name: 'Sign up' }])).body).toEqual({ developerIds: ['sign-up'] });
  });

  it('answers 409 for an id the project holds, 400 for a repeat, a bad project or a bad body', async () => {
    const ws = await workspaceWithProjects();
    await createBlocks(ws, 'web', [{ name: 'Header', developerId: 'header' }]);
    const taken = await createBlocks(ws, 'web', [{ name: 'A' }, { name: 'B', developerId: 'header' }]);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(
      'blocks[1].developerId: Block with developer ID header already exists in workspace project web',
    );
    const cases: [unknown, string][] = [
      [{ projectId: 'ghost', blocks: [{ name: 'A' }] }, 'projectId: Project with developer ID ghost not found'],
      [{ projectId: 'core', blocks: [{ name: 'A' }] }, 'projectId: Project with developer ID core not found'],
      [{ blocks: [{ name: 'A' }] }, 'projectId is required'],
      [{ projectId: 'web', blocks: [{ name: 'A', position: 1 }] }, 'blocks[0].position is not a known field'],
      [{ projectId: 'web', blocks: [] }, 'blocks must NOT have fewer than 1 items'],
      [{ projectId: 'web', blocks: [{ name: 'A' }], extra: 1 }, 'extra is not a known field'],
    ];
    for (const [body, message] of cases) {
      const res = await ws.api.post('projectBlocks', body);
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const repeated = await ws.api.post('projectBlocks', {
      projectId: 'web',
      blocks: [
        { name: 'A', developerId: 'a' },
        { name: 'B', developerId: 'a' },
      ],
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toBe("blocks[1].developerId: duplicate developer ID 'a'");
    expect(await listBlocks(ws, 'web')).toEqual([{ id: 'header', name: 'Header' }]);
  });
});

describe('PATCH /v2/projectBlocks', () => {
  it('renames blocks; only the fields sent change', async () => {
    const ws = await workspaceWithProjects();
    await createBlocks(ws, 'web', [{ name: 'Header' }, { name: 'Footer' }]);
    await createBlocks(ws, 'app', [{ name: 'Header' }]);
    const res = await ws.api.patch('projectBlocks', {
      projectId: 'web',
      updates: [{ developerId: 'footer', name: 'Page footer' }, { developerId: 'header' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await listBlocks(ws, 'web')).toEqual([
      { id: 'header', name: 'Header' },
      { id: 'footer', name: 'Page footer' },
    ]);
    expect(await listBlocks(ws, 'app')).toEqual([{ id: 'header', name: 'Header' }]);
  });

  it("answers 404 'Block id not found' and changes nothing", async () => {
    const ws = await workspaceWithProjects();
    await createBlocks(ws, 'web', [{ name: 'Header' }]);
    await createBlocks(ws, 'app', [{ name: 'Only in app', developerId: 'app-only' }]);
    for (const developerId of ['ghost', 'app-only']) {
      const res = await ws.api.patch('projectBlocks', {
        projectId: 'web',
        updates: [
          { developerId: 'header', name: 'Renamed' },
          { developerId, name: 'X' },
        ],
      });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Block id not found');
    }
    const repeated = await ws.api.patch('projectBlocks', {
      projectId: 'web',
      updates: [
        { developerId: 'header', name: 'A' },
        { developerId: 'header', name: 'B' },
      ],
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toBe("updates[1].developerId: duplicate developer ID 'header'");
    const badProject = await ws.api.patch('projectBlocks', {
      projectId: 'ghost',
      updates: [{ developerId: 'header' }],
    });
    expect(badProject.body.message).toBe('projectId: Project with developer ID ghost not found');
    const emptyName = await ws.api.patch('projectBlocks', {
      projectId: 'web',
      updates: [{ developerId: 'header', name: '' }],
    });
    expect(emptyName.body.message).toBe('updates[0].name must NOT have fewer than 1 characters');
    expect(await listBlocks(ws, 'web')).toEqual([{ id: 'header', name: 'Header' }]);
  });
});

describe('DELETE /v2/projectBlocks', () => {
  it('deletes blocks; their items stay in the project outside any block', async () => {
    const ws = await workspaceWithProjects();
    await createBlocks(ws, 'web', [{ name: 'Header' }, { name: 'Footer' }]);
    await createBlocks(ws, 'app', [{ name: 'Header' }]);
    await insertItem(ctx, ws, { developerId: 'web.title', container: 'web', block: 'header', position: 3 });
    await insertItem(ctx, ws, { developerId: 'web.footer', container: 'web', block: 'footer' });
    await insertItem(ctx, ws, { developerId: 'app.title', container: 'app', block: 'header' });
    const res = await ws.api.delete('projectBlocks', { projectId: 'web', developerIds: ['header'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await listBlocks(ws, 'web')).toEqual([{ id: 'footer', name: 'Footer' }]);
    expect(await textsOf(ctx, ws)).toEqual([
      { id: 'app.title', kind: 'text_item', container: 'app', block: 'header', derivesFrom: null, position: 0 },
      { id: 'web.footer', kind: 'text_item', container: 'web', block: 'footer', derivesFrom: null, position: 0 },
      { id: 'web.title', kind: 'text_item', container: 'web', block: null, derivesFrom: null, position: 3 },
    ]);
  });

  it("answers 404 'Block id not found', 400 for a repeat, and deletes nothing", async () => {
    const ws = await workspaceWithProjects();
    await createBlocks(ws, 'web', [{ name: 'Header' }, { name: 'Footer' }]);
    const unknown = await ws.api.delete('projectBlocks', { projectId: 'web', developerIds: ['header', 'ghost'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Block id not found');
    const repeated = await ws.api.delete('projectBlocks', { projectId: 'web', developerIds: ['footer', 'footer'] });
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toBe("developerIds[1]: duplicate developer ID 'footer'");
    const missing = await ws.api.delete('projectBlocks', { developerIds: ['footer'] });
    expect(missing.body.message).toBe('projectId is required');
    expect((await listBlocks(ws, 'web')).length).toBe(2);
  });
});
