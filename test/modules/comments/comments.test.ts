import { describe, expect, it } from 'vitest';
import { createWorkspace, ok, setupApp, type Workspace } from '../../helpers/app.js';
import { signedIn } from '../accounts/people.js';

const ctx = await setupApp();

/** A workspace with a project, a text item, a component and a French variant. */
async function world(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await ok(ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] }));
  await ok(
    ws.api.post('projects', {
      projects: [
        { name: 'Web', developerId: 'web' },
        { name: 'App', developerId: 'app' },
      ],
    }),
  );
  await ok(ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'title', text: 'Welcome home' }] }));
  await ok(ws.api.post('textItems', { projectId: 'app', textItems: [{ developerId: 'cta', text: 'Go' }] }));
  await ok(ws.api.post('components', { components: [{ developerId: 'button', name: 'Button', text: 'OK' }] }));
  return ws;
}

async function comment(ws: Workspace, input: Record<string, unknown>): Promise<string> {
  const res = await ws.api.post('comments', { comments: [input] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.ids[0];
}

const list = async (ws: Workspace, query = '') => {
  const res = await ws.api.get(`comments${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.comments as any[];
};

describe('a thread, from start to end', () => {
  it('starts, takes replies, resolves, reopens, is edited and deleted', async () => {
    const ws = await world();
    const created = await ws.api.post('comments', {
      comments: [
        { textItemId: 'title', body: 'Is "home" right here?', range: { start: 8, end: 12, quote: 'home' } },
        { componentId: 'button', variantId: 'fr', body: 'Needs a French value' },
      ],
    });
    expect(created.status).toBe(201);
    const [thread, other] = created.body.ids;
    expect(created.body.ids).toHaveLength(2);
    const reply = await comment(ws, { threadId: thread, body: 'Yes, keep it' });

    const onTitle = await list(ws, '?textItemId=title');
    expect(onTitle).toEqual([
      {
        id: thread,
        threadId: thread,
        textItemId: 'title',
        componentId: null,
        projectId: 'web',
        variantId: null,
        recordDeleted: false,
        body: 'Is "home" right here?',
        mentions: [],
        range: { start: 8, end: 12, quote: 'home' },
        author: ws.email,
        createdAt: expect.any(String),
        editedAt: null,
        resolved: false,
        resolvedAt: null,
        resolvedBy: null,
      },
      expect.objectContaining({ id: reply, threadId: thread, textItemId: 'title', range: null, body: 'Yes, keep it' }),
    ]);
    const onButton = await list(ws, '?componentId=button');
    expect(onButton.map((c) => [c.id, c.componentId, c.variantId, c.projectId])).toEqual([
      [other, 'button', 'fr', null],
    ]);
    expect((await ws.api.get(`comments/${other}`)).body).toMatchObject({ id: other, variantId: 'fr' });
    expect((await ws.api.get('comments/cm_nothing')).status).toBe(404);

    expect((await ws.api.post('comments/resolve', { threadIds: [thread] })).status).toBe(200);
    const resolved = await list(ws, `?threadId=${thread}`);
    expect(resolved.map((c) => [c.id, c.resolved, c.resolvedBy])).toEqual([
      [thread, true, ws.email],
      [reply, true, ws.email],
    ]);
    expect((await list(ws, '?open=true')).map((c) => c.id)).toEqual([other]);
    expect((await list(ws, '?open=false')).map((c) => c.id)).toEqual([thread, reply]);
    // Resolving again changes nothing, and makes no change in history.
    const again = await ws.api.post('comments/resolve', { threadIds: [thread] });
    expect(again.status).toBe(200);
    expect(again.headers['copydesk-revision']).toBeUndefined();
    // A reply to a resolved thread leaves it resolved: reopening is a decision of its own.
    const late = await comment(ws, { threadId: thread, body: 'Late' });
    expect((await ws.api.get(`comments/${late}`)).body).toMatchObject({ threadId: thread, resolved: true });
    expect((await ws.api.delete('comments', { ids: [late] })).status).toBe(200);
    expect((await ws.api.post('comments/reopen', { threadIds: [thread] })).status).toBe(200);
    expect((await list(ws, '?open=true')).map((c) => c.id)).toEqual([thread, other, reply]);

    const edited = await ws.api.patch('comments', { updates: [{ id: reply, body: 'Yes, keep "home"' }] });
    expect(edited.status).toBe(200);
    const [, afterEdit] = await list(ws, `?threadId=${thread}`);
    expect(afterEdit).toMatchObject({ body: 'Yes, keep "home"', editedAt: expect.any(String) });

    // Deleting a reply leaves the thread; deleting the thread's first comment takes the replies.
    const second = await comment(ws, { threadId: thread, body: 'One more' });
    expect((await ws.api.delete('comments', { ids: [second] })).status).toBe(200);
    expect((await list(ws, `?threadId=${thread}`)).map((c) => c.id)).toEqual([thread, reply]);
    expect((await ws.api.delete('comments', { ids: [thread] })).status).toBe(200);
    expect((await list(ws)).map((c) => c.id)).toEqual([other]);
    expect((await ws.api.get(`comments/${reply}`)).status).toBe(404);
  });

  it('lists by project, by author, by variant, a page at a time', async () => {
    const ws = await world();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1)
      ids.push(await comment(ws, { textItemId: i % 2 === 0 ? 'title' : 'cta', body: `n${i}` }));
    const onFr = await comment(ws, { textItemId: 'title', variantId: 'fr', body: 'fr' });
    expect((await list(ws, '?projectId=web')).map((c) => c.body)).toEqual(['n0', 'n2', 'n4', 'fr']);
    expect((await list(ws, '?projectId=app')).map((c) => c.body)).toEqual(['n1', 'n3']);
    expect((await list(ws, '?variantId=fr')).map((c) => c.id)).toEqual([onFr]);
    expect((await list(ws, '?projectId=web&variantId=base')).map((c) => c.body)).toEqual(['n0', 'n2', 'n4']);
    expect((await list(ws, `?author=${ws.email.toUpperCase()}`)).length).toBe(6);
    expect(await list(ws, '?author=nobody@example.com')).toEqual([]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = (await ws.api.get(`comments?limit=2${cursor ? `&cursor=${cursor}` : ''}`)).body;
      expect(page.comments.length).toBeLessThanOrEqual(2);
      seen.push(...page.comments.map((c: any) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids, onFr]);
  });

  it('counts the open threads of each text: the texts that have open comments', async () => {
    const ws = await world();
    const a = await comment(ws, { textItemId: 'title', body: 'a' });
    await comment(ws, { threadId: a, body: 'a reply is not a thread' });
    const b = await comment(ws, { textItemId: 'title', body: 'b' });
    await comment(ws, { textItemId: 'cta', body: 'c' });
    await comment(ws, { componentId: 'button', body: 'd' });
    expect((await ws.api.get('comments/counts')).body).toEqual({
      textItems: { title: 2, cta: 1 },
      components: { button: 1 },
    });
    await ws.api.post('comments/resolve', { threadIds: [a, b] });
    expect((await ws.api.get('comments/counts?projectId=web')).body).toEqual({ textItems: {}, components: {} });
    expect((await ws.api.get('comments/counts?projectId=app')).body).toEqual({ textItems: { cta: 1 }, components: {} });
    expect((await ws.api.get('comments/counts?projectId=nope')).status).toBe(400);
  });
});

describe('mentions', () => {
  it('are the emails after @ that name users of the workspace, read again on edit', async () => {
    const ws = await world();
    await ws.api.post('users', { email: 'ana@example.com', role: 'viewer' });
    await ws.api.post('users', { email: 'bo.b+x@example.co.uk', role: 'commenter' });
    const id = await comment(ws, {
      textItemId: 'title',
      body: 'Ping @Ana@Example.com and @bo.b+x@example.co.uk. Not ana@example.com (no @), again @ana@example.com!',
    });
    const [c] = await list(ws);
    expect(c.mentions).toEqual(['ana@example.com', 'bo.b+x@example.co.uk']);

    await ws.api.patch('comments', { updates: [{ id, body: 'Only @bo.b+x@example.co.uk now' }] });
    expect((await list(ws))[0].mentions).toEqual(['bo.b+x@example.co.uk']);
  });

  it('of someone not in the workspace is a 400 naming the body, and nothing is written', async () => {
    const ws = await world();
    const other = await createWorkspace(ctx);
    const res = await ws.api.post('comments', {
      comments: [
        { textItemId: 'title', body: 'fine' },
        { textItemId: 'title', body: `Hi @${other.email}` },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`comments[1].body: mentions ${other.email}, who is not a user of this workspace`);
    expect(await list(ws)).toEqual([]);
  });

  it('mentions=me lists the comments that mention the caller', async () => {
    const ws = await world();
    const commenter = await signedIn(ctx.app, ws, 'commenter');
    const me = (await commenter.call('GET', 'session')).body.email;
    await comment(ws, { textItemId: 'title', body: `@${me} please look` });
    await comment(ws, { textItemId: 'title', body: 'not for you' });
    const mine = await commenter.call('GET', 'comments?mentions=me');
    expect(mine.body.comments.map((c: any) => c.body)).toEqual([`@${me} please look`]);
    expect((await ws.api.get('comments?mentions=me')).body.comments).toEqual([]);
    expect((await ws.api.get('comments?mentions=you')).status).toBe(400);
  });
});

describe('roles', () => {
  it('a viewer reads comments but cannot write one; a commenter comments but cannot edit texts', async () => {
    const ws = await world();
    const viewer = await signedIn(ctx.app, ws, 'viewer');
    const commenter = await signedIn(ctx.app, ws, 'commenter');
    const id = await comment(ws, { textItemId: 'title', body: 'From the admin' });

    expect((await viewer.call('GET', 'comments')).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', 'comments', { comments: [{ textItemId: 'title', body: 'no' }] }],
      ['PATCH', 'comments', { updates: [{ id, body: 'no' }] }],
      ['POST', 'comments/resolve', { threadIds: [id] }],
      ['POST', 'comments/reopen', { threadIds: [id] }],
      ['DELETE', 'comments', { ids: [id] }],
    ] as const) {
      const res = await viewer.call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message).toMatch(/needs the commenter role/);
    }

    const written = await commenter.call('POST', 'comments', {
      comments: [{ threadId: id, body: 'From the commenter' }],
    });
    expect(written.status).toBe(201);
    const mine = written.body.ids[0];
    expect((await commenter.call('POST', 'comments/resolve', { threadIds: [id] })).status).toBe(200);
    expect((await commenter.call('PATCH', 'comments', { updates: [{ id: mine, body: 'Edited' }] })).status).toBe(200);
    const notMine = await commenter.call('PATCH', 'comments', { updates: [{ id, body: 'Taken over' }] });
    expect(notMine.status).toBe(403);
    expect(notMine.body.message).toMatch(/^updates\[0\]\.id: comment .* only its author or an admin may edit it$/);
    expect((await commenter.call('DELETE', 'comments', { ids: [id] })).status).toBe(403);
    const patch = await commenter.call('PATCH', 'textItems', { updates: [{ developerId: 'title', text: 'Mine' }] });
    expect(patch.status).toBe(403);
    expect((await ws.api.get('textItems')).body.find((t: any) => t.id === 'title').text).toBe('Welcome home');

    // An editor, too, edits only their own; an admin (the workspace's key) edits and deletes anyone's.
    const editor = await signedIn(ctx.app, ws, 'editor');
    expect((await editor.call('PATCH', 'comments', { updates: [{ id: mine, body: 'no' }] })).status).toBe(403);
    expect((await ws.api.patch('comments', { updates: [{ id: mine, body: 'Moderated' }] })).status).toBe(200);
    expect((await commenter.call('DELETE', 'comments', { ids: [mine] })).status).toBe(200);
    expect((await ws.api.delete('comments', { ids: [id] })).status).toBe(200);
    expect(await list(ws)).toEqual([]);
  });

  it("another workspace's key sees and changes nothing of this workspace's comments", async () => {
    const ws = await world();
    const id = await comment(ws, { textItemId: 'title', body: 'Private remark' });
    const stranger = await world();
    expect(await list(stranger)).toEqual([]);
    expect((await stranger.api.get(`comments/${id}`)).status).toBe(404);
    expect((await stranger.api.get('comments/counts')).body).toEqual({ textItems: {}, components: {} });
    expect((await stranger.api.get(`comments?threadId=${id}`)).status).toBe(400);
    expect((await stranger.api.patch('comments', { updates: [{ id, body: 'x' }] })).status).toBe(404);
    expect((await stranger.api.post('comments/resolve', { threadIds: [id] })).status).toBe(404);
    expect((await stranger.api.delete('comments', { ids: [id] })).status).toBe(404);
    expect((await stranger.api.post('comments', { comments: [{ threadId: id, body: 'x' }] })).status).toBe(404);
    const [still] = await list(ws);
    expect(still).toMatchObject({ id, body: 'Private remark', resolved: false });
  });
});

describe('bad input: a 400 naming the field, and nothing written', () => {
  it('refuses each bad element of a batch', async () => {
    const ws = await world();
    const thread = await comment(ws, { textItemId: 'title', body: 'first' });
    const reply = await comment(ws, { threadId: thread, body: 'reply' });
    const cases: [unknown, number, RegExp][] = [
      [{ body: 'no text' }, 400, /^comments\[1\]\.textItemId: a new thread names its text/],
      [{ textItemId: 'title', componentId: 'button', body: 'x' }, 400, /^comments\[1\]\.componentId: /],
      [{ textItemId: 'title', body: '   ' }, 400, /^comments\[1\]\.body: must not be blank/],
      [{ textItemId: 'title', body: '' }, 400, /comments\/1\/body|comments\[1\]\.body/],
      [
        { textItemId: 'title', body: 'x', variantId: 'de' },
        400,
        /^comments\[1\]\.variantId: Variant with id de not found/,
      ],
      [
        { textItemId: 'nope', body: 'x' },
        404,
        /^comments\[1\]\.textItemId: Text item with developer ID nope not found/,
      ],
      [{ componentId: 'title', body: 'x' }, 404, /^comments\[1\]\.componentId: Component with developer ID title/],
      [{ textItemId: 'title', body: 'x', range: { start: 5, end: 2, quote: '' } }, 400, /^comments\[1\]\.range\.end: /],
      [{ textItemId: 'title', body: 'x', range: { start: -1, end: 2, quote: '' } }, 400, /range/],
      [{ threadId: thread, textItemId: 'title', body: 'x' }, 400, /^comments\[1\]\.textItemId: a reply takes its text/],
      [{ threadId: reply, body: 'x' }, 400, /^comments\[1\]\.threadId: .* is a reply; name its thread/],
      [{ threadId: 'cm_none', body: 'x' }, 404, /^comments\[1\]\.threadId: Comment thread cm_none not found/],
      [{ textItemId: 'title', body: 'x', extra: 1 }, 400, /extra/],
    ];
    for (const [bad, status, message] of cases) {
      const res = await ws.api.post('comments', { comments: [{ textItemId: 'title', body: 'good' }, bad] });
      expect(res.status, JSON.stringify(bad)).toBe(status);
      expect(res.body.message, JSON.stringify(bad)).toMatch(message);
    }
    expect((await ws.api.post('comments', { comments: [] })).status).toBe(400);
    const dup = await ws.api.patch('comments', {
      updates: [
        { id: thread, body: 'a' },
        { id: thread, body: 'b' },
      ],
    });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toMatch(/^updates\[1\]\.id: duplicate comment id/);
    const notThread = await ws.api.post('comments/resolve', { threadIds: [reply] });
    expect(notThread.status).toBe(400);
    expect(notThread.body.message).toMatch(/^threadIds\[0\]: .* is a reply/);
    const badQuery = [
      ['comments?textItemId=nope', /^textItemId: Text item with developer ID nope not found/],
      ['comments?projectId=nope', /^projectId: Project with developer ID nope not found/],
      ['comments?variantId=de', /^variantId: Variant with id de not found/],
      ['comments?limit=0', /^limit /],
      ['comments?cursor=zzz', /^cursor: /],
      ['comments?open=maybe', /open/],
      ['comments?textItemId=title&componentId=button', /^componentId: /],
    ] as const;
    for (const [url, message] of badQuery) {
      const res = await ws.api.get(url);
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toMatch(message);
    }
    expect((await list(ws)).map((c) => c.body)).toEqual(['first', 'reply']);
  });
});

describe('history', () => {
  it('records every comment write as a change of kind comment', async () => {
    const ws = await world();
    await ws.api.post('users', { email: 'ana@example.com', role: 'viewer' });
    const id = await comment(ws, { textItemId: 'title', variantId: 'fr', body: 'Hi @ana@example.com' });
    await ws.api.patch('comments', { updates: [{ id, body: 'Hello @ana@example.com' }] });
    await ws.api.post('comments/resolve', { threadIds: [id] });
    await ws.api.post('comments/reopen', { threadIds: [id] });
    await ws.api.delete('comments', { ids: [id] });
    const { changes } = (await ws.api.get('history?kind=comment')).body;
    expect(changes.map((c: any) => `${c.developerId}:${c.action}`).reverse()).toEqual([
      `${id}:created`,
      `${id}:updated`,
      `${id}:resolved`,
      `${id}:reopened`,
      `${id}:deleted`,
    ]);
    const byAction = new Map(changes.map((c: any) => [c.action, c]));
    expect(byAction.get('created')).toMatchObject({
      kind: 'comment',
      actor: ws.email,
      fields: {
        threadId: { before: null, after: id },
        textItemId: { before: null, after: 'title' },
        projectId: { before: null, after: 'web' },
        variantId: { before: null, after: 'fr' },
        body: { before: null, after: 'Hi @ana@example.com' },
        mentions: { before: null, after: ['ana@example.com'] },
        author: { before: null, after: ws.email },
      },
    });
    expect(byAction.get('updated')).toMatchObject({
      fields: { body: { before: 'Hi @ana@example.com', after: 'Hello @ana@example.com' } },
    });
    expect(Object.keys((byAction.get('updated') as any).fields)).toEqual(['body']);
    expect(byAction.get('resolved')).toMatchObject({
      fields: { resolved: { before: false, after: true }, resolvedBy: { before: null, after: ws.email } },
    });
    expect(byAction.get('deleted')).toMatchObject({
      fields: { body: { before: 'Hello @ana@example.com', after: null } },
    });
    // A comment's change cannot be restored from history.
    const restore = await ws.api.post('history/restore', { changeId: (byAction.get('deleted') as any).id });
    expect(restore.status).toBe(400);
  });

  it("a deleted text's threads stay readable under its last developer ID, and take no replies", async () => {
    const ws = await world();
    const thread = await comment(ws, { textItemId: 'title', body: 'About the title' });
    await comment(ws, { textItemId: 'cta', body: 'About the button' });
    expect(
      (await ws.api.patch('textItems', { updates: [{ developerId: 'title', newDeveloperId: 'heading' }] })).status,
    ).toBeLessThan(300);
    expect((await list(ws, '?textItemId=heading')).map((c) => c.textItemId)).toEqual(['heading']);
    expect((await ws.api.delete('textItems', { developerIds: ['heading'] })).status).toBe(200);

    const kept = await list(ws, '?textItemId=heading');
    expect(kept).toEqual([expect.objectContaining({ id: thread, textItemId: 'heading', recordDeleted: true })]);
    expect((await list(ws, '?projectId=web')).map((c) => c.id)).toEqual([thread]);
    expect((await ws.api.get('comments/counts')).body).toEqual({ textItems: { cta: 1 }, components: {} });
    const reply = await ws.api.post('comments', { comments: [{ threadId: thread, body: 'Too late' }] });
    expect(reply.status).toBe(409);
    expect(reply.body.message).toMatch(/^comments\[0\]\.threadId: /);
    // A new text under the same developer ID starts afresh.
    await ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'heading', text: 'New' }] });
    expect(await list(ws, '?textItemId=heading')).toEqual([]);
    expect((await ws.api.post('comments/resolve', { threadIds: [thread] })).status).toBe(200);

    // A project's deletion deletes its text items: their threads stay the same way.
    expect((await ws.api.delete('projects', { developerIds: ['app'] })).status).toBe(200);
    expect(await list(ws, '?textItemId=cta')).toEqual([
      expect.objectContaining({ textItemId: 'cta', projectId: null, recordDeleted: true }),
    ]);
    expect((await ws.api.get('comments/counts')).body).toEqual({ textItems: {}, components: {} });
  });
});
