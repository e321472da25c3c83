import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

const ctx = await setupApp();

const DEFAULTS = [
  { id: 'NONE', name: 'Draft' },
  { id: 'WIP', name: 'In Progress' },
  { id: 'REVIEW', name: 'In Review' },
  { id: 'FINAL', name: 'Final' },
];

async function ok(res: Promise<{ status: number; body: any }>, status = 200) {
  const { status: got, body } = await res;
  expect(got, JSON.stringify(body)).toBe(status);
  return body;
}

const history = async (ws: Workspace, query: string) => (await ok(ws.api.get(`history?${query}`))).changes as any[];

/** Components `a` (WIP, with a `fr` value in WIP) and `b` (FINAL), and text item `t` (WIP) of project `web`. */
async function world(ws: Workspace) {
  await ok(ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] }), 201);
  await ok(
    ws.api.post('components', {
      components: [
        { developerId: 'a', text: 'A', status: 'WIP', variants: [{ variantId: 'fr', text: 'A fr', status: 'WIP' }] },
        { developerId: 'b', text: 'B', status: 'FINAL' },
      ],
    }),
    201,
  );
  await ok(ws.api.post('projects', { projects: [{ name: 'Web', developerId: 'web' }] }), 201);
  await ok(
    ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 't', text: 'T', status: 'WIP' }] }),
    201,
  );
}

/** The changes one write (`at`) made to records' statuses. */
const statusMoves = (changes: any[], at: string) => changes.filter((c) => c.at === at && c.fields.status !== undefined);

describe('history of the workflow', () => {
  it('records the whole list before and after, and every record a reassign moved', async () => {
    const ws = await createWorkspace(ctx);
    const [key] = await ctx.services.accounts.listKeys(ws.id);
    await world(ws);
    const statuses = [
      { id: 'NONE', name: 'Draft' },
      { id: 'REVIEW', name: 'In Review' },
      { id: 'FINAL', name: 'Done' },
    ];
    await ok(ws.api.put('statuses', { statuses, reassign: { WIP: 'REVIEW' } }));

    const [workflow, ...older] = await history(ws, 'kind=statuses');
    expect(older).toEqual([]);
    expect(workflow).toMatchObject({
      actor: ws.email,
      keyId: key?.id,
      kind: 'statuses',
      developerId: 'statuses',
      variantId: null,
      action: 'updated',
      fields: { statuses: { before: DEFAULTS, after: statuses } },
    });

    const moved = { action: 'updated', actor: ws.email, keyId: key?.id, at: workflow.at };
    const a = statusMoves(await history(ws, 'kind=component&id=a'), workflow.at);
    expect(a).toHaveLength(2);
    expect(a.find((c) => c.variantId === null)).toMatchObject({
      ...moved,
      kind: 'component',
      developerId: 'a',
      fields: { status: { before: 'WIP', after: 'REVIEW' } },
    });
    expect(a.find((c) => c.variantId === 'fr')).toMatchObject({
      ...moved,
      kind: 'component',
      fields: { status: { before: 'WIP', after: 'REVIEW' } },
    });
    for (const change of a) expect(Object.keys(change.fields)).toEqual(['status']);

    const t = statusMoves(await history(ws, 'kind=textItem&id=t'), workflow.at);
    expect(t).toEqual([expect.objectContaining({ ...moved, kind: 'textItem', developerId: 't', variantId: null })]);
    expect(t[0].fields).toEqual({ status: { before: 'WIP', after: 'REVIEW' } });
    // A record whose status stayed is not part of the write.
    expect(statusMoves(await history(ws, 'kind=component&id=b'), workflow.at)).toEqual([]);
  });

  it('lists every workflow change under the developer ID `statuses`, newest first', async () => {
    const ws = await createWorkspace(ctx);
    const first = [...DEFAULTS, { id: 'LEGAL', name: 'Legal review' }];
    await ok(ws.api.put('statuses', { statuses: first }));
    await ok(ws.api.put('statuses', { statuses: DEFAULTS }));
    const changes = await history(ws, 'id=statuses');
    expect(changes.map((c) => c.fields.statuses)).toEqual([
      { before: first, after: DEFAULTS },
      { before: DEFAULTS, after: first },
    ]);
  });

  it('records nothing for a workflow that did not change', async () => {
    const ws = await createWorkspace(ctx);
    await ok(ws.api.put('statuses', { statuses: DEFAULTS }));
    expect(await history(ws, 'kind=statuses')).toEqual([]);
  });

  it('records nothing for a rejected replacement, and other workspaces never see the changes', async () => {
    const ws = await createWorkspace(ctx);
    await world(ws);
    const before = await history(ws, 'limit=1000');
    const stranded = await ws.api.put('statuses', { statuses: [{ id: 'NONE', name: 'Draft' }] });
    expect(stranded.status).toBe(400);
    expect(stranded.body.message).toBe('reassign: statuses still in use need a reassign target: FINAL, WIP');
    const badTarget = await ws.api.put('statuses', {
      statuses: [{ id: 'NONE', name: 'Draft' }],
      reassign: { WIP: 'NONE', FINAL: 'GONE' },
    });
    expect(badTarget.status).toBe(400);
    expect(await history(ws, 'limit=1000')).toEqual(before);
    const components = await ok(ws.api.get('components'));
    expect(components.map((r: any) => [r.id, r.status])).toEqual([
      ['a', 'WIP'],
      ['b', 'FINAL'],
    ]);

    await ok(
      ws.api.put('statuses', {
        statuses: DEFAULTS.slice(0, 1),
        reassign: { WIP: 'NONE', FINAL: 'NONE', REVIEW: 'NONE' },
      }),
    );
    expect(await history(ws, 'kind=statuses')).toHaveLength(1);
    const other = await createWorkspace(ctx);
    expect(await history(other, 'kind=statuses')).toEqual([]);
    expect(await history(other, 'id=a')).toEqual([]);
  });
});
