import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { createComponents, createFolders, createVariables, createVariants, keys, list, record } from './helpers.js';

const ctx = await setupApp();

async function rejected(ws: Workspace, components: unknown[], status = 400, extra: object = {}) {
  const res = await ws.api.post('components', { components, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.message as string;
}

describe('POST /v2/components', () => {
  it('answers 201 with developer IDs in request order and applies the defaults', async () => {
    const ws = await createWorkspace(ctx);
    const ids = await createComponents(ws, [
      { developerId: 'z-last', text: 'Z' },
      { name: 'Sign up now!', text: 'Create an account' },
      { text: '  Welcome back,\n  friend  ' },
    ]);
    expect(ids).toEqual(['z-last', 'sign-up-now', 'welcome-back-friend']);
    expect(await list(ws)).toEqual([
      record({ id: 'sign-up-now', name: 'Sign up now!', text: 'Create an account' }),
      record({ id: 'welcome-back-friend', name: 'Welcome back, friend', text: '  Welcome back,\n  friend  ' }),
      record({ id: 'z-last', name: 'z-last', text: 'Z' }),
    ]);
  });

  it('accepts an empty list, null notes and characterLimit, and `root` or null as folderId', async () => {
    const ws = await createWorkspace(ctx);
    expect((await ws.api.post('components', { components: [] })).body).toEqual({ developerIds: [] });
    await createComponents(ws, [
      { developerId: 'a', text: 'A', notes: null, characterLimit: null, folderId: 'root' },
      { developerId: 'b', text: 'B', folderId: null, tags: [] },
    ]);
    expect(await list(ws)).toEqual([record({ id: 'a', text: 'A' }), record({ id: 'b', text: 'B' })]);
  });

  it('names a component after its text (64 characters) and generates unique slugs', async () => {
    const ws = await createWorkspace(ctx);
    await createComponents(ws, [{ developerId: 'save', text: 'existing' }]);
    const long = 'x'.repeat(70);
    const ids = await createComponents(ws, [
      { name: 'Save', text: 'one' },
      { name: 'Save', text: 'two' },
      { name: 'Save', text: 'three' },
      { developerId: 'save-3', text: 'explicit, later in the request' },
      { text: long },
      { name: '¡¿!', text: 'punctuation only' },
    ]);
    expect(ids).toEqual(['save-2', 'save-4', 'save-5', 'save-3', 'x'.repeat(64), 'item']);
    const names = Object.fromEntries((await list(ws)).map((r) => [r.id, r.name]));
    expect(names['x'.repeat(64)]).toBe('x'.repeat(64));
    expect(names['save-2']).toBe('Save');
  });

  it('uses the workflow’s first status as the default when NONE is gone', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['fr']);
    const statuses = [
      { id: 'TODO', name: 'To do' },
      { id: 'DONE', name: 'Done' },
    ];
    expect((await ws.api.put('statuses', { statuses })).status).toBe(200);
    await createComponents(ws, [{ developerId: 'a', text: 'A', variants: [{ variantId: 'fr', text: 'A fr' }] }]);
    expect((await list(ws, { variants: [{ id: 'all' }] })).map((r) => r.status)).toEqual(['TODO', 'TODO']);
    expect(await rejected(ws, [{ text: 'x', status: 'NONE' }])).toBe(
      "components[0].status: 'NONE' is not a status of the workspace",
    );
  });

  it('stores assignees case-insensitively and returns them in lower case', async () => {
    const ws = await createWorkspace(ctx);
    await createComponents(ws, [{ developerId: 'a', text: 'A', assignee: `  ${ws.email.toUpperCase()} ` }]);
    expect((await list(ws))[0].assignee).toBe(ws.email);
  });
});

describe('POST /v2/components errors', () => {
  it('rejects bad field values with the field and element named', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['fr']);
    const cases: [component: object, message: string][] = [
      [{ text: 'x', status: '' }, 'components[1].status must NOT have fewer than 1 characters'],
      [{ text: 'x', status: 'DONE' }, "components[1].status: 'DONE' is not a status of the workspace"],
      [{ text: 'x', status: 'Draft' }, "components[1].status: 'Draft' is not a status of the workspace"],
      [
        { text: 'x', assignee: 'nobody@example.com' },
        "components[1].assignee: 'nobody@example.com' is not a user of the workspace",
      ],
      [{ text: 'x', characterLimit: 0 }, 'components[1].characterLimit must be >= 1'],
      [{ text: 'x', characterLimit: 2.5 }, 'components[1].characterLimit must be integer'],
      [{ text: 'x', folderId: 'nope' }, 'components[1].folderId: Folder id not found: nope'],
      [{ text: 'x', variables: ['a', 'b', 'a'] }, 'components[1].variables: Variables not found: a, b'],
      [{ name: 'x' }, 'components[1].text is required'],
      [{ text: 'x', colour: 'red' }, 'components[1].colour is not a known field'],
      [
        { text: 'x', developerId: '-bad' },
        "components[1].developerId must be 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit",
      ],
      [{ text: 'x', integrated: 'yes' }, 'components[1].integrated must be boolean'],
      [{ text: 'x', tags: ['t'.repeat(101)] }, 'components[1].tags[0] must NOT have more than 100 characters'],
      [
        { text: 'x', tags: Array.from({ length: 101 }, (_, i) => `t${i}`) },
        'components[1].tags must NOT have more than 100 items',
      ],
      [{ text: 'x'.repeat(50_001) }, 'components[1].text must NOT have more than 50000 characters'],
      [{ text: 'x', notes: 'n'.repeat(10_001) }, 'components[1].notes must NOT have more than 10000 characters'],
      [{ text: 'x', plurals: [{ form: 'one' }] }, 'components[1].plurals[0].text is required'],
      [
        { text: 'x', plurals: [{ form: 'several', text: 'x' }] },
        'components[1].plurals[0].form must be one of: "zero", "one", "two", "few", "many", "other"',
      ],
      [
        {
          text: 'x',
          plurals: [
            { form: 'one', text: 'x' },
            { form: 'one', text: 'y' },
          ],
        },
        "components[1].plurals[1].form: plural form 'one' appears more than once",
      ],
      [
        {
          text: 'x',
          plurals: [
            { form: 'other', text: 'xs' },
            { form: 'one', text: 'x' },
          ],
        },
        "components[1].plurals[0].text: the first plural form's text must equal the text",
      ],
      [
        { text: 'x', variants: [{ variantId: 'xx', text: 'y' }] },
        'components[1].variants[0].variantId: Variant with id xx not found',
      ],
      [{ text: 'x', variants: [{ variantId: 'fr' }] }, 'components[1].variants[0].text is required'],
      [
        {
          text: 'x',
          variants: [
            { variantId: 'fr', text: 'a' },
            { variantId: 'fr', text: 'b' },
          ],
        },
        'components[1].variants[1].variantId: variant fr appears more than once',
      ],
      [
        { text: 'x', variants: [{ variantId: 'fr', text: 'a', status: 'NOPE' }] },
        "components[1].variants[0].status: 'NOPE' is not a status of the workspace",
      ],
      [
        { text: 'x', variants: [{ variantId: 'fr', text: 'a', assignee: 'x@y.z' }] },
        "components[1].variants[0].assignee: 'x@y.z' is not a user of the workspace",
      ],
      [
        { text: 'x', variants: [{ variantId: 'fr', text: 'a', characterLimit: 0 }] },
        'components[1].variants[0].characterLimit must be >= 1',
      ],
      [
        { text: 'x', variants: [{ variantId: 'fr', text: 'a', plurals: [{ form: 'one', text: 'b' }] }] },
        "components[1].variants[0].plurals[0].text: the first plural form's text must equal the text",
      ],
    ];
    for (const [component, message] of cases) {
      // The bad element is last: nothing of the valid first one may be written.
      expect(await rejected(ws, [{ developerId: 'valid', text: 'ok' }, component])).toBe(message);
    }
    expect(await list(ws)).toEqual([]);
  });

  it('rejects more than 1,000 components and a non-html richText', async () => {
    const ws = await createWorkspace(ctx);
    const many = Array.from({ length: 1001 }, (_, i) => ({ text: `t${i}` }));
    expect(await rejected(ws, many)).toBe('components must NOT have more than 1000 items');
    expect(await rejected(ws, [{ text: 'x' }], 400, { richText: 'html_paragraphs' })).toBe('richText must be "html"');
  });

  it('answers 409 for a developer ID that exists, 400 for one repeated in the request, writing nothing', async () => {
    const ws = await createWorkspace(ctx);
    await createComponents(ws, [{ developerId: 'taken', text: 'first' }]);
    expect(await rejected(ws, [{ text: 'new' }, { developerId: 'taken', text: 'again' }], 409)).toBe(
      'Component with developer ID taken already exists in workspace',
    );
    expect(
      await rejected(
        ws,
        [
          { developerId: 'twice', text: '1' },
          { developerId: 'twice', text: '2' },
        ],
        400,
      ),
    ).toBe("components[1].developerId: duplicate developer ID 'twice'");
    expect(keys(await list(ws))).toEqual(['taken']);
  });

  it('rejects developer IDs that collide with plural record ids, naming both', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['fr']);
    await createComponents(ws, [
      { developerId: 'cart', text: '1 item', plurals: [{ form: 'one', text: '1 item' }] },
      {
        developerId: 'bag',
        text: 'bag',
        variants: [{ variantId: 'fr', text: 'sac', plurals: [{ form: 'few', text: 'sac' }] }],
      },
      { developerId: 'box_one', text: 'a box' },
    ]);
    expect(await rejected(ws, [{ text: 'ok' }, { developerId: 'cart_one', text: 'x' }])).toBe(
      "components[1]: cart_one collides with the 'one' plural record of cart",
    );
    expect(await rejected(ws, [{ developerId: 'bag_few', text: 'x' }])).toBe(
      "components[0]: bag_few collides with the 'few' plural record of bag",
    );
    expect(await rejected(ws, [{ developerId: 'box', text: 'b', plurals: [{ form: 'one', text: 'b' }] }])).toBe(
      "components[0]: the 'one' plural record of box collides with box_one",
    );
    const inRequest = [
      { developerId: 'pen_other', text: 'pens' },
      {
        developerId: 'pen',
        text: 'pen',
        plurals: [
          { form: 'one', text: 'pen' },
          { form: 'other', text: 'pens' },
        ],
      },
    ];
    expect(await rejected(ws, inRequest)).toBe(
      "components[0]: pen_other collides with the 'other' plural record of pen",
    );
    // A form the base does not have is no collision; a generated id steps around one.
    expect(await createComponents(ws, [{ developerId: 'cart_two', text: 'x' }])).toEqual(['cart_two']);
    expect(await createComponents(ws, [{ name: 'Box', text: 'b', plurals: [{ form: 'one', text: 'b' }] }])).toEqual([
      'box-2',
    ]);
    expect(keys(await list(ws))).toEqual(['bag', 'box-2', 'box-2_one', 'box_one', 'cart', 'cart_one', 'cart_two']);
  });

  it('creates variables, variants and plurals all together in one valid request', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['fr']);
    await createVariables(ws, ['n']);
    await createFolders(ws, [{ developerId: 'f' }]);
    await createComponents(ws, [
      {
        developerId: 'items',
        text: '{{n}} item',
        folderId: 'f',
        variables: ['n'],
        plurals: [
          { form: 'one', text: '{{n}} item' },
          { form: 'other', text: '{{n}} items' },
        ],
        variants: [
          {
            variantId: 'fr',
            text: '{{n}} article',
            notes: null,
            assignee: ws.email,
            characterLimit: 5,
            plurals: [{ form: 'one', text: '{{n}} article' }],
          },
        ],
      },
    ]);
    const shared = { folderId: 'f', name: 'items', variableIds: ['n'] };
    const fr = { ...shared, variantId: 'fr', assignee: ws.email, characterLimit: 5 };
    expect(await list(ws, { variants: [{ id: 'all' }] })).toEqual([
      record({ id: 'items', text: '{{n}} item', ...shared }),
      record({ id: 'items_one', text: '{{n}} item', pluralForm: 'one', ...shared }),
      record({ id: 'items_other', text: '{{n}} items', pluralForm: 'other', ...shared }),
      record({ id: 'items', text: '{{n}} article', ...fr }),
      record({ id: 'items_one', text: '{{n}} article', pluralForm: 'one', ...fr }),
    ]);
  });
});
