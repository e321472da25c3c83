import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { legacy, multipart, ok } from './helpers.js';

const ctx = await setupApp();

async function library(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] });
  const res = await ws.api.post('components', {
    components: [
      { developerId: 'hello', text: 'Hello', notes: 'old', tags: ['a'] },
      {
        developerId: 'cart',
        text: '{{n}} items',
        plurals: [
          { form: 'other', text: '{{n}} items' },
          { form: 'one', text: '{{n}} item' },
        ],
        variants: [{ variantId: 'fr', text: 'Panier', status: 'FINAL' }],
      },
    ],
  });
  expect(res.status).toBe(201);
  return ws;
}

const component = async (ws: Workspace, id: string) =>
  (await ok(ctx, ws, '/components?format=structured'))[id] as Record<string, unknown> | undefined;

describe('PUT /components', () => {
  it('v0: updates base text, notes and tags by developer ID, skipping unknown IDs', async () => {
    const ws = await library();
    const res = await legacy(ctx, ws, '/components', {
      method: 'PUT',
      body: { hello: { text: 'Hi', notes: 'new', tags: ['b', 'c'] }, ghost: { text: 'Boo' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ componentsUpdated: 1, componentsSkipped: 1 });
    expect(await component(ws, 'hello')).toEqual({
      text: 'Hi',
      status: 'NONE',
      notes: 'new',
      tags: ['b', 'c'],
      name: 'hello',
      folder: null,
    });
    expect(await component(ws, 'ghost')).toBeUndefined();
  });

  it("v1 with variant: the variant's text, added when missing; plurals replace the forms", async () => {
    const ws = await library();
    const res = await legacy(ctx, ws, '/v1/components?variant=fr', {
      method: 'PUT',
      body: {
        data: {
          hello: { text: 'Bonjour' },
          cart: {
            text: '{{n}} articles',
            plurals: [
              { form: 'one', text: '{{n}} article' },
              { form: 'other', text: '{{n}} articles' },
            ],
          },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ componentsUpdated: 2, componentsSkipped: 0 });
    expect(await ok(ctx, ws, '/v1/components?variant=fr&format=flat')).toEqual({
      cart: '{{n}} articles',
      cart_one: '{{n}} article',
      cart_other: '{{n}} articles',
      hello: 'Bonjour',
    });
    // Base text is untouched; the new French value has the workflow's first status.
    expect((await ok(ctx, ws, '/components?format=flat')).hello).toBe('Hello');
    expect((await ok(ctx, ws, '/components?format=structured&variant=fr')).hello.status).toBe('NONE');
  });

  it('checks everything before writing anything, naming the developer ID', async () => {
    const ws = await library();
    const cases: Array<[string, unknown, string]> = [
      ['/components', { hello: { notes: 'no text' } }, 'hello.text is required'],
      ['/components', { hello: { text: 'x', colour: 'red' } }, 'hello.colour is not a known field'],
      ['/v1/components', { hello: { text: 'x' } }, 'data is required'],
      [
        '/v1/components',
        { data: { hello: { text: 'A' }, cart: { text: 'x', plurals: [{ form: 'one', text: 'y' }] } } },
        "data.cart.plurals: one form's text must equal the text",
      ],
      [
        '/components',
        {
          hello: { text: 'A' },
          cart: {
            text: 'x',
            plurals: [
              { form: 'one', text: 'x' },
              { form: 'one', text: 'z' },
            ],
          },
        },
        "cart.plurals[1].form: plural form 'one' appears more than once",
      ],
      ['/components?variant=nope', { hello: { text: 'A' } }, 'Variant with id nope not found'],
    ];
    for (const [url, body, message] of cases) {
      const res = await legacy(ctx, ws, url, { method: 'PUT', body });
      expect(res.status, url).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect((await ok(ctx, ws, '/components?format=flat')).hello).toBe('Hello');
  });
});

async function upload(ws: Workspace, query: string, filename: string, content: string, field = 'import') {
  const { payload, headers } = multipart(field, filename, content);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/v1/components/file${query}`,
    headers: { ...headers, authorization: `token ${ws.key}` },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

describe('POST /v1/components/file', () => {
  it('imports a CSV by its column mapping (1 for the first column), the first row a header', async () => {
    const ws = await createWorkspace(ctx);
    const csv = [
      'ID,Group,Label,Text,Notes,Tags,Status',
      'save,Buttons,Save,Save,"Saves, then closes",primary,FINAL',
      ',Buttons,Cancel,"Cancel ""now""",,"secondary, quiet",',
      '',
      'multi,Dialogs,Body,"Line one',
      'line two",,,WIP',
    ].join('\n');
    const res = await upload(ws, '?name=[2,3]&text=4&notes=5&tags=6&status=7&componentId=1', 'strings.csv', csv);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ componentsInserted: 3, firstImportedId: 'save' });
    const all = await ok(ctx, ws, '/v1/components?format=structured');
    expect(all).toEqual({
      'buttons-cancel': {
        text: 'Cancel "now"',
        status: 'NONE',
        tags: ['secondary', 'quiet'],
        name: 'Buttons/Cancel',
        folder: null,
      },
      multi: { text: 'Line one\nline two', status: 'WIP', name: 'Dialogs/Body', folder: null },
      save: {
        text: 'Save',
        status: 'FINAL',
        notes: 'Saves, then closes',
        tags: ['primary'],
        name: 'Buttons/Save',
        folder: null,
      },
    });
  });

  it('imports flat, nested and structured JSON, folding `<id>_<form>` into plurals', async () => {
    const ws = await createWorkspace(ctx);
    const json = {
      '__variant-name': 'ignored',
      'home.title': 'Welcome',
      settings: { save: 'Save', cancel: { text: 'Cancel', notes: 'Secondary', tags: ['x'], status: 'REVIEW' } },
      cart: '{{n}} items',
      cart_one: '{{n}} item',
      cart_other: '{{n}} items',
      badge: { text: '1 new', plurals: { other: 'n new', one: '1 new', one_rich_text: '<p>1 new</p>' } },
    };
    const res = await upload(ws, '', 'en.json', JSON.stringify(json));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.componentsInserted).toBe(5);
    expect(await ok(ctx, ws, '/v1/components?format=flat')).toEqual({
      badge: '1 new',
      badge_one: '1 new',
      badge_other: 'n new',
      cart: '{{n}} items',
      cart_one: '{{n}} item',
      cart_other: '{{n}} items',
      'home.title': 'Welcome',
      'settings.cancel': 'Cancel',
      'settings.save': 'Save',
    });
    expect((await ok(ctx, ws, '/components?format=structured'))['settings.cancel']).toMatchObject({
      notes: 'Secondary',
      tags: ['x'],
      status: 'REVIEW',
    });
  });

  it('answers a bad file or mapping with a 400 naming it, importing nothing', async () => {
    const ws = await createWorkspace(ctx);
    const cases: Array<[string, string, string, string, string?]> = [
      ['', 'a.csv', 'name,text\nA,a\n', 'text: the column of the text is required to import a CSV'],
      [
        '?text=2&name=x',
        'a.csv',
        'name,text\nA,a\n',
        "name: 'x' is not a list of column numbers (1 for the first column)",
      ],
      ['?text=0', 'a.csv', 'name,text\nA,a\n', 'text must be >= 1'],
      ['?text=2', 'a.csv', 'name,text\nA,a\nB,\n', 'line 3: the text (column 2) is empty'],
      [
        '?text=2&status=1',
        'a.csv',
        'status,text\nFINAL,a\nDONE,b\n',
        "line 3: status: 'DONE' is not a status of the workspace",
      ],
      [
        '?text=2&componentId=1',
        'a.csv',
        'id,text\nok,a\nnot ok,b\n',
        "line 3: developerId must be 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit",
      ],
      ['', 'a.json', '{"a": 3}', 'a: must be a text, an object with a text, or an object of those'],
      ['', 'a.json', '[1]', 'import: a JSON import must be an object keyed by developer ID'],
      ['', 'a.xml', '<resources/>', "import: 'a.xml' is neither a CSV nor a JSON file (.csv or .json)"],
      [
        '?text=2',
        'a.csv',
        'name,text\nA,a\n',
        'import: the file must be in the multipart field `import`, not `file`',
        'file',
      ],
    ];
    for (const [query, filename, content, message, field] of cases) {
      const res = await upload(ws, query, filename, content, field);
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await ok(ctx, ws, '/components?format=flat')).toEqual({});
    const existing = await upload(ws, '?text=2&componentId=1', 'a.csv', 'id,text\nkeep,a\n');
    expect(existing.status).toBe(201);
    const again = await upload(ws, '?text=2&componentId=1', 'a.csv', 'id,text\nnew,b\nkeep,c\n');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Component with developer ID keep already exists in workspace');
    expect(Object.keys(await ok(ctx, ws, '/components?format=flat'))).toEqual(['keep']);
  });
});
