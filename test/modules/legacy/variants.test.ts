import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { legacy, ok } from './helpers.js';

// GET /variants?projectIds[]=...: which variants count as used by the given projects. A variant
// counts when a text of theirs has a value of it: a text item's own value, the value of the
// component a linked instance shows, and with the library's id any component's value. Answers in
// the workspace's variant order, whatever order the values are found in.

const ctx = await setupApp();
const ws = await createWorkspace(ctx);

async function post(at: Workspace, path: string, body: object) {
  const res = await at.api.post(path, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
}

await post(ws, 'variants', {
  variants: ['fr', 'de', 'es', 'it', 'nl', 'pt'].map((id) => ({ name: id.toUpperCase(), developerId: id })),
});
await post(ws, 'variables', { variables: [{ name: 'count', type: 'number', data: { example: 3 } }] });
await post(ws, 'projects', {
  projects: ['a', 'b', 'c', 'empty'].map((id) => ({ name: id, developerId: id, developerMode: true })),
});
await post(ws, 'components', {
  components: [
    // Shown in project a through a linked instance: its German value counts for a.
    { developerId: 'lib.linked', text: 'OK', variants: [{ variantId: 'de', text: 'Okay', status: 'FINAL' }] },
    // Linked nowhere: its Spanish value counts for the library only.
    { developerId: 'lib.alone', text: 'Alone', variants: [{ variantId: 'es', text: 'Solo', status: 'WIP' }] },
  ],
});
await post(ws, 'textItems', {
  projectId: 'a',
  textItems: [
    { developerId: 'a.plain', text: 'Plain' },
    // Plural forms in the value only count like any value.
    {
      developerId: 'a.cart',
      text: 'One item',
      plurals: [
        { form: 'one', text: 'One item' },
        { form: 'other', text: '{{count}} items' },
      ],
      variants: [
        {
          variantId: 'pt',
          text: 'Um item',
          status: 'WIP',
          plurals: [
            { form: 'one', text: 'Um item' },
            { form: 'other', text: '{{count}} itens' },
          ],
        },
      ],
    },
  ],
});
await post(ws, 'textItems', {
  projectId: 'b',
  textItems: [{ developerId: 'b.one', text: 'One', variants: [{ variantId: 'it', text: 'Uno', status: 'WIP' }] }],
});
await post(ws, 'textItems', {
  projectId: 'c',
  textItems: [{ developerId: 'c.one', text: 'One', variants: [{ variantId: 'fr', text: 'Un', status: 'FINAL' }] }],
});
const instance = await ws.api.post('textItems/instances', {
  componentId: 'lib.linked',
  projectId: 'a',
  developerId: 'a.ok',
});
expect(instance.status, JSON.stringify(instance.body)).toBe(201);

const used = async (...projects: string[]) => {
  const query = projects.map((id) => `projectIds[]=${id}`).join('&');
  return (await ok(ctx, ws, `/v1/variants?${query}`)).map((v: { apiID: string }) => v.apiID);
};

describe('GET /variants?projectIds[]=...', () => {
  it('counts own values, values shown through linked instances, and the library', async () => {
    expect(await used('a')).toEqual(['de', 'pt']);
    expect(await used('b')).toEqual(['it']);
    expect(await used('b', 'c', 'a')).toEqual(['fr', 'de', 'it', 'pt']);
    expect(await used('empty')).toEqual([]);
    expect(await used('ditto_component_library')).toEqual(['de', 'es']);
    expect(await used('empty', 'ditto_component_library', 'b')).toEqual(['de', 'es', 'it']);
    // A project named twice counts once.
    expect(await used('c', 'c')).toEqual(['fr']);
  });

  it('answers the full list without projectIds, and names an unknown project', async () => {
    expect((await ok(ctx, ws, '/variants')).map((v: { apiID: string }) => v.apiID)).toEqual([
      'fr',
      'de',
      'es',
      'it',
      'nl',
      'pt',
    ]);
    const res = await legacy(ctx, ws, '/variants?projectIds[]=a&projectIds[]=ghost');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Project with developer ID ghost not found');
  });

  it('follows a detached instance: its values are its own then', async () => {
    const other = await createWorkspace(ctx);
    await post(other, 'variants', { variants: [{ name: 'German', developerId: 'de' }] });
    await post(other, 'projects', { projects: [{ name: 'P', developerId: 'p', developerMode: true }] });
    await post(other, 'components', {
      components: [{ developerId: 'x', text: 'X', variants: [{ variantId: 'de', text: 'Ix', status: 'WIP' }] }],
    });
    const made = await other.api.post('textItems/instances', { componentId: 'x', projectId: 'p', developerId: 'p.x' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await ok(ctx, other, '/variants?projectIds[]=p')).map((v: { apiID: string }) => v.apiID)).toEqual(['de']);
    const detached = await other.api.post('textItems/instances/detach', { developerIds: ['p.x'] });
    expect(detached.status, JSON.stringify(detached.body)).toBeLessThan(300);
    expect((await ok(ctx, other, '/variants?projectIds[]=p')).map((v: { apiID: string }) => v.apiID)).toEqual(['de']);
  });

  it('walks a variant with more values than a page, in a large workspace', async () => {
    const big = await createWorkspace(ctx);
    await post(big, 'variants', { variants: [{ name: 'Dutch', developerId: 'nl' }] });
    await post(big, 'projects', {
      projects: [
        { name: 'Elsewhere', developerId: 'elsewhere', developerMode: true },
        { name: 'Here', developerId: 'here', developerMode: true },
      ],
    });
    // 1,200 Dutch values in a project not asked for: more than one page of the walk that the
    // library's id asks for (the library is read through the variant's values).
    for (let from = 0; from < 1_200; from += 600) {
      const textItems = Array.from({ length: 600 }, (_, k) => ({
        developerId: `e.${from + k}`,
        text: `E ${from + k}`,
        variants: [{ variantId: 'nl', text: `N ${from + k}`, status: 'WIP' }],
      }));
      await post(big, 'textItems', { projectId: 'elsewhere', textItems });
    }
    const asked = async (...ids: string[]) =>
      (await ok(ctx, big, `/variants?${ids.map((id) => `projectIds[]=${id}`).join('&')}`)).map(
        (v: { apiID: string }) => v.apiID,
      );
    expect(await asked('here', 'ditto_component_library')).toEqual([]);
    expect(await asked('elsewhere')).toEqual(['nl']);
    // The one value in the scope comes after all of those.
    await post(big, 'components', {
      components: [{ developerId: 'late', text: 'Late', variants: [{ variantId: 'nl', text: 'Laat', status: 'WIP' }] }],
    });
    expect(await asked('here', 'ditto_component_library')).toEqual(['nl']);
    expect(await asked('here')).toEqual([]);
  });
});
