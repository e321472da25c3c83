import { describe, expect, it } from 'vitest';
import { anotherServer, apiClient, createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { createItems, patchItems, post } from './helpers.js';

/** GET /v2/textItems/rows: the app's paged list of a project (docs/app-list.md). */
const ctx = await setupApp();

async function project(ws: Workspace): Promise<void> {
  await post(ws, 'variants', { variants: [{ name: 'French', developerId: 'fr' }] });
  await post(ws, 'projects', { projects: [{ name: 'Web', developerId: 'web' }] });
  await post(ws, 'projectBlocks', {
    projectId: 'web',
    blocks: [
      { name: 'Header', developerId: 'header' },
      { name: 'Footer', developerId: 'footer' },
    ],
  });
}

async function rows(ws: Workspace, query: string): Promise<any> {
  const res = await ws.api.get(`textItems/rows?projectId=web&${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Every page after `first`, by cursor, with `between` run before each next page. */
async function allPages(ws: Workspace, query: string, between: (page: number) => Promise<void> = async () => {}) {
  const ids: string[] = [];
  let page = await rows(ws, query);
  let n = 0;
  for (;;) {
    for (const row of page.rows) ids.push(row.id);
    if (!page.nextCursor) return ids;
    await between(n);
    n += 1;
    page = await rows(ws, `${query}&cursor=${encodeURIComponent(page.nextCursor)}`);
  }
}

describe('GET /v2/textItems/rows', () => {
  it('answers the rows of the project order, the total, and only what a list row shows', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    await createItems(ws, { projectId: 'web' }, [
      { developerId: 'z-outside', text: 'Outside any block' },
      { developerId: 'b-footer', text: 'Footer text', blockId: 'footer' },
      {
        developerId: 'a-header',
        text: 'Header text',
        blockId: 'header',
        status: 'WIP',
        assignee: ws.email,
        tags: ['nav'],
        plurals: [
          { form: 'one', text: 'Header text' },
          { form: 'other', text: 'Headers' },
        ],
        variants: [{ variantId: 'fr', text: 'En-tête' }],
      },
    ]);
    const page = await rows(ws, 'states=fr');
    expect(page.total).toBe(3);
    expect(page.offset).toBe(0);
    expect(page.nextCursor).toBeNull();
    expect(page.rows.map((r: { id: string }) => r.id)).toEqual(['a-header', 'b-footer', 'z-outside']);
    expect(page.rows[0]).toEqual({
      id: 'a-header',
      text: 'Header text',
      status: 'WIP',
      assignee: ws.email,
      tags: ['nav'],
      blockId: 'header',
      blockName: 'Header',
      componentId: null,
      plurals: true,
      states: { fr: 'upToDate' },
    });
    expect(page.rows[1].states).toEqual({ fr: 'missing' });

    const byId = await rows(ws, 'sort=id&limit=2');
    expect(byId.rows.map((r: { id: string }) => r.id)).toEqual(['a-header', 'b-footer']);
    expect(byId.total).toBe(3);
    const rest = await rows(ws, `sort=id&cursor=${encodeURIComponent(byId.nextCursor)}`);
    expect(rest).toMatchObject({ offset: 2, nextCursor: null });
    expect(rest.rows.map((r: { id: string }) => r.id)).toEqual(['z-outside']);

    const block = await rows(ws, 'blockId=footer');
    expect(block.rows.map((r: { id: string }) => r.id)).toEqual(['b-footer']);
  });

  it('filters on the server: status, assignee, tags, variant state, plurals, variables, integrated, search', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    await post(ws, 'variables', { variables: [{ name: 'count', type: 'number', data: { example: 3 } }] });
    await createItems(ws, { projectId: 'web' }, [
      { developerId: 'checkout-button', text: 'Pay now', status: 'FINAL', tags: ['button', 'checkout'] },
      { developerId: 'cart-title', text: 'Your basket', tags: ['checkout'], integrated: true },
      { developerId: 'cart-count', text: '{{count}} items', variables: ['count'], assignee: ws.email },
      { developerId: 'greeting', text: 'Welcome back', variants: [{ variantId: 'fr', text: 'Bon retour' }] },
    ]);
    await createItems(ws, { projectId: 'web' }, [{ developerId: 'unlisted', text: 'Hi {{name}}', status: 'WIP' }]);
    const ids = async (query: string) => (await rows(ws, `sort=id&${query}`)).rows.map((r: { id: string }) => r.id);
    expect(await ids('status=FINAL')).toEqual(['checkout-button']);
    expect(await ids('status=FINAL,NONE')).toEqual(['cart-count', 'cart-title', 'checkout-button', 'greeting']);
    expect(await ids(`assignee=${encodeURIComponent(ws.email)}`)).toEqual(['cart-count']);
    expect(await ids('assignee=unassigned')).toEqual(['cart-title', 'checkout-button', 'greeting', 'unlisted']);
    expect(await ids('assignee=nobody%40example.com')).toEqual([]);
    expect(await ids('tags=checkout')).toEqual(['cart-title', 'checkout-button']);
    expect(await ids('tags=checkout,button')).toEqual(['checkout-button']);
    expect(await ids('integrated=true')).toEqual(['cart-title']);
    expect(await ids('variables=true')).toEqual(['cart-count', 'unlisted']);
    expect(await ids('status=WIP')).toEqual(['unlisted']);
    expect(await ids('variant=fr&state=upToDate')).toEqual(['greeting']);
    expect(await ids('variant=fr&state=missing')).toEqual(['cart-count', 'cart-title', 'checkout-button', 'unlisted']);
    await patchItems(ws, { updates: [{ developerId: 'greeting', text: 'Welcome back!' }] });
    expect(await ids('variant=fr&state=outdated')).toEqual(['greeting']);
    expect(await ids('q=bask')).toEqual(['cart-title']);
    expect(await ids('q=cart')).toEqual(['cart-count', 'cart-title']);
    expect(await ids('q=bon')).toEqual(['greeting']);
    const filtered = await rows(ws, 'tags=checkout&status=NONE&variant=fr&facets=true');
    expect(filtered.total).toBe(1);
    // Each group counts the items that pass the other groups.
    expect(filtered.facets.tags).toEqual({ total: 3, values: { button: 0, checkout: 1 } });
    expect(filtered.facets.status).toEqual({ total: 2, values: { FINAL: 1, NONE: 1 } });
    expect(filtered.facets.assignee).toEqual({ total: 1, values: { unassigned: 1 } });
    expect(filtered.facets.integrated).toEqual({ total: 1, values: { true: 1 } });
    expect(filtered.facets.state).toEqual({ total: 1, values: { missing: 1 } });
    expect((await rows(ws, 'facets=true')).facets.plurals).toEqual({ total: 5, values: { false: 5 } });
    expect(await ids('ids=greeting,cart-title,nope')).toEqual(['cart-title', 'greeting']);
  });

  it('says what is wrong with a request, naming the field', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    const bad = async (query: string, field: string) => {
      const res = await ws.api.get(`textItems/rows?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toContain(field);
    };
    await bad('projectId=nope', 'projectId');
    await bad('projectId=web&blockId=nope', 'blockId');
    await bad('projectId=web&variant=nope&state=missing', 'variant');
    await bad('projectId=web&state=missing', 'state');
    await bad('projectId=web&cursor=garbage', 'cursor');
    await bad('projectId=web&limit=0', 'limit');
    const other = await rows(ws, 'sort=id&limit=1');
    expect(other.nextCursor).toBeNull();
    await createItems(ws, { projectId: 'web' }, [{ text: 'One' }, { text: 'Two' }]);
    const first = await rows(ws, 'sort=id&limit=1');
    await bad(`projectId=web&cursor=${encodeURIComponent(first.nextCursor)}`, 'cursor');
    const another = await createWorkspace(ctx);
    expect((await another.api.get('textItems/rows?projectId=web')).status).toBe(400);
  });

  it('pages by cursor give every item exactly once while items are added before and after', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    const initial = Array.from({ length: 250 }, (_, i) => ({
      developerId: `item-${String(i).padStart(4, '0')}`,
      text: `Item ${i}`,
      ...(i % 3 === 0 ? { blockId: 'header' } : i % 3 === 1 ? { blockId: 'footer' } : {}),
    }));
    await createItems(ws, { projectId: 'web' }, initial);
    for (const sort of ['project_order', 'id']) {
      const before = await allPages(ws, `sort=${sort}&limit=500`);
      const added: string[] = [];
      const seen = await allPages(ws, `sort=${sort}&limit=40`, async (page) => {
        // Before, inside and after what was read so far, in every block and outside them.
        const now = [`aaa-${sort}-${page}`, `item-0100-${sort}-${page}`, `zzz-${sort}-${page}`];
        await createItems(
          ws,
          { projectId: 'web' },
          now.map((developerId, i) => ({
            developerId,
            text: developerId,
            ...(i === 0 ? { blockId: 'header' } : i === 1 ? { blockId: 'footer' } : {}),
          })),
        );
        added.push(...now);
      });
      expect(added.length).toBeGreaterThan(10);
      // No item twice, every item of the start once, and added ones at most once.
      expect(new Set(seen).size).toBe(seen.length);
      expect(before.length).toBeGreaterThanOrEqual(initial.length);
      for (const id of before) expect(seen.filter((other) => other === id)).toHaveLength(1);
      expect(seen.filter((id) => !added.includes(id) && !before.includes(id))).toEqual([]);
    }
  });

  it('after each write, answers what a server that never saw the list answers', async () => {
    // The list kept from before a write is patched with the texts the write touched (docs/app-list.md):
    // each answer is checked against a second server on the same database, whose lists are new.
    const ws = await createWorkspace(ctx);
    await project(ws);
    await createItems(ws, { projectId: 'web' }, [
      { developerId: 'a', text: 'Alpha', blockId: 'header', tags: ['nav'] },
      { developerId: 'b', text: 'Beta', blockId: 'footer', variants: [{ variantId: 'fr', text: 'Bêta' }] },
      { developerId: 'c', text: 'Gamma' },
      { developerId: 'd', text: 'Delta', blockId: 'header', status: 'WIP' },
    ]);
    const queries = [
      'sort=id',
      'sort=project_order',
      'variant=fr&state=missing&facets=true',
      'status=WIP',
      'tags=nav&facets=true',
      'blockId=header',
      'q=ga',
    ];
    const same = async (after: string) => {
      // A server started now: nothing of this list is kept there.
      const fresh = apiClient((await anotherServer(ctx)).app, ws.key);
      for (const query of queries) {
        const kept = await rows(ws, query);
        const answer = await fresh.get(`textItems/rows?projectId=web&${query}`);
        expect(kept, `${after}: ${query}`).toEqual(answer.body);
      }
    };
    await same('the first read');
    await patchItems(ws, { updates: [{ developerId: 'c', text: 'Gamma ray', status: 'WIP', tags: ['nav'] }] });
    await same('an edit');
    await createItems(ws, { projectId: 'web' }, [{ developerId: 'aa', text: 'Added', blockId: 'footer' }]);
    await same('an added item');
    await ws.api.delete('textItems', { developerIds: ['a'] });
    await same('a deleted item');
    await patchItems(ws, { variantId: 'fr', updates: [{ developerId: 'd', text: 'Delta fr' }] });
    await patchItems(ws, { updates: [{ developerId: 'b', text: 'Beta, edited' }] });
    await same('a variant value, and a base text that makes one outdated');
    const moved = await ws.api.put('projectOrder', { projectId: 'web', textItemIds: ['d', 'aa', 'b'] });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await same('a new order');
    const commented = await ws.api.post('comments', { comments: [{ textItemId: 'b', body: 'Looks good' }] });
    expect(commented.status, JSON.stringify(commented.body)).toBe(201);
    await same('a comment');
    // Blocks reordered: a write of another kind, after which the project is read anew.
    await ws.api.put('projectOrder', { projectId: 'web', blockIds: ['footer', 'header'], textItemIds: [] });
    await same('blocks reordered');
  });

  it('jumps to any position with offset, and the page at the end says there is no more', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    await createItems(
      ws,
      { projectId: 'web' },
      Array.from({ length: 120 }, (_, i) => ({ developerId: `k${String(i).padStart(3, '0')}`, text: `Text ${i}` })),
    );
    const page = await rows(ws, 'sort=id&offset=57&limit=5');
    expect(page).toMatchObject({ total: 120, offset: 57 });
    expect(page.rows.map((r: { id: string }) => r.id)).toEqual(['k057', 'k058', 'k059', 'k060', 'k061']);
    const next = await rows(ws, `sort=id&limit=5&cursor=${encodeURIComponent(page.nextCursor)}`);
    expect(next.offset).toBe(62);
    const end = await rows(ws, 'sort=id&offset=118&limit=5');
    expect(end.rows).toHaveLength(2);
    expect(end.nextCursor).toBeNull();
    const beyond = await rows(ws, 'sort=id&offset=500');
    expect(beyond).toMatchObject({ total: 120, offset: 120, rows: [], nextCursor: null });
  });

  it('a project of 20,000 items opens with a first page well under 200 KB', { timeout: 300_000 }, async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    for (let batch = 0; batch < 20; batch += 1) {
      await createItems(
        ws,
        { projectId: 'web' },
        Array.from({ length: 1000 }, (_, i) => ({
          developerId: `text-${batch}-${i}`,
          text: `A text of some length, number ${batch * 1000 + i}, as products have them by the thousand`,
          tags: ['bulk'],
        })),
      );
    }
    // What the app reads before it shows the first rows: the workspace's lists and the first page.
    const reads = [
      'projects',
      'componentFolders',
      'variants',
      'variables',
      'statuses',
      'users',
      'projectBlocks?projectId=web',
      'textItems/rows?projectId=web&states=fr&limit=100&facets=true',
    ];
    let bytes = 0;
    for (const url of reads) {
      const res = await ws.api.get(url);
      expect(res.status, url).toBe(200);
      bytes += res.raw.rawPayload.length;
    }
    const first = await rows(ws, 'limit=100');
    expect(first.total).toBe(20_000);
    expect(first.rows).toHaveLength(100);
    expect(bytes).toBeLessThan(200 * 1024);
    // The old way, for scale: the whole project in one answer.
    const whole = await ws.api.get(
      `textItems?filter=${encodeURIComponent(JSON.stringify({ projects: [{ id: 'web' }], variants: [{ id: 'all' }] }))}`,
    );
    expect(whole.raw.rawPayload.length).toBeGreaterThan(10 * bytes);
  });
});

describe('GET /v2/textItems?ids=', () => {
  it('reads only the items named, as the list reads them', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    await createItems(ws, { projectId: 'web' }, [
      { developerId: 'one', text: 'One', variants: [{ variantId: 'fr', text: 'Un' }] },
      { developerId: 'two', text: 'Two' },
      { developerId: 'three', text: 'Three' },
    ]);
    const filter = encodeURIComponent(JSON.stringify({ projects: [{ id: 'web' }], variants: [{ id: 'all' }] }));
    const res = await ws.api.get(`textItems?filter=${filter}&ids=one,three`);
    expect(res.status).toBe(200);
    expect(res.body.map((r: { id: string; variantId: string | null }) => `${r.id}:${r.variantId}`)).toEqual([
      'one:null',
      'one:fr',
      'three:null',
    ]);
    expect((await ws.api.get(`textItems?filter=${filter}&ids=`)).status).toBe(400);
  });
});
