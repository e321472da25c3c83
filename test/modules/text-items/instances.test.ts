import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { signedIn } from '../accounts/people.js';
import { history } from '../changes/helpers.js';
import { countTexts, createItems, failure, list, patchItems, post, world } from './helpers.js';

const ctx = await setupApp();
const web = { projects: [{ id: 'web' }] };
const allVariants = { variants: [{ id: 'all' }] };

/** `world`, a variable and the component `cart` with plurals, a French value and every field set. */
async function library(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await world(ws);
  await post(ws, 'variables', { variables: [{ name: 'n', type: 'number', data: { example: 2 } }] });
  await post(ws, 'components', {
    components: [
      {
        developerId: 'cart',
        name: 'Cart count',
        text: '{{n}} item',
        notes: 'cart notes',
        tags: ['shop'],
        status: 'REVIEW',
        characterLimit: 40,
        variables: ['n'],
        plurals: [
          { form: 'one', text: '{{n}} item' },
          { form: 'other', text: '{{n}} items' },
        ],
        variants: [{ variantId: 'fr', text: '{{n}} article', status: 'WIP' }],
      },
      { developerId: 'ok', text: 'OK' },
    ],
  });
  return ws;
}

async function place(ws: Workspace, body: object, expected: string): Promise<void> {
  const res = await ws.api.post('textItems/instances', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body).toEqual({ developerId: expected });
}

async function instances(ws: Workspace, componentId: string): Promise<any[]> {
  const res = await ws.api.get(`textItems/instances?componentId=${componentId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('POST /v2/textItems/instances', () => {
  it('places a component into a project: the item shows the component’s text, plurals and variants', async () => {
    const ws = await library();
    await createItems(ws, { projectId: 'web' }, [{ developerId: 'first', text: 'First', blockId: 'footer' }]);
    await place(ws, { componentId: 'cart', projectId: 'web', blockId: 'footer' }, 'cart');

    const records = await list(ws, { ...web, ...allVariants }, '&sort=project_order');
    expect(records.map((r) => [r.id, r.variantId, r.text, r.status, r.componentId, r.blockName])).toEqual([
      ['first', null, 'First', 'NONE', null, 'Footer'],
      ['cart', null, '{{n}} item', 'REVIEW', 'cart', 'Footer'],
      ['cart_one', null, '{{n}} item', 'REVIEW', 'cart', 'Footer'],
      ['cart_other', null, '{{n}} items', 'REVIEW', 'cart', 'Footer'],
      ['cart', 'fr', '{{n}} article', 'WIP', 'cart', 'Footer'],
    ]);
    expect(records[1]).toMatchObject({
      notes: 'cart notes',
      tags: ['shop'],
      characterLimit: 40,
      integrated: false,
      variableIds: ['n'],
      projectId: 'web',
    });
  });

  it('the instance follows component edits and keeps its own fields; deleting the component detaches it', async () => {
    const ws = await library();
    await place(ws, { componentId: 'ok', projectId: 'app' }, 'ok');
    await patchItems(ws, { updates: [{ developerId: 'ok', status: 'FINAL', notes: 'mine' }] });
    expect((await ws.api.patch('components', { updates: [{ developerId: 'ok', text: 'Okay' }] })).status).toBe(200);
    const [shown] = await list(ws, { projects: [{ id: 'app' }] });
    expect(shown).toMatchObject({ text: 'Okay', status: 'FINAL', notes: 'mine', componentId: 'ok' });
    expect(await failure(ws, 'patch', 'textItems', { updates: [{ developerId: 'ok', text: 'x' }] })).toMatch(
      /linked instance of component ok/,
    );

    expect((await ws.api.delete('components', { developerIds: ['ok'] })).status).toBe(200);
    const [detached] = await list(ws, { projects: [{ id: 'app' }] });
    expect(detached).toMatchObject({ text: 'Okay', status: 'FINAL', componentId: null });
  });

  it('generates the developer ID from the component’s, stepping past taken ids; an explicit one is kept', async () => {
    const ws = await library();
    await place(ws, { componentId: 'ok', projectId: 'web' }, 'ok');
    await place(ws, { componentId: 'ok', projectId: 'app' }, 'ok-2');
    await place(ws, { componentId: 'ok', projectId: 'app', developerId: 'app-ok' }, 'app-ok');
    // `cart-2` is free but a text item `cart-2_one` would collide with its plural record.
    await createItems(
      ws,
      { projectId: 'app' },
      [{ developerId: 'cart' }, { developerId: 'cart-2_one' }].map((i) => ({ ...i, text: 'x' })),
    );
    await place(ws, { componentId: 'cart', projectId: 'app' }, 'cart-3');
  });

  it('records the created instance in the history, with its component', async () => {
    const ws = await library();
    await place(ws, { componentId: 'ok', projectId: 'web', blockId: 'header' }, 'ok');
    const changes = await history(ws, '?kind=textItem&id=ok');
    expect(changes.map((c) => c.action)).toEqual(['created']);
    const [created] = changes;
    expect(created?.fields).toMatchObject({
      projectId: { before: null, after: 'web' },
      blockId: { before: null, after: 'header' },
      componentId: { before: null, after: 'ok' },
      text: { before: null, after: 'OK' },
    });
  });

  it('errors name the field, in order; nothing is written', async () => {
    const ws = await library();
    const bad = (body: object, status = 400) => failure(ws, 'post', 'textItems/instances', body, status);
    expect(await bad({ componentId: 'ghost', projectId: 'nowhere' })).toBe(
      'componentId: Component with developer ID ghost not found',
    );
    expect(await bad({ componentId: 'ok', projectId: 'nowhere' })).toBe(
      'projectId: Project with developer ID nowhere not found',
    );
    expect(await bad({ componentId: 'ok', projectId: 'core' })).toBe(
      'projectId: Project with developer ID core not found',
    );
    expect(await bad({ componentId: 'ok', projectId: 'app', blockId: 'header' })).toBe(
      'blockId: Block id not found: header',
    );
    expect(await bad({ componentId: 'ok', projectId: 'web', developerId: 'core-a' }, 409)).toBe(
      'Text item with developer ID core-a already exists in workspace',
    );
    await createItems(ws, { projectId: 'app' }, [{ developerId: 'basket_other', text: 'x' }]);
    expect(await bad({ componentId: 'cart', projectId: 'web', developerId: 'basket' })).toBe(
      "developerId: the 'other' plural record of basket collides with basket_other",
    );
    expect(await bad({ projectId: 'web' })).toBe('componentId is required');
    expect(await bad({ componentId: 'ok', projectId: 'web', developerId: 'has space' })).toMatch(/^developerId /);
    expect(await bad({ componentId: 'ok', projectId: 'web', text: 'x' })).toMatch(/text/);
    expect(await countTexts(ctx, ws, 'text_item')).toBe(3);
    expect(await instances(ws, 'ok')).toEqual([]);
  });

  it('needs the editor role; a viewer is refused and nothing is written', async () => {
    const ws = await library();
    const viewer = await signedIn(ctx.app, ws, 'viewer');
    const refused = await viewer.call('POST', 'textItems/instances', { componentId: 'ok', projectId: 'web' });
    expect(refused.status).toBe(403);
    expect((await viewer.call('GET', 'textItems/instances?componentId=ok')).status).toBe(200);
    const editor = await signedIn(ctx.app, ws, 'editor');
    const placed = await editor.call('POST', 'textItems/instances', { componentId: 'ok', projectId: 'web' });
    expect(placed.status).toBe(201);
    expect((await instances(ws, 'ok')).map((i) => i.id)).toEqual(['ok']);
  });
});

describe('GET /v2/textItems/instances', () => {
  it('lists placed and published instances by project, then developer ID, with block and own status', async () => {
    const ws = await library();
    await createItems(ws, { projectId: 'web' }, [{ developerId: 'zeta', text: 'OK', blockId: 'header' }]);
    expect((await ws.api.post('components/publish', { textItemId: 'zeta' })).status).toBe(201);
    await place(ws, { componentId: 'ok', projectId: 'web', blockId: 'footer' }, 'ok');
    await place(ws, { componentId: 'ok', projectId: 'web' }, 'ok-2');
    await place(ws, { componentId: 'ok', projectId: 'app' }, 'ok-3');
    await patchItems(ws, { updates: [{ developerId: 'ok-3', status: 'FINAL' }] });

    expect(await instances(ws, 'ok')).toEqual([
      { id: 'ok-3', projectId: 'app', blockId: null, blockName: null, status: 'FINAL' },
      { id: 'ok', projectId: 'web', blockId: 'footer', blockName: 'Footer', status: 'NONE' },
      { id: 'ok-2', projectId: 'web', blockId: null, blockName: null, status: 'NONE' },
    ]);
    expect(await instances(ws, 'zeta')).toEqual([
      { id: 'zeta', projectId: 'web', blockId: 'header', blockName: 'Header', status: 'NONE' },
    ]);
    expect(await instances(ws, 'cart')).toEqual([]);
  });

  it('an unknown component is a 400 naming the field; another workspace’s component is unknown', async () => {
    const ws = await library();
    const res = await ws.api.get('textItems/instances?componentId=ghost');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('componentId: Component with developer ID ghost not found');
    const other = await createWorkspace(ctx);
    expect((await other.api.get('textItems/instances?componentId=ok')).status).toBe(400);
    expect((await ws.api.get('textItems/instances')).body.message).toBe('componentId is required');
  });
});

describe('POST /v2/textItems/instances/detach', () => {
  it('the item keeps exactly what it showed, as its own, and no longer follows the component', async () => {
    const ws = await library();
    await place(ws, { componentId: 'cart', projectId: 'web', blockId: 'header' }, 'cart');
    await patchItems(ws, { variantId: 'fr', updates: [{ developerId: 'cart', notes: 'own fr notes' }] });
    const shown = await list(ws, { ...web, ...allVariants });

    const res = await ws.api.post('textItems/instances/detach', { developerIds: ['cart'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await list(ws, { ...web, ...allVariants })).toEqual(shown.map((r) => ({ ...r, componentId: null })));
    expect(await instances(ws, 'cart')).toEqual([]);

    // The component's edits no longer show; the item's text is its own to change.
    expect(
      (await ws.api.patch('components', { updates: [{ developerId: 'cart', text: '{{n}} product' }] })).status,
    ).toBe(200);
    await patchItems(ws, { updates: [{ developerId: 'cart', text: 'My cart', plurals: [] }] });
    const [cart] = await list(ws, web);
    expect(cart).toMatchObject({ text: 'My cart', componentId: null });

    const [detached] = (await history(ws, '?kind=textItem&id=cart')).filter((c) => c.fields.componentId);
    expect(detached).toMatchObject({ action: 'updated', fields: { componentId: { before: 'cart', after: null } } });
    expect(Object.keys(detached?.fields ?? {})).toEqual(['componentId']);
  });

  it('errors: a repeated id, an unknown item (404), an item that is not an instance; all or nothing', async () => {
    const ws = await library();
    await place(ws, { componentId: 'ok', projectId: 'web' }, 'ok');
    await createItems(ws, { projectId: 'web' }, [{ developerId: 'plain', text: 'Plain' }]);
    const bad = (developerIds: string[], status = 400) =>
      failure(ws, 'post', 'textItems/instances/detach', { developerIds }, status);
    expect(await bad(['ok', 'ok'])).toBe("developerIds[1]: duplicate developer ID 'ok'");
    expect(await bad(['ok', 'ghost'], 404)).toBe('Text item with developer ID ghost not found');
    expect(await bad(['ok', 'plain'])).toBe('developerIds[1]: text item plain is not a linked instance of a component');
    expect(await bad([])).toMatch(/^developerIds /);
    expect((await instances(ws, 'ok')).map((i) => i.id)).toEqual(['ok']);

    const viewer = await signedIn(ctx.app, ws, 'viewer');
    expect((await viewer.call('POST', 'textItems/instances/detach', { developerIds: ['ok'] })).status).toBe(403);
    expect((await instances(ws, 'ok')).map((i) => i.id)).toEqual(['ok']);
  });
});
