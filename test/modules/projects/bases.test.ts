import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { countRows, insertComponent, insertItem, textsOf } from './fixtures.js';

const ctx = await setupApp();

const createBases = (ws: Workspace, bases: unknown[]) => ws.api.post('bases', { bases });
const listBases = async (ws: Workspace) => (await ws.api.get('bases')).body;

describe('GET and POST /v2/bases', () => {
  it('lists bases in creation order, without projects', async () => {
    const ws = await createWorkspace(ctx);
    expect(await listBases(ws)).toEqual([]);
    await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    const res = await createBases(ws, [{ name: 'Core strings' }, { name: 'Legal', developerId: 'legal' }]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ developerIds: ['core-strings', 'legal'] });
    expect(await listBases(ws)).toEqual([
      { id: 'core-strings', name: 'Core strings' },
      { id: 'legal', name: 'Legal' },
    ]);
    expect((await ws.api.get('projects')).body.map((p: { id: string }) => p.id)).toEqual(['web']);
  });

  it('shares the namespace with projects: 409 naming what holds the id', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    await createBases(ws, [{ name: 'Core', developerId: 'core' }]);
    const project = await createBases(ws, [{ name: 'X', developerId: 'web' }]);
    expect(project.status).toBe(409);
    expect(project.body.message).toBe(
      'bases[0].developerId: Project with developer ID web already exists in workspace',
    );
    const base = await createBases(ws, [{ name: 'Y' }, { name: 'X', developerId: 'core' }]);
    expect(base.status).toBe(409);
    expect(base.body.message).toBe('bases[1].developerId: Base with developer ID core already exists in workspace');
    expect((await createBases(ws, [{ name: 'Web' }])).body).toEqual({ developerIds: ['web-2'] });
  });

  it('is all or nothing and strict about the body', async () => {
    const ws = await createWorkspace(ctx);
    const repeated = await createBases(ws, [
      { name: 'A', developerId: 'a' },
      { name: 'B', developerId: 'a' },
    ]);
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toBe("bases[1].developerId: duplicate developer ID 'a'");
    const extra = await createBases(ws, [{ name: 'A' }, { name: 'B', baseId: 'x' }]);
    expect(extra.status).toBe(400);
    expect(extra.body.message).toBe('bases[1].baseId is not a known field');
    expect(await listBases(ws)).toEqual([]);
  });

  it('answers 401 without a valid key and keeps workspaces apart', async () => {
    for (const api of [apiClient(ctx.app, null), apiClient(ctx.app, 'wrong')]) {
      expect((await api.get('bases')).status).toBe(401);
      expect((await api.post('bases', { bases: [{ name: 'A' }] })).status).toBe(401);
      expect((await api.delete('bases', { developerIds: ['a'] })).status).toBe(401);
    }
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await createBases(a, [{ name: 'Core', developerId: 'core' }]);
    expect(await listBases(b)).toEqual([]);
    const other = await b.api.delete('bases', { developerIds: ['core'] });
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Base with developer ID core not found');
    const connect = await b.api.post('projects', { projects: [{ name: 'W', baseId: 'core' }] });
    expect(connect.body.message).toBe('projects[0].baseId: Base with developer ID core not found');
    expect(await listBases(a)).toEqual([{ id: 'core', name: 'Core' }]);
  });
});

describe('DELETE /v2/bases', () => {
  it('answers 404 for an unknown base or a project, 400 for a repeated id, deleting nothing', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    await createBases(ws, [{ name: 'Core', developerId: 'core' }]);
    const project = await ws.api.delete('bases', { developerIds: ['core', 'web'] });
    expect(project.status).toBe(404);
    expect(project.body.message).toBe('Base with developer ID web not found');
    const repeated = await ws.api.delete('bases', { developerIds: ['core', 'core'] });
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toBe("developerIds[1]: duplicate developer ID 'core'");
    expect(await listBases(ws)).toEqual([{ id: 'core', name: 'Core' }]);
  });

  it('deletes its items, disconnects its projects and unlinks derived items, touching nothing else', async () => {
    const ws = await createWorkspace(ctx);
    await createBases(ws, [
      { name: 'Core', developerId: 'core' },
      { name: 'Kept', developerId: 'kept' },
    ]);
    await ws.api.post('projects', {
      projects: [
        { name: 'Web', developerId: 'web', baseId: 'core' },
        { name: 'App', developerId: 'app', baseId: 'kept' },
      ],
    });
    await ws.api.post('projectBlocks', { projectId: 'web', blocks: [{ name: 'Header', developerId: 'header' }] });
    await insertItem(ctx, ws, { developerId: 'core.title', container: 'core' });
    await insertItem(ctx, ws, { developerId: 'kept.title', container: 'kept' });
    await insertItem(ctx, ws, {
      developerId: 'web.title',
      container: 'web',
      block: 'header',
      derivesFrom: 'core.title',
    });
    await insertItem(ctx, ws, { developerId: 'app.title', container: 'app', derivesFrom: 'kept.title' });
    await insertComponent(ctx, ws, 'shared.ok');

    expect((await ws.api.delete('bases', { developerIds: ['core'] })).status).toBe(200);
    expect(await listBases(ws)).toEqual([{ id: 'kept', name: 'Kept' }]);
    expect((await ws.api.get('projects')).body).toEqual([
      { id: 'web', name: 'Web', baseId: null, developerMode: false },
      { id: 'app', name: 'App', baseId: 'kept', developerMode: false },
    ]);
    expect(await textsOf(ctx, ws)).toEqual([
      { id: 'app.title', kind: 'text_item', container: 'app', block: null, derivesFrom: 'kept.title', position: 0 },
      { id: 'kept.title', kind: 'text_item', container: 'kept', block: null, derivesFrom: null, position: 0 },
      { id: 'shared.ok', kind: 'component', container: null, block: null, derivesFrom: null, position: 0 },
      { id: 'web.title', kind: 'text_item', container: 'web', block: 'header', derivesFrom: null, position: 0 },
    ]);
    expect(await countRows(ctx, 'blocks', ws.id)).toBe(1);
  });
});
