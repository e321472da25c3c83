import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, ok, setupApp, type Workspace, withFilter } from '../../helpers/app.js';

const ctx = await setupApp();

/** A workspace with a project, a text item, a component and a French variant. */
async function world(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await ok(ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] }));
  await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }));
  await ok(
    ws.api.post('textItems', {
      projectId: 'web',
      textItems: [
        { developerId: 'title', text: 'Welcome to your new home' },
        {
          developerId: 'cart',
          text: '1 item',
          plurals: [
            { form: 'one', text: '1 item' },
            { form: 'other', text: '{{n}} items' },
          ],
        },
      ],
    }),
  );
  await ok(ws.api.post('components', { components: [{ developerId: 'button', name: 'Button', text: 'OK' }] }));
  await ok(ws.api.patch('components', { variantId: 'fr', updates: [{ developerId: 'button', text: 'D’accord' }] }));
  return ws;
}

/** Another user of the workspace, with a key of their own. */
async function person(ws: Workspace, role: 'admin' | 'editor' | 'commenter' | 'viewer') {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  expect((await ws.api.post('users', { email, role })).status).toBe(201);
  const { key } = await ctx.services.accounts.createKey({ workspaceId: ws.id, email });
  return { email, api: apiClient(ctx.app, key) };
}

type Api = Workspace['api'];

async function suggest(api: Api, input: Record<string, unknown>): Promise<string> {
  const res = await api.post('suggestions', { suggestions: [input] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.ids[0];
}

/** Every record of the kind, variant values included: `[id, variantId, text]`. */
const records = async (ws: Workspace, path: 'textItems' | 'components', extra = '') => {
  const res = await ws.api.get(withFilter(path, { variants: [{ id: 'all' }] }, extra));
  expect(res.status).toBe(200);
  return res.body as any[];
};
const textOf = async (ws: Workspace, id: string) =>
  (await records(ws, 'textItems')).find((t) => t.id === id && t.variantId === null);

describe('a suggestion, from start to end', () => {
  it('is made by a commenter, read with its diff, and accepted by an editor through a PATCH of the text', async () => {
    const ws = await world();
    const critic = await person(ws, 'commenter');
    const id = await suggest(critic.api, {
      textItemId: 'title',
      text: 'Welcome to your brand new place',
      note: 'Warmer',
    });
    expect(id).toMatch(/^sg_[0-9a-f]{16}$/);
    // Nothing is applied yet.
    expect((await textOf(ws, 'title')).text).toBe('Welcome to your new home');

    const read = await ws.api.get(`suggestions/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id,
      textItemId: 'title',
      componentId: null,
      projectId: 'web',
      variantId: null,
      recordDeleted: false,
      status: 'open',
      author: critic.email,
      note: 'Warmer',
      proposed: { text: 'Welcome to your brand new place', richText: null, plurals: null },
      base: { exists: true, text: 'Welcome to your new home', richText: null, plurals: null },
      decidedAt: null,
      baseChanged: false,
      currentDiff: null,
    });
    expect(read.body.diff.text).toEqual({
      parts: [
        { type: 'same', text: 'Welcome to your ' },
        { type: 'added', text: 'brand ' },
        { type: 'same', text: 'new ' },
        { type: 'removed', text: 'home' },
        { type: 'added', text: 'place' },
      ],
      added: 2,
      removed: 1,
    });
    expect(read.body.current).toMatchObject({ text: 'Welcome to your new home', etag: read.body.base.etag });
    // The base ETag is the one a GET with withEtag=true gives.
    const items = (await ws.api.get('textItems?withEtag=true')).body as any[];
    expect(read.body.base.etag).toBe(items.find((t) => t.id === 'title').etag);

    const listed = await ws.api.get('suggestions?textItemId=title');
    expect(listed.body).toEqual({ suggestions: [expect.objectContaining({ id, status: 'open' })], nextCursor: null });

    const editor = await person(ws, 'editor');
    const accepted = await editor.api.post('suggestions/accept', { ids: [id] });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await textOf(ws, 'title')).text).toBe('Welcome to your brand new place');
    const after = (await ws.api.get(`suggestions/${id}`)).body;
    expect(after).toMatchObject({ status: 'accepted', decidedBy: editor.email, decidedAt: expect.any(String) });

    // History: the text's change is the accepter's, and the suggestion's change in the same write
    // names the suggester.
    const { changes } = (await ws.api.get('history?limit=10')).body;
    const [first, second] = changes as any[];
    const textChange = [first, second].find((c) => c.kind === 'textItem');
    const suggestionChange = [first, second].find((c) => c.kind === 'suggestion');
    expect(textChange).toMatchObject({
      developerId: 'title',
      action: 'updated',
      actor: editor.email,
      fields: { text: { before: 'Welcome to your new home', after: 'Welcome to your brand new place' } },
    });
    expect(suggestionChange).toMatchObject({
      developerId: id,
      action: 'accepted',
      actor: editor.email,
      fields: {
        status: { before: 'open', after: 'accepted' },
        suggestedBy: { after: critic.email },
        textItemId: { after: 'title' },
      },
    });
    expect(suggestionChange.revision).toBe(textChange.revision);
    // The reads of the app's history of the text: the text's own changes, then the suggestions
    // accepted since the oldest of them, matched by revision ("accepted <suggester>'s suggestion").
    const [own] = (await ws.api.get('history?kind=textItem&id=title&limit=50')).body.changes as any[];
    expect(own).toMatchObject({ revision: textChange.revision, action: 'updated' });
    const since = new URLSearchParams({ kind: 'suggestion', since: own.at, limit: '1000' });
    const decided = (await ws.api.get(`history?${since}`)).body.changes as any[];
    expect(decided.filter((c) => c.action === 'accepted').map((c) => [c.revision, c.fields.suggestedBy.after])).toEqual(
      [[own.revision, critic.email]],
    );

    // A decided suggestion is decided once.
    for (const path of ['accept', 'reject']) {
      const again = await ws.api.post(`suggestions/${path}`, { ids: [id] });
      expect(again.status).toBe(409);
      expect(again.body.message).toMatch(/ids\[0\]: suggestion sg_\w+ is accepted/);
    }
    const withdraw = await critic.api.post('suggestions/withdraw', { ids: [id] });
    expect(withdraw.status).toBe(409);
  });

  it('is rejected with a note, or withdrawn by its author only', async () => {
    const ws = await world();
    const critic = await person(ws, 'commenter');
    const other = await person(ws, 'commenter');
    const [a, b] = (
      await critic.api.post('suggestions', {
        suggestions: [
          { componentId: 'button', text: 'Okay' },
          { componentId: 'button', variantId: 'fr', text: 'Bien' },
        ],
      })
    ).body.ids;
    const rejected = await ws.api.post('suggestions/reject', { ids: [a], note: 'We keep OK' });
    expect(rejected.status).toBe(200);
    expect((await ws.api.get(`suggestions/${a}`)).body).toMatchObject({
      status: 'rejected',
      decidedBy: ws.email,
      decisionNote: 'We keep OK',
    });
    const notMine = await other.api.post('suggestions/withdraw', { ids: [b] });
    expect(notMine.status).toBe(403);
    expect(notMine.body.message).toMatch(/ids\[0\]: suggestion sg_\w+ is .*'s; only its author may withdraw it/);
    expect((await critic.api.post('suggestions/withdraw', { ids: [b] })).status).toBe(200);
    expect((await ws.api.get(`suggestions/${b}`)).body).toMatchObject({ status: 'withdrawn', decidedBy: critic.email });
    // The components were never changed.
    const components = await records(ws, 'components');
    expect(components.map((c) => [c.variantId, c.text])).toEqual([
      [null, 'OK'],
      ['fr', 'D’accord'],
    ]);

    const byStatus = async (status: string) =>
      ((await ws.api.get(`suggestions?status=${status}`)).body.suggestions as any[]).map((s) => s.id);
    expect(await byStatus('rejected')).toEqual([a]);
    expect(await byStatus('withdrawn')).toEqual([b]);
    expect(await byStatus('open')).toEqual([]);
    const mine = ((await ws.api.get(`suggestions?author=${critic.email.toUpperCase()}`)).body.suggestions as any[]).map(
      (s) => s.id,
    );
    expect(mine).toEqual([a, b]);
  });

  it('pages like the other lists', async () => {
    const ws = await world();
    const ids = (
      await ws.api.post('suggestions', {
        suggestions: ['A', 'B', 'C'].map((text) => ({ componentId: 'button', text })),
      })
    ).body.ids as string[];
    const first = (await ws.api.get('suggestions?limit=2')).body;
    expect(first.suggestions.map((s: any) => s.id)).toEqual(ids.slice(0, 2));
    const second = (await ws.api.get(`suggestions?limit=2&cursor=${first.nextCursor}`)).body;
    expect(second).toEqual({ suggestions: [expect.objectContaining({ id: ids[2] })], nextCursor: null });
    expect((await ws.api.get('suggestions?cursor=nope')).status).toBe(400);
  });
});

describe('counts', () => {
  it('are the open and stale suggestions of each text that still exists', async () => {
    const ws = await world();
    const stale = await suggest(ws.api, { textItemId: 'title', text: 'Welcome to your new house' });
    await suggest(ws.api, { textItemId: 'title', text: 'Welcome home' });
    const rejected = await suggest(ws.api, { textItemId: 'title', text: 'Hi' });
    await suggest(ws.api, { textItemId: 'cart', text: 'One item' });
    await suggest(ws.api, { componentId: 'button', text: 'Okay' });
    await suggest(ws.api, { componentId: 'button', variantId: 'fr', text: 'Bien' });
    await ok(ws.api.post('suggestions/reject', { ids: [rejected] }));
    // An edit of the text makes the first suggestion stale on its accept: still undecided.
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'title', text: 'Welcome to our new home' }] }));
    expect((await ws.api.post('suggestions/accept', { ids: [stale] })).status).toBe(409);
    expect((await ws.api.get(`suggestions/${stale}`)).body.status).toBe('stale');

    expect((await ws.api.get('suggestions/counts')).body).toEqual({
      textItems: { title: 2, cart: 1 },
      components: { button: 2 },
    });
    // A deleted text's suggestions are obsolete: no longer counted.
    await ok(ws.api.delete('textItems', { developerIds: ['cart'] }));
    expect((await ws.api.get('suggestions/counts?projectId=web')).body).toEqual({
      textItems: { title: 2 },
      components: {},
    });
    const unknown = await ws.api.get('suggestions/counts?projectId=nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^projectId: /);
    expect((await ws.api.get('suggestions/counts?status=open')).status).toBe(400);
  });
});

describe('a stale suggestion', () => {
  it('is refused, marked stale with both diffs, and applied over the current text only with force', async () => {
    const ws = await world();
    const critic = await person(ws, 'commenter');
    const id = await suggest(critic.api, { textItemId: 'title', text: 'Welcome to your new house' });
    // Someone edits the text meanwhile.
    expect(
      (await ws.api.patch('textItems', { updates: [{ developerId: 'title', text: 'Welcome to our new home' }] }))
        .status,
    ).toBe(200);
    const before = (await ws.api.get('history?limit=1000')).body.changes.length;

    const refused = await ws.api.post('suggestions/accept', { ids: [id] });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(
      /ids\[0\]: suggestion sg_\w+ is stale: its text changed since it was suggested .*Nothing was applied.*force: true/,
    );
    expect((await textOf(ws, 'title')).text).toBe('Welcome to our new home');
    const stale = (await ws.api.get(`suggestions/${id}`)).body;
    expect(stale).toMatchObject({ status: 'stale', baseChanged: true, current: { text: 'Welcome to our new home' } });
    expect(stale.diff.text.parts).toEqual([
      { type: 'same', text: 'Welcome to your new ' },
      { type: 'removed', text: 'home' },
      { type: 'added', text: 'house' },
    ]);
    expect(stale.currentDiff.text.parts).toEqual([
      { type: 'same', text: 'Welcome to ' },
      { type: 'removed', text: 'your' },
      { type: 'added', text: 'our' },
      { type: 'same', text: ' new home' },
    ]);
    // Marking it stale is the one change the refused accept made.
    const history = (await ws.api.get('history?limit=1000')).body.changes;
    expect(history.length).toBe(before + 1);
    expect(history[0]).toMatchObject({ kind: 'suggestion', action: 'updated', fields: { status: { after: 'stale' } } });
    expect((await ws.api.get('suggestions?status=stale')).body.suggestions.map((s: any) => s.id)).toEqual([id]);

    const forced = await ws.api.post('suggestions/accept', { ids: [id], force: true });
    expect(forced.status, JSON.stringify(forced.body)).toBe(200);
    expect((await textOf(ws, 'title')).text).toBe('Welcome to your new house');
    const done = (await ws.api.get(`suggestions/${id}`)).body;
    // Rebased: its base is now the text it was applied over.
    expect(done).toMatchObject({ status: 'accepted', base: { text: 'Welcome to our new home' } });
    const accepted = (await ws.api.get('history?kind=suggestion&limit=1')).body.changes[0];
    expect(accepted).toMatchObject({ action: 'accepted', fields: { rebasedOnto: { after: expect.any(String) } } });
  });

  it('leaves a whole batch unapplied when one of its suggestions is stale', async () => {
    const ws = await world();
    const [onTitle, onButton] = (
      await ws.api.post('suggestions', {
        suggestions: [
          { textItemId: 'title', text: 'Hello' },
          { componentId: 'button', text: 'Fine' },
        ],
      })
    ).body.ids;
    await ws.api.patch('components', { updates: [{ developerId: 'button', notes: 'A note changes it too' }] });
    const refused = await ws.api.post('suggestions/accept', { ids: [onTitle, onButton] });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^ids\[1\]: suggestion/);
    expect((await textOf(ws, 'title')).text).toBe('Welcome to your new home');
    expect((await ws.api.get(`suggestions/${onTitle}`)).body.status).toBe('open');
    expect((await ws.api.get(`suggestions/${onButton}`)).body.status).toBe('stale');
  });
});

describe('plural and variant suggestions', () => {
  it("proposes plural forms, diffed form by form, and applies them through the PATCH's plural rules", async () => {
    const ws = await world();
    const id = await suggest(ws.api, {
      textItemId: 'cart',
      plurals: [
        { form: 'one', text: '1 article' },
        { form: 'other', text: '{{n}} articles' },
      ],
    });
    const read = (await ws.api.get(`suggestions/${id}`)).body;
    expect(read.proposed).toMatchObject({ text: '1 article', plurals: [{ form: 'one' }, { form: 'other' }] });
    expect(read.diff.plurals.map((p: any) => [p.form, p.added, p.removed])).toEqual([
      ['one', 1, 1],
      ['other', 1, 1],
    ]);
    expect((await ws.api.post('suggestions/accept', { ids: [id] })).status).toBe(200);
    const cart = await textOf(ws, 'cart');
    expect(cart.text).toBe('1 article');
    const plural = (await records(ws, 'textItems')).filter((t) => t.id.startsWith('cart_') && t.variantId === null);
    expect(plural.map((r) => [r.id, r.text])).toEqual([
      ['cart_one', '1 article'],
      ['cart_other', '{{n}} articles'],
    ]);

    // The PATCH's plural checks apply when the suggestion is made: a 400 naming the element's field.
    const bad = await ws.api.post('suggestions', {
      suggestions: [
        { textItemId: 'title', text: 'x' },
        {
          textItemId: 'cart',
          text: '2 things',
          plurals: [
            { form: 'one', text: '1 thing' },
            { form: 'other', text: 'n things' },
          ],
        },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^suggestions\[1\]\.plurals/);
    expect((await ws.api.get('suggestions?textItemId=title')).body.suggestions).toEqual([]);
  });

  it("is refused at accept, naming the suggestion, when the PATCH's checks no longer pass", async () => {
    const ws = await world();
    const id = await suggest(ws.api, {
      textItemId: 'cart',
      plurals: [
        { form: 'one', text: '1 item' },
        { form: 'few', text: '{{n}} items' },
        { form: 'other', text: '{{n}} items' },
      ],
    });
    // Another text takes the developer ID the new plural form's record would have.
    const taken = await ws.api.post('textItems', {
      projectId: 'web',
      textItems: [{ developerId: 'cart_few', text: 'x' }],
    });
    expect(taken.status).toBe(201);
    const refused = await ws.api.post('suggestions/accept', { ids: [id] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^ids\[0\]: suggestion sg_\w+ cannot be applied: .*cart_few/);
    expect((await ws.api.get(`suggestions/${id}`)).body.status).toBe('open');
  });

  it("proposes one variant's text, and a value the text does not have yet", async () => {
    const ws = await world();
    const onValue = await suggest(ws.api, { componentId: 'button', variantId: 'fr', text: 'Bien' });
    const newValue = await suggest(ws.api, { textItemId: 'title', variantId: 'fr', text: 'Bienvenue' });
    const value = (await ws.api.get(`suggestions/${onValue}`)).body;
    expect(value).toMatchObject({
      variantId: 'fr',
      base: { exists: true, text: 'D’accord' },
      proposed: { text: 'Bien' },
    });
    const fresh = (await ws.api.get(`suggestions/${newValue}`)).body;
    expect(fresh).toMatchObject({ variantId: 'fr', base: { exists: false, text: '' } });
    expect(fresh.diff.text).toEqual({ parts: [{ type: 'added', text: 'Bienvenue' }], added: 1, removed: 0 });
    expect((await ws.api.post('suggestions/accept', { ids: [onValue] })).status).toBe(200);
    expect((await ws.api.post('suggestions/accept', { ids: [newValue] })).status).toBe(200);
    const components = await records(ws, 'components');
    expect(components.find((c) => c.variantId === 'fr').text).toBe('Bien');
    expect(components.find((c) => c.variantId === null).text).toBe('OK');
    const items = await records(ws, 'textItems');
    expect(items.find((t) => t.id === 'title' && t.variantId === 'fr').text).toBe('Bienvenue');
  });

  it('keeps a rich text suggestion as HTML and diffs its plain text', async () => {
    const ws = await world();
    const id = await suggest(ws.api, { componentId: 'button', text: '<b>Very</b> OK', richText: 'html' });
    const read = (await ws.api.get(`suggestions/${id}`)).body;
    expect(read.proposed).toMatchObject({ text: 'Very OK', richText: '<strong>Very</strong> OK' });
    expect(read.diff.text.parts).toEqual([
      { type: 'added', text: 'Very ' },
      { type: 'same', text: 'OK' },
    ]);
    expect((await ws.api.post('suggestions/accept', { ids: [id] })).status).toBe(200);
    const rich = (await records(ws, 'components', '&richText=html')).find((c) => c.variantId === null);
    expect(rich).toMatchObject({ text: 'Very OK', richText: '<strong>Very</strong> OK' });
  });
});

describe('roles', () => {
  it('a viewer may not suggest; a commenter suggests but may not accept or reject', async () => {
    const ws = await world();
    const viewer = await person(ws, 'viewer');
    const critic = await person(ws, 'commenter');
    const refused = await viewer.api.post('suggestions', { suggestions: [{ componentId: 'button', text: 'Hi' }] });
    expect(refused.status).toBe(403);
    expect((await viewer.api.get('suggestions')).status).toBe(200);
    const id = await suggest(critic.api, { componentId: 'button', text: 'Hi' });
    for (const path of ['accept', 'reject']) {
      const res = await critic.api.post(`suggestions/${path}`, { ids: [id] });
      expect(res.status, path).toBe(403);
      expect(res.body.message).toMatch(/needs the editor role/);
    }
    expect((await viewer.api.post('suggestions/withdraw', { ids: [id] })).status).toBe(403);
    expect((await ws.api.get(`suggestions/${id}`)).body.status).toBe('open');
    // An admin decides too.
    expect((await ws.api.post('suggestions/accept', { ids: [id] })).status).toBe(200);
  });
});

describe('bad input', () => {
  it('is a 400 naming the field', async () => {
    const ws = await world();
    const cases: [unknown, RegExp][] = [
      [{ suggestions: [{ text: 'x' }] }, /suggestions\[0\]\.textItemId/],
      [{ suggestions: [{ textItemId: 'title', componentId: 'button', text: 'x' }] }, /suggestions\[0\]\.componentId/],
      [{ suggestions: [{ textItemId: 'title' }] }, /suggestions\[0\]\.text/],
      [
        { suggestions: [{ textItemId: 'title', text: 'Welcome to your new home' }] },
        /suggestions\[0\]\.text: the text already reads so/,
      ],
      [{ suggestions: [{ textItemId: 'title', variantId: 'xx', text: 'x' }] }, /suggestions\[0\]\.variantId/],
      [{ suggestions: [{ textItemId: 'title', text: 'x', colour: 'red' }] }, /colour/],
      [{ suggestions: [{ textItemId: 'title', text: 'x', note: ' ' }] }, /suggestions\[0\]\.note/],
      [{ suggestions: [{ textItemId: 'title', text: 5 }] }, /suggestions\/0\/text|suggestions\[0\]\.text/],
      [{ suggestions: [] }, /suggestions/],
    ];
    for (const [body, message] of cases) {
      const res = await ws.api.post('suggestions', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message, JSON.stringify(body)).toMatch(message);
    }
    const missing = await ws.api.post('suggestions', { suggestions: [{ textItemId: 'nope', text: 'x' }] });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/suggestions\[0\]\.textItemId/);
    const id = await suggest(ws.api, { componentId: 'button', text: 'Hi' });
    const twice = await ws.api.post('suggestions/accept', { ids: [id, id] });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toMatch(/ids\[1\]: duplicate suggestion id/);
    const unknown = await ws.api.post('suggestions/reject', { ids: [id, 'sg_nope'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/ids\[1\]: Suggestion sg_nope not found/);
    for (const query of ['textItemId=nope', 'projectId=nope', 'status=maybe', 'limit=0']) {
      const res = await ws.api.get(`suggestions?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(new RegExp(query.split('=')[0] as string));
    }
    expect((await ws.api.get('suggestions/sg_nope')).status).toBe(404);
  });
});

describe('when the text is deleted', () => {
  it('its open suggestions close as obsolete and stay readable under its last developer ID', async () => {
    const ws = await world();
    const open = await suggest(ws.api, { textItemId: 'title', text: 'Hi' });
    const rejected = await suggest(ws.api, { textItemId: 'title', text: 'Hey' });
    await ws.api.post('suggestions/reject', { ids: [rejected] });
    expect((await ws.api.delete('textItems', { developerIds: ['title'] })).status).toBe(200);
    const listed = (await ws.api.get('suggestions?textItemId=title')).body.suggestions as any[];
    expect(listed.map((s) => [s.id, s.status, s.recordDeleted, s.textItemId])).toEqual([
      [open, 'obsolete', true, 'title'],
      [rejected, 'rejected', true, 'title'],
    ]);
    const read = (await ws.api.get(`suggestions/${open}`)).body;
    expect(read).toMatchObject({ status: 'obsolete', current: null, baseChanged: false, proposed: { text: 'Hi' } });
    const accept = await ws.api.post('suggestions/accept', { ids: [open] });
    expect(accept.status).toBe(409);
    expect(accept.body.message).toMatch(/is obsolete/);
  });
});

describe('another workspace', () => {
  it("sees none of this workspace's suggestions", async () => {
    const ws = await world();
    const id = await suggest(ws.api, { componentId: 'button', text: 'Hi' });
    const stranger = await world();
    expect((await stranger.api.get('suggestions')).body.suggestions).toEqual([]);
    expect((await stranger.api.get(`suggestions/${id}`)).status).toBe(404);
    expect((await stranger.api.post('suggestions/accept', { ids: [id] })).status).toBe(404);
    expect((await stranger.api.post('suggestions/withdraw', { ids: [id] })).status).toBe(404);
    expect((await ws.api.get(`suggestions/${id}`)).body.status).toBe('open');
  });
});

describe('history', () => {
  it('records every suggestion write as a change of kind suggestion, which cannot be restored', async () => {
    const ws = await world();
    const [kept, dropped] = (
      await ws.api.post('suggestions', {
        suggestions: [
          { componentId: 'button', text: 'Fine' },
          { componentId: 'button', variantId: 'fr', text: 'Bien' },
        ],
      })
    ).body.ids;
    await ws.api.post('suggestions/accept', { ids: [kept] });
    await ws.api.post('suggestions/withdraw', { ids: [dropped] });
    const { changes } = (await ws.api.get('history?kind=suggestion')).body;
    expect(changes.map((c: any) => `${c.developerId}:${c.action}`).reverse()).toEqual([
      `${kept}:created`,
      `${dropped}:created`,
      `${kept}:accepted`,
      `${dropped}:withdrawn`,
    ]);
    expect(changes[3]).toMatchObject({
      kind: 'suggestion',
      actor: ws.email,
      fields: {
        componentId: { before: null, after: 'button' },
        variantId: { before: null, after: null },
        status: { before: null, after: 'open' },
        proposed: { before: null, after: { text: 'Fine', richText: null, plurals: null } },
        base: { before: null, after: expect.objectContaining({ text: 'OK', exists: true }) },
      },
    });
    const restore = await ws.api.post('history/restore', { changeId: changes[0].id });
    expect(restore.status).toBe(400);
  });
});
