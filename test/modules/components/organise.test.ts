import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { createComponents, patchComponents } from './helpers.js';

const ctx = await setupApp();

/** Folders `ui` and `ui-forms` (in `ui`); `btn` (plurals, fr value) in `ui`, `link`, `pay` at the root; `btn` placed in `web`. */
async function library(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  expect((await ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] })).status).toBe(201);
  expect(
    (
      await ws.api.post('componentFolders', {
        folders: [
          { name: 'UI', developerId: 'ui' },
          { name: 'Forms', developerId: 'ui-forms', parentId: 'ui' },
        ],
      })
    ).status,
  ).toBe(201);
  await createComponents(ws, [
    {
      developerId: 'btn',
      name: 'Button',
      text: 'item',
      folderId: 'ui',
      tags: ['a', 'b'],
      plurals: [
        { form: 'one', text: 'item' },
        { form: 'other', text: 'items' },
      ],
      variants: [{ variantId: 'fr', text: 'article' }],
    },
    { developerId: 'link', text: 'Link', tags: ['a'] },
    { developerId: 'pay', text: 'Pay' },
  ]);
  expect((await ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] })).status).toBe(201);
  const placed = await ws.api.post('textItems/instances', {
    componentId: 'btn',
    projectId: 'web',
    developerId: 'web-btn',
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return ws;
}

const all = async (ws: Workspace) => {
  const filter = encodeURIComponent(JSON.stringify({ variants: [{ id: 'all' }] }));
  return (await ws.api.get(`components?filter=${filter}`)).body as any[];
};
const base = (records: any[], id: string) => records.find((r) => r.id === id && r.variantId === null);
const history = async (ws: Workspace, id: string) =>
  (await ws.api.get(`history?kind=component&id=${id}`)).body.changes as any[];

describe('PATCH /v2/components: name, newDeveloperId, folderId', () => {
  it('renames, re-identifies and moves in one request; the instance follows, history follows the row', async () => {
    const ws = await library();
    await patchComponents(ws, {
      updates: [
        { developerId: 'btn', name: 'Primary button', newDeveloperId: 'button', folderId: 'ui-forms' },
        { developerId: 'link', folderId: 'ui' },
      ],
    });
    const records = await all(ws);
    expect(base(records, 'button')).toMatchObject({ name: 'Primary button', folderId: 'ui-forms', text: 'item' });
    expect(records.map((r) => `${r.id}@${r.variantId}`)).toEqual(
      expect.arrayContaining(['button_one@null', 'button_other@null', 'button@fr']),
    );
    expect(records.some((r) => r.id.startsWith('btn'))).toBe(false);
    expect(base(records, 'link')).toMatchObject({ folderId: 'ui' });
    // The linked instance now names the new developer ID.
    const items = (await ws.api.get('textItems')).body;
    expect(items.find((r: any) => r.id === 'web-btn')).toMatchObject({ componentId: 'button', text: 'item' });
    expect((await ws.api.get('textItems/instances?componentId=button')).body).toEqual([
      expect.objectContaining({ id: 'web-btn' }),
    ]);

    const changes = await history(ws, 'button');
    expect(changes[0]).toMatchObject({
      action: 'renamed',
      developerId: 'button',
      fields: {
        developerId: { before: 'btn', after: 'button' },
        name: { before: 'Button', after: 'Primary button' },
        folderId: { before: 'ui', after: 'ui-forms' },
      },
    });
    expect(changes.map((c) => c.action)).toContain('created');
    expect((await history(ws, 'link'))[0]).toMatchObject({ action: 'moved' });
    expect((await ws.api.patch('components', { updates: [{ developerId: 'btn', text: 'x' }] })).status).toBe(404);
  });

  it('answers 409 for a taken developer ID, 400 for a repeated one or an empty name; all or none', async () => {
    const ws = await library();
    const before = await all(ws);
    const cases: [object[], number, string][] = [
      [
        [
          { developerId: 'pay', name: 'Pay now' },
          { developerId: 'link', newDeveloperId: 'btn' },
        ],
        409,
        'updates[1].newDeveloperId: Component with developer ID btn already exists in workspace',
      ],
      [
        [{ developerId: 'link', newDeveloperId: 'btn_other' }],
        409,
        "btn_other collides with the 'other' plural record of btn",
      ],
      [
        [
          { developerId: 'link', newDeveloperId: 'x' },
          { developerId: 'pay', newDeveloperId: 'x' },
        ],
        400,
        "updates[1].newDeveloperId: developer ID 'x' is also given to updates[0]",
      ],
      [[{ developerId: 'link', name: '' }], 400, 'updates/0/name'],
      [[{ developerId: 'link', folderId: 'nope' }], 400, 'updates[0].folderId: Folder id not found: nope'],
    ];
    for (const [updates, status, message] of cases) {
      const res = await ws.api.patch('components', { updates });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.message.replace('updates[0].name', 'updates/0/name')).toContain(message);
      expect(await all(ws)).toEqual(before);
    }
  });
});

describe('PATCH /v2/components: addTags and removeTags', () => {
  it('edits the tags of many components in one request, one history entry each', async () => {
    const ws = await library();
    await patchComponents(ws, {
      updates: [
        { developerId: 'btn', addTags: ['c'], removeTags: ['a'] },
        { developerId: 'link', addTags: ['c'] },
        { developerId: 'pay', tags: ['z'], removeTags: ['z'], addTags: ['c'] },
      ],
    });
    const records = await all(ws);
    expect(base(records, 'btn').tags).toEqual(['b', 'c']);
    expect(base(records, 'link').tags).toEqual(['a', 'c']);
    expect(base(records, 'pay').tags).toEqual(['c']);
    // Tags are the base's: the variant and plural records carry them too.
    expect(records.find((r) => r.id === 'btn' && r.variantId === 'fr').tags).toEqual(['b', 'c']);
    const [change] = await history(ws, 'btn');
    expect(change).toMatchObject({ action: 'updated', fields: { tags: { before: ['a', 'b'], after: ['b', 'c'] } } });
    const revisions = await ws.api.get('history?kind=component');
    expect(revisions.body.changes.filter((c: any) => c.action === 'updated').length).toBe(3);
  });

  it('keeps other workspaces apart', async () => {
    const ws = await library();
    const other = await library();
    await patchComponents(other, { updates: [{ developerId: 'btn', addTags: ['theirs'], newDeveloperId: 'b2' }] });
    expect(base(await all(ws), 'btn').tags).toEqual(['a', 'b']);
    await patchComponents(ws, { updates: [{ developerId: 'link', newDeveloperId: 'b2' }] });
  });

  it('documents the new fields in OpenAPI', async () => {
    const doc = JSON.parse((await ctx.app.inject({ method: 'GET', url: '/v2/openapi.json' })).body);
    const item =
      doc.paths['/v2/components'].patch.requestBody.content['application/json'].schema.properties.updates.items;
    for (const field of ['name', 'newDeveloperId', 'addTags', 'removeTags', 'folderId']) {
      expect(item.properties).toHaveProperty(field);
    }
  });
});
