import { describe, expect, it } from 'vitest';
import { apiClient, createWorkspace, setupApp } from '../../helpers/app.js';
import {
  createComponents,
  createFolders,
  createVariables,
  createVariants,
  keys,
  list,
  RECORD_FIELDS,
  record,
} from './helpers.js';

const ctx = await setupApp();

describe('GET /v2/components records', () => {
  it('returns exactly the fields of the record table, with notes "" and arrays always present', async () => {
    const ws = await createWorkspace(ctx);
    await createComponents(ws, [{ developerId: 'hello', text: 'Hello' }]);
    const [only, ...rest] = await list(ws);
    expect(rest).toEqual([]);
    expect(Object.keys(only).sort()).toEqual(RECORD_FIELDS);
    expect(only).toEqual(record({ id: 'hello', text: 'Hello' }));
  });

  it('is an empty array for an empty library, and 401 without a key', async () => {
    const ws = await createWorkspace(ctx);
    expect(await list(ws)).toEqual([]);
    expect((await apiClient(ctx.app, null).get('components')).status).toBe(401);
  });

  it('renders every field of a fully specified component', async () => {
    const ws = await createWorkspace(ctx);
    await createFolders(ws, [{ developerId: 'checkout' }]);
    await createVariables(ws, ['user']);
    await createComponents(ws, [
      {
        developerId: 'greeting',
        name: 'Greeting',
        text: 'Hi {{user}}',
        notes: 'Shown on login',
        tags: ['login', 'header'],
        status: 'REVIEW',
        assignee: ws.email.toUpperCase(),
        characterLimit: 40,
        integrated: true,
        folderId: 'checkout',
        variables: ['user'],
      },
    ]);
    expect(await list(ws)).toEqual([
      record({
        id: 'greeting',
        name: 'Greeting',
        text: 'Hi {{user}}',
        notes: 'Shown on login',
        tags: ['login', 'header'],
        status: 'REVIEW',
        assignee: ws.email,
        characterLimit: 40,
        integrated: true,
        folderId: 'checkout',
        variableIds: ['user'],
      }),
    ]);
  });

  it('orders by developer ID (code unit order), base before variants in variant creation order', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['zz', 'aa']);
    await createComponents(ws, [
      {
        developerId: 'b',
        text: 'B',
        variants: [
          { variantId: 'aa', text: 'B aa' },
          { variantId: 'zz', text: 'B zz' },
        ],
      },
      { developerId: 'B-upper', text: 'upper' },
      { developerId: 'a', text: 'A', variants: [{ variantId: 'aa', text: 'A aa' }] },
      { developerId: 'a.b', text: 'A.B' },
    ]);
    expect(keys(await list(ws, { variants: [{ id: 'all' }] }))).toEqual([
      'B-upper',
      'a',
      'a@aa',
      'a.b',
      'b',
      'b@zz',
      'b@aa',
    ]);
  });

  it('returns one record per plural form, ids suffixed `_<form>`, forms in CLDR order after the primary record', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['fr']);
    await createComponents(ws, [
      {
        developerId: 'cart',
        name: 'Cart',
        text: '1 item',
        plurals: [
          { form: 'one', text: '1 item' },
          { form: 'other', text: 'many items' },
          { form: 'zero', text: 'no items' },
        ],
        variants: [
          {
            variantId: 'fr',
            text: '1 article',
            status: 'WIP',
            plurals: [
              { form: 'one', text: '1 article' },
              { form: 'many', text: 'des articles' },
            ],
          },
        ],
      },
    ]);
    const records = await list(ws, { variants: [{ id: 'all' }] });
    const base = { name: 'Cart', status: 'NONE' };
    const fr = { name: 'Cart', status: 'WIP', variantId: 'fr' };
    expect(records).toEqual([
      record({ id: 'cart', text: '1 item', ...base }),
      record({ id: 'cart_zero', text: 'no items', pluralForm: 'zero', ...base }),
      record({ id: 'cart_one', text: '1 item', pluralForm: 'one', ...base }),
      record({ id: 'cart_other', text: 'many items', pluralForm: 'other', ...base }),
      record({ id: 'cart', text: '1 article', ...fr }),
      record({ id: 'cart_one', text: '1 article', pluralForm: 'one', ...fr }),
      record({ id: 'cart_many', text: 'des articles', pluralForm: 'many', ...fr }),
    ]);
  });

  it('gives variant records their own text, status, assignee, notes and limit; tags and integrated stay the base ones', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['fr']);
    await createComponents(ws, [
      {
        developerId: 'save',
        text: 'Save',
        tags: ['button'],
        integrated: true,
        notes: 'base notes',
        characterLimit: 10,
        assignee: ws.email,
        variants: [{ variantId: 'fr', text: 'Enregistrer', status: 'FINAL', notes: 'fr notes', characterLimit: 20 }],
      },
    ]);
    const [, frRecord] = await list(ws, { variants: [{ id: 'all' }] });
    expect(frRecord).toEqual(
      record({
        id: 'save',
        text: 'Enregistrer',
        variantId: 'fr',
        tags: ['button'],
        integrated: true,
        notes: 'fr notes',
        characterLimit: 20,
        status: 'FINAL',
        assignee: null,
      }),
    );
  });

  it('lists in variableIds the listed variables that the record’s own text uses, in variable creation order', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['fr']);
    await createVariables(ws, ['count', 'name', 'unused']);
    await createComponents(ws, [
      {
        developerId: 'msg',
        text: '{{name}} has {{count}} item',
        variables: ['unused', 'name', 'count'],
        plurals: [
          { form: 'one', text: '{{name}} has {{count}} item' },
          { form: 'other', text: 'Items: {{count}} {{missing}}' },
        ],
        variants: [{ variantId: 'fr', text: 'Bonjour {{ name }} {{other}}' }],
      },
      { developerId: 'literal', text: 'Hi {{name}}' },
    ]);
    const byKey = Object.fromEntries(
      (await list(ws, { variants: [{ id: 'all' }] })).map((r) => [`${r.id}@${r.variantId}`, r.variableIds]),
    );
    expect(byKey).toEqual({
      'literal@null': [],
      'msg@null': ['count', 'name'],
      'msg_one@null': ['count', 'name'],
      'msg_other@null': ['count'],
      'msg@fr': ['name'],
    });
    const ids = (await ws.api.get('variables')).body.map((v: { id: string }) => v.id);
    for (const id of Object.values(byKey).flat()) expect(ids).toContain(id);
  });

  it('treats the client default filter like no filter, and base text only', async () => {
    const ws = await createWorkspace(ctx);
    await createVariants(ws, ['fr']);
    await createFolders(ws, [{ developerId: 'f' }]);
    await createComponents(ws, [
      { developerId: 'x', text: 'X', folderId: 'f', variants: [{ variantId: 'fr', text: 'X fr' }] },
      { developerId: 'y', text: 'Y', plurals: [{ form: 'one', text: 'Y' }] },
    ]);
    const none = await list(ws);
    expect(keys(none)).toEqual(['x', 'y', 'y_one']);
    expect(await list(ws, { folders: [], variants: [], statuses: [] })).toEqual(none);
    expect(await list(ws, {})).toEqual(none);
    expect(await list(ws, { tags: { values: [] } })).toEqual(none);
  });

  it('keeps workspaces apart', async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await createComponents(a, [{ developerId: 'shared-id', text: 'A text' }]);
    await createComponents(b, [{ developerId: 'shared-id', text: 'B text' }]);
    expect((await list(a)).map((r) => r.text)).toEqual(['A text']);
    expect((await list(b)).map((r) => r.text)).toEqual(['B text']);
    expect((await b.api.delete('components', { developerIds: ['only-in-a'] })).status).toBe(404);
    await createComponents(a, [{ developerId: 'only-in-a', text: 'A' }]);
    expect((await b.api.patch('components', { updates: [{ developerId: 'only-in-a', text: 'x' }] })).status).toBe(404);
    expect((await b.api.delete('components', { developerIds: ['only-in-a'] })).status).toBe(404);
    expect((await list(a)).map((r) => r.text)).toEqual(['A', 'A text']);
  });

  it('answers a conditional GET with 304 and shows a write at once', async () => {
    const ws = await createWorkspace(ctx);
    await createComponents(ws, [{ developerId: 'a', text: 'one' }]);
    const first = await ws.api.get('components');
    const etag = String(first.headers.etag);
    expect((await ws.api.get('components', { 'if-none-match': etag })).status).toBe(304);
    await ws.api.patch('components', { updates: [{ developerId: 'a', text: 'two' }] });
    const after = await ws.api.get('components', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.body[0].text).toBe('two');
  });
});
