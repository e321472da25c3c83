import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { countTexts, createItems, failure, list, patchItems, post, world } from './helpers.js';

const ctx = await setupApp();
const web = { projects: [{ id: 'web' }] };
const allVariants = { variants: [{ id: 'all' }] };

/** `world`, a variable, a folder, and `cart` in web with every field set. */
async function populated(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await world(ws);
  await post(ws, 'variables', { variables: [{ name: 'n', type: 'number', data: { example: 2 } }] });
  await post(ws, 'componentFolders', { folders: [{ name: 'Shop', developerId: 'shop' }] });
  await createItems(ws, { projectId: 'web' }, [
    {
      developerId: 'cart',
      text: '{{n}} item',
      blockId: 'header',
      notes: 'cart notes',
      tags: ['shop'],
      status: 'REVIEW',
      assignee: ws.email,
      characterLimit: 40,
      integrated: true,
      variables: ['n'],
      plurals: [
        { form: 'one', text: '{{n}} item' },
        { form: 'other', text: '{{n}} items' },
      ],
      variants: [{ variantId: 'fr', text: '{{n}} article', status: 'WIP', notes: 'fr notes' }],
    },
    { developerId: 'plain', text: 'Plain' },
  ]);
  return ws;
}

async function publish(ws: Workspace, body: object): Promise<void> {
  const res = await ws.api.post('components/publish', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body).toEqual({ developerId: (body as { textItemId: string }).textItemId });
}

describe('POST /v2/components/publish', () => {
  it('creates a component with the item’s id and content; the item becomes its instance', async () => {
    const ws = await populated();
    const before = await list(ws, { ...web, ...allVariants });
    await publish(ws, { textItemId: 'cart', name: 'Cart count', folderId: 'shop' });

    const components = (await ws.api.get(`components?filter=${encodeURIComponent(JSON.stringify(allVariants))}`)).body;
    const itemRecords = before.filter((r) => r.id.startsWith('cart'));
    const strip = ({ projectId, baseId, baseTextItemId, blockName, blockId, componentId, ...rest }: any) => rest;
    expect(components).toEqual(itemRecords.map((r) => ({ ...strip(r), folderId: 'shop', name: 'Cart count' })));

    const after = await list(ws, { ...web, ...allVariants });
    expect(after).toEqual(before.map((r) => (r.id.startsWith('cart') ? { ...r, componentId: 'cart' } : r)));
  });

  it('defaults the name to the developer ID and the folder to the library root', async () => {
    const ws = await populated();
    await publish(ws, { textItemId: 'plain' });
    const [component] = (await ws.api.get('components')).body;
    expect(component).toMatchObject({ id: 'plain', name: 'plain', folderId: null, text: 'Plain' });
  });

  it('after publishing, a component update shows in the instance; its own fields stay its own', async () => {
    const ws = await populated();
    await publish(ws, { textItemId: 'cart' });
    const patch = async (body: object) => expect((await ws.api.patch('components', body)).status).toBe(200);
    await patch({
      updates: [{ developerId: 'cart', text: '{{n}} product', status: 'FINAL', notes: 'component notes' }],
    });
    await patch({ variantId: 'fr', updates: [{ developerId: 'cart', text: '{{n}} produit' }] });
    await patch({ variantId: 'de', updates: [{ developerId: 'cart', text: '{{n}} Produkt' }] });

    const records = await list(ws, { ...web, ...allVariants });
    const cart = records.filter((r) => r.id.startsWith('cart'));
    expect(cart.map((r) => [r.id, r.variantId, r.text, r.status, r.notes, r.componentId, r.blockName])).toEqual([
      ['cart', null, '{{n}} product', 'REVIEW', 'cart notes', 'cart', 'Header'],
      ['cart_one', null, '{{n}} product', 'REVIEW', 'cart notes', 'cart', 'Header'],
      ['cart_other', null, '{{n}} items', 'REVIEW', 'cart notes', 'cart', 'Header'],
      ['cart', 'fr', '{{n}} produit', 'WIP', 'fr notes', 'cart', 'Header'],
      ['cart', 'de', '{{n}} Produkt', 'NONE', '', 'cart', 'Header'],
    ]);
    expect(cart[0].variableIds).toEqual(['n']);

    // The instance's own status for a variant only the component had; the text stays the component's.
    await patchItems(ws, { variantId: 'de', updates: [{ developerId: 'cart', status: 'FINAL' }] });
    await patch({ variantId: 'de', updates: [{ developerId: 'cart', text: '{{n}} Ding' }] });
    const [de] = await list(ws, { ...web, variants: [{ id: 'de' }] });
    expect([de.text, de.status]).toEqual(['{{n}} Ding', 'FINAL']);
  });

  it('an instance’s own fields update with PATCH; its text and plurals are a 400 naming the component', async () => {
    const ws = await populated();
    await publish(ws, { textItemId: 'cart' });
    await patchItems(ws, { updates: [{ developerId: 'cart', status: 'FINAL', tags: ['mine'], blockId: null }] });
    const [cart] = await list(ws, web);
    expect(cart).toMatchObject({ status: 'FINAL', tags: ['mine'], blockName: null, componentId: 'cart' });
    const message =
      "updates[0]: text item cart is a linked instance of component cart; its text and plurals are the component's (PATCH /v2/components)";
    expect(await failure(ws, 'patch', 'textItems', { updates: [{ developerId: 'cart', text: 'x' }] })).toBe(message);
    expect(await failure(ws, 'patch', 'textItems', { updates: [{ developerId: 'cart', plurals: [] }] })).toBe(message);
    expect(
      await failure(ws, 'put', 'textItems', { updates: [{ developerId: 'cart', plurals: { remove: ['one'] } }] }),
    ).toBe(message);
  });

  it('deleting the component detaches the instance, which keeps the text it showed', async () => {
    const ws = await populated();
    await publish(ws, { textItemId: 'cart' });
    await ws.api.patch('components', { updates: [{ developerId: 'cart', text: '{{n}} product' }] });
    expect((await ws.api.delete('components', { developerIds: ['cart'] })).status).toBe(200);
    const [cart] = await list(ws, web);
    expect(cart).toMatchObject({ text: '{{n}} product', componentId: null, status: 'REVIEW' });
    await patchItems(ws, { updates: [{ developerId: 'cart', text: 'Free again' }] });
  });
});

describe('POST /v2/components/publish errors', () => {
  it('an unknown text item is a 404 with the API’s message', async () => {
    const ws = await populated();
    expect(await failure(ws, 'post', 'components/publish', { textItemId: 'ghost', name: 'x' }, 404)).toBe(
      '1 text item with developer ID ghost not found',
    );
  });

  it('an item that is already an instance is a 400', async () => {
    const ws = await populated();
    await publish(ws, { textItemId: 'cart' });
    expect(await failure(ws, 'post', 'components/publish', { textItemId: 'cart' })).toBe(
      'textItemId: text item cart is already a linked instance of component cart',
    );
  });

  it('a component with the same id is a 409 and an unknown folder a 400; nothing is written', async () => {
    const ws = await populated();
    await post(ws, 'components', { components: [{ developerId: 'plain', text: 'Taken' }] });
    expect(await failure(ws, 'post', 'components/publish', { textItemId: 'plain' }, 409)).toBe(
      'Component with developer ID plain already exists in workspace',
    );
    expect(await failure(ws, 'post', 'components/publish', { textItemId: 'cart', folderId: 'ghost' })).toBe(
      'folderId: Folder id not found: ghost',
    );
    expect(await countTexts(ctx, ws, 'component')).toBe(1);
    expect((await list(ws, web)).every((r) => r.componentId === null)).toBe(true);
  });

  it('schema: textItemId is required, name must not be empty', async () => {
    const ws = await populated();
    expect(await failure(ws, 'post', 'components/publish', { name: 'x' })).toBe('textItemId is required');
    expect(await failure(ws, 'post', 'components/publish', { textItemId: 'cart', name: '' })).toMatch(/name/);
  });

  it('another workspace cannot publish the item', async () => {
    await populated();
    const other = await createWorkspace(ctx);
    expect(await failure(other, 'post', 'components/publish', { textItemId: 'cart' }, 404)).toBe(
      '1 text item with developer ID cart not found',
    );
  });
});
