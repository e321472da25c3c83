import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

const ctx = await setupApp();

async function ok(res: Promise<{ status: number; body: unknown }>, status = 200) {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body as any;
}

const history = async (ws: Workspace, query = '') => (await ok(ws.api.get(`history${query}`))).changes as any[];

async function project(ws: Workspace) {
  await ok(ws.api.post('projects', { projects: [{ name: 'App', developerId: 'app' }] }), 201);
}

describe('history of components', () => {
  it('records a create with every field it set, base and variant values alike', async () => {
    const ws = await createWorkspace(ctx);
    await ok(ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] }), 201);
    await ok(ws.api.post('variables', { variables: [{ name: 'n', type: 'number', data: { example: 2 } }] }), 201);
    await ok(ws.api.post('componentFolders', { folders: [{ name: 'Cart', developerId: 'cart-folder' }] }), 201);
    await ok(
      ws.api.post('components', {
        components: [
          {
            developerId: 'cart',
            name: 'Cart',
            text: '{{n}} item',
            folderId: 'cart-folder',
            tags: ['checkout'],
            variables: ['n'],
            plurals: [
              { form: 'one', text: '{{n}} item' },
              { form: 'other', text: '{{n}} items' },
            ],
            variants: [{ variantId: 'fr', text: '{{n}} articles', status: 'WIP' }],
          },
        ],
      }),
      201,
    );
    const changes = await history(ws, '?kind=component');
    expect(changes).toHaveLength(2);
    const [variant, base] = changes.at(0).variantId ? changes : [...changes].reverse();
    expect(base).toMatchObject({
      actor: ws.email,
      kind: 'component',
      developerId: 'cart',
      variantId: null,
      action: 'created',
    });
    expect(base.fields).toMatchObject({
      name: { before: null, after: 'Cart' },
      folderId: { before: null, after: 'cart-folder' },
      text: { before: null, after: '{{n}} item' },
      tags: { before: null, after: ['checkout'] },
      variableIds: { before: null, after: ['n'] },
      status: { before: null, after: 'NONE' },
      plurals: {
        before: null,
        after: [
          { form: 'one', text: '{{n}} item' },
          { form: 'other', text: '{{n}} items' },
        ],
      },
    });
    expect(variant).toMatchObject({
      developerId: 'cart',
      variantId: 'fr',
      action: 'created',
      fields: { text: { before: null, after: '{{n}} articles' }, status: { before: null, after: 'WIP' } },
    });
  });

  it('records only the changed fields of an update, a variant update on its own, moves and deletes', async () => {
    const ws = await createWorkspace(ctx);
    await ok(ws.api.post('variants', { variants: [{ name: 'German', developerId: 'de' }] }), 201);
    await ok(ws.api.post('componentFolders', { folders: [{ name: 'F', developerId: 'f' }] }), 201);
    await ok(ws.api.post('components', { components: [{ developerId: 'hello', name: 'Hello', text: 'Hi' }] }), 201);
    await ok(ws.api.patch('components', { updates: [{ developerId: 'hello', text: 'Hello', status: 'WIP' }] }));
    await ok(ws.api.patch('components', { updates: [{ developerId: 'hello', text: 'Hallo' }], variantId: 'de' }));
    await ok(ws.api.patch('components', { updates: [{ developerId: 'hello', folderId: 'f' }] }));
    await ok(ws.api.patch('components', { updates: [{ developerId: 'hello', text: 'Hello' }] }));
    await ok(ws.api.delete('components', { developerIds: ['hello'] }));

    const changes = await history(ws, '?id=hello');
    // Writing the text it already has records nothing; the delete removes the base and its variant value.
    expect(changes.map((c) => [c.action, c.variantId])).toEqual([
      ['deleted', 'de'],
      ['deleted', null],
      ['moved', null],
      ['created', 'de'],
      ['updated', null],
      ['created', null],
    ]);
    const [, deleted, moved, variant, updated] = changes;
    expect(updated).toMatchObject({
      action: 'updated',
      fields: { text: { before: 'Hi', after: 'Hello' }, status: { before: 'NONE', after: 'WIP' } },
    });
    expect(Object.keys(updated.fields).sort()).toEqual(['status', 'text']);
    expect(variant).toMatchObject({ variantId: 'de', action: 'created', fields: { text: { after: 'Hallo' } } });
    expect(moved).toMatchObject({ action: 'moved', fields: { folderId: { before: null, after: 'f' } } });
    expect(deleted).toMatchObject({ action: 'deleted', developerId: 'hello', variantId: null });
    expect(deleted.fields.text).toEqual({ before: 'Hello', after: null });
    // The history of a deleted record stays readable.
    expect(await history(ws, '?id=hello&kind=component')).toEqual(changes);
  });

  it('records a publish as published, with the item it links, and the detach of instances on delete', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    await ok(ws.api.post('textItems', { projectId: 'app', textItems: [{ developerId: 'cta', text: 'Buy' }] }), 201);
    await ok(ws.api.post('components/publish', { textItemId: 'cta', name: 'CTA' }), 201);
    const [link, published] = await history(ws, '?since=2000-01-01');
    expect(published).toMatchObject({ kind: 'component', developerId: 'cta', action: 'published' });
    expect(published.fields.name).toEqual({ before: null, after: 'CTA' });
    expect(link).toMatchObject({
      kind: 'textItem',
      developerId: 'cta',
      action: 'updated',
      fields: { componentId: { before: null, after: 'cta' } },
    });
    await ok(ws.api.delete('components', { developerIds: ['cta'] }));
    const detached = (await history(ws, '?kind=textItem&id=cta'))[0];
    expect(detached).toMatchObject({ action: 'updated', fields: { componentId: { before: 'cta', after: null } } });
  });
});

describe('history of text items', () => {
  it('records create, PATCH, PUT, block moves and delete', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    await ok(
      ws.api.post('projectBlocks', { projectId: 'app', blocks: [{ name: 'Header', developerId: 'header' }] }),
      201,
    );
    await ok(
      ws.api.post('textItems', { projectId: 'app', textItems: [{ developerId: 'title', text: 'Welcome' }] }),
      201,
    );
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'title', notes: 'Shown once' }] }));
    await ok(ws.api.put('textItems', { updates: [{ developerId: 'title', tags: ['home'] }] }));
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'title', blockId: 'header' }] }));
    await ok(ws.api.delete('textItems', { developerIds: ['title'] }));

    const changes = await history(ws, '?kind=textItem&id=title');
    expect(changes.map((c) => c.action)).toEqual(['deleted', 'moved', 'updated', 'updated', 'created']);
    const [deleted, moved, put, patched, created] = changes;
    expect(created.fields).toMatchObject({
      projectId: { before: null, after: 'app' },
      text: { before: null, after: 'Welcome' },
    });
    // A create lists the fields it set: no block, no limit, no assignee.
    for (const unset of ['blockId', 'characterLimit', 'assignee', 'richText'])
      expect(created.fields).not.toHaveProperty(unset);
    expect(patched.fields).toEqual({ notes: { before: '', after: 'Shown once' } });
    expect(put.fields).toEqual({ tags: { before: [], after: ['home'] } });
    expect(moved.fields).toEqual({ blockId: { before: null, after: 'header' } });
    expect(deleted.fields.notes).toEqual({ before: 'Shown once', after: null });
    expect(deleted.fields.blockId).toEqual({ before: 'header', after: null });
    expect(deleted.fields).not.toHaveProperty('characterLimit');
  });

  it('records only what a PATCH changes: one variant value, plurals in another order, reordered tags', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    await ok(ws.api.post('variants', { variants: ['fr', 'de'].map((id) => ({ name: id, developerId: id })) }), 201);
    const plurals = (one: string, other: string) => [
      { form: 'one', text: one },
      { form: 'other', text: other },
    ];
    await ok(
      ws.api.post('textItems', {
        projectId: 'app',
        textItems: [
          {
            developerId: 'cart',
            text: 'One item',
            plurals: plurals('One item', 'Many items'),
            tags: ['a', 'b'],
            variants: [
              { variantId: 'fr', text: 'Un article', plurals: plurals('Un article', 'Des articles') },
              { variantId: 'de', text: 'Ein Artikel' },
            ],
          },
        ],
      }),
      201,
    );
    const start = Number((await history(ws, '?limit=1'))[0].id);
    const since = async () => (await history(ws)).filter((c) => Number(c.id) > start);

    // One variant value: the base and the other value record nothing.
    await ok(ws.api.patch('textItems', { variantId: 'fr', updates: [{ developerId: 'cart', status: 'WIP' }] }));
    // What the text already has records nothing.
    await ok(ws.api.patch('textItems', { variantId: 'de', updates: [{ developerId: 'cart', status: 'NONE' }] }));
    await ok(
      ws.api.patch('textItems', { updates: [{ developerId: 'cart', plurals: plurals('One item', 'Many items') }] }),
    );
    // The same forms in another order: plurals show in CLDR order, so only the display text changes.
    await ok(
      ws.api.patch('textItems', {
        updates: [
          {
            developerId: 'cart',
            plurals: [
              { form: 'other', text: 'Many items' },
              { form: 'one', text: 'One item' },
            ],
          },
        ],
      }),
    );
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'cart', tags: ['b', 'a'] }] }));

    const [tags, reordered, status, ...rest] = await since();
    expect(rest).toEqual([]);
    expect(status).toMatchObject({ variantId: 'fr', action: 'updated' });
    expect(status.fields).toEqual({ status: { before: 'NONE', after: 'WIP' } });
    expect(reordered).toMatchObject({ variantId: null, action: 'updated' });
    expect(reordered.fields).toEqual({ text: { before: 'One item', after: 'Many items' } });
    expect(tags).toMatchObject({ variantId: null, action: 'updated' });
    expect(tags.fields).toEqual({ tags: { before: ['a', 'b'], after: ['b', 'a'] } });
  });

  it('records a rejected batch as nothing', async () => {
    const ws = await createWorkspace(ctx);
    await project(ws);
    await ok(ws.api.post('textItems', { projectId: 'app', textItems: [{ developerId: 'a', text: 'A' }] }), 201);
    const before = await history(ws);
    const res = await ws.api.patch('textItems', {
      updates: [
        { developerId: 'a', text: 'changed' },
        { developerId: 'a-missing', text: 'x' },
      ],
    });
    expect(res.status).toBe(404);
    expect(await history(ws)).toEqual(before);
  });
});

describe('history of writes that create or unscope other records', () => {
  it('records a variant made by forceVariantCreation and a style guide unscoped by a variant delete', async () => {
    const ws = await createWorkspace(ctx);
    await ok(ws.api.post('components', { components: [{ developerId: 'ok', name: 'OK', text: 'OK' }] }), 201);
    await ok(
      ws.api.patch('components', {
        updates: [{ developerId: 'ok', text: 'D’accord' }],
        variantId: 'fr-CA',
        forceVariantCreation: true,
      }),
    );
    const [value, variant] = await history(ws, '?since=2000-01-01&limit=2');
    expect(variant).toMatchObject({ kind: 'variant', developerId: 'fr-CA', action: 'created' });
    expect(value).toMatchObject({ kind: 'component', developerId: 'ok', variantId: 'fr-CA', action: 'created' });

    await ok(ws.api.patch('variants', { updates: [{ developerId: 'fr-CA', localeCode: 'fr-CA' }] }));
    await ok(
      ws.api.post('styleguides', {
        styleguides: [{ developerId: 'quebec', name: 'Québec', description: 'House rules', variantId: 'fr-CA' }],
      }),
      201,
    );
    await ok(ws.api.delete('variants', { developerIds: ['fr-CA'] }));
    const [guide] = await history(ws, '?kind=styleGuide&id=quebec');
    expect(guide.fields.variantId).toEqual({ before: 'fr-CA', after: null });
  });
});
