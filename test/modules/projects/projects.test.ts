import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

const ctx = await setupApp();

const createProjects = (ws: Workspace, projects: unknown[]) => ws.api.post('projects', { projects });
const createBases = (ws: Workspace, bases: unknown[]) => ws.api.post('bases', { bases });
const listProjects = async (ws: Workspace) => (await ws.api.get('projects')).body;

describe('GET /v2/projects', () => {
  it('starts empty and lists projects in creation order, without bases', async () => {
    const ws = await createWorkspace(ctx);
    expect(await listProjects(ws)).toEqual([]);
    await createBases(ws, [{ name: 'Core', developerId: 'core' }]);
    await createProjects(ws, [{ name: 'Web', developerId: 'web', baseId: 'core', developerMode: true }]);
    // Developer mode is off unless asked for.
    await createProjects(ws, [{ name: 'App', developerId: 'app' }]);
    expect(await listProjects(ws)).toEqual([
      { id: 'web', name: 'Web', baseId: 'core', developerMode: true },
      { id: 'app', name: 'App', baseId: null, developerMode: false },
    ]);
  });

  it('answers 401 without a key or with a wrong one, on every route', async () => {
    for (const api of [apiClient(ctx.app, null), apiClient(ctx.app, 'not-a-key')]) {
      expect((await api.get('projects')).status).toBe(401);
      expect((await api.post('projects', { projects: [{ name: 'A' }] })).status).toBe(401);
      expect((await api.patch('projects', { updates: [{ developerId: 'a' }] })).status).toBe(401);
      expect((await api.delete('projects', { developerIds: ['a'] })).status).toBe(401);
    }
  });

  it('never shows or touches another workspace', async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await createProjects(a, [{ name: 'Secret', developerId: 'secret' }]);
    expect(await listProjects(b)).toEqual([]);
    // The same developer ID is free in another workspace.
    expect((await createProjects(b, [{ name: 'Mine', developerId: 'secret' }])).status).toBe(201);
    expect((await b.api.patch('projects', { updates: [{ developerId: 'nope', name: 'X' }] })).status).toBe(404);
    await b.api.delete('projects', { developerIds: ['secret'] });
    expect(await listProjects(a)).toEqual([{ id: 'secret', name: 'Secret', baseId: null, developerMode: false }]);
  });
});

describe('POST /v2/projects', () => {
  it('answers 201 with the developer IDs in request order, generating slugs of the names', async () => {
    const ws = await createWorkspace(ctx);
    const res = await createProjects(ws, [
      { name: 'Checkout Flow!' },
      { name: 'Explicit', developerId: 'checkout-flow-2' },
      { name: 'checkout flow' },
    ]);
    expect(res.status).toBe(201);
    // Generated ids avoid explicit ids of the same request, also those of later elements.
    expect(res.body).toEqual({ developerIds: ['checkout-flow', 'checkout-flow-2', 'checkout-flow-3'] });
    const again = await createProjects(ws, [{ name: 'Checkout flow' }]);
    expect(again.body).toEqual({ developerIds: ['checkout-flow-4'] });
  });

  it('generates ids that avoid bases too', async () => {
    const ws = await createWorkspace(ctx);
    await createBases(ws, [{ name: 'Shared' }]);
    expect((await createProjects(ws, [{ name: 'Shared' }])).body).toEqual({ developerIds: ['shared-2'] });
  });

  it('answers 409 for an id held by a project or by a base', async () => {
    const ws = await createWorkspace(ctx);
    await createProjects(ws, [{ name: 'Web', developerId: 'web' }]);
    await createBases(ws, [{ name: 'Core', developerId: 'core' }]);
    const project = await createProjects(ws, [{ name: 'A', developerId: 'web' }]);
    expect(project.status).toBe(409);
    expect(project.body.message).toBe(
      'projects[0].developerId: Project with developer ID web already exists in workspace',
    );
    const base = await createProjects(ws, [{ name: 'B' }, { name: 'A', developerId: 'core' }]);
    expect(base.status).toBe(409);
    expect(base.body.message).toBe('projects[1].developerId: Base with developer ID core already exists in workspace');
  });

  it('answers 400 for an id repeated in the request, naming the repeat', async () => {
    const ws = await createWorkspace(ctx);
    const res = await createProjects(ws, [
      { name: 'A', developerId: 'x' },
      { name: 'B', developerId: 'x' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("projects[1].developerId: duplicate developer ID 'x'");
  });

  it('connects to a base; an unknown base or a project given as base is a 400 naming it', async () => {
    const ws = await createWorkspace(ctx);
    await createBases(ws, [{ name: 'Core', developerId: 'core' }]);
    await createProjects(ws, [{ name: 'Web', developerId: 'web' }]);
    const unknown = await createProjects(ws, [{ name: 'A' }, { name: 'B', baseId: 'ghost' }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('projects[1].baseId: Base with developer ID ghost not found');
    const notABase = await createProjects(ws, [{ name: 'A', baseId: 'web' }]);
    expect(notABase.body.message).toBe('projects[0].baseId: Base with developer ID web not found');
    const ok = await createProjects(ws, [
      { name: 'App', developerId: 'app', baseId: 'core' },
      { name: 'Free', baseId: null },
    ]);
    expect(ok.status).toBe(201);
    expect((await listProjects(ws)).map((p: { baseId: string | null }) => p.baseId)).toEqual([null, 'core', null]);
  });

  it('writes nothing when the last element is bad', async () => {
    const ws = await createWorkspace(ctx);
    const res = await createProjects(ws, [{ name: 'A' }, { name: 'B' }, { name: 'C', baseId: 'ghost' }]);
    expect(res.status).toBe(400);
    expect(await listProjects(ws)).toEqual([]);
    const clash = await createProjects(ws, [
      { name: 'A', developerId: 'a' },
      { name: 'B', developerId: 'a' },
    ]);
    expect(clash.status).toBe(400);
    expect(await listProjects(ws)).toEqual([]);
  });

  it('validates the body strictly', async () => {
    const ws = await createWorkspace(ctx);
    const cases: [unknown, string][] = [
      [{}, 'projects is required'],
      [{ projects: [] }, 'projects must NOT have fewer than 1 items'],
      [{ projects: [{}] }, 'projects[0].name is required'],
      [{ projects: [{ name: '' }] }, 'projects[0].name must NOT have fewer than 1 characters'],
      [{ projects: [{ name: 'A', colour: 'red' }] }, 'projects[0].colour is not a known field'],
      [{ projects: [{ name: 'A', developerMode: 'yes' }] }, 'projects[0].developerMode must be boolean'],
      [
        { projects: [{ name: 'A', developerId: '-bad' }] },
        "projects[0].developerId must be 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await ws.api.post('projects', body);
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const tooMany = await createProjects(
      ws,
      Array.from({ length: 1001 }, (_, i) => ({ name: `P${i}` })),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('projects must NOT have more than 1000 items');
  });
});

describe('PATCH /v2/projects', () => {
  it('changes only the fields sent', async () => {
    const ws = await createWorkspace(ctx);
    await createBases(ws, [
      { name: 'Core', developerId: 'core' },
      { name: 'Other', developerId: 'other' },
    ]);
    await createProjects(ws, [
      { name: 'Web', developerId: 'web', baseId: 'core' },
      { name: 'App', developerId: 'app', developerMode: true },
    ]);
    const res = await ws.api.patch('projects', {
      updates: [
        { developerId: 'web', name: 'Website' },
        { developerId: 'app', baseId: 'other', developerMode: false },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await listProjects(ws)).toEqual([
      { id: 'web', name: 'Website', baseId: 'core', developerMode: false },
      { id: 'app', name: 'App', baseId: 'other', developerMode: false },
    ]);
    await ws.api.patch('projects', { updates: [{ developerId: 'web', baseId: null, developerMode: true }] });
    expect((await listProjects(ws))[0]).toEqual({ id: 'web', name: 'Website', baseId: null, developerMode: true });
  });

  it('answers 404 for an unknown project or a base, 400 for an unknown base or a repeated id', async () => {
    const ws = await createWorkspace(ctx);
    await createBases(ws, [{ name: 'Core', developerId: 'core' }]);
    await createProjects(ws, [{ name: 'Web', developerId: 'web' }]);
    const unknown = await ws.api.patch('projects', { updates: [{ developerId: 'web' }, { developerId: 'ghost' }] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Project with developer ID ghost not found');
    const base = await ws.api.patch('projects', { updates: [{ developerId: 'core', name: 'X' }] });
    expect(base.status).toBe(404);
    expect(base.body.message).toBe('Project with developer ID core not found');
    const badBase = await ws.api.patch('projects', { updates: [{ developerId: 'web', baseId: 'ghost' }] });
    expect(badBase.status).toBe(400);
    expect(badBase.body.message).toBe('updates[0].baseId: Base with developer ID ghost not found');
    const repeated = await ws.api.patch('projects', {
      updates: [
        { developerId: 'web', name: 'A' },
        { developerId: 'web', name: 'B' },
      ],
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toBe("updates[1].developerId: duplicate developer ID 'web'");
    const unknownField = await ws.api.patch('projects', { updates: [{ developerId: 'web', color: 'red' }] });
    expect(unknownField.body.message).toBe('updates[0].color is not a known field');
  });

  it('writes nothing when the last update is bad', async () => {
    const ws = await createWorkspace(ctx);
    await createProjects(ws, [
      { name: 'Web', developerId: 'web' },
      { name: 'App', developerId: 'app' },
    ]);
    const res = await ws.api.patch('projects', {
      updates: [
        { developerId: 'web', name: 'Renamed', developerMode: true },
        { developerId: 'app', baseId: 'ghost' },
      ],
    });
    expect(res.status).toBe(400);
    expect((await listProjects(ws))[0]).toEqual({ id: 'web', name: 'Web', baseId: null, developerMode: false });
  });
});

describe('DELETE /v2/projects', () => {
  it('deletes projects and leaves bases and other projects', async () => {
    const ws = await createWorkspace(ctx);
    await createBases(ws, [{ name: 'Core', developerId: 'core' }]);
    await createProjects(ws, [
      { name: 'A', developerId: 'a' },
      { name: 'B', developerId: 'b' },
      { name: 'C', developerId: 'c' },
    ]);
    const res = await ws.api.delete('projects', { developerIds: ['a', 'c'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await listProjects(ws)).map((p: { id: string }) => p.id)).toEqual(['b']);
    expect((await ws.api.get('bases')).body).toEqual([{ id: 'core', name: 'Core' }]);
    // A freed id can be taken again.
    expect((await createProjects(ws, [{ name: 'A again', developerId: 'a' }])).status).toBe(201);
  });

  it('answers 404 for an unknown project or a base, 400 for a repeated id, and deletes nothing', async () => {
    const ws = await createWorkspace(ctx);
    await createBases(ws, [{ name: 'Core', developerId: 'core' }]);
    await createProjects(ws, [{ name: 'A', developerId: 'a' }]);
    const unknown = await ws.api.delete('projects', { developerIds: ['a', 'ghost'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Project with developer ID ghost not found');
    const base = await ws.api.delete('projects', { developerIds: ['a', 'core'] });
    expect(base.status).toBe(404);
    expect(base.body.message).toBe('Project with developer ID core not found');
    const repeated = await ws.api.delete('projects', { developerIds: ['a', 'a'] });
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toBe("developerIds[1]: duplicate developer ID 'a'");
    const empty = await ws.api.delete('projects', { developerIds: [] });
    expect(empty.body.message).toBe('developerIds must NOT have fewer than 1 items');
    expect((await listProjects(ws)).map((p: { id: string }) => p.id)).toEqual(['a']);
  });
});
