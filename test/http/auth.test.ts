import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp } from '../helpers/app.js';

const ctx = await setupApp();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectUnauthorized(res: { status: number; body: unknown; headers: Record<string, unknown> }) {
  expect(res.status).toBe(401);
  expect(res.body).toEqual({
    message: 'Invalid or missing API key',
    code: 'unauthorized',
    requestId: expect.any(String),
  });
  const { requestId } = res.body as { requestId: string };
  expect(requestId).toMatch(UUID);
  expect(res.headers['x-request-id']).toBe(requestId);
}

const tokenCheck = (authorization?: string) =>
  ctx.app.inject({ method: 'GET', url: '/token-check', headers: authorization === undefined ? {} : { authorization } });

describe('keys on /v2', () => {
  it('answers 401 without a key, on reads and on writes', async () => {
    const anonymous = apiClient(ctx.app, null);
    expectUnauthorized(await anonymous.get('statuses'));
    expectUnauthorized(await anonymous.put('statuses', { statuses: [{ id: 'A', name: 'A' }] }));
    expectUnauthorized(await anonymous.post('variants', { variants: [{ name: 'French' }] }));
    expectUnauthorized(await apiClient(ctx.app, '').get('variables'));
    expectUnauthorized(await apiClient(ctx.app, '   ').get('variables'));
  });

  it('answers 401 for a wrong key, also one that differs in one character from a real one', async () => {
    const { key } = await createWorkspace(ctx);
    const flipped = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expectUnauthorized(await apiClient(ctx.app, 'cdk_nope').get('statuses'));
    expectUnauthorized(await apiClient(ctx.app, flipped).get('statuses'));
    expectUnauthorized(await apiClient(ctx.app, `${key}x`).get('componentFolders'));
    expectUnauthorized(await apiClient(ctx.app, `Bearer ${key}`).get('statuses'));
  });

  it('answers 401 for a revoked key at once, while the other keys of the user keep working', async () => {
    const { id, email, api } = await createWorkspace(ctx);
    const revoked = await ctx.services.accounts.createKey({ workspaceId: id, email, name: 'to revoke' });
    const client = apiClient(ctx.app, revoked.key);
    expect((await client.get('statuses')).status).toBe(200);
    await ctx.services.accounts.revokeKey(revoked.id);
    expectUnauthorized(await client.get('statuses'));
    expectUnauthorized(await client.post('variables', { variables: [{ name: 'x', type: 'list', data: ['a'] }] }));
    expect((await api.get('variables')).body).toEqual([]);
    expect((await api.get('statuses')).status).toBe(200);
    expect((await tokenCheck(revoked.key)).statusCode).toBe(401);
  });

  it('does not take `token <KEY>` on /v2: v2 clients send the raw key', async () => {
    const { key } = await createWorkspace(ctx);
    expectUnauthorized(await apiClient(ctx.app, `token ${key}`).get('statuses'));
    expectUnauthorized(await apiClient(ctx.app, `token ${key}`).get('users'));
  });

  it('accepts the key with surrounding white space and the client headers x-ditto-client-id and x-ditto-app', async () => {
    const { key, api } = await createWorkspace(ctx);
    const res = await api.get('statuses', { 'x-ditto-client-id': 'c0ffee-1234', 'x-ditto-app': 'cli' });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(4);
    expect((await apiClient(ctx.app, ` ${key} `).get('statuses')).status).toBe(200);
    const check = await ctx.app.inject({
      method: 'GET',
      url: '/token-check',
      headers: { authorization: `token ${key}`, 'x-ditto-client-id': 'c0ffee-1234', 'x-ditto-app': 'cli' },
    });
    expect(check.statusCode).toBe(200);
  });
});

describe('GET /token-check', () => {
  it('answers 200 {"success":true} for the raw key and for `token <KEY>`', async () => {
    const { key } = await createWorkspace(ctx);
    for (const authorization of [key, `token ${key}`, `Token ${key}`]) {
      const res = await tokenCheck(authorization);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ success: true });
    }
  });

  it('answers 401 for a missing, empty, wrong or malformed key', async () => {
    const { key } = await createWorkspace(ctx);
    for (const authorization of [undefined, '', 'token', 'token ', 'cdk_wrong', `token cdk_wrong`, `token ${key} x`]) {
      const res = await tokenCheck(authorization);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message: 'Invalid or missing API key', code: 'unauthorized' });
    }
  });

  it('lives at the host root only', async () => {
    const { api } = await createWorkspace(ctx);
    expect((await api.get('/v2/token-check')).status).toBe(404);
  });
});

describe('a key reaches its own workspace only', () => {
  it('statuses: A replacing its workflow leaves B untouched', async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    const bBefore = (await b.api.get('statuses')).body;
    expect((await a.api.put('statuses', { statuses: [{ id: 'ONLY_A', name: 'Only A' }] })).status).toBe(200);
    expect((await a.api.get('statuses')).body).toEqual([{ id: 'ONLY_A', name: 'Only A' }]);
    expect((await b.api.get('statuses')).body).toEqual(bBefore);
    expect(bBefore).toHaveLength(4);
  });

  it("variants: A's variants are invisible to B, and B's ids are not found for A", async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    expect((await b.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] })).status).toBe(201);
    expect((await a.api.post('variants', { variants: [{ name: 'Spanish', developerId: 'es' }] })).status).toBe(201);
    expect((await b.api.get('variants')).body.map((v: { id: string }) => v.id)).toEqual(['fr']);
    expect((await a.api.get('variants')).body.map((v: { id: string }) => v.id)).toEqual(['es']);

    const patch = await a.api.patch('variants', { updates: [{ developerId: 'fr', name: 'Stolen' }] });
    expect(patch.status).toBe(404);
    expect(patch.body.message).toBe('Variants not found: fr');
    const del = await a.api.delete('variants', { developerIds: ['fr'] });
    expect(del.status).toBe(404);
    expect(del.body.message).toBe('Variants not found: fr');
    // The same developer ID and name are free in another workspace.
    expect((await a.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] })).status).toBe(201);
    expect((await b.api.get('variants')).body).toEqual([
      { id: 'fr', name: 'French', description: '', localeCode: null },
    ]);
  });

  it("variables: A's variables are invisible to B, and B's names are not found for A", async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    const variable = { name: 'user_name', type: 'string', data: { example: 'Ada' } };
    expect((await b.api.post('variables', { variables: [variable] })).status).toBe(201);
    expect((await a.api.get('variables')).body).toEqual([]);

    const patch = await a.api.patch('variables', { updates: [{ developerId: 'user_name', data: { example: 'Eve' } }] });
    expect(patch.status).toBe(404);
    expect(patch.body.message).toBe('Variable with developer ID user_name not found');
    const del = await a.api.delete('variables', { developerIds: ['user_name'] });
    expect(del.status).toBe(404);
    expect(del.body.message).toBe('Variable with developer ID user_name not found');
    expect((await b.api.get('variables')).body).toEqual([{ id: 'user_name', ...variable }]);

    expect((await a.api.post('variables', { variables: [{ ...variable, data: { example: 'Eve' } }] })).status).toBe(
      201,
    );
    expect((await b.api.get('variables')).body[0].data).toEqual({ example: 'Ada' });
  });

  it("component folders: A's folders are invisible to B, and B's ids are not found for A", async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    expect(
      (await b.api.post('componentFolders', { folders: [{ name: 'Private', developerId: 'private' }] })).status,
    ).toBe(201);
    expect((await a.api.get('componentFolders')).body).toEqual([]);

    const asParent = await a.api.post('componentFolders', { folders: [{ name: 'Child', parentId: 'private' }] });
    expect(asParent.status).toBe(400);
    expect(asParent.body.message).toBe('folders[0].parentId: Folder id not found: private');
    const del = await a.api.delete('componentFolders', { developerIds: ['private'] });
    expect(del.status).toBe(404);
    expect(del.body.message).toBe('Folder id not found: private');
    expect((await a.api.get('componentFolders')).body).toEqual([]);
    expect((await b.api.get('componentFolders')).body).toEqual([{ id: 'private', name: 'Private', parentId: null }]);
  });

  it("users: each key lists its own workspace's users only", async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    expect((await a.api.get('users')).body).toEqual([{ email: a.email, name: 'Writer', role: 'admin' }]);
    expect((await b.api.get('users')).body).toEqual([{ email: b.email, name: 'Writer', role: 'admin' }]);
  });
});
