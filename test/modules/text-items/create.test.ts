import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { changesOf } from '../changes/helpers.js';
import { countTexts, createItems, failure, keys, list, post, record, world } from './helpers.js';

const ctx = await setupApp();

async function fresh(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await world(ws);
  await post(ws, 'variables', { variables: [{ name: 'n', type: 'number', data: { example: 2 } }] });
  return ws;
}

describe('POST /v2/textItems', () => {
  it('creates items with every field in a project and answers their ids in request order', async () => {
    const ws = await fresh();
    const ids = await createItems(ws, { projectId: 'web' }, [
      {
        developerId: 'cart',
        text: '{{n}} item',
        blockId: 'footer',
        notes: 'Cart count',
        tags: ['shop'],
        status: 'REVIEW',
        assignee: ws.email.toUpperCase(),
        characterLimit: 20,
        integrated: true,
        variables: ['n'],
        plurals: [
          { form: 'one', text: '{{n}} item' },
          { form: 'other', text: '{{n}} items' },
        ],
        variants: [{ variantId: 'fr', text: '{{n}} article', status: 'WIP', notes: 'fr', characterLimit: 5 }],
        baseTextItemId: 'core-b',
      },
      { text: 'Sign in' },
    ]);
    expect(ids).toEqual(['cart', 'sign-in']);
    const common = {
      projectId: 'web',
      baseId: 'core',
      baseTextItemId: 'core-b',
      blockName: 'Footer',
      blockId: 'footer',
      notes: 'Cart count',
      tags: ['shop'],
      characterLimit: 20,
      integrated: true,
      variableIds: ['n'],
      status: 'REVIEW',
      assignee: ws.email,
    };
    expect(await list(ws, { projects: [{ id: 'web' }], variants: [{ id: 'all' }] })).toEqual([
      record({ ...common, id: 'cart', text: '{{n}} item' }),
      record({ ...common, id: 'cart_one', text: '{{n}} item', pluralForm: 'one' }),
      record({ ...common, id: 'cart_other', text: '{{n}} items', pluralForm: 'other' }),
      record({
        ...common,
        id: 'cart',
        text: '{{n}} article',
        variantId: 'fr',
        status: 'WIP',
        assignee: null,
        notes: 'fr',
        characterLimit: 5,
      }),
      record({ id: 'sign-in', text: 'Sign in', projectId: 'web', baseId: 'core' }),
    ]);
  });

  it('creates base items with baseId', async () => {
    const ws = await fresh();
    expect(await createItems(ws, { baseId: 'core' }, [{ text: 'Core C' }])).toEqual(['core-c']);
    expect(keys(await list(ws, { bases: [{ id: 'core' }] }))).toEqual(['core-a', 'core-b', 'core-c']);
  });

  it('generates ids from the first words of the text, stepping past taken ids and plural records', async () => {
    const ws = await fresh();
    await createItems(ws, { projectId: 'app' }, [{ developerId: 'save-2_one', text: 'x' }]);
    const long = 'The quick brown fox jumps over the lazy dog and keeps running far beyond the sixty four limit';
    const ids = await createItems(ws, { projectId: 'app' }, [
      { text: 'Save changes!' },
      { text: 'Save   changes?' },
      { text: 'Save' },
      { text: 'Save', plurals: [{ form: 'one', text: 'Save' }] },
      { text: long },
      { text: '¡Ça va!' },
      { text: '***' },
    ]);
    expect(ids).toEqual([
      'save-changes',
      'save-changes-2',
      'save',
      'save-3',
      'the-quick-brown-fox-jumps-over-the-lazy-dog-and-keeps-running',
      'ca-va',
      'item',
    ]);
    expect(ids[4]?.length).toBeLessThanOrEqual(64);
  });

  it('puts new items at the end of the project order', async () => {
    const ws = await fresh();
    await createItems(ws, { projectId: 'app' }, [{ developerId: 'b', text: 'B' }]);
    await createItems(ws, { projectId: 'app' }, [{ developerId: 'a', text: 'A' }]);
    expect(keys(await list(ws, { projects: [{ id: 'app' }] }, '&sort=project_order'))).toEqual(['b', 'a']);
  });

  it('lists each variable once, in creation order, in the record and in the change log', async () => {
    const ws = await fresh();
    await post(ws, 'variables', {
      variables: [
        { name: 'a', type: 'string', data: { example: 'x' } },
        { name: 'b', type: 'string', data: { example: 'y' } },
      ],
    });
    const changes = await changesOf(ws, () =>
      ws.api.post('textItems', {
        projectId: 'app',
        textItems: [
          {
            developerId: 'many',
            text: '{{b}} {{n}} {{a}}',
            variables: ['b', 'n', 'b', 'a'],
            variants: [{ variantId: 'fr', text: '{{a}} {{n}} {{b}}' }],
          },
          { developerId: 'one', text: '{{n}}', variables: ['n', 'n'] },
        ],
      }),
    );
    const records = await list(ws, { projects: [{ id: 'app' }], variants: [{ id: 'all' }] });
    const byKey = new Map(records.map((r) => [`${r.id}/${r.variantId}`, r]));
    expect(byKey.get('many/null')?.variableIds).toEqual(['n', 'a', 'b']);
    expect(byKey.get('one/null')?.variableIds).toEqual(['n']);
    const created = changes.find((c) => c.developerId === 'many' && c.variantId === null);
    expect(created?.fields.variableIds).toEqual({ before: null, after: ['n', 'a', 'b'] });
    const value = changes.find((c) => c.developerId === 'many' && c.variantId === 'fr');
    expect(value?.fields).toMatchObject({
      text: { before: null, after: '{{a}} {{n}} {{b}}' },
      status: { before: null, after: 'NONE' },
    });
    expect(byKey.get('many/fr')?.variableIds).toEqual(['n', 'a', 'b']);
  });

  it('answers an empty list for no items, still checking the container', async () => {
    const ws = await fresh();
    expect(await createItems(ws, { projectId: 'app' }, [])).toEqual([]);
    expect(await failure(ws, 'post', 'textItems', { projectId: 'ghost', textItems: [] })).toBe(
      'projectId: Project with developer ID ghost not found',
    );
  });
});

describe('POST /v2/textItems errors, all or nothing', () => {
  const item = (extra: object = {}) => ({ text: 'Fine', ...extra });
  const cases: [string, object, string][] = [
    ['both containers', { projectId: 'web', baseId: 'core' }, 'Give either projectId or baseId, not both'],
    ['no container', {}, 'projectId or baseId is required'],
    ['unknown project', { projectId: 'ghost' }, 'projectId: Project with developer ID ghost not found'],
    ['a base as project', { projectId: 'core' }, 'projectId: Project with developer ID core not found'],
    ['unknown base', { baseId: 'web' }, 'baseId: Base with developer ID web not found'],
  ];
  it.each(cases)('%s is a 400', async (_name, container, message) => {
    const ws = await fresh();
    expect(await failure(ws, 'post', 'textItems', { ...container, textItems: [item()] })).toBe(message);
    expect(await countTexts(ctx, ws, 'text_item')).toBe(2);
  });

  const elementCases: [string, object, object, string][] = [
    ['unknown block', { projectId: 'web' }, { blockId: 'nav' }, 'textItems[2].blockId: Block id not found: nav'],
    ['block in a base', { baseId: 'core' }, { blockId: 'header' }, 'textItems[2].blockId: Block id not found: header'],
    [
      'derivation from an item outside the base',
      { projectId: 'web' },
      { baseTextItemId: 'first' },
      'textItems[2].baseTextItemId: Text item with developer ID first not found in base core',
    ],
    [
      'derivation in a project without base',
      { projectId: 'app' },
      { baseTextItemId: 'core-a' },
      'textItems[2].baseTextItemId: project app is not connected to a base',
    ],
    [
      'derivation of a base item',
      { baseId: 'core' },
      { baseTextItemId: 'core-a' },
      'textItems[2].baseTextItemId: items of a base do not derive from other items',
    ],
    [
      'unknown status',
      { projectId: 'web' },
      { status: 'DONE' },
      "textItems[2].status: 'DONE' is not a status of the workspace",
    ],
    [
      'unknown assignee',
      { projectId: 'web' },
      { assignee: 'x@example.com' },
      "textItems[2].assignee: 'x@example.com' is not a user of the workspace",
    ],
    ['unknown variable', { projectId: 'web' }, { variables: ['m'] }, 'textItems[2].variables: Variables not found: m'],
    [
      'unknown variant',
      { projectId: 'web' },
      { variants: [{ variantId: 'es', text: 'x' }] },
      'textItems[2].variants[0].variantId: Variant with id es not found',
    ],
    [
      'first plural form differing from the text',
      { projectId: 'web' },
      { plurals: [{ form: 'one', text: 'Other' }] },
      "textItems[2].plurals[0].text: the first plural form's text must equal the text",
    ],
  ];
  it.each(elementCases)(
    '%s in the last element is a 400 and writes nothing',
    async (_name, container, extra, message) => {
      const ws = await fresh();
      const first = { developerId: 'first', text: 'A', plurals: [{ form: 'one', text: 'A' }] };
      const body = { ...container, textItems: [first, item(), item(extra)] };
      expect(await failure(ws, 'post', 'textItems', body)).toBe(message);
      expect(await countTexts(ctx, ws, 'text_item')).toBe(2);
    },
  );

  it('an id colliding with a plural record, stored or in the request, is a 400 naming both', async () => {
    const ws = await fresh();
    await createItems(ws, { projectId: 'app' }, [
      { developerId: 'cart', text: 'A', plurals: [{ form: 'one', text: 'A' }] },
    ]);
    const stored = { projectId: 'web', textItems: [item(), item({ developerId: 'cart_one' })] };
    expect(await failure(ws, 'post', 'textItems', stored)).toBe(
      "textItems[1]: cart_one collides with the 'one' plural record of cart",
    );
    const inRequest = {
      projectId: 'web',
      textItems: [
        { developerId: 'box', text: 'B', plurals: [{ form: 'other', text: 'B' }] },
        item({ developerId: 'box_other' }),
      ],
    };
    expect(await failure(ws, 'post', 'textItems', inRequest)).toBe(
      "textItems[0]: the 'other' plural record of box collides with box_other",
    );
    expect(await countTexts(ctx, ws, 'text_item')).toBe(3);
  });

  it('an existing developer ID is a 409, even in another project; one repeated in the request a 400', async () => {
    const ws = await fresh();
    const exists = 'Text item with developer ID core-a already exists in workspace';
    expect(
      await failure(ws, 'post', 'textItems', { projectId: 'app', textItems: [item({ developerId: 'core-a' })] }, 409),
    ).toBe(exists);
    const repeated = { projectId: 'app', textItems: [item({ developerId: 'x' }), item({ developerId: 'x' })] };
    expect(await failure(ws, 'post', 'textItems', repeated, 400)).toBe(
      "textItems[1].developerId: duplicate developer ID 'x'",
    );
    expect(await countTexts(ctx, ws, 'text_item')).toBe(2);
  });

  it('schema errors name the field, and another workspace’s project is unknown', async () => {
    const ws = await fresh();
    expect(await failure(ws, 'post', 'textItems', { projectId: 'web', textItems: [{ txt: 'x' }] })).toBe(
      'textItems[0].text is required',
    );
    const other = await createWorkspace(ctx);
    expect(await failure(other, 'post', 'textItems', { projectId: 'web', textItems: [item()] })).toBe(
      'projectId: Project with developer ID web not found',
    );
  });
});
