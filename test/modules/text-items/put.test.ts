import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { createItems, failure, list, world } from './helpers.js';

const ctx = await setupApp();
const projects = { projects: [{ id: 'web' }, { id: 'app' }] };

/** `world` plus `cart` (plurals one/other, a fr value with plurals) in web and `ok` in app. */
async function populated(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await world(ws);
  await createItems(ws, { projectId: 'web' }, [
    {
      developerId: 'cart',
      text: '1 item',
      tags: ['a', 'b'],
      assignee: ws.email,
      plurals: [
        { form: 'one', text: '1 item' },
        { form: 'other', text: 'n items' },
      ],
      variants: [
        {
          variantId: 'fr',
          text: '1 article',
          plurals: [
            { form: 'one', text: '1 article' },
            { form: 'other', text: 'n articles' },
          ],
        },
      ],
    },
  ]);
  await createItems(ws, { projectId: 'app' }, [{ developerId: 'ok', text: 'OK', tags: ['keep'] }]);
  return ws;
}

async function put(ws: Workspace, body: object) {
  const res = await ws.api.put('textItems', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ success: true });
  return res;
}

/** `id: text` of every base and variant record of the projects. */
async function texts(ws: Workspace, variants = [{ id: 'all' }]) {
  return (await list(ws, { ...projects, variants })).map(
    (r) => `${r.id}${r.variantId ? `@${r.variantId}` : ''}: ${r.text}`,
  );
}

describe('PUT /v2/textItems (deprecated)', () => {
  it('answers with a Deprecation header pointing at PATCH, also on errors', async () => {
    const ws = await populated();
    const res = await put(ws, { updates: [{ developerId: 'ok', text: 'Okay' }] });
    expect(res.headers.deprecation).toBe('true');
    expect(String(res.headers.link)).toContain('rel="successor-version"');
    const bad = await ws.api.put('textItems', { updates: [{ developerId: 'ghost' }] });
    expect(bad.status).toBe(404);
    expect(bad.headers.deprecation).toBe('true');
    const spec = (await ws.api.get('/v2/openapi.json')).body;
    expect(spec.paths['/v2/textItems'].put.deprecated).toBe(true);
  });

  it('replaces tags, removes the assignee with null, sets status and integrated, across projects', async () => {
    const ws = await populated();
    await put(ws, {
      updates: [
        { developerId: 'cart', tags: ['c'], assignee: null, integrated: true },
        { developerId: 'ok', status: 'FINAL', tags: [] },
      ],
    });
    const records = await list(ws, projects);
    expect(records.find((r) => r.id === 'cart')).toMatchObject({ tags: ['c'], assignee: null, integrated: true });
    expect(records.find((r) => r.id === 'ok')).toMatchObject({ tags: [], status: 'FINAL' });
  });

  it('upserts and removes plural forms, keeping the forms not mentioned', async () => {
    const ws = await populated();
    await put(ws, { updates: [{ developerId: 'cart', plurals: { upsert: [{ form: 'few', text: 'a few items' }] } }] });
    expect(await texts(ws, [{ id: 'base' }])).toEqual([
      'cart: 1 item',
      'cart_one: 1 item',
      'cart_few: a few items',
      'cart_other: n items',
      'ok: OK',
    ]);
    await put(ws, {
      updates: [{ developerId: 'cart', plurals: { upsert: [{ form: 'other', text: 'many items' }], remove: ['few'] } }],
    });
    expect(await texts(ws, [{ id: 'base' }])).toEqual([
      'cart: 1 item',
      'cart_one: 1 item',
      'cart_other: many items',
      'ok: OK',
    ]);
  });

  it('text with a plural upsert keeps the first form in step; removing every form removes the plurals', async () => {
    const ws = await populated();
    await put(ws, {
      updates: [{ developerId: 'cart', text: 'one item', plurals: { upsert: [{ form: 'two', text: 'two items' }] } }],
    });
    expect(await texts(ws, [{ id: 'base' }])).toContain('cart_one: one item');
    await put(ws, { updates: [{ developerId: 'cart', plurals: { remove: ['one', 'two', 'other'] } }] });
    expect(await texts(ws, [{ id: 'base' }])).toEqual(['cart: one item', 'ok: OK']);
    await put(ws, {
      updates: [
        {
          developerId: 'ok',
          plurals: {
            upsert: [
              { form: 'one', text: 'One OK' },
              { form: 'other', text: 'OKs' },
            ],
          },
        },
      ],
    });
    expect(await texts(ws, [{ id: 'base' }])).toEqual([
      'cart: one item',
      'ok: One OK',
      'ok_one: One OK',
      'ok_other: OKs',
    ]);
  });

  it('with variantId, plural operations apply to that variant’s plurals', async () => {
    const ws = await populated();
    await put(ws, { variantId: 'fr', updates: [{ developerId: 'cart', plurals: { remove: ['other'] } }] });
    expect(await texts(ws, [{ id: 'fr' }])).toEqual(['cart@fr: 1 article', 'cart_one@fr: 1 article']);
    expect(
      await failure(ws, 'put', 'textItems', {
        variantId: 'fr',
        updates: [{ developerId: 'cart', plurals: { remove: ['other'] } }],
      }),
    ).toBe('Cannot remove plural forms that do not exist on text item cart: other');
  });
});

describe('PUT /v2/textItems errors, all or nothing', () => {
  const cases: [string, object, string, number?][] = [
    [
      'removing missing forms',
      { developerId: 'ok', plurals: { remove: ['few', 'many'] } },
      'Cannot remove plural forms that do not exist on text item ok: few, many',
    ],
    [
      'upserting a form twice',
      {
        developerId: 'cart',
        plurals: {
          upsert: [
            { form: 'two', text: 'a' },
            { form: 'two', text: 'b' },
          ],
        },
      },
      "updates[2].plurals.upsert[1].form: plural form 'two' appears more than once",
    ],
    [
      'upserting a removed form',
      { developerId: 'cart', plurals: { upsert: [{ form: 'other', text: 'x' }], remove: ['other'] } },
      "updates[2].plurals.upsert[0].form: plural form 'other' is also removed",
    ],
    [
      'an upserted first form disagreeing with the text',
      { developerId: 'cart', text: 'a', plurals: { upsert: [{ form: 'one', text: 'b' }] } },
      "updates[2].plurals.upsert[0].text: the first plural form's text must equal the text",
    ],
    ['an unknown item', { developerId: 'ghost', text: 'x' }, 'Text item with developer ID ghost not found', 404],
    [
      'an unknown status',
      { developerId: 'ok', status: 'DONE' },
      "updates[2].status: 'DONE' is not a status of the workspace",
    ],
    [
      'an unknown assignee',
      { developerId: 'ok', assignee: 'x@example.com' },
      "updates[2].assignee: 'x@example.com' is not a user of the workspace",
    ],
  ];

  it.each(cases)('%s in the last update fails and changes nothing', async (_name, last, message, status = 400) => {
    const ws = await populated();
    await createItems(ws, { projectId: 'app' }, [
      { developerId: 'e1', text: 'E1' },
      { developerId: 'e2', text: 'E2' },
    ]);
    const before = await list(ws, { ...projects, variants: [{ id: 'all' }] });
    const body = { updates: [{ developerId: 'e1', text: 'Changed' }, { developerId: 'e2', tags: ['changed'] }, last] };
    expect(await failure(ws, 'put', 'textItems', body, status)).toBe(message);
    expect(await list(ws, { ...projects, variants: [{ id: 'all' }] })).toEqual(before);
  });

  it('rejects fields that PUT does not take', async () => {
    const ws = await populated();
    expect(await failure(ws, 'put', 'textItems', { updates: [{ developerId: 'ok', notes: 'x' }] })).toMatch(/notes/);
    expect(
      await failure(ws, 'put', 'textItems', {
        updates: [{ developerId: 'ok', plurals: [{ form: 'one', text: 'x' }] }],
      }),
    ).toMatch(/plurals/);
  });
});
