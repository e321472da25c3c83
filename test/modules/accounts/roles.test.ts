import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp } from '../../helpers/app.js';
import { signedIn } from './people.js';

const ctx = await setupApp();

describe('roles', () => {
  it('an unknown role has no rights at all: roles fail closed', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('users', { email: 'odd@example.com', role: 'admin' });
    // As a restore or a hand edit could leave it: a role the server does not know.
    await ctx.database.db
      .updateTable('users')
      .set({ role: 'superadmin' as never })
      .where('email', '=', 'odd@example.com')
      .where('workspace_id', '=', ws.id)
      .execute();
    const { key } = await ctx.services.accounts.createKey({ workspaceId: ws.id, email: 'odd@example.com' });
    const odd = apiClient(ctx.app, key);
    for (const call of [
      () => odd.get('statuses'),
      () => odd.post('users', { email: 'x@example.com', role: 'admin' }),
      () => odd.patch('workspace', { name: 'Mine' }),
      () => odd.get('webhooks'),
    ]) {
      const res = await call();
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/'superadmin', which is not one of admin, editor, commenter, viewer/);
    }
    const invited = await ctx.database.db
      .selectFrom('users')
      .select('email')
      .where('email', '=', 'x@example.com')
      .execute();
    expect(invited).toEqual([]);
  });

  it('a viewer reads, exports and lints, but every write is a 403 and changes nothing', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('components', { components: [{ developerId: 'hi', name: 'Hi', text: 'Hi' }] });
    const viewer = await signedIn(ctx.app, ws, 'viewer');
    expect((await viewer.call('GET', 'components')).status).toBe(200);
    expect((await viewer.call('GET', 'textItems/export?format=json_i18next')).status).toBe(200);
    expect((await viewer.call('POST', 'styleguides/lint', { texts: [{ text: 'hello' }] })).status).toBe(200);
    const update = await viewer.call('PATCH', 'components', { updates: [{ developerId: 'hi', text: 'Bye' }] });
    expect(update.status).toBe(403);
    expect(update.body.message).toMatch(/needs the editor role/);
    expect((await ws.api.get('components')).body[0].text).toBe('Hi');
  });

  it('a commenter reads but, outside comments and suggesting, is refused every write a viewer is, and changes nothing', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('components', { components: [{ developerId: 'hi', name: 'Hi', text: 'Hi' }] });
    await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    await ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'title', text: 'Title' }] });
    const commenter = await signedIn(ctx.app, ws, 'commenter');
    const viewer = await signedIn(ctx.app, ws, 'viewer');
    await ws.api.post('users', { email: 'critic@example.com', role: 'commenter' });
    const { key } = await ctx.services.accounts.createKey({ workspaceId: ws.id, email: 'critic@example.com' });
    expect((await commenter.call('GET', 'session')).body.role).toBe('commenter');
    for (const path of [
      'components',
      'textItems',
      'textItems/export?format=json_i18next',
      'history',
      'comments',
      'suggestions',
    ]) {
      expect((await commenter.call('GET', path)).status, path).toBe(200);
    }
    const before = (await ws.api.get('history?limit=1000')).body;
    // Every documented write but those under /v2/comments, making and withdrawing suggestions,
    // /v2/keys, /v2/notifications, /v2/follows and /v2/users/me (everyone's own), with a body that
    // would be valid for an editor where it matters: the role is checked before the body.
    // Accepting and rejecting a suggestion are in the sweep.
    const document = (await ctx.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
    const writes: [string, string][] = [];
    for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
      if (!path.startsWith('/v2/') || path.startsWith('/v2/comments') || path.startsWith('/v2/keys')) continue;
      if (path.startsWith('/v2/notifications') || path.startsWith('/v2/follows')) continue;
      // Who has which text open: every reader's own tab.
      if (path === '/v2/presence') continue;
      // One's own email preference, and the unsubscribe link (public: its token is the proof).
      if (path.startsWith('/v2/users/me/') || path.startsWith('/v2/email/')) continue;
      if (path === '/v2/session' || path.startsWith('/v2/session/')) continue;
      if (path === '/v2/suggestions' || path === '/v2/suggestions/withdraw') continue;
      for (const method of Object.keys(item)) {
        if (['post', 'put', 'patch', 'delete'].includes(method)) writes.push([method.toUpperCase(), path]);
      }
    }
    expect(writes.length).toBeGreaterThan(30);
    const reads = new Set(['POST /v2/styleguides/lint', 'POST /v2/cli/swiftDriver']);
    for (const [method, template] of writes) {
      const path = template.replace(/\{[^}]+\}/g, 'x').slice('/v2/'.length);
      const name = `${method} ${template}`;
      const body = { updates: [{ developerId: 'hi', text: 'Changed' }] };
      const asViewer = await viewer.call(method as 'POST', path, body);
      const asCommenter = await commenter.call(method as 'POST', path, body);
      if (reads.has(name)) continue;
      expect(asViewer.status, name).toBe(403);
      expect(asCommenter.status, name).toBe(403);
      expect(asCommenter.body.message, name).toMatch(/needs the (editor|admin) role; .* is a commenter/);
    }
    // The deprecated APIs' writes take a key (`token <KEY>`): a commenter's key is refused there too.
    const legacy = apiClient(ctx.app, `token ${key}`);
    for (const path of ['/components', '/v1/components']) {
      const res = await legacy.put(path, { hi: { text: 'Changed' } });
      expect(res.status, `PUT ${path}`).toBe(403);
    }
    expect((await legacy.get('/v1/variants')).status).toBe(200);
    const update = await commenter.call('PATCH', 'textItems', { updates: [{ developerId: 'title', text: 'Mine' }] });
    expect(update.status).toBe(403);
    expect(update.body.message).toMatch(/needs the editor role/);
    expect((await ws.api.get('history?limit=1000')).body).toEqual(before);
    expect((await ws.api.get('textItems')).body[0].text).toBe('Title');
  });

  it('every role marks its own notifications read, follows texts and says which text it has open', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('components', { components: [{ developerId: 'hi', name: 'Hi', text: 'Hi' }] });
    for (const role of ['viewer', 'commenter'] as const) {
      const user = await signedIn(ctx.app, ws, role);
      expect((await user.call('PUT', 'follows', { follows: [{ componentId: 'hi' }] })).status, role).toBe(200);
      expect((await user.call('DELETE', 'follows', { follows: [{ componentId: 'hi' }] })).status, role).toBe(200);
      expect((await user.call('POST', 'notifications/read', { all: true })).status, role).toBe(200);
      const tab = { clientId: `tab-${role}-0001`, kind: 'component', id: 'hi' };
      expect((await user.call('PUT', 'presence', tab)).status, role).toBe(200);
      expect((await user.call('DELETE', 'presence', { clientId: tab.clientId })).status, role).toBe(200);
    }
  });

  it("a viewer's key is a viewer too", async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('users', { email: 'reader@example.com', role: 'viewer' });
    const { key } = await ctx.services.accounts.createKey({ workspaceId: ws.id, email: 'reader@example.com' });
    const reader = apiClient(ctx.app, key);
    expect((await reader.get('components')).status).toBe(200);
    expect((await reader.post('components', { components: [{ developerId: 'x', name: 'X', text: 'X' }] })).status).toBe(
      403,
    );
  });

  it('an editor writes text but cannot change people, the workflow or the settings', async () => {
    const ws = await createWorkspace(ctx);
    const editor = await signedIn(ctx.app, ws, 'editor');
    expect(
      (await editor.call('POST', 'components', { components: [{ developerId: 'a', name: 'A', text: 'A' }] })).status,
    ).toBe(201);
    expect((await editor.call('GET', 'statuses')).status).toBe(200);
    const statuses = (await ws.api.get('statuses')).body;
    expect((await editor.call('PUT', 'statuses', { statuses })).status).toBe(403);
    expect((await editor.call('POST', 'users', { email: 'x@example.com', role: 'admin' })).status).toBe(403);
    expect((await editor.call('PATCH', 'workspace', { name: 'Mine' })).status).toBe(403);
    const me = (await editor.call('GET', 'session')).body.email;
    expect((await editor.call('PATCH', `users/${encodeURIComponent(me)}`, { role: 'admin' })).status).toBe(403);
    expect((await ws.api.get('users')).body.find((u: { email: string }) => u.email === me).role).toBe('editor');
  });

  it('an admin changes roles, recorded in history; the last admin cannot step down', async () => {
    const ws = await createWorkspace(ctx);
    const admin = await signedIn(ctx.app, ws, 'admin');
    const editor = await signedIn(ctx.app, ws, 'editor');
    const editorEmail = (await editor.call('GET', 'session')).body.email;
    const promoted = await admin.call('PATCH', `users/${encodeURIComponent(editorEmail)}`, { role: 'viewer' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ email: editorEmail, role: 'viewer' });
    // The new role applies at once to the session already open.
    expect(
      (await editor.call('POST', 'components', { components: [{ developerId: 'b', name: 'B', text: 'B' }] })).status,
    ).toBe(403);
    const [change] = (await ws.api.get(`history?kind=user&id=${encodeURIComponent(editorEmail)}`)).body.changes;
    expect(change).toMatchObject({
      action: 'updated',
      keyId: null,
      fields: { role: { before: 'editor', after: 'viewer' } },
    });

    // Two admins (the key's user and this one): demote one, the other is then the last.
    expect((await admin.call('PATCH', `users/${encodeURIComponent(ws.email)}`, { role: 'editor' })).status).toBe(200);
    const me = (await admin.call('GET', 'session')).body.email;
    const last = await admin.call('PATCH', `users/${encodeURIComponent(me)}`, { role: 'editor' });
    expect(last.status).toBe(409);
    expect(last.body.message).toMatch(/^role: /);
  });
});

describe("API keys of one's own", () => {
  it("anyone creates and revokes their own keys; only an admin revokes another's", async () => {
    const ws = await createWorkspace(ctx);
    const viewer = await signedIn(ctx.app, ws, 'viewer');
    const created = await viewer.call('POST', 'keys', { name: 'laptop' });
    expect(created.status).toBe(201);
    const key = apiClient(ctx.app, created.body.key);
    expect((await key.get('components')).status).toBe(200);
    expect((await key.post('components', { components: [{ developerId: 'k', name: 'K', text: 'K' }] })).status).toBe(
      403,
    );

    const mine = await viewer.call('GET', 'keys');
    expect(mine.body.map((k: { id: string }) => k.id)).toEqual([created.body.id]);
    const admins = (await ws.api.get('keys')).body.map((k: { id: string }) => k.id);
    expect(admins).toHaveLength(2);
    const adminKey = admins.find((id: string) => id !== created.body.id);
    expect((await viewer.call('DELETE', `keys/${adminKey}`)).status).toBe(403);
    expect((await ws.api.get('components')).status).toBe(200);

    expect((await viewer.call('DELETE', `keys/${created.body.id}`)).status).toBe(204);
    expect((await key.get('components')).status).toBe(401);
    expect((await viewer.call('DELETE', 'keys/key_nonexistent')).status).toBe(404);
  });
});
