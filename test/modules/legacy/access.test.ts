import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { legacy, multipart, ok, seed } from './helpers.js';

const ctx = await setupApp();
const ws = await createWorkspace(ctx);
await seed(ws);

const READS = [
  '/project-names',
  '/projects',
  '/projects/web',
  '/projects/web/components',
  '/components',
  '/component-folders',
  '/component-folders/onboarding/components',
  '/variables',
  '/variants',
];

describe('keys', () => {
  it('answers 401 without a key, with a bad one, and with another scheme', async () => {
    for (const path of [...READS, ...READS.map((p) => `/v1${p}`), '/v1/projects']) {
      expect((await legacy(ctx, null, path)).status, path).toBe(401);
      expect((await legacy(ctx, { key: 'cdk_nope' }, path)).status, path).toBe(401);
      expect((await legacy(ctx, ws, path, { headers: { authorization: `Bearer ${ws.key}` } })).status, path).toBe(401);
    }
    const put = await legacy(ctx, null, '/components', { method: 'PUT', body: {} });
    expect(put.status).toBe(401);
    const file = multipart('import', 'a.csv', 'name,text\nA,a\n');
    const upload = await ctx.app.inject({ method: 'POST', url: '/v1/components/file?text=2', ...file });
    expect(upload.statusCode).toBe(401);
  });

  it('takes the key as `token <KEY>` and raw', async () => {
    for (const path of ['/project-names', '/v1/projects/web?format=flat']) {
      const token = await legacy(ctx, ws, path);
      const raw = await legacy(ctx, ws, path, { raw: true });
      expect(token.status).toBe(200);
      expect(raw.status).toBe(200);
      expect(raw.body).toEqual(token.body);
    }
  });

  it('shows a key nothing of another workspace', async () => {
    const other = await createWorkspace(ctx);
    expect(await ok(ctx, other, '/project-names')).toEqual([
      { id: 'ditto_component_library', name: 'Component Library' },
    ]);
    expect(await ok(ctx, other, '/components?format=flat')).toEqual({});
    expect(await ok(ctx, other, '/component-folders')).toEqual({});
    expect(await ok(ctx, other, '/variables')).toEqual({});
    expect(await ok(ctx, other, '/variants')).toEqual([]);
    expect(await ok(ctx, other, '/projects?format=flat')).toMatchObject({ projects: {} });
    expect((await legacy(ctx, other, '/projects/web')).status).toBe(404);
    expect((await legacy(ctx, other, '/component-folders/onboarding/components')).status).toBe(404);
    const put = await legacy(ctx, other, '/components', { method: 'PUT', body: { welcome: { text: 'Hijacked' } } });
    expect(put.body).toEqual({ componentsUpdated: 0, componentsSkipped: 1 });
    expect((await ok(ctx, ws, '/components?format=flat')).welcome).toBe('Welcome, {{name}}!');
  });
});

describe('developer mode', () => {
  it('answers 403 for a project with developer mode off, 404 naming an unknown one', async () => {
    for (const prefix of ['', '/v1']) {
      for (const path of ['/projects/app', '/projects/app/components', '/variants?projectIds[]=app']) {
        const res = await legacy(ctx, ws, `${prefix}${path}`);
        expect(res.status, path).toBe(403);
        expect(res.body.message).toMatch(/^Developer mode is off for project app/);
      }
      const unknown = await legacy(ctx, ws, `${prefix}/projects/ghost?format=flat`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Project with developer ID ghost not found');
      const folder = await legacy(ctx, ws, `${prefix}/component-folders/ghost/components`);
      expect(folder.status).toBe(404);
      expect(folder.body.message).toBe('Folder id not found: ghost');
    }
    expect((await legacy(ctx, ws, '/projects?projectIds[]=web&projectIds[]=app')).status).toBe(403);
    expect((await legacy(ctx, ws, '/projects?projectIds[]=web&projectIds[]=ghost')).status).toBe(404);
    // Turned on, the project is reachable; the list shows it.
    expect((await ws.api.patch('projects', { updates: [{ developerId: 'app', developerMode: true }] })).status).toBe(
      200,
    );
    expect(await ok(ctx, ws, '/projects/app?format=flat')).toEqual({ 'app.title': 'App title' });
    expect((await ok(ctx, ws, '/v1/projects')).map((p: { id: string }) => p.id)).toEqual([
      'ditto_component_library',
      'web',
      'app',
    ]);
    await ws.api.patch('projects', { updates: [{ developerId: 'app', developerMode: false }] });
    expect((await legacy(ctx, ws, '/projects/app')).status).toBe(403);
  });

  it('answers 403 for the library when the workspace turns it off', async () => {
    const own = await createWorkspace(ctx);
    await seed(own);
    expect((await own.api.patch('workspace', { libraryDeveloperMode: false })).status).toBe(200);
    for (const prefix of ['', '/v1']) {
      for (const path of [
        '/components',
        '/component-folders/onboarding/components',
        '/projects/web/components',
        '/projects/ditto_component_library',
      ]) {
        const res = await legacy(ctx, own, `${prefix}${path}`);
        expect(res.status, path).toBe(403);
        expect(res.body.message).toMatch(/^Developer mode is off for the component library/);
      }
      const put = await legacy(ctx, own, `${prefix}/components`, {
        method: 'PUT',
        body: prefix ? { data: { welcome: { text: 'x' } } } : { welcome: { text: 'x' } },
      });
      expect(put.status).toBe(403);
      // Clients ask for folders on every pull: an unreachable library simply has none.
      expect(await ok(ctx, own, `${prefix}/component-folders`)).toEqual({});
      expect(await ok(ctx, own, `${prefix}/project-names`)).toEqual([{ id: 'web', name: 'Web' }]);
      expect(await ok(ctx, own, `${prefix}/projects/web?format=flat`)).toMatchObject({ 'web.title': 'Title' });
    }
    const file = multipart('import', 'a.csv', 'name,text\nA,a\n');
    const upload = await ctx.app.inject({
      method: 'POST',
      url: '/v1/components/file?text=2',
      headers: { ...file.headers, authorization: `token ${own.key}` },
      payload: file.payload,
    });
    expect(upload.statusCode).toBe(403);
  });
});
