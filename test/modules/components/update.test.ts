import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import {
  createComponents,
  createFolders,
  createVariables,
  createVariants,
  keys,
  list,
  patchComponents,
} from './helpers.js';

const ctx = await setupApp();
const all = { variants: [{ id: 'all' }] };

/** A component with every field set, a plural list, and values for variants fr and de. */
async function richWorkspace(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await createVariants(ws, ['fr', 'de', 'es']);
  await createVariables(ws, ['n', 'm']);
  await createFolders(ws, [{ developerId: 'f1' }, { developerId: 'f2' }]);
  await createComponents(ws, [
    {
      developerId: 'cart',
      name: 'Cart',
      text: '{{n}} item',
      notes: 'base notes',
      tags: ['t1'],
      status: 'WIP',
      assignee: ws.email,
      characterLimit: 30,
      integrated: true,
      folderId: 'f1',
      variables: ['n'],
      plurals: [
        { form: 'one', text: '{{n}} item' },
        { form: 'other', text: '{{n}} items' },
      ],
      variants: [
        { variantId: 'fr', text: '{{n}} article', status: 'REVIEW', notes: 'fr notes', characterLimit: 12 },
        { variantId: 'de', text: '{{n}} Artikel', assignee: ws.email },
      ],
    },
    { developerId: 'other', text: 'Untouched' },
  ]);
  return ws;
}

async function patchError(ws: Workspace, body: object, status = 400): Promise<string> {
  const res = await ws.api.patch('components', body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.message;
}

describe('PATCH /v2/components: only provided fields change', () => {
  const isCart = (r: any) => r.id.startsWith('cart');
  const isBase = (r: any) => isCart(r) && r.variantId === null;
  const set = (match: (r: any) => boolean, field: string, value: unknown) => (r: any) =>
    match(r) ? { ...r, [field]: value } : r;
  const cases: [field: string, value: unknown, expected: (r: any) => any][] = [
    ['text', '{{n}} thing', (r) => (isBase(r) && r.pluralForm !== 'other' ? { ...r, text: '{{n}} thing' } : r)],
    ['tags', ['x', 'y'], set(isCart, 'tags', ['x', 'y'])],
    ['status', 'FINAL', set(isBase, 'status', 'FINAL')],
    ['assignee', null, set(isBase, 'assignee', null)],
    ['notes', 'new notes', set(isBase, 'notes', 'new notes')],
    ['characterLimit', 99, set(isBase, 'characterLimit', 99)],
    ['integrated', false, set(isCart, 'integrated', false)],
    // Listing `m` changes no record: no text uses it.
    ['variables', ['n', 'm'], (r) => r],
    ['folderId', 'f2', set(isCart, 'folderId', 'f2')],
  ];

  it.each(cases)('%s alone changes only that field of the records it belongs to', async (field, value, expected) => {
    const ws = await richWorkspace();
    const before = await list(ws, all);
    await patchComponents(ws, { updates: [{ developerId: 'cart', [field]: value }] });
    expect(await list(ws, all)).toEqual(before.map(expected));
  });

  it('plurals alone replace the base plural records and nothing else', async () => {
    const ws = await richWorkspace();
    const before = await list(ws, all);
    const plurals = [
      { form: 'one', text: '{{n}} item' },
      { form: 'few', text: '{{n}} items (few)' },
    ];
    await patchComponents(ws, { updates: [{ developerId: 'cart', plurals }] });
    const after = await list(ws, all);
    const other = before.find((r) => r.id === 'cart_other');
    const few = { ...other, id: 'cart_few', pluralForm: 'few', text: '{{n}} items (few)' };
    expect(after).toEqual(before.flatMap((r) => (r === other ? [few] : [r])));
  });

  it('text alone on a plural component rewrites the first form; plurals alone set the text', async () => {
    const ws = await richWorkspace();
    await patchComponents(ws, { updates: [{ developerId: 'cart', text: 'one {{n}}' }] });
    let base = (await list(ws)).filter((r) => r.id.startsWith('cart'));
    expect(base.map((r) => [r.id, r.text])).toEqual([
      ['cart', 'one {{n}}'],
      ['cart_one', 'one {{n}}'],
      ['cart_other', '{{n}} items'],
    ]);
    await patchComponents(ws, { updates: [{ developerId: 'cart', plurals: [{ form: 'few', text: 'a few' }] }] });
    base = (await list(ws)).filter((r) => r.id.startsWith('cart'));
    expect(base.map((r) => [r.id, r.text, r.variableIds])).toEqual([
      ['cart', 'a few', []],
      ['cart_few', 'a few', []],
    ]);
    await patchComponents(ws, { updates: [{ developerId: 'cart', plurals: [] }] });
    expect(keys(await list(ws))).toEqual(['cart', 'other']);
  });

  it('removes the assignee and the limit with null, and empties notes with null', async () => {
    const ws = await richWorkspace();
    await patchComponents(ws, {
      updates: [{ developerId: 'cart', assignee: null, characterLimit: null, notes: null }],
    });
    const [cart] = await list(ws);
    expect([cart.assignee, cart.characterLimit, cart.notes]).toEqual([null, null, '']);
  });

  it('moves to the top level with folderId null or root', async () => {
    const ws = await richWorkspace();
    await patchComponents(ws, { updates: [{ developerId: 'cart', folderId: null }] });
    expect((await list(ws))[0].folderId).toBeNull();
    await patchComponents(ws, { updates: [{ developerId: 'cart', folderId: 'f2' }] });
    expect((await list(ws))[0].folderId).toBe('f2');
    await patchComponents(ws, { updates: [{ developerId: 'cart', folderId: 'root' }] });
    expect((await list(ws))[0].folderId).toBeNull();
  });
});

describe('PATCH /v2/components with a variantId', () => {
  it('changes the variant’s text, status, assignee, notes and limit, and the base’s tags, integrated, variables and folder', async () => {
    const ws = await richWorkspace();
    const before = await list(ws, all);
    await patchComponents(ws, {
      updates: [
        {
          developerId: 'cart',
          text: '{{m}} article',
          status: 'FINAL',
          assignee: ws.email,
          notes: 'nouvelles notes',
          characterLimit: 15,
          tags: ['fr-tag'],
          integrated: false,
          variables: ['m'],
          folderId: 'f2',
        },
      ],
      variantId: 'fr',
    });
    const after = await list(ws, all);
    const fr = after.find((r) => r.variantId === 'fr');
    expect(fr).toEqual({
      ...before.find((r) => r.variantId === 'fr'),
      text: '{{m}} article',
      status: 'FINAL',
      assignee: ws.email,
      notes: 'nouvelles notes',
      characterLimit: 15,
      tags: ['fr-tag'],
      integrated: false,
      variableIds: ['m'],
      folderId: 'f2',
    });
    const baseBefore = before.find((r) => r.id === 'cart' && r.variantId === null);
    const baseAfter = after.find((r) => r.id === 'cart' && r.variantId === null);
    expect(baseAfter).toEqual({ ...baseBefore, tags: ['fr-tag'], integrated: false, variableIds: [], folderId: 'f2' });
  });

  it('adds a variant the component lacks: text from the update, else the base text', async () => {
    const ws = await richWorkspace();
    await patchComponents(ws, { updates: [{ developerId: 'other', status: 'WIP' }], variantId: 'es' });
    await patchComponents(ws, { updates: [{ developerId: 'cart', text: 'artículo' }], variantId: 'es' });
    const es = (await list(ws, { variants: [{ id: 'es' }] })).map((r) => [r.id, r.text, r.status, r.pluralForm]);
    expect(es).toEqual([
      ['cart', 'artículo', 'NONE', null],
      ['other', 'Untouched', 'WIP', null],
    ]);
    await patchComponents(ws, { updates: [{ developerId: 'cart', notes: 'copy' }], variantId: 'de' });
    expect((await list(ws, { variants: [{ id: 'de' }] }))[0].text).toBe('{{n}} Artikel');
  });

  it('rejects an unknown variant unless forceVariantCreation creates it, named after its id', async () => {
    const ws = await richWorkspace();
    expect(await patchError(ws, { updates: [{ developerId: 'cart', text: 'x' }], variantId: 'it' })).toBe(
      'Variant with id it not found',
    );
    await patchComponents(ws, {
      updates: [{ developerId: 'cart', text: 'articolo' }],
      variantId: 'it',
      forceVariantCreation: true,
    });
    expect((await ws.api.get('variants')).body.at(-1)).toEqual({
      id: 'it',
      name: 'it',
      description: '',
      localeCode: null,
    });
    expect((await list(ws, { variants: [{ id: 'it' }] })).map((r) => r.text)).toEqual(['articolo']);
    expect(
      await patchError(ws, { updates: [{ developerId: 'cart' }], variantId: 'all', forceVariantCreation: true }),
    ).toBe("variantId: 'all' is a reserved variant id");
  });
});

describe('PATCH /v2/components errors, all or nothing', () => {
  it('names the element, and writes nothing when the bad element is last', async () => {
    const ws = await richWorkspace();
    const before = await list(ws, all);
    const good = { developerId: 'other', text: 'changed', tags: ['changed'] };
    const cases: [update: object, message: string, status?: number][] = [
      [{ developerId: 'other', text: 'again' }, "updates[1].developerId: duplicate developer ID 'other'"],
      [{ developerId: 'nope', text: 'x' }, 'Component with developer ID nope not found', 404],
      [{ developerId: 'cart', status: 'DONE' }, "updates[1].status: 'DONE' is not a status of the workspace"],
      [{ developerId: 'cart', status: '' }, 'updates[1].status must NOT have fewer than 1 characters'],
      [{ developerId: 'cart', assignee: 'x@y.z' }, "updates[1].assignee: 'x@y.z' is not a user of the workspace"],
      [{ developerId: 'cart', characterLimit: 0 }, 'updates[1].characterLimit must be >= 1'],
      [{ developerId: 'cart', folderId: 'nope' }, 'updates[1].folderId: Folder id not found: nope'],
      [{ developerId: 'cart', variables: ['zz'] }, 'updates[1].variables: Variables not found: zz'],
      [
        { developerId: 'cart', text: 'a', plurals: [{ form: 'one', text: 'b' }] },
        "updates[1].plurals[0].text: the first plural form's text must equal the text",
      ],
      [
        {
          developerId: 'cart',
          plurals: [
            { form: 'one', text: 'a' },
            { form: 'one', text: 'b' },
          ],
        },
        "updates[1].plurals[1].form: plural form 'one' appears more than once",
      ],
      [{ developerId: 'cart', color: 'red' }, 'updates[1].color is not a known field'],
    ];
    for (const [update, message, status] of cases) {
      expect(await patchError(ws, { updates: [good, update] }, status)).toBe(message);
    }
    expect(await patchError(ws, { updates: [] })).toBe('updates must NOT have fewer than 1 items');
    // A forced variant goes with the rest of a failed request.
    const forced = { updates: [good, { developerId: 'nope' }], variantId: 'pt', forceVariantCreation: true };
    expect(await patchError(ws, forced, 404)).toBe('Component with developer ID nope not found');
    expect((await ws.api.get('variants')).body.map((v: { id: string }) => v.id)).toEqual(['fr', 'de', 'es']);
    expect(await list(ws, all)).toEqual(before);
  });

  it('rejects plurals whose record id collides with another component', async () => {
    const ws = await richWorkspace();
    await createComponents(ws, [{ developerId: 'other_few', text: 'x' }]);
    expect(await patchError(ws, { updates: [{ developerId: 'other', plurals: [{ form: 'few', text: 'f' }] }] })).toBe(
      "updates[0]: the 'few' plural record of other collides with other_few",
    );
    expect(
      await patchError(ws, {
        updates: [{ developerId: 'other', plurals: [{ form: 'few', text: 'f' }] }],
        variantId: 'fr',
      }),
    ).toBe("updates[0]: the 'few' plural record of other collides with other_few");
    await patchComponents(ws, { updates: [{ developerId: 'other', plurals: [{ form: 'one', text: 'o' }] }] });
  });
});
