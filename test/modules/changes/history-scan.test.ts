import { describe, expect, it } from 'vitest';
import { listChanges } from '../../../src/modules/changes/changes.repository.js';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

// On SQLite a history page is read in windows of row ids (`SCAN_WINDOW_ROWS`), and one record's
// history from its own index entries. Here the windows are a few rows wide, and two workspaces
// write in turn so that each one's rows are spread over the log: every query must still answer
// what one query over the whole log answers.

const ctx = await setupApp();

async function variable(ws: Workspace, name: string) {
  const res = await ws.api.post('variables', { variables: [{ name, type: 'string', data: { example: name } }] });
  expect(res.status).toBe(201);
}

const ws = await createWorkspace(ctx);
const other = await createWorkspace(ctx);
for (let i = 0; i < 6; i += 1) {
  await variable(ws, `v${i}`);
  await variable(other, `o${i}`);
  const res = await ws.api.post('components', {
    components: [
      { developerId: `c${i}`, text: `C ${i}` },
      { developerId: `d${i}`, text: `D ${i}` },
    ],
  });
  expect(res.status).toBe(201);
}
expect((await ws.api.patch('components', { updates: [{ developerId: 'c1', text: 'C 1 again' }] })).status).toBe(200);

type Page = { changes: { id: string }[]; nextCursor: string | null };
const ids = (page: Page) => page.changes.map((c) => c.id);

/** Every change the API pages through for `query`, page by page. */
async function pages(query: string, limit: number): Promise<string[][]> {
  const out: string[][] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: unknown } = await ws.api.get(
      `history?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(res.status).toBe(200);
    out.push(ids(res.body as Page));
    cursor = (res.body as Page).nextCursor;
  } while (cursor !== null);
  return out;
}

describe('history read in windows of the log', () => {
  it.each([
    ['kind=variable', 2],
    ['kind=component', 3],
    ['id=c1', 1],
    ['kind=component&id=c1', 5],
    [`actor=${encodeURIComponent('nobody@example.com')}`, 4],
    ['until=2000-01-01', 4],
    ['since=2000-01-01', 7],
  ])('%s (limit %i): the pages of narrow windows are those of one query', async (query, limit) => {
    const all = (await ws.api.get(`history?${query}&limit=1000`)).body as Page;
    expect(all.nextCursor).toBeNull();
    const paged = await pages(query, limit);
    expect(paged.flat()).toEqual(ids(all));
    // The same through the repository with windows of 1 to 3 row ids.
    const params = new URLSearchParams(query);
    for (const windowRows of [1, 2, 3]) {
      const direct = await listChanges(ctx.database.db, ws.id, {
        kind: params.get('kind') ?? undefined,
        developerId: params.get('id') ?? undefined,
        actor: params.get('actor') ?? undefined,
        until: params.has('until') ? new Date(params.get('until') as string).toISOString() : undefined,
        since: params.has('since') ? new Date(params.get('since') as string).toISOString() : undefined,
        limit: 1000,
        windowRows,
      });
      expect(direct.map((c) => c.id)).toEqual(ids(all));
    }
  });

  it('finds every change of the workspace, and none of the other', async () => {
    const all = (await ws.api.get('history?limit=1000')).body as Page;
    // 6 variables, 12 components, 1 update, and the workspace's own set-up.
    expect(all.changes.length).toBeGreaterThanOrEqual(19);
    const direct = await listChanges(ctx.database.db, ws.id, { limit: 1000, windowRows: 1 });
    expect(direct.map((c) => c.id)).toEqual(ids(all));
    const ofOther = await listChanges(ctx.database.db, other.id, { kind: 'variable', limit: 1000, windowRows: 1 });
    expect(ofOther.map((c) => (c as { developerId: string }).developerId)).toEqual([
      'o5',
      'o4',
      'o3',
      'o2',
      'o1',
      'o0',
    ]);
  });
});
