import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { history } from './helpers.js';

const ctx = await setupApp();

describe('revisions of writes', () => {
  it('answers Copydesk-Revision on every write that changed something, and history lists it', async () => {
    const ws = await createWorkspace(ctx);
    const project = await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    expect(project.status).toBe(201);
    const first = project.headers['copydesk-revision'];
    expect(first).toMatch(/^\d+$/);

    const created = await ws.api.post('textItems', {
      projectId: 'web',
      textItems: [
        { developerId: 'a', text: 'A' },
        { developerId: 'b', text: 'B' },
      ],
    });
    const second = created.headers['copydesk-revision'];
    expect(Number(second)).toBeGreaterThan(Number(first));

    const changes = await history(ws, `?revision=${second}`);
    expect(changes.map((c) => c.developerId).sort()).toEqual(['a', 'b']);
    expect(changes.every((c) => c.revision === second)).toBe(true);
    expect((await history(ws, `?revision=${first}`)).map((c) => c.developerId)).toEqual(['web']);

    // Nothing changed: no revision made.
    const same = await ws.api.patch('textItems', { updates: [{ developerId: 'a', text: 'A' }] });
    expect(same.status).toBe(200);
    expect(same.headers['copydesk-revision']).toBeUndefined();

    // A failed write: none either.
    const bad = await ws.api.patch('textItems', { updates: [{ developerId: 'ghost', text: 'A' }] });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.headers['copydesk-revision']).toBeUndefined();

    // Reads answer none.
    expect((await ws.api.get('textItems')).headers['copydesk-revision']).toBeUndefined();

    const deleted = await ws.api.delete('textItems', { developerIds: ['b'] });
    expect(deleted.headers['copydesk-revision']).toMatch(/^\d+$/);
    expect(await history(ws, `?revision=${deleted.headers['copydesk-revision']}`)).toMatchObject([
      { developerId: 'b', action: 'deleted' },
    ]);
  });

  it('answers it on the v0/v1 writes too', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('components', { components: [{ developerId: 'hello', text: 'Hello' }] });
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/v1/components',
      headers: { authorization: `token ${ws.key}` },
      payload: { data: { hello: { text: 'Hi' } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const revision = res.headers['copydesk-revision'];
    expect(revision).toMatch(/^\d+$/);
    expect(await history(ws, `?revision=${revision}`)).toMatchObject([
      { developerId: 'hello', action: 'updated', fields: { text: { before: 'Hello', after: 'Hi' } } },
    ]);
  });

  it('filters on several kinds at once', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    await ws.api.post('componentFolders', { folders: [{ name: 'F', developerId: 'f' }] });
    await ws.api.post('components', { components: [{ developerId: 'c', text: 'C' }] });
    const kinds = (await history(ws, '?kind=project,component')).map((c) => c.kind);
    expect(kinds).toEqual(['component', 'project']);
    expect((await history(ws, '?kind=folder,component&id=f')).map((c) => c.developerId)).toEqual(['f']);
    const bad = await ws.api.get('history?kind=project,nope');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('kind');
  });

  it('refuses a revision that is not a positive integer, naming it', async () => {
    const ws = await createWorkspace(ctx);
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const res = await ws.api.get(`history?revision=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('revision');
    }
    expect((await ws.api.get('history?revision=999999')).body.changes).toEqual([]);
  });
});
