import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { createItems, keys, list, listError, world } from './helpers.js';

const ctx = await setupApp();

/**
 * `world` (base items core-a FINAL with a fr value, core-b WIP tagged `shared`) plus project
 * items in `web` and `app` with statuses, assignees, tags, integrated flags and variant values.
 */
async function populated(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await world(ws);
  await createItems(ws, { projectId: 'web' }, [
    {
      developerId: 'w1',
      text: 'One',
      status: 'WIP',
      tags: ['shared', 'web'],
      integrated: true,
      variants: [
        { variantId: 'fr', text: 'Un', status: 'WIP' },
        { variantId: 'de', text: 'Eins', status: 'FINAL', assignee: ws.email },
      ],
    },
    {
      developerId: 'w2',
      text: 'Two',
      status: 'FINAL',
      assignee: ws.email,
      tags: ['web'],
      variants: [{ variantId: 'fr', text: 'Deux', status: 'FINAL', assignee: ws.email }],
    },
  ]);
  await createItems(ws, { projectId: 'app' }, [{ developerId: 'a1', text: 'App', tags: ['shared'] }]);
  return ws;
}

const both = { projects: [{ id: 'web' }, { id: 'app' }], bases: [{ id: 'core' }] };

describe('GET /v2/textItems rule 3: variants', () => {
  it('returns only base text by default, and `variants: []` is the same', async () => {
    const ws = await populated();
    expect(keys(await list(ws, both))).toEqual(['a1', 'core-a', 'core-b', 'w1', 'w2']);
    expect(await list(ws, { ...both, variants: [] })).toEqual(await list(ws, both));
  });

  it('`all` returns base text and every variant value, of project and base items alike', async () => {
    const ws = await populated();
    expect(keys(await list(ws, { ...both, variants: [{ id: 'all' }] }))).toEqual([
      'a1',
      'core-a',
      'core-a@fr',
      'core-b',
      'w1',
      'w1@fr',
      'w1@de',
      'w2',
      'w2@fr',
    ]);
  });

  it('listed variants return only their values; base text only when `base` is listed', async () => {
    const ws = await populated();
    expect(keys(await list(ws, { ...both, variants: [{ id: 'fr' }] }))).toEqual(['core-a@fr', 'w1@fr', 'w2@fr']);
    expect(keys(await list(ws, { projects: [{ id: 'web' }], variants: [{ id: 'de' }, { id: 'base' }] }))).toEqual([
      'w1',
      'w1@de',
      'w2',
    ]);
    const [fr] = await list(ws, { projects: [{ id: 'web' }], variants: [{ id: 'fr' }] });
    expect(fr).toMatchObject({ id: 'w1', text: 'Un', variantId: 'fr', status: 'WIP', tags: ['shared', 'web'] });
  });

  it('an unknown variant is a 400', async () => {
    const ws = await populated();
    expect(await listError(ws, { variants: [{ id: 'xx' }] })).toEqual({
      status: 400,
      message: 'Variant with id xx not found',
    });
  });
});

describe('GET /v2/textItems rule 4: statuses and assignee filter project items only', () => {
  it('statuses keep matching project items and every base item', async () => {
    const ws = await populated();
    expect(keys(await list(ws, { ...both, statuses: ['FINAL'] }))).toEqual(['core-a', 'core-b', 'w2']);
    expect(keys(await list(ws, { statuses: ['FINAL'] }))).toEqual(['w2']);
  });

  it('assignee (and null for unassigned) keeps matching project items and every base item', async () => {
    const ws = await populated();
    expect(keys(await list(ws, { ...both, assignee: ws.email.toUpperCase() }))).toEqual(['core-a', 'core-b', 'w2']);
    expect(keys(await list(ws, { ...both, assignee: null }))).toEqual(['a1', 'core-a', 'core-b', 'w1']);
  });

  it('with variants, a project variant record needs its base and itself to match; base items stay unfiltered', async () => {
    const ws = await populated();
    const all = [{ id: 'all' }];
    expect(keys(await list(ws, { ...both, variants: all, statuses: ['FINAL'] }))).toEqual([
      'core-a',
      'core-a@fr',
      'core-b',
      'w2',
      'w2@fr',
    ]);
    expect(keys(await list(ws, { ...both, variants: all, statuses: ['WIP'] }))).toEqual([
      'core-a',
      'core-a@fr',
      'core-b',
      'w1',
      'w1@fr',
    ]);
    expect(keys(await list(ws, { ...both, variants: [{ id: 'fr' }], assignee: ws.email }))).toEqual([
      'core-a@fr',
      'w2@fr',
    ]);
  });

  it('an unknown status or assignee is a 400 even when only bases are selected', async () => {
    const ws = await populated();
    expect(await listError(ws, { bases: [{ id: 'core' }], statuses: ['DONE'] })).toEqual({
      status: 400,
      message: "filter.statuses[0]: 'DONE' is not a status of the workspace",
    });
    expect(await listError(ws, { assignee: 'nobody@example.com' })).toEqual({
      status: 400,
      message: "filter.assignee: 'nobody@example.com' is not a user of the workspace",
    });
  });
});

describe('GET /v2/textItems tags and integrated apply to every item', () => {
  it('tags match with OR by default and with AND when asked, base items included', async () => {
    const ws = await populated();
    expect(keys(await list(ws, { ...both, tags: { values: ['shared'] } }))).toEqual(['a1', 'core-b', 'w1']);
    expect(keys(await list(ws, { ...both, tags: { values: ['shared', 'web'], operator: 'OR' } }))).toEqual([
      'a1',
      'core-b',
      'w1',
      'w2',
    ]);
    expect(keys(await list(ws, { ...both, tags: { values: ['shared', 'web'], operator: 'AND' } }))).toEqual(['w1']);
  });

  it('integrated filters project and base items', async () => {
    const ws = await populated();
    expect(keys(await list(ws, { ...both, integrated: true }))).toEqual(['w1']);
    expect(keys(await list(ws, { ...both, integrated: false }))).toEqual(['a1', 'core-a', 'core-b', 'w2']);
  });
});

describe('GET /v2/textItems filter errors', () => {
  it.each([
    ['{', /^filter is not valid JSON/],
    ['[]', /^filter must be object$/],
    ['{"folders":[]}', /^filter\.folders is not a known field$/],
    ['{"projects":"web"}', /^filter\.projects must be array$/],
    ['{"bases":[{"id":3}]}', /^filter\.bases\[0\]\.id must be string$/],
    ['{"projects":[{"name":"web"}]}', /^filter\.projects\[0\]\.name is not a known field$/],
  ])('%s is a 400', async (filter, message) => {
    const ws = await createWorkspace(ctx);
    const res = await listError(ws, filter);
    expect(res.status).toBe(400);
    expect(res.message).toMatch(message);
  });
});
