import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

const ctx = await setupApp();

async function workspace(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  const ok = async (path: string, body: object) => {
    const res = await ws.api.post(path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  await ok('bases', { bases: [{ name: 'Core', developerId: 'core' }] });
  await ok('projects', {
    projects: [
      { name: 'Web', developerId: 'web' },
      { name: 'App', developerId: 'app' },
    ],
  });
  await ok('projectBlocks', {
    projectId: 'web',
    blocks: [
      { name: 'Header', developerId: 'header' },
      { name: 'Footer', developerId: 'footer' },
    ],
  });
  await ok('textItems', { projectId: 'web', textItems: [{ developerId: 'hello', text: 'Hello', blockId: 'header' }] });
  return ws;
}

const history = async (ws: Workspace, kind: string, id: string) =>
  (await ws.api.get(`history?kind=${kind}&id=${id}`)).body.changes as any[];

describe('PATCH /v2/projects', () => {
  it('changes name, developer ID and developer mode together; items, blocks and history follow', async () => {
    const ws = await workspace();
    const res = await ws.api.patch('projects', {
      updates: [{ developerId: 'web', newDeveloperId: 'website', name: 'Website', developerMode: true }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await ws.api.get('projects')).body).toEqual([
      { id: 'website', name: 'Website', baseId: null, developerMode: true },
      { id: 'app', name: 'App', baseId: null, developerMode: false },
    ]);
    const items = (await ws.api.get('textItems')).body;
    expect(items).toEqual([expect.objectContaining({ id: 'hello', projectId: 'website', blockName: 'Header' })]);
    expect((await ws.api.get('projectBlocks?projectId=website')).body.map((b: any) => b.id)).toEqual([
      'header',
      'footer',
    ]);
    expect((await ws.api.get('projectBlocks?projectId=web')).status).toBe(400);
    const changes = await history(ws, 'project', 'website');
    expect(changes[0]).toMatchObject({
      action: 'renamed',
      developerId: 'website',
      fields: {
        developerId: { before: 'web', after: 'website' },
        name: { before: 'Web', after: 'Website' },
        developerMode: { before: false, after: true },
      },
    });
    expect(changes.map((c) => c.action)).toEqual(['renamed', 'created']);
    // The legacy API names the project by its new ID.
    const legacy = await ctx.app.inject({
      method: 'GET',
      url: '/v1/projects',
      headers: { authorization: `token ${ws.key}` },
    });
    expect(legacy.statusCode, legacy.body).toBe(200);
    expect(JSON.stringify(legacy.json())).toContain('website');
    expect(JSON.stringify(legacy.json())).not.toContain('"web"');
  });

  it('answers 409 when a project or base holds the new ID, 400 when repeated; all or none', async () => {
    const ws = await workspace();
    const before = (await ws.api.get('projects')).body;
    const cases: [object[], number, string][] = [
      [
        [
          { developerId: 'app', name: 'Renamed' },
          { developerId: 'web', newDeveloperId: 'app' },
        ],
        409,
        'updates[1].newDeveloperId: Project with developer ID app already exists in workspace',
      ],
      [[{ developerId: 'web', newDeveloperId: 'core' }], 409, 'updates[0].newDeveloperId: Base with developer ID core'],
      [
        [
          { developerId: 'web', newDeveloperId: 'x' },
          { developerId: 'app', newDeveloperId: 'x' },
        ],
        400,
        "updates[1].newDeveloperId: developer ID 'x' is also given to updates[0]",
      ],
      [[{ developerId: 'web', newDeveloperId: 'not valid' }], 400, 'newDeveloperId'],
    ];
    for (const [updates, status, message] of cases) {
      const res = await ws.api.patch('projects', { updates });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.message).toContain(message);
      expect((await ws.api.get('projects')).body).toEqual(before);
    }
  });

  it('keeps workspaces apart', async () => {
    const ws = await workspace();
    const other = await workspace();
    expect(
      (await other.api.patch('projects', { updates: [{ developerId: 'web', newDeveloperId: 'theirs' }] })).status,
    ).toBe(200);
    expect((await ws.api.get('projects')).body[0].id).toBe('web');
    expect(
      (await ws.api.patch('projects', { updates: [{ developerId: 'web', newDeveloperId: 'theirs' }] })).status,
    ).toBe(200);
    expect((await ws.api.patch('projects', { updates: [{ developerId: 'app-x', name: 'x' }] })).status).toBe(404);
  });
});

describe('PATCH /v2/projectBlocks', () => {
  it('renames and gives new developer IDs; the block keeps its items and its history', async () => {
    const ws = await workspace();
    const res = await ws.api.patch('projectBlocks', {
      projectId: 'web',
      updates: [
        { developerId: 'header', newDeveloperId: 'top', name: 'Top' },
        { developerId: 'footer', newDeveloperId: 'bottom' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await ws.api.get('projectBlocks?projectId=web')).body).toEqual([
      { id: 'top', name: 'Top' },
      { id: 'bottom', name: 'Footer' },
    ]);
    expect((await ws.api.get('textItems')).body[0]).toMatchObject({ id: 'hello', blockName: 'Top' });
    const changes = await history(ws, 'block', 'top');
    expect(changes[0]).toMatchObject({
      action: 'renamed',
      fields: { developerId: { before: 'header', after: 'top' }, name: { before: 'Header', after: 'Top' } },
    });
    expect(changes.map((c) => c.action)).toEqual(['renamed', 'created']);
    // Text items name the block by its new developer ID.
    const moved = await ws.api.patch('textItems', { updates: [{ developerId: 'hello', blockId: 'bottom' }] });
    expect(moved.status).toBe(200);
  });

  it('answers 409 for an ID another block of the project holds, 400 when repeated; all or none', async () => {
    const ws = await workspace();
    const before = (await ws.api.get('projectBlocks?projectId=web')).body;
    const cases: [object[], number, string][] = [
      [
        [
          { developerId: 'header', name: 'Top' },
          { developerId: 'footer', newDeveloperId: 'header' },
        ],
        409,
        'updates[1].newDeveloperId: Block with developer ID header already exists in workspace project web',
      ],
      [
        [
          { developerId: 'header', newDeveloperId: 'x' },
          { developerId: 'footer', newDeveloperId: 'x' },
        ],
        400,
        "updates[1].newDeveloperId: developer ID 'x' is also given to updates[0]",
      ],
      [[{ developerId: 'header', newDeveloperId: 'a b' }], 400, 'newDeveloperId'],
    ];
    for (const [updates, status, message] of cases) {
      const res = await ws.api.patch('projectBlocks', { projectId: 'web', updates });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.message).toContain(message);
      expect((await ws.api.get('projectBlocks?projectId=web')).body).toEqual(before);
    }
    // A block ID of another project is free in this one.
    await ws.api.post('projectBlocks', { projectId: 'app', blocks: [{ name: 'Main', developerId: 'main' }] });
    const free = await ws.api.patch('projectBlocks', {
      projectId: 'web',
      updates: [{ developerId: 'header', newDeveloperId: 'main' }],
    });
    expect(free.status).toBe(200);
  });

  it('documents newDeveloperId in OpenAPI for projects and blocks', async () => {
    const doc = JSON.parse((await ctx.app.inject({ method: 'GET', url: '/v2/openapi.json' })).body);
    const fields = (path: string) =>
      Object.keys(
        doc.paths[path].patch.requestBody.content['application/json'].schema.properties.updates.items.properties,
      );
    expect(fields('/v2/projects')).toEqual(expect.arrayContaining(['newDeveloperId', 'name', 'developerMode']));
    expect(fields('/v2/projectBlocks')).toEqual(expect.arrayContaining(['newDeveloperId', 'name']));
  });
});
