import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { createComponents, createFolders, createVariants, keys, list, listError } from './helpers.js';

const ctx = await setupApp();
let ws: Workspace;
const other = 'Other.Person@Example.com';

/**
 * One library for every filter: folders top > child > grand and other; variants fr, de; two users.
 * Base and variant statuses and assignees differ on purpose, so the "both must match" rule shows.
 */
beforeAll(async () => {
  ws = await createWorkspace(ctx);
  await ctx.services.accounts.createUser({ workspaceId: ws.id, email: other });
  await createVariants(ws, ['fr', 'de']);
  await createFolders(ws, [
    { developerId: 'top' },
    { developerId: 'child', parentId: 'top' },
    { developerId: 'grand', parentId: 'child' },
    { developerId: 'other' },
  ]);
  await createComponents(ws, [
    {
      developerId: 'r1',
      text: 'root one',
      tags: ['a'],
      variants: [
        { variantId: 'fr', text: 'r1 fr', status: 'FINAL', assignee: ws.email },
        { variantId: 'de', text: 'r1 de' },
      ],
    },
    {
      developerId: 't1',
      text: 'top one',
      folderId: 'top',
      status: 'WIP',
      tags: ['a', 'b'],
      integrated: true,
      assignee: ws.email,
      variants: [{ variantId: 'fr', text: 't1 fr', status: 'WIP' }],
    },
    {
      developerId: 'c1',
      text: 'child one',
      folderId: 'child',
      status: 'FINAL',
      tags: ['b'],
      assignee: other,
      variants: [{ variantId: 'fr', text: 'c1 fr', status: 'FINAL', assignee: other }],
    },
    { developerId: 'g1', text: 'grand one', folderId: 'grand', integrated: true },
    { developerId: 'o1', text: 'other one', folderId: 'other', status: 'REVIEW', tags: ['c'] },
  ]);
});

const filtered = async (filter: unknown) => keys(await list(ws, filter));

describe('GET /v2/components filters, each alone', () => {
  it('folders: root-level, nested by default, excludeNestedFolders, several folders', async () => {
    expect(await filtered({ folders: [{ id: 'root' }] })).toEqual(['r1']);
    expect(await filtered({ folders: [{ id: 'top' }] })).toEqual(['c1', 'g1', 't1']);
    expect(await filtered({ folders: [{ id: 'top', excludeNestedFolders: true }] })).toEqual(['t1']);
    expect(await filtered({ folders: [{ id: 'child' }, { id: 'other' }] })).toEqual(['c1', 'g1', 'o1']);
    expect(await filtered({ folders: [{ id: 'root' }, { id: 'grand', excludeNestedFolders: false }] })).toEqual([
      'g1',
      'r1',
    ]);
  });

  it('variants: base only by default, ids, base, all', async () => {
    expect(await filtered({})).toEqual(['c1', 'g1', 'o1', 'r1', 't1']);
    expect(await filtered({ variants: [{ id: 'fr' }] })).toEqual(['c1@fr', 'r1@fr', 't1@fr']);
    expect(await filtered({ variants: [{ id: 'de' }, { id: 'base' }] })).toEqual([
      'c1',
      'g1',
      'o1',
      'r1',
      'r1@de',
      't1',
    ]);
    expect(await filtered({ variants: [{ id: 'base' }] })).toEqual(['c1', 'g1', 'o1', 'r1', 't1']);
    expect(await filtered({ variants: [{ id: 'all' }] })).toEqual([
      'c1',
      'c1@fr',
      'g1',
      'o1',
      'r1',
      'r1@fr',
      'r1@de',
      't1',
      't1@fr',
    ]);
  });

  it('statuses', async () => {
    expect(await filtered({ statuses: ['WIP'] })).toEqual(['t1']);
    expect(await filtered({ statuses: ['NONE', 'FINAL'] })).toEqual(['c1', 'g1', 'r1']);
  });

  it('tags with OR (the default) and AND', async () => {
    expect(await filtered({ tags: { values: ['a', 'c'] } })).toEqual(['o1', 'r1', 't1']);
    expect(await filtered({ tags: { values: ['a', 'c'], operator: 'OR' } })).toEqual(['o1', 'r1', 't1']);
    expect(await filtered({ tags: { values: ['a', 'b'], operator: 'AND' } })).toEqual(['t1']);
    expect(await filtered({ tags: { values: ['A'] } })).toEqual([]);
  });

  it('assignee: an email in any case, or null for unassigned', async () => {
    expect(await filtered({ assignee: ws.email })).toEqual(['t1']);
    expect(await filtered({ assignee: other.toUpperCase() })).toEqual(['c1']);
    expect(await filtered({ assignee: null })).toEqual(['g1', 'o1', 'r1']);
  });

  it('integrated', async () => {
    expect(await filtered({ integrated: true })).toEqual(['g1', 't1']);
    expect(await filtered({ integrated: false })).toEqual(['c1', 'o1', 'r1']);
  });
});

describe('GET /v2/components filters, combined', () => {
  const all = [{ id: 'all' }];

  it('variants with statuses: a variant record needs both its base and itself to match', async () => {
    // r1@fr is FINAL but its base is NONE; c1 and c1@fr are both FINAL.
    expect(await filtered({ variants: all, statuses: ['FINAL'] })).toEqual(['c1', 'c1@fr']);
    // r1 is NONE and r1@de is NONE, r1@fr (FINAL) is not; g1 has no variants.
    expect(await filtered({ variants: all, statuses: ['NONE'] })).toEqual(['g1', 'r1', 'r1@de']);
    // Only fr asked for: r1@fr matches FINAL itself, but not through its base.
    expect(await filtered({ variants: [{ id: 'fr' }], statuses: ['FINAL'] })).toEqual(['c1@fr']);
    expect(await filtered({ variants: [{ id: 'fr' }], statuses: ['WIP'] })).toEqual(['t1@fr']);
  });

  it('variants with assignee: both base and variant must match', async () => {
    // r1@fr is assigned to ws.email but r1 is unassigned; t1 is assigned, t1@fr is not.
    expect(await filtered({ variants: all, assignee: ws.email })).toEqual(['t1']);
    expect(await filtered({ variants: all, assignee: null })).toEqual(['g1', 'o1', 'r1', 'r1@de']);
    expect(await filtered({ variants: all, assignee: other })).toEqual(['c1', 'c1@fr']);
  });

  it('folders, tags, integrated and statuses together', async () => {
    expect(await filtered({ folders: [{ id: 'top' }], integrated: true })).toEqual(['g1', 't1']);
    expect(await filtered({ folders: [{ id: 'top' }], integrated: true, tags: { values: ['b'] } })).toEqual(['t1']);
    expect(await filtered({ folders: [{ id: 'top' }], statuses: ['FINAL', 'WIP'], variants: all })).toEqual([
      'c1',
      'c1@fr',
      't1',
      't1@fr',
    ]);
    expect(await filtered({ folders: [{ id: 'root' }], variants: [{ id: 'fr' }], tags: { values: ['a'] } })).toEqual([
      'r1@fr',
    ]);
  });
});

describe('GET /v2/components filter errors', () => {
  const cases: [filter: unknown, message: string][] = [
    [[], 'filter must be object'],
    [{ projects: [] }, 'filter.projects is not a known field'],
    [{ folders: {} }, 'filter.folders must be array'],
    [{ folders: [{ id: 5 }] }, 'filter.folders[0].id must be string'],
    [{ folders: [{ id: 'top', nested: true }] }, 'filter.folders[0].nested is not a known field'],
    [
      { folders: [{ id: 'top', excludeNestedFolders: 'yes' }] },
      'filter.folders[0].excludeNestedFolders must be boolean',
    ],
    [{ variants: ['fr'] }, 'filter.variants[0] must be object'],
    [{ statuses: [1] }, 'filter.statuses[0] must be string'],
    [{ tags: ['a'] }, 'filter.tags must be object'],
    [{ tags: { operator: 'AND' } }, 'filter.tags.values is required'],
    [{ tags: { values: ['a'], operator: 'XOR' } }, 'filter.tags.operator must be one of: "AND", "OR"'],
    [{ assignee: 5 }, 'filter.assignee must be string or null'],
    [{ integrated: 'true' }, 'filter.integrated must be boolean'],
    [{ statuses: Array.from({ length: 1001 }, () => 'NONE') }, 'filter.statuses must NOT have more than 1000 items'],
    [{ statuses: ['NONE', 'DONE'] }, "filter.statuses[1]: 'DONE' is not a status of the workspace"],
    [{ statuses: ['Draft'] }, "filter.statuses[0]: 'Draft' is not a status of the workspace"],
    [{ variants: [{ id: 'base' }, { id: 'xx' }] }, 'Variant with id xx not found'],
    [{ folders: [{ id: 'nope' }] }, 'Folder id not found: nope'],
    [{ assignee: 'nobody@example.com' }, "filter.assignee: 'nobody@example.com' is not a user of the workspace"],
  ];

  it.each(cases.map(([filter, message]) => [message, filter]))('400 %s', async (message, filter) => {
    expect(await listError(ws, filter)).toEqual({ status: 400, message });
  });

  it('rejects malformed JSON and an unknown richText value', async () => {
    const bad = await listError(ws, '{"variants": [');
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/^filter is not valid JSON \(/);
    const rich = await ws.api.get('components?richText=markdown');
    expect(rich.status).toBe(400);
    expect(rich.body.message).toBe('richText must be one of: "html", "html_paragraphs"');
  });

  it('allows 1,000 ids in a filter array', async () => {
    expect(await filtered({ statuses: Array.from({ length: 1000 }, () => 'WIP') })).toEqual(['t1']);
  });
});
