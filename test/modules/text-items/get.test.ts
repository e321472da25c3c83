import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { createItems, keys, list, post, RECORD_FIELDS, record, world } from './helpers.js';

const ctx = await setupApp();

/** `world` plus items in `web` (one in a block, one derived from `core-a`, one with plurals) and in `app`. */
async function populated(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await world(ws);
  await createItems(ws, { projectId: 'web' }, [
    { developerId: 'web-title', text: 'Welcome', blockId: 'header', baseTextItemId: 'core-a', status: 'REVIEW' },
    {
      developerId: 'web-cart',
      text: '1 item',
      plurals: [
        { form: 'one', text: '1 item' },
        { form: 'other', text: 'many items' },
      ],
      variants: [{ variantId: 'fr', text: '1 article', status: 'WIP' }],
    },
  ]);
  await createItems(ws, { projectId: 'app' }, [{ developerId: 'app-ok', text: 'OK', assignee: ws.email }]);
  return ws;
}

describe('GET /v2/textItems records', () => {
  it('has exactly the fields of the record table, with the item’s project, base, derivation and block', async () => {
    const ws = await populated();
    const records = await list(ws);
    for (const r of records) expect(Object.keys(r).sort()).toEqual(RECORD_FIELDS);
    expect(records).toEqual([
      record({ id: 'app-ok', text: 'OK', projectId: 'app', assignee: ws.email }),
      record({ id: 'web-cart', text: '1 item', projectId: 'web', baseId: 'core' }),
      record({ id: 'web-cart_one', text: '1 item', projectId: 'web', baseId: 'core', pluralForm: 'one' }),
      record({ id: 'web-cart_other', text: 'many items', projectId: 'web', baseId: 'core', pluralForm: 'other' }),
      record({
        id: 'web-title',
        text: 'Welcome',
        projectId: 'web',
        baseId: 'core',
        baseTextItemId: 'core-a',
        blockName: 'Header',
        blockId: 'header',
        status: 'REVIEW',
      }),
    ]);
  });

  it('gives a base item’s record projectId and baseId both set to its base', async () => {
    const ws = await populated();
    const records = await list(ws, { bases: [{ id: 'core' }] });
    expect(records).toEqual([
      record({ id: 'core-a', text: 'Core A', projectId: 'core', baseId: 'core', status: 'FINAL' }),
      record({ id: 'core-b', text: 'Core B', projectId: 'core', baseId: 'core', status: 'WIP', tags: ['shared'] }),
    ]);
  });

  it('answers an empty array for a workspace without text items', async () => {
    const ws = await createWorkspace(ctx);
    expect(await list(ws)).toEqual([]);
  });

  it('adds richText with richText=html and wraps lines with html_paragraphs', async () => {
    const ws = await populated();
    await createItems(ws, { projectId: 'app' }, [{ developerId: 'app-rich', text: '<b>Bold</b> and<br>more' }], {
      richText: 'html',
    });
    const [rich] = await list(ws, { projects: [{ id: 'app' }] }, '&richText=html');
    expect(rich).toMatchObject({ id: 'app-ok', text: 'OK', richText: 'OK' });
    const html = (await list(ws, { projects: [{ id: 'app' }] }, '&richText=html')).find((r) => r.id === 'app-rich');
    expect(html).toMatchObject({ text: 'Bold and\nmore', richText: '<strong>Bold</strong> and<br />more' });
    const paragraphs = await list(ws, { projects: [{ id: 'app' }] }, '&richText=html_paragraphs');
    expect(paragraphs.find((r) => r.id === 'app-rich').richText).toBe('<p><strong>Bold</strong> and</p><p>more</p>');
    expect((await list(ws)).every((r) => !('richText' in r))).toBe(true);
  });
});

describe('GET /v2/textItems rules 1 and 2: which containers', () => {
  it('rule 1: without a filter, every project and no base items', async () => {
    const ws = await populated();
    expect(keys(await list(ws))).toEqual(['app-ok', 'web-cart', 'web-cart_one', 'web-cart_other', 'web-title']);
  });

  it('rule 1: the client default filter and empty arrays answer the same as no filter', async () => {
    const ws = await populated();
    const none = await list(ws);
    expect(await list(ws, { projects: [], variants: [], statuses: [] })).toEqual(none);
    expect(await list(ws, { projects: [], bases: [] })).toEqual(none);
    expect(await list(ws, {})).toEqual(none);
  });

  it('rule 2: projects restrict, bases restrict, and the two combine into a union', async () => {
    const ws = await populated();
    expect(keys(await list(ws, { projects: [{ id: 'app' }] }))).toEqual(['app-ok']);
    expect(keys(await list(ws, { projects: [{ id: 'app' }, { id: 'web' }] }))).toEqual(keys(await list(ws)));
    expect(keys(await list(ws, { bases: [{ id: 'core' }] }))).toEqual(['core-a', 'core-b']);
    expect(keys(await list(ws, { projects: [{ id: 'app' }], bases: [{ id: 'core' }] }))).toEqual([
      'app-ok',
      'core-a',
      'core-b',
    ]);
  });

  it('answers 400 naming an unknown project or base, and a container of the other kind', async () => {
    const ws = await populated();
    const cases: [unknown, string][] = [
      [{ projects: [{ id: 'web' }, { id: 'ghost' }] }, 'filter.projects[1]: Project with developer ID ghost not found'],
      [{ bases: [{ id: 'nope' }] }, 'filter.bases[0]: Base with developer ID nope not found'],
      [
        { projects: [{ id: 'core' }] },
        'filter.projects[0]: Project with developer ID core not found (core is a base: list it in filter.bases)',
      ],
      [
        { bases: [{ id: 'web' }] },
        'filter.bases[0]: Base with developer ID web not found (web is a project: list it in filter.projects)',
      ],
    ];
    for (const [filter, message] of cases) {
      const res = await ws.api.get(`textItems?filter=${encodeURIComponent(JSON.stringify(filter))}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });

  it('never shows another workspace’s items, even when its project ids are named', async () => {
    const ws = await populated();
    const other = await createWorkspace(ctx);
    expect(await list(other)).toEqual([]);
    const res = await other.api.get(`textItems?filter=${encodeURIComponent('{"projects":[{"id":"web"}]}')}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('filter.projects[0]: Project with developer ID web not found');
    expect((await list(ws)).length).toBe(5);
  });
});

describe('GET /v2/textItems sort orders', () => {
  async function ordered(): Promise<Workspace> {
    const ws = await createWorkspace(ctx);
    await world(ws);
    await post(ws, 'projects', { projects: [{ name: 'Alpha', developerId: 'alpha' }] });
    await createItems(ws, { projectId: 'web' }, [
      { developerId: 'z-free', text: 'Outside blocks' },
      { developerId: 'y-foot', text: 'Footer', blockId: 'footer' },
      { developerId: 'x-head-2', text: 'Header 2', blockId: 'header' },
      { developerId: 'w-head-1', text: 'Header 1', blockId: 'header' },
      { developerId: 'a-free', text: 'Also outside' },
    ]);
    await createItems(ws, { projectId: 'alpha' }, [{ developerId: 'zz-alpha', text: 'Alpha item' }]);
    return ws;
  }

  it('sort=id (the default) orders by developer ID across projects', async () => {
    const ws = await ordered();
    const expected = ['a-free', 'w-head-1', 'x-head-2', 'y-foot', 'z-free', 'zz-alpha'];
    expect(keys(await list(ws))).toEqual(expected);
    expect(keys(await list(ws, undefined, '&sort=id'))).toEqual(expected);
  });

  it('sort=project_order groups by project id, then blocks in order, their items, then items outside blocks', async () => {
    const ws = await ordered();
    expect(keys(await list(ws, undefined, '&sort=project_order'))).toEqual([
      'zz-alpha',
      'x-head-2',
      'w-head-1',
      'y-foot',
      'z-free',
      'a-free',
    ]);
    const order = { projectId: 'web', blockIds: ['footer'], textItemIds: ['w-head-1', 'a-free'] };
    expect((await ws.api.put('projectOrder', order)).status).toBe(200);
    expect(keys(await list(ws, { projects: [{ id: 'web' }] }, '&sort=project_order'))).toEqual([
      'y-foot',
      'w-head-1',
      'x-head-2',
      'a-free',
      'z-free',
    ]);
  });

  it('sort=project_order places a base among the projects by its developer ID', async () => {
    const ws = await ordered();
    const filter = { projects: [{ id: 'web' }, { id: 'alpha' }], bases: [{ id: 'core' }] };
    expect(keys(await list(ws, filter, '&sort=project_order')).slice(0, 4)).toEqual([
      'zz-alpha',
      'core-a',
      'core-b',
      'x-head-2',
    ]);
  });

  it('rejects an unknown sort with a 400', async () => {
    const ws = await ordered();
    const res = await ws.api.get('textItems?sort=name');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('sort must be one of: "id", "project_order"');
  });
});
