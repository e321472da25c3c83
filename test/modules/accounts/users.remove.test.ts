import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp } from '../../helpers/app.js';
import { signedIn } from './people.js';

const ctx = await setupApp();
const at = (email: string) => `users/${encodeURIComponent(email)}`;

describe('DELETE /v2/users/{email}', () => {
  it('removes a user: their session and keys stop working, their texts lose them, history says so', async () => {
    const ws = await createWorkspace(ctx);
    const writer = await signedIn(ctx.app, ws, 'editor');
    const email = (await writer.call('GET', 'session')).body.email as string;
    const created = await writer.call('POST', 'keys', { name: 'laptop' });
    const writerKey = apiClient(ctx.app, created.body.key);
    expect((await writerKey.get('projects')).status).toBe(200);

    await ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] });
    await ws.api.post('projects', { projects: [{ name: 'Shop', developerId: 'shop' }] });
    const texts = await ws.api.post('textItems', {
      projectId: 'shop',
      textItems: [
        {
          developerId: 'mine',
          text: 'Mine',
          assignee: email,
          variants: [{ variantId: 'fr', text: 'À moi', assignee: email }],
        },
        { developerId: 'theirs', text: 'Theirs', assignee: ws.email },
      ],
    });
    expect(texts.status).toBe(201);

    const removed = await ws.api.delete(at(email.toUpperCase()), undefined);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });

    expect((await ws.api.get('users')).body.map((u: { email: string }) => u.email)).toEqual([ws.email]);
    expect((await writer.call('GET', 'session')).status).toBe(401);
    expect((await writerKey.get('projects')).status).toBe(401);
    const records = (await ws.api.get(`textItems?filter=${encodeURIComponent('{"variants":[{"id":"all"}]}')}`))
      .body as {
      id: string;
      variantId: string | null;
      assignee: string | null;
    }[];
    expect(records.map((r) => [r.id, r.variantId, r.assignee])).toEqual([
      ['mine', null, null],
      ['mine', 'fr', null],
      ['theirs', null, ws.email],
    ]);

    const user = (await ws.api.get(`history?kind=user&id=${encodeURIComponent(email)}`)).body.changes;
    expect(user[0]).toMatchObject({
      action: 'deleted',
      actor: ws.email,
      fields: { role: { before: 'editor', after: null } },
    });
    const mine = (await ws.api.get('history?kind=textItem&id=mine')).body.changes;
    const unassigned = mine.filter((c: { action: string }) => c.action === 'updated');
    expect(unassigned).toHaveLength(2);
    for (const variantId of [null, 'fr'])
      expect(unassigned).toContainEqual(
        expect.objectContaining({ variantId, actor: ws.email, fields: { assignee: { before: email, after: null } } }),
      );
  });

  it('refuses: an unknown user (404), oneself and the last admin (409), a non-admin (403); nothing changes', async () => {
    const ws = await createWorkspace(ctx);
    const other = await createWorkspace(ctx);
    const unknown = await ws.api.delete(at('nobody@example.com'), undefined);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('User nobody@example.com not found');
    // Another workspace's user is not found either.
    expect((await ws.api.delete(at(other.email), undefined)).status).toBe(404);

    const self = await ws.api.delete(at(ws.email), undefined);
    expect(self.status).toBe(409);
    expect(self.body.message).toMatch(/^email: you cannot remove yourself/);

    const editor = await signedIn(ctx.app, ws, 'editor');
    const editorEmail = (await editor.call('GET', 'session')).body.email as string;
    const refused = await editor.call('DELETE', at(ws.email));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/needs the admin role/);
    expect((await ws.api.get('users')).body.map((u: { email: string }) => u.email).sort()).toEqual(
      [ws.email, editorEmail].sort(),
    );
  });

  it("another admin removes an admin; the removed one's key then gets 401", async () => {
    const ws = await createWorkspace(ctx);
    const second = await signedIn(ctx.app, ws, 'admin');
    const secondEmail = (await second.call('GET', 'session')).body.email as string;
    // The second admin removes the first: allowed, one admin remains.
    expect((await second.call('DELETE', at(ws.email))).status).toBe(200);
    expect((await ws.api.get('users')).status).toBe(401);
    expect((await second.call('GET', 'users')).body.map((u: { email: string }) => u.email)).toEqual([secondEmail]);
  });
});
