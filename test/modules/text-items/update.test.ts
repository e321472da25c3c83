import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { createItems, failure, keys, list, patchItems, post, world } from './helpers.js';

const ctx = await setupApp();
const all = { projects: [{ id: 'web' }, { id: 'app' }], variants: [{ id: 'all' }] };

/** `world` plus `cart` in web's header block (plurals, a fr value) and `ok` in app. */
async function populated(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await world(ws);
  await post(ws, 'variables', { variables: [{ name: 'n', type: 'number', data: { example: 2 } }] });
  await createItems(ws, { projectId: 'web' }, [
    {
      developerId: 'cart',
      text: '{{n}} item',
      blockId: 'header',
      notes: 'base notes',
      tags: ['t1'],
      status: 'WIP',
      assignee: ws.email,
      characterLimit: 30,
      variables: ['n'],
      plurals: [
        { form: 'one', text: '{{n}} item' },
        { form: 'other', text: '{{n}} items' },
      ],
      variants: [{ variantId: 'fr', text: '{{n}} article', status: 'REVIEW' }],
    },
    { developerId: 'plain', text: 'Plain' },
  ]);
  await createItems(ws, { projectId: 'app' }, [{ developerId: 'ok', text: 'OK' }]);
  return ws;
}

describe('PATCH /v2/textItems: only provided fields change', () => {
  const isCart = (r: any) => r.id.startsWith('cart');
  const isBase = (r: any) => isCart(r) && r.variantId === null;
  const set = (match: (r: any) => boolean, field: string, value: unknown) => (r: any) =>
    match(r) ? { ...r, [field]: value } : r;
  const cases: [field: string, value: unknown, expected: (r: any) => any][] = [
    ['text', '{{n}} thing', (r) => (isBase(r) && r.pluralForm !== 'other' ? { ...r, text: '{{n}} thing' } : r)],
    ['tags', ['x'], set(isCart, 'tags', ['x'])],
    ['status', 'FINAL', set(isBase, 'status', 'FINAL')],
    ['assignee', null, set(isBase, 'assignee', null)],
    ['notes', null, set(isBase, 'notes', '')],
    ['characterLimit', 99, set(isBase, 'characterLimit', 99)],
    ['integrated', true, set(isCart, 'integrated', true)],
    ['blockId', 'footer', (r) => set(isCart, 'blockId', 'footer')(set(isCart, 'blockName', 'Footer')(r))],
    ['blockId', null, (r) => set(isCart, 'blockId', null)(set(isCart, 'blockName', null)(r))],
  ];

  it.each(cases)('%s = %j changes only that field', async (field, value, expected) => {
    const ws = await populated();
    const before = await list(ws, all);
    await patchItems(ws, { updates: [{ developerId: 'cart', [field]: value }] });
    expect(await list(ws, all)).toEqual(before.map(expected));
  });

  it('updates items of several projects and a base in one request', async () => {
    const ws = await populated();
    await patchItems(ws, {
      updates: [
        { developerId: 'ok', text: 'Okay' },
        { developerId: 'plain', status: 'FINAL' },
        { developerId: 'core-a', notes: 'base note' },
      ],
    });
    const records = await list(ws, { projects: [{ id: 'web' }, { id: 'app' }], bases: [{ id: 'core' }] });
    expect(records.find((r) => r.id === 'ok').text).toBe('Okay');
    expect(records.find((r) => r.id === 'plain').status).toBe('FINAL');
    expect(records.find((r) => r.id === 'core-a').notes).toBe('base note');
  });

  it('with variantId, changes that variant’s values and adds a value the item lacks', async () => {
    const ws = await populated();
    await patchItems(ws, {
      variantId: 'fr',
      updates: [
        { developerId: 'cart', status: 'FINAL', notes: 'fr notes' },
        { developerId: 'ok', text: 'Bien' },
      ],
    });
    const records = await list(ws, { projects: [{ id: 'web' }, { id: 'app' }], variants: [{ id: 'fr' }] });
    expect(records.map((r) => [r.id, r.text, r.status, r.notes])).toEqual([
      ['cart', '{{n}} article', 'FINAL', 'fr notes'],
      ['ok', 'Bien', 'NONE', ''],
    ]);
  });

  it('forceVariantCreation creates an unknown variant named after its id', async () => {
    const ws = await populated();
    await patchItems(ws, {
      variantId: 'es',
      forceVariantCreation: true,
      updates: [{ developerId: 'ok', text: 'Vale' }],
    });
    expect((await ws.api.get('variants')).body.map((v: any) => [v.id, v.name])).toContainEqual(['es', 'es']);
    expect(keys(await list(ws, { projects: [{ id: 'app' }], variants: [{ id: 'es' }] }))).toEqual(['ok@es']);
  });

  it('richText: html stores markup and derives the plain text', async () => {
    const ws = await populated();
    await patchItems(ws, { richText: 'html', updates: [{ developerId: 'ok', text: '<i>Fine</i>' }] });
    const [ok] = await list(ws, { projects: [{ id: 'app' }] }, '&richText=html');
    expect(ok).toMatchObject({ text: 'Fine', richText: '<em>Fine</em>' });
  });

  it('moving an item to another block puts it at the end of the project order', async () => {
    const ws = await populated();
    await patchItems(ws, { updates: [{ developerId: 'plain', blockId: 'header' }] });
    const order = await list(ws, { projects: [{ id: 'web' }] }, '&sort=project_order');
    expect(order.filter((r) => r.pluralForm === null).map((r) => [r.id, r.blockName])).toEqual([
      ['cart', 'Header'],
      ['plain', 'Header'],
    ]);
  });
});

describe('PATCH /v2/textItems errors, all or nothing', () => {
  const cases: [string, object, string, number?][] = [
    ['unknown item', { developerId: 'ghost', text: 'x' }, 'Text item with developer ID ghost not found', 404],
    ['repeated item', { developerId: 'ok', text: 'x' }, "updates[2].developerId: duplicate developer ID 'ok'"],
    ['unknown block', { developerId: 'plain', blockId: 'nav' }, 'updates[2].blockId: Block id not found: nav'],
    ['block of another project', { developerId: 'plain', blockId: 'x' }, 'updates[2].blockId: Block id not found: x'],
    [
      'block for a base item',
      { developerId: 'core-b', blockId: 'header' },
      'updates[2].blockId: Block id not found: header',
    ],
    [
      'unknown status',
      { developerId: 'plain', status: 'DONE' },
      "updates[2].status: 'DONE' is not a status of the workspace",
    ],
    ['unknown variable', { developerId: 'plain', variables: ['m'] }, 'updates[2].variables: Variables not found: m'],
    [
      'plurals disagreeing with the text',
      { developerId: 'plain', text: 'a', plurals: [{ form: 'one', text: 'b' }] },
      "updates[2].plurals[0].text: the first plural form's text must equal the text",
    ],
  ];

  it.each(cases)('%s in the last update fails and changes nothing', async (_name, last, message, status = 400) => {
    const ws = await populated();
    await post(ws, 'projectBlocks', { projectId: 'app', blocks: [{ name: 'X', developerId: 'x' }] });
    const before = await list(ws, { ...all, bases: [{ id: 'core' }] });
    const body = {
      updates: [{ developerId: 'ok', text: 'Changed' }, { developerId: 'cart', tags: ['changed'] }, last],
    };
    expect(await failure(ws, 'patch', 'textItems', body, status)).toBe(message);
    expect(await list(ws, { ...all, bases: [{ id: 'core' }] })).toEqual(before);
  });

  it('plurals whose record id another item has are a 400 naming both, with or without variantId', async () => {
    const ws = await populated();
    await createItems(ws, { projectId: 'app' }, [{ developerId: 'plain_other', text: 'x' }]);
    const before = await list(ws, all);
    const plurals = [
      { form: 'one', text: 'Plain' },
      { form: 'other', text: 'Plains' },
    ];
    const message = "updates[1]: the 'other' plural record of plain collides with plain_other";
    const updates = [
      { developerId: 'ok', status: 'REVIEW' },
      { developerId: 'plain', plurals },
    ];
    expect(await failure(ws, 'patch', 'textItems', { updates })).toBe(message);
    // `plain` lacks a German value: it gains one with these plurals.
    expect(await failure(ws, 'patch', 'textItems', { updates, variantId: 'de' })).toBe(message);
    expect(await list(ws, all)).toEqual(before);
    await patchItems(ws, { updates: [{ developerId: 'plain', plurals: plurals.slice(0, 1) }] });
  });

  it('an unknown variantId without forceVariantCreation is a 400', async () => {
    const ws = await populated();
    expect(
      await failure(ws, 'patch', 'textItems', { variantId: 'es', updates: [{ developerId: 'ok', text: 'x' }] }),
    ).toBe('Variant with id es not found');
  });

  it('schema errors: empty updates, unknown fields, folderId', async () => {
    const ws = await populated();
    expect(await failure(ws, 'patch', 'textItems', { updates: [] })).toBe('updates must NOT have fewer than 1 items');
    expect(await failure(ws, 'patch', 'textItems', { updates: [{ developerId: 'ok', folderId: 'f' }] })).toMatch(
      /folderId/,
    );
  });

  it('cannot reach another workspace’s items', async () => {
    const ws = await populated();
    const other = await createWorkspace(ctx);
    expect(await failure(other, 'patch', 'textItems', { updates: [{ developerId: 'ok', text: 'x' }] }, 404)).toBe(
      'Text item with developer ID ok not found',
    );
    expect((await list(ws, { projects: [{ id: 'app' }] }))[0].text).toBe('OK');
  });
});
