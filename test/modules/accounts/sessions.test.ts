import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { browserFor, cookieOf, signedIn } from './people.js';

const ctx = await setupApp();
const PASSWORD = 'correct horse battery';

const signIn = (payload: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url: '/v2/session', payload, headers });

describe('signing in', () => {
  it('an invited user sets a password through the one-time link, then signs in with it', async () => {
    const ws = await createWorkspace(ctx);
    // Unique: on PostgreSQL the database outlives the run, and an email may be in several workspaces.
    const email = `nadia-${ws.id}@example.com`;
    const invited = await ws.api.post('users', {
      email: email.replace('nadia', 'Nadia'),
      name: 'Nadia',
      role: 'editor',
    });
    expect(invited.status).toBe(201);
    // This server sends no email: the answer says the link was not emailed, to share it by hand.
    expect(invited.body).toMatchObject({ email, role: 'editor', emailed: false });
    const link = new URL(invited.body.passwordLink);
    expect(link.pathname).toBe('/set-password');
    const token = link.hash.replace('#token=', '');

    const tooShort = await ctx.app.inject({
      method: 'POST',
      url: '/v2/session/password',
      payload: { token, password: 'short' },
    });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().message).toMatch(/^password: must be at least 10 characters/);

    const set = await ctx.app.inject({
      method: 'POST',
      url: '/v2/session/password',
      payload: { token, password: PASSWORD },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ email, name: 'Nadia', role: 'editor', workspaceId: ws.id });
    const cookie = String(set.headers['set-cookie']);
    expect(cookie).toMatch(/^copydesk_session=[\w-]{40,};/);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).not.toMatch(/; Secure/i);

    const again = await ctx.app.inject({
      method: 'POST',
      url: '/v2/session/password',
      payload: { token, password: PASSWORD },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/^token: /);

    const wrong = await signIn({ email, password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const unknown = await signIn({ email: `nobody-${ws.id}@example.com`, password: PASSWORD });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe(wrong.json().message);

    const ok = await signIn({ email: email.toUpperCase(), password: PASSWORD });
    expect(ok.statusCode).toBe(200);
    const browser = browserFor(ctx.app, cookieOf(ok.headers['set-cookie']), ok.json().csrfToken);
    const me = await browser.call('GET', 'session');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, role: 'editor', csrfToken: ok.json().csrfToken });
  });

  it('failed sign-ins are limited per account, whatever the address: then even the right password waits', async () => {
    const ws = await createWorkspace(ctx);
    const passwordFor = async (name: string) => {
      const email = `${name}-${ws.id}@example.com`;
      const invited = await ws.api.post('users', { email, role: 'editor' });
      const token = new URL(invited.body.passwordLink).hash.replace('#token=', '');
      await ctx.app.inject({ method: 'POST', url: '/v2/session/password', payload: { token, password: PASSWORD } });
      return email;
    };
    const target = await passwordFor('target');
    const bystander = await passwordFor('bystander');
    const from = (address: string, payload: object) =>
      ctx.app.inject({ method: 'POST', url: '/v2/session', payload, remoteAddress: address });
    for (let i = 0; i < 5; i += 1) {
      const wrong = await from(`203.0.113.${i}`, { email: target, password: `wrong-guess-${i}` });
      expect(wrong.statusCode).toBe(401);
    }
    const locked = await from('198.51.100.7', { email: target.toUpperCase(), password: PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many failed sign-ins for this account: retry in \d+ s$/),
    });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(locked.headers['set-cookie']).toBeUndefined();
    // Another account is untouched, from the very addresses the guesses came from.
    expect((await from('203.0.113.1', { email: bystander, password: PASSWORD })).statusCode).toBe(200);
  });

  it('a user without a password cannot sign in, and a bad body names the field', async () => {
    const ws = await createWorkspace(ctx);
    expect((await signIn({ email: ws.email, password: PASSWORD })).statusCode).toBe(401);
    const bad = await signIn({ email: ws.email });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/password/);
  });

  it('the cookie is Secure when the request came over HTTPS through a trusted proxy', async () => {
    const proxied = await setupApp({ trustProxy: 1 });
    const ws = await createWorkspace(proxied);
    const invited = await ws.api.post('users', { email: 'sam@example.com', role: 'viewer' });
    const token = new URL(invited.body.passwordLink).hash.replace('#token=', '');
    const res = await proxied.app.inject({
      method: 'POST',
      url: '/v2/session/password',
      payload: { token, password: PASSWORD },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/; Secure/i);
  });
});

describe('a session authenticates the v2 API', () => {
  it('reads with the cookie alone; writes need the CSRF header; the change log names the person, no key', async () => {
    const ws = await createWorkspace(ctx);
    const editor = await signedIn(ctx.app, ws, 'editor');
    expect((await ctx.app.inject({ method: 'GET', url: '/v2/textItems' })).statusCode).toBe(401);
    expect((await editor.call('GET', 'textItems')).status).toBe(200);

    const body = { components: [{ developerId: 'hello', name: 'Hello', text: 'Hello' }] };
    const noToken = await editor.call('POST', 'components', body, { 'x-csrf-token': '' });
    expect(noToken.status).toBe(403);
    expect(noToken.body.message).toMatch(/^x-csrf-token: /);
    const wrongToken = await editor.call('POST', 'components', body, { 'x-csrf-token': 'forged' });
    expect(wrongToken.status).toBe(403);
    expect((await ws.api.get('components')).body).toEqual([]);

    expect((await editor.call('POST', 'components', body)).status).toBe(201);
    const history = await ws.api.get('history?kind=component&id=hello');
    const me = (await editor.call('GET', 'session')).body;
    expect(history.body.changes).toEqual([
      expect.objectContaining({ actor: me.email, keyId: null, action: 'created' }),
    ]);
  });

  it('a key in Authorization wins over a cookie', async () => {
    const ws = await createWorkspace(ctx);
    const viewer = await signedIn(ctx.app, ws, 'viewer');
    const res = await viewer.call(
      'POST',
      'variants',
      { variants: [{ name: 'French', developerId: 'fr' }] },
      {
        authorization: ws.key,
      },
    );
    expect(res.status).toBe(201);
    const [change] = (await ws.api.get('history?kind=variant')).body.changes;
    expect(change).toMatchObject({ actor: ws.email, keyId: expect.stringMatching(/^key_/) });
  });

  it('signing out ends the session everywhere; an expired session is a 401', async () => {
    const ws = await createWorkspace(ctx);
    const editor = await signedIn(ctx.app, ws, 'editor');
    const out = await editor.call('DELETE', 'session');
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^copydesk_session=;/);
    const after = await editor.call('GET', 'textItems');
    expect(after.status).toBe(401);
    expect(after.body.message).toMatch(/sign in again/);

    const other = await signedIn(ctx.app, ws, 'editor');
    expect((await other.call('GET', 'textItems')).status).toBe(200);
    // Only this workspace's sessions: on PostgreSQL other test files share the database.
    const users = ctx.database.db.selectFrom('users').select('id').where('workspace_id', '=', ws.id);
    await ctx.database.db
      .updateTable('sessions')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('user_id', 'in', users)
      .execute();
    expect((await other.call('GET', 'textItems')).status).toBe(401);
  });

  it('a new password ends the sessions signed in with the old one', async () => {
    const ws = await createWorkspace(ctx);
    const editor = await signedIn(ctx.app, ws, 'editor');
    const { email } = (await editor.call('GET', 'session')).body;
    const link = await ws.api.post(`users/${encodeURIComponent(email)}/passwordLink`, {});
    expect(link.status).toBe(201);
    expect(link.body.emailed).toBe(false);
    const token = new URL(link.body.passwordLink).hash.replace('#token=', '');
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/v2/session/password',
      payload: { token, password: 'a brand new password' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await editor.call('GET', 'textItems')).status).toBe(401);
    expect((await signIn({ email, password: 'a brand new password' })).statusCode).toBe(200);
  });
});
