import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { createItems, failure, list, patchItems, post, world } from './helpers.js';

const ctx = await setupApp();
const everywhere = { projects: [{ id: 'web' }, { id: 'app' }] };

/** `world`, plus `cart` (plurals, fr value, tags) in web's header, `derived` from core-a, and `a1`, `a2` in app. */
async function populated(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await world(ws);
  await createItems(ws, { projectId: 'web' }, [
    {
      developerId: 'cart',
      text: 'item',
      blockId: 'header',
      tags: ['t1', 't2'],
      plurals: [
        { form: 'one', text: 'item' },
        { form: 'other', text: 'items' },
      ],
      variants: [{ variantId: 'fr', text: 'article' }],
    },
    { developerId: 'derived', text: 'Derived', baseTextItemId: 'core-a' },
    { developerId: 'plain', text: 'Plain', tags: ['t1'] },
  ]);
  await createItems(ws, { projectId: 'app' }, [
    { developerId: 'a1', text: 'A1' },
    { developerId: 'a2', text: 'A2' },
  ]);
  await post(ws, 'projectBlocks', { projectId: 'app', blocks: [{ name: 'Main', developerId: 'main' }] });
  return ws;
}

const base = (records: any[], id: string) => records.find((r) => r.id === id && r.variantId === null);
const history = async (ws: Workspace, id: string) =>
  (await ws.api.get(`history?kind=textItem&id=${id}`)).body.changes as any[];
const order = async (ws: Workspace, projectId: string) =>
  (await list(ws, { projects: [{ id: projectId }] }, '&sort=project_order'))
    .filter((r) => r.variantId === null && r.pluralForm === null)
    .map((r) => r.id);

describe('PATCH /v2/textItems: projectId moves an item to another project', () => {
  it('moves to the end of the new project, into a block of it or outside blocks, recorded as moved', async () => {
    const ws = await populated();
    await patchItems(ws, {
      updates: [
        { developerId: 'cart', projectId: 'app', blockId: 'main' },
        { developerId: 'plain', projectId: 'app' },
      ],
    });
    const records = await list(ws, { ...everywhere, variants: [{ id: 'all' }] });
    expect(base(records, 'cart')).toMatchObject({
      projectId: 'app',
      blockName: 'Main',
      blockId: 'main',
      tags: ['t1', 't2'],
    });
    expect(base(records, 'plain')).toMatchObject({ projectId: 'app', blockName: null, blockId: null });
    // Its plural and variant records moved with it.
    expect(records.filter((r) => r.id.startsWith('cart')).every((r) => r.projectId === 'app')).toBe(true);
    expect(records.find((r) => r.id === 'cart' && r.variantId === 'fr')).toMatchObject({ text: 'article' });
    // The block first, then the items outside blocks in their order: the moved one last.
    expect(await order(ws, 'app')).toEqual(['cart', 'a1', 'a2', 'plain']);
    expect(await order(ws, 'web')).toEqual(['derived']);
    // Search shows the item in its new project.
    const found = (await ws.api.get('search?q=plain')).body.results;
    expect(found).toEqual([expect.objectContaining({ developerId: 'plain', projectId: 'app' })]);
    const [moved] = await history(ws, 'cart');
    expect(moved).toMatchObject({
      action: 'moved',
      fields: { projectId: { before: 'web', after: 'app' }, blockId: { before: 'header', after: 'main' } },
    });
    // The export of each project follows the move.
    const exported = async (projectId: string) => {
      const filter = encodeURIComponent(JSON.stringify({ projects: [{ id: projectId }] }));
      const res = await ws.api.get(`textItems/export?format=json_icu&filter=${filter}`);
      expect(res.status, res.raw.body).toBe(200);
      return Object.keys(typeof res.body === 'string' ? JSON.parse(res.body) : res.body);
    };
    expect(await exported('app')).toEqual(expect.arrayContaining(['cart', 'plain', 'a1']));
    expect(await exported('web')).not.toContain('cart');
  });

  it('drops the base text item when the new project has another base, keeps the item otherwise', async () => {
    const ws = await populated();
    await patchItems(ws, { updates: [{ developerId: 'derived', projectId: 'app' }] });
    expect(base(await list(ws, everywhere), 'derived')).toMatchObject({ projectId: 'app', baseTextItemId: null });
    const [change] = await history(ws, 'derived');
    expect(change).toMatchObject({ action: 'updated', fields: { baseTextItemId: { before: 'core-a', after: null } } });
  });

  it('moves a linked instance with its link', async () => {
    const ws = await populated();
    await post(ws, 'components', { components: [{ developerId: 'ok', text: 'OK' }] });
    await post(ws, 'textItems/instances', { componentId: 'ok', projectId: 'web', developerId: 'ok-web' });
    await patchItems(ws, { updates: [{ developerId: 'ok-web', projectId: 'app' }] });
    expect(base(await list(ws, everywhere), 'ok-web')).toMatchObject({
      projectId: 'app',
      componentId: 'ok',
      text: 'OK',
    });
    const instances = (await ws.api.get('textItems/instances?componentId=ok')).body;
    expect(instances).toEqual([expect.objectContaining({ id: 'ok-web', projectId: 'app' })]);
  });

  it('with its own project, blockId means what it always means', async () => {
    const ws = await populated();
    await patchItems(ws, { updates: [{ developerId: 'plain', projectId: 'web', blockId: 'footer' }] });
    expect(base(await list(ws, everywhere), 'plain')).toMatchObject({ projectId: 'web', blockName: 'Footer' });
  });

  it('answers 400 naming the field for an unknown project, a base, a block of another project; all or none', async () => {
    const ws = await populated();
    const before = await list(ws, everywhere);
    const cases: [object[], string][] = [
      [[{ developerId: 'plain', projectId: 'nope' }], 'updates[0].projectId: Project with developer ID nope not found'],
      [[{ developerId: 'plain', projectId: 'core' }], 'updates[0].projectId: Project with developer ID core not found'],
      [
        [
          { developerId: 'a1', projectId: 'web' },
          { developerId: 'plain', projectId: 'app', blockId: 'header' },
        ],
        'updates[1].blockId: Block id not found in project app: header',
      ],
    ];
    for (const [updates, message] of cases) {
      expect(await failure(ws, 'patch', 'textItems', { updates })).toContain(message);
      expect(await list(ws, everywhere)).toEqual(before);
    }
    const baseItem = await failure(ws, 'patch', 'textItems', {
      updates: [{ developerId: 'core-a', projectId: 'web' }],
    });
    expect(baseItem).toContain('updates[0].projectId: text item core-a belongs to base core');
  });
});

describe('PATCH /v2/textItems: newDeveloperId', () => {
  it('renames the item and its plural and variant records; history follows it', async () => {
    const ws = await populated();
    await patchItems(ws, { updates: [{ developerId: 'cart', newDeveloperId: 'basket', status: 'WIP' }] });
    const records = await list(ws, { ...everywhere, variants: [{ id: 'all' }] });
    const ids = records.map((r) => `${r.id}@${r.variantId}`);
    expect(ids).toEqual(expect.arrayContaining(['basket@null', 'basket_one@null', 'basket_other@null', 'basket@fr']));
    expect(ids.some((id) => id.startsWith('cart'))).toBe(false);
    expect(base(records, 'basket')).toMatchObject({ status: 'WIP', blockName: 'Header' });
    const changes = await history(ws, 'basket');
    expect(changes[0]).toMatchObject({
      action: 'renamed',
      developerId: 'basket',
      fields: { developerId: { before: 'cart', after: 'basket' }, status: { before: 'NONE', after: 'WIP' } },
    });
    expect(changes.map((c) => c.action)).toContain('created');
    // Search finds it by its new developer ID, and no longer by the old one.
    expect((await ws.api.get('search?q=basket')).body.results).toEqual([
      expect.objectContaining({ developerId: 'basket', kind: 'textItem' }),
    ]);
    expect((await ws.api.get('search?q=cart')).body.results).toEqual([]);
    // The old ID is free again; the new one is the item's.
    expect((await ws.api.patch('textItems', { updates: [{ developerId: 'cart', text: 'x' }] })).status).toBe(404);
    await createItems(ws, { projectId: 'web' }, [{ developerId: 'cart', text: 'New cart' }]);
  });

  it('answers 409 naming newDeveloperId when the ID is taken (by an item or a plural record), 400 when repeated; all or none', async () => {
    const ws = await populated();
    const before = await list(ws, everywhere);
    const cases: [object[], number, string][] = [
      [
        [
          { developerId: 'plain', text: 'x' },
          { developerId: 'a1', newDeveloperId: 'a2' },
        ],
        409,
        'updates[1].newDeveloperId: Text item with developer ID a2 already exists',
      ],
      [
        [{ developerId: 'a1', newDeveloperId: 'cart_one' }],
        409,
        "updates[0].newDeveloperId: cart_one collides with the 'one' plural record of cart",
      ],
      [
        [
          { developerId: 'cart', newDeveloperId: 'a' },
          { developerId: 'a1', newDeveloperId: 'a_one' },
        ],
        409,
        'updates[0].newDeveloperId',
      ],
      [
        [
          { developerId: 'a1', newDeveloperId: 'n' },
          { developerId: 'a2', newDeveloperId: 'n' },
        ],
        400,
        "updates[1].newDeveloperId: developer ID 'n' is also given to updates[0]",
      ],
      [[{ developerId: 'a1', newDeveloperId: 'has space' }], 400, 'newDeveloperId'],
    ];
    await createItems(ws, { projectId: 'app' }, [{ developerId: 'a_one', text: 'taken' }]);
    const withTaken = await list(ws, everywhere);
    for (const [updates, status, message] of cases) {
      expect(await failure(ws, 'patch', 'textItems', { updates }, status)).toContain(message);
      expect(await list(ws, everywhere)).toEqual(withTaken);
    }
    expect(before.length + 1).toBe(withTaken.length);
  });
});

describe('PATCH /v2/textItems: addTags and removeTags', () => {
  it('adds and removes tags on many items in one request, after tags when both are given', async () => {
    const ws = await populated();
    await patchItems(ws, {
      updates: [
        { developerId: 'cart', addTags: ['new', 't1'], removeTags: ['t2'] },
        { developerId: 'plain', tags: ['x'], addTags: ['y'], removeTags: ['x'] },
        { developerId: 'a1', removeTags: ['absent'] },
      ],
    });
    const records = await list(ws, everywhere);
    expect(base(records, 'cart').tags).toEqual(['t1', 'new']);
    expect(base(records, 'plain').tags).toEqual(['y']);
    expect(base(records, 'a1').tags).toEqual([]);
    expect((await history(ws, 'a1')).map((c) => c.action)).toEqual(['created']);
    expect((await history(ws, 'cart'))[0]).toMatchObject({
      fields: { tags: { before: ['t1', 't2'], after: ['t1', 'new'] } },
    });
  });

  it('refuses more tags than the limit, naming addTags, all or none', async () => {
    const small = await setupApp({ limits: { ...ctx.config.limits, tags: 2 } });
    const ws = await createWorkspace(small);
    await post(ws, 'projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    await createItems(ws, { projectId: 'web' }, [
      { developerId: 'a', text: 'A', tags: ['x'] },
      { developerId: 'b', text: 'B', tags: ['x', 'y'] },
    ]);
    const res = await ws.api.patch('textItems', {
      updates: [
        { developerId: 'a', addTags: ['y'] },
        { developerId: 'b', addTags: ['z'] },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('updates[1].addTags: a text has at most 2 tags');
    expect((await ws.api.get('textItems')).body.map((r: any) => r.tags)).toEqual([['x'], ['x', 'y']]);
  });
});

describe('PATCH /v2/textItems: workspaces', () => {
  it('cannot move an item to, or rename it after, another workspace’s project or item', async () => {
    const ws = await populated();
    const other = await createWorkspace(ctx);
    await post(other, 'projects', { projects: [{ name: 'Elsewhere', developerId: 'elsewhere' }] });
    await createItems(other, { projectId: 'elsewhere' }, [{ developerId: 'theirs', text: 'T' }]);
    expect(
      await failure(ws, 'patch', 'textItems', { updates: [{ developerId: 'plain', projectId: 'elsewhere' }] }),
    ).toContain('updates[0].projectId');
    await patchItems(ws, { updates: [{ developerId: 'plain', newDeveloperId: 'theirs' }] });
    expect((await other.api.get('textItems')).body.map((r: any) => r.id)).toEqual(['theirs']);
    expect(
      (await other.api.patch('textItems', { updates: [{ developerId: 'a1', projectId: 'elsewhere' }] })).status,
    ).toBe(404);
  });

  it('documents the new fields in OpenAPI', async () => {
    const doc = JSON.parse((await ctx.app.inject({ method: 'GET', url: '/v2/openapi.json' })).body);
    const item =
      doc.paths['/v2/textItems'].patch.requestBody.content['application/json'].schema.properties.updates.items;
    for (const field of ['projectId', 'newDeveloperId', 'addTags', 'removeTags', 'blockId'])
      expect(item.properties).toHaveProperty(field);
  });
});
