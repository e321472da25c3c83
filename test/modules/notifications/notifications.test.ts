import { describe, expect, it } from 'vitest';
import { parsePlace } from '../../../web/src/routes.js';
import { type Api, apiClient, createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

const ctx = await setupApp();

interface Member {
  email: string;
  api: Api;
}

let counter = 0;

/** Another user of the workspace, with a key of their own. */
async function member(ws: Workspace, role: 'admin' | 'editor' | 'commenter' | 'viewer' = 'editor'): Promise<Member> {
  counter += 1;
  const email = `member${counter}-${ws.id}@example.com`;
  await ctx.services.accounts.createUser({ workspaceId: ws.id, email, name: `Member ${counter}`, role });
  const { key } = await ctx.services.accounts.createKey({ workspaceId: ws.id, email });
  return { email, api: apiClient(ctx.app, key) };
}

const ok = async (res: Promise<{ status: number; body: unknown }>) => {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body as any;
};

/** A workspace with a project `web`, a text item `title` in it, a component `button` and a French variant. */
async function world(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await ok(ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] }));
  await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }));
  await ok(ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'title', text: 'Welcome home' }] }));
  await ok(ws.api.post('components', { components: [{ developerId: 'button', name: 'Button', text: 'OK' }] }));
  return ws;
}

const inbox = async (who: { api: Api }, query = '') =>
  (await ok(who.api.get(`notifications${query}`))).notifications as any[];
const unread = async (who: { api: Api }) => (await ok(who.api.get('notifications/unread-count'))).unread as number;
const comment = async (who: { api: Api }, input: Record<string, unknown>): Promise<string> =>
  (await ok(who.api.post('comments', { comments: [input] }))).ids[0];

describe('mentions', () => {
  it('tells each mentioned user once, and never the writer', async () => {
    const ws = await world();
    const ana = await member(ws);
    const bo = await member(ws, 'viewer');
    const id = await comment(ws, {
      textItemId: 'title',
      variantId: 'fr',
      body: `@${ana.email} and @${bo.email.toUpperCase()}, see; @${ws.email} too, and @${ana.email} again`,
    });

    const [forAna] = await inbox(ana);
    expect(await inbox(ana)).toHaveLength(1);
    expect(forAna).toEqual({
      id: expect.any(String),
      kind: 'mention',
      textItemId: 'title',
      componentId: null,
      projectId: 'web',
      variantId: 'fr',
      recordDeleted: false,
      threadId: id,
      commentId: id,
      actor: ws.email,
      at: expect.any(String),
      read: false,
      readAt: null,
      detail: null,
      link: `/projects/web/texts/title?variant=fr&thread=${id}`,
    });
    expect((await inbox(bo)).map((n) => [n.kind, n.commentId])).toEqual([['mention', id]]);
    expect(await inbox(ws)).toEqual([]);
  });

  it("links to the app's page of the text, which the app's routes read back", async () => {
    const ws = await world();
    const ana = await member(ws);
    const id = await comment(ws, { componentId: 'button', body: `@${ana.email} wording?` });
    const [n] = await inbox(ana);
    expect(n.link).toBe(`/library/components/button?thread=${id}`);
    expect(parsePlace(n.link.split('?')[0])).toEqual({ page: 'library', folderId: null, componentId: 'button' });
    const [onItem] = await inbox(ana, '?limit=1');
    expect(onItem.componentId).toBe('button');
    await comment(ws, { textItemId: 'title', body: `@${ana.email} and this` });
    const [latest] = await inbox(ana);
    expect(parsePlace(latest.link.split('?')[0])).toEqual({
      page: 'project',
      projectId: 'web',
      blockId: null,
      textId: 'title',
    });
  });

  it("shows the text's and project's developer IDs as they are now", async () => {
    const ws = await world();
    const ana = await member(ws);
    const id = await comment(ws, { textItemId: 'title', body: `@${ana.email} look` });
    await ok(ws.api.patch('projects', { updates: [{ developerId: 'web', newDeveloperId: 'site' }] }));
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'title', newDeveloperId: 'heading' }] }));
    const [n] = await inbox(ana);
    expect([n.textItemId, n.projectId, n.link]).toEqual([
      'heading',
      'site',
      `/projects/site/texts/heading?thread=${id}`,
    ]);
  });

  it('tells the users an edit adds, not those it kept', async () => {
    const ws = await world();
    const ana = await member(ws);
    const bo = await member(ws);
    const id = await comment(ws, { textItemId: 'title', body: `@${ana.email} look` });
    await ok(ws.api.patch('comments', { updates: [{ id, body: `@${ana.email} and @${bo.email} look` }] }));
    expect((await inbox(ana)).map((n) => n.kind)).toEqual(['mention']);
    expect((await inbox(bo)).map((n) => [n.kind, n.commentId])).toEqual([['mention', id]]);
  });
});

describe('replies', () => {
  it("tell the thread's authors and mentioned users, but not the replier; a mention in the reply wins", async () => {
    const ws = await world();
    const ana = await member(ws, 'commenter');
    const bo = await member(ws);
    const cy = await member(ws);
    const thread = await comment(ana, { textItemId: 'title', body: `@${bo.email} is this right?` });
    expect((await inbox(bo)).map((n) => n.kind)).toEqual(['mention']);

    const reply = await comment(ws, { threadId: thread, body: 'Yes.' });
    expect((await inbox(ana)).map((n) => [n.kind, n.threadId, n.commentId])).toEqual([['reply', thread, reply]]);
    expect((await inbox(bo)).map((n) => n.kind)).toEqual(['reply', 'mention']);
    expect(await inbox(ws)).toEqual([]);
    expect(await inbox(cy)).toEqual([]);

    const second = await comment(bo, { threadId: thread, body: `@${cy.email} and @${ana.email}, agreed?` });
    expect((await inbox(cy)).map((n) => [n.kind, n.commentId])).toEqual([['mention', second]]);
    expect((await inbox(ana)).map((n) => n.kind)).toEqual(['mention', 'reply']);
    expect((await inbox(ws)).map((n) => [n.kind, n.commentId])).toEqual([['reply', second]]);
    expect((await inbox(bo)).map((n) => n.kind)).toEqual(['reply', 'mention']);
  });
});

describe('assignments', () => {
  it('tell the new assignee, not one who assigns themselves; the assignee follows', async () => {
    const ws = await world();
    const ana = await member(ws);
    const bo = await member(ws);
    await ok(
      ws.api.post('textItems', {
        projectId: 'web',
        textItems: [{ developerId: 'subtitle', text: 'Hello', assignee: ana.email }],
      }),
    );
    expect((await inbox(ana)).map((n) => [n.kind, n.textItemId, n.actor, n.link])).toEqual([
      ['assigned', 'subtitle', ws.email, '/projects/web/texts/subtitle'],
    ]);

    await ok(ana.api.patch('textItems', { updates: [{ developerId: 'subtitle', assignee: ana.email }] }));
    await ok(bo.api.patch('components', { updates: [{ developerId: 'button', assignee: bo.email }] }));
    expect(await inbox(bo)).toEqual([]);
    await ok(ana.api.patch('components', { updates: [{ developerId: 'button', assignee: ana.email }] }));
    expect(await inbox(ana)).toHaveLength(1);
    await ok(bo.api.patch('components', { updates: [{ developerId: 'button', assignee: ana.email }] }));
    expect(await inbox(ana)).toHaveLength(1);
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'subtitle', assignee: bo.email }] }));
    expect((await inbox(bo)).map((n) => [n.kind, n.textItemId, n.projectId])).toEqual([
      ['assigned', 'subtitle', 'web'],
    ]);

    const follows = (await ok(bo.api.get('follows'))).follows;
    expect(follows.map((f: any) => [f.textItemId ?? f.componentId, f.reason])).toEqual([
      ['button', 'assigned'],
      ['subtitle', 'assigned'],
    ]);
  });

  it("tell a variant value's assignee, naming the variant", async () => {
    const ws = await world();
    const ana = await member(ws);
    await ok(
      ws.api.patch('textItems', {
        variantId: 'fr',
        updates: [{ developerId: 'title', text: 'Bienvenue', assignee: ana.email }],
      }),
    );
    expect((await inbox(ana)).map((n) => [n.kind, n.textItemId, n.variantId, n.link])).toEqual([
      ['assigned', 'title', 'fr', '/projects/web/texts/title?variant=fr'],
    ]);
  });
});

describe('status changes', () => {
  it('tell the followers: the creator, the assignee and who asked, but not the actor', async () => {
    const ws = await world();
    const ana = await member(ws);
    const bo = await member(ws);
    const cy = await member(ws, 'viewer');
    await ok(cy.api.put('follows', { follows: [{ textItemId: 'title' }] }));
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'title', assignee: ana.email }] }));
    await ok(bo.api.patch('textItems', { updates: [{ developerId: 'title', status: 'WIP' }] }));

    const status = (list: any[]) => list.filter((n) => n.kind === 'status');
    expect(status(await inbox(ws))).toEqual([
      expect.objectContaining({
        kind: 'status',
        textItemId: 'title',
        projectId: 'web',
        actor: bo.email,
        detail: { from: 'NONE', to: 'WIP' },
        link: '/projects/web/texts/title',
      }),
    ]);
    expect(status(await inbox(ana))).toHaveLength(1);
    expect(status(await inbox(cy))).toHaveLength(1);
    expect(await inbox(bo)).toEqual([]);

    // The writer of the change is never told, even as a follower.
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'title', status: 'REVIEW' }] }));
    expect(status(await inbox(ws))).toHaveLength(1);
    expect(status(await inbox(cy)).map((n) => n.detail)).toEqual([
      { from: 'WIP', to: 'REVIEW' },
      { from: 'NONE', to: 'WIP' },
    ]);
  });

  it('leave alone those who unfollowed, and a text nobody follows', async () => {
    const ws = await world();
    const ana = await member(ws);
    await ok(ws.api.delete('follows', { follows: [{ componentId: 'button' }] }));
    await ok(ana.api.patch('components', { updates: [{ developerId: 'button', status: 'FINAL' }] }));
    expect(await inbox(ws)).toEqual([]);
    await ok(ws.api.put('follows', { follows: [{ componentId: 'button' }] }));
    await ok(ana.api.patch('components', { updates: [{ developerId: 'button', status: 'WIP' }] }));
    expect((await inbox(ws)).map((n) => [n.kind, n.componentId, n.link])).toEqual([
      ['status', 'button', '/library/components/button'],
    ]);
  });
});

describe('follows', () => {
  it('follows and unfollows; creators follow by default', async () => {
    const ws = await world();
    const ana = await member(ws, 'viewer');
    const mine = async (who: { api: Api }, query = '') => (await ok(who.api.get(`follows${query}`))).follows as any[];
    expect((await mine(ws)).map((f) => [f.textItemId, f.componentId, f.projectId, f.reason])).toEqual([
      ['title', null, 'web', 'created'],
      [null, 'button', null, 'created'],
    ]);
    expect(await mine(ana)).toEqual([]);

    await ok(ana.api.put('follows', { follows: [{ textItemId: 'title' }, { componentId: 'button' }] }));
    await ok(ana.api.put('follows', { follows: [{ textItemId: 'title' }] }));
    expect((await mine(ana)).map((f) => f.reason)).toEqual(['explicit', 'explicit']);
    expect(await mine(ana, '?textItemId=title')).toEqual([
      { textItemId: 'title', componentId: null, projectId: 'web', reason: 'explicit', since: expect.any(String) },
    ]);
    await ok(ana.api.delete('follows', { follows: [{ textItemId: 'title' }] }));
    expect(await mine(ana, '?textItemId=title')).toEqual([]);
    expect(await mine(ana, '?componentId=button')).toHaveLength(1);
    const paged = await ok(ws.api.get('follows?limit=1'));
    expect(paged.follows).toHaveLength(1);
    const next = await ok(ws.api.get(`follows?limit=1&cursor=${paged.nextCursor}`));
    expect(next.follows[0].componentId).toBe('button');
    expect(next.nextCursor).toBeNull();
  });

  it('names the bad element: unknown text 404, neither or both 400', async () => {
    const ws = await world();
    const missing = await ws.api.put('follows', { follows: [{ textItemId: 'title' }, { componentId: 'nope' }] });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('follows[1].componentId');
    const both = await ws.api.put('follows', { follows: [{ textItemId: 'title', componentId: 'button' }] });
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('follows[0].textItemId');
    const neither = await ws.api.delete('follows', { follows: [{}] });
    expect(neither.status).toBe(400);
    expect((await ws.api.get('follows?textItemId=nope')).body.message).toContain('textItemId');
  });

  it("are dropped with their text; the text's notifications stay, marked deleted", async () => {
    const ws = await world();
    const ana = await member(ws);
    await comment(ws, { textItemId: 'title', body: `@${ana.email} see` });
    await ok(ws.api.delete('textItems', { developerIds: ['title'] }));
    expect((await ok(ws.api.get('follows'))).follows.map((f: any) => f.componentId)).toEqual(['button']);
    const [n] = await inbox(ana);
    expect([n.textItemId, n.recordDeleted]).toEqual(['title', true]);
  });
});

describe('read and unread', () => {
  it('counts, lists unread, marks some or all read', async () => {
    const ws = await world();
    const ana = await member(ws, 'viewer');
    for (let i = 0; i < 3; i += 1) await comment(ws, { textItemId: 'title', body: `@${ana.email} ${i}` });
    expect(await unread(ana)).toBe(3);
    const [newest, , oldest] = await inbox(ana);
    expect(newest.id > oldest.id || Number(newest.id) > Number(oldest.id)).toBe(true);

    expect(await ok(ana.api.post('notifications/read', { ids: [oldest.id] }))).toEqual({ updated: 1, unread: 2 });
    expect(await ok(ana.api.post('notifications/read', { ids: [oldest.id] }))).toEqual({ updated: 0, unread: 2 });
    expect((await inbox(ana, '?unread=true')).map((n) => n.id)).not.toContain(oldest.id);
    const read = (await inbox(ana)).find((n) => n.id === oldest.id);
    expect([read.read, typeof read.readAt]).toEqual([true, 'string']);

    const page = await ok(ana.api.get('notifications?limit=2'));
    expect(page.notifications).toHaveLength(2);
    const rest = await ok(ana.api.get(`notifications?limit=2&cursor=${page.nextCursor}`));
    expect(rest.notifications.map((n: any) => n.id)).toEqual([oldest.id]);
    expect(rest.nextCursor).toBeNull();

    expect(await ok(ana.api.post('notifications/read', { all: true }))).toEqual({ updated: 2, unread: 0 });
    expect(await unread(ana)).toBe(0);
    expect(await inbox(ana, '?unread=true')).toEqual([]);
  });

  it('answers 400 for a bad body and 404 for an id that is not the caller’s', async () => {
    const ws = await world();
    const ana = await member(ws);
    const bo = await member(ws);
    await comment(ws, { textItemId: 'title', body: `@${ana.email} hi` });
    const [n] = await inbox(ana);
    const theirs = await bo.api.post('notifications/read', { ids: [n.id] });
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toContain('ids[0]');
    expect(await unread(ana)).toBe(1);
    expect((await ana.api.post('notifications/read', { ids: ['x1'] })).body.message).toContain('ids[0]');
    const both = await ana.api.post('notifications/read', { ids: [n.id], all: true });
    expect([both.status, both.body.message]).toEqual([400, expect.stringContaining('all')]);
    const none = await ana.api.post('notifications/read', {});
    expect([none.status, none.body.message]).toEqual([400, expect.stringContaining('ids')]);
    expect((await ana.api.get('notifications?cursor=nope')).status).toBe(400);
    expect((await ana.api.get('notifications?limit=0')).status).toBe(400);
  });
});

describe('who sees what', () => {
  it("a user sees only their own, another workspace nothing; answers are the caller's, not cached", async () => {
    const ws = await world();
    const ana = await member(ws);
    const other = await world();
    await comment(ws, { textItemId: 'title', body: `@${ana.email} hi` });
    await ok(other.api.put('follows', { follows: [{ textItemId: 'title' }] }));
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'title', status: 'WIP' }] }));

    expect(await inbox(other)).toEqual([]);
    expect(await unread(other)).toBe(0);
    expect(await inbox(ws)).toEqual([]);
    const [n] = await inbox(ana);
    const foreign = await other.api.post('notifications/read', { ids: [n.id] });
    expect(foreign.status).toBe(404);
    expect(await unread(ana)).toBe(1);

    const res = await ana.api.get('notifications');
    expect(res.headers.etag).toBeUndefined();
    expect((await ws.api.get('notifications')).body.notifications).toEqual([]);
  });

  it("a removed user's notifications and follows go with them", async () => {
    const ws = await world();
    const ana = await member(ws);
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'title', assignee: ana.email }] }));
    await comment(ws, { textItemId: 'title', body: `@${ana.email} see` });
    expect(await inbox(ana)).toHaveLength(2);
    const anaId = (await ctx.services.accounts.userIdsByEmail(ws.id)).get(ana.email) as number;
    await ok(ws.api.delete(`users/${ana.email}`, undefined));
    expect((await ana.api.get('notifications')).status).toBe(401);
    const { db } = ctx.database;
    for (const table of ['notifications', 'follows'] as const) {
      const left = await db.selectFrom(table).select('id').where('user_id', '=', anaId).execute();
      expect(left, table).toEqual([]);
    }
    // The text lost its assignee in that write: nobody is told, and later writes go on.
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'title', status: 'WIP' }] }));
    const bo = await member(ws);
    await comment(ws, { textItemId: 'title', body: `@${bo.email} over to you` });
    expect(await inbox(bo)).toHaveLength(1);
  });

  it('marking read or following writes no revision and no history', async () => {
    const ws = await world();
    const ana = await member(ws);
    await comment(ws, { textItemId: 'title', body: `@${ana.email} hi` });
    const before = (await ok(ws.api.get('history?limit=1000'))).changes.length;
    const followed = await ana.api.put('follows', { follows: [{ componentId: 'button' }] });
    expect(followed.headers['copydesk-revision']).toBeUndefined();
    await ok(ana.api.post('notifications/read', { all: true }));
    expect((await ok(ws.api.get('history?limit=1000'))).changes.length).toBe(before);
  });
});

describe('the OpenAPI document', () => {
  it('documents every notifications and follows route, with its errors', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
    const routes: [string, string][] = [
      ['/v2/notifications', 'get'],
      ['/v2/notifications/unread-count', 'get'],
      ['/v2/notifications/read', 'post'],
      ['/v2/follows', 'get'],
      ['/v2/follows', 'put'],
      ['/v2/follows', 'delete'],
    ];
    for (const [path, method] of routes) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.tags).toEqual(['notifications']);
      expect(operation.summary.length).toBeGreaterThan(10);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403']));
    }
    const listed = document.paths['/v2/notifications'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(listed.properties.notifications.items.properties)).toEqual(
      expect.arrayContaining(['id', 'kind', 'textItemId', 'componentId', 'threadId', 'actor', 'at', 'read', 'link']),
    );
  });
});

describe('suggestions', () => {
  it("tells the text's assignee of a suggestion made through POST /v2/suggestions, not its author", async () => {
    const ws = await world();
    const ana = await member(ws);
    const bo = await member(ws, 'commenter');
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'title', assignee: ana.email }] }));
    await ok(ws.api.patch('components', { updates: [{ developerId: 'button', assignee: bo.email }] }));
    const before = (await inbox(ana)).length;
    const made = await ok(
      bo.api.post('suggestions', {
        suggestions: [
          { textItemId: 'title', variantId: 'fr', text: 'Bienvenue à bord' },
          { componentId: 'button', text: 'Okay then' },
        ],
      }),
    );
    const [onTitle] = made.ids as string[];
    const all = await inbox(ana);
    const fresh = all.slice(0, all.length - before);
    expect(fresh.map((n) => [n.kind, n.textItemId, n.variantId, n.actor, n.detail, n.link])).toEqual([
      [
        'suggestion',
        'title',
        'fr',
        bo.email,
        { suggestionId: onTitle },
        `/projects/web/texts/title?variant=fr&suggestion=${onTitle}`,
      ],
    ]);
    // Bo is the button's assignee, and the author of the suggestion on it: not told of their own.
    expect((await inbox(bo)).filter((n) => n.kind === 'suggestion')).toEqual([]);
  });

  it("tells an unassigned text's followers (its creator by default), never the suggester", async () => {
    const ws = await world();
    const ana = await member(ws);
    const bo = await member(ws, 'commenter');
    await ok(ana.api.put('follows', { follows: [{ componentId: 'button' }] }));
    await ok(bo.api.put('follows', { follows: [{ componentId: 'button' }] }));
    const [id] = (await ok(bo.api.post('suggestions', { suggestions: [{ componentId: 'button', text: 'Okay' }] })))
      .ids as string[];
    const told = (list: any[]) => list.filter((n) => n.kind === 'suggestion').map((n) => [n.componentId, n.link]);
    const expected = [['button', `/library/components/button?suggestion=${id}`]];
    expect(told(await inbox(ws))).toEqual(expected);
    expect(told(await inbox(ana))).toEqual(expected);
    expect(told(await inbox(bo))).toEqual([]);
  });

  it('tells the suggester when their suggestion is accepted, rejected with a note, or applied with force', async () => {
    const ws = await world();
    const bo = await member(ws, 'commenter');
    const suggest = async (input: Record<string, unknown>) =>
      (await ok(bo.api.post('suggestions', { suggestions: [input] }))).ids[0] as string;
    const taken = await suggest({ textItemId: 'title', text: 'Welcome aboard' });
    const refused = await suggest({ componentId: 'button', text: 'Fine' });
    await ok(ws.api.post('suggestions/accept', { ids: [taken] }));
    await ok(ws.api.post('suggestions/reject', { ids: [refused], note: 'We keep OK' }));
    const late = await suggest({ componentId: 'button', variantId: 'fr', text: "D'accord" });
    await ok(ws.api.patch('components', { updates: [{ developerId: 'button', text: 'OK!' }] }));
    expect((await ws.api.post('suggestions/accept', { ids: [late] })).status).toBe(409);
    await ok(ws.api.post('suggestions/accept', { ids: [late], force: true }));

    const decided = (await inbox(bo)).filter((n) => n.kind === 'suggestion_decided').reverse();
    expect(decided.map((n) => [n.actor, n.textItemId ?? n.componentId, n.variantId, n.detail, n.link])).toEqual([
      [
        ws.email,
        'title',
        null,
        { suggestionId: taken, decision: 'accepted', note: null, forced: false },
        `/projects/web/texts/title?suggestion=${taken}`,
      ],
      [
        ws.email,
        'button',
        null,
        { suggestionId: refused, decision: 'rejected', note: 'We keep OK', forced: false },
        `/library/components/button?suggestion=${refused}`,
      ],
      [
        ws.email,
        'button',
        'fr',
        { suggestionId: late, decision: 'accepted', note: null, forced: true },
        `/library/components/button?variant=fr&suggestion=${late}`,
      ],
    ]);
    // The decider is not told of their own decision.
    expect((await inbox(ws)).filter((n) => n.kind === 'suggestion_decided')).toEqual([]);
  });
});
