import { describe, expect, it } from 'vitest';
import { createHistoryService } from '../../../src/modules/changes/history.service.js';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';

const ctx = await setupApp();

async function variables(ws: Workspace, names: string[]) {
  const res = await ws.api.post('variables', {
    variables: names.map((name) => ({ name, type: 'string', data: { example: name } })),
  });
  expect(res.status).toBe(201);
}

describe('GET /v2/history', () => {
  it('pages newest first with no gaps and no repeats, and says when the last page is reached', async () => {
    const ws = await createWorkspace(ctx);
    const names = Array.from({ length: 23 }, (_, i) => `v${String(i).padStart(2, '0')}`);
    for (let i = 0; i < names.length; i += 5) await variables(ws, names.slice(i, i + 5));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `history?kind=variable&limit=4${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await ws.api.get(query);
      expect(res.status).toBe(200);
      expect(res.body.changes.length).toBeLessThanOrEqual(4);
      seen.push(...res.body.changes.map((c: { developerId: string }) => c.developerId));
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(6);
    // Newest first: batches in reverse order of writing, so every name exactly once.
    expect([...seen].sort()).toEqual(names);
    expect(new Set(seen).size).toBe(names.length);
    const ids = (await ws.api.get('history?limit=1000')).body.changes.map((c: { id: string }) => Number(c.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('filters by time, actor and kind, and never shows another workspace', async () => {
    const ws = await createWorkspace(ctx);
    const other = await createWorkspace(ctx);
    await variables(ws, ['mine']);
    await variables(other, ['theirs']);
    const [change] = (await ws.api.get('history?kind=variable')).body.changes;
    expect(change.developerId).toBe('mine');
    const at = change.at as string;
    expect((await ws.api.get(`history?kind=variable&since=${at}`)).body.changes).toHaveLength(1);
    expect((await ws.api.get(`history?kind=variable&until=${at}`)).body.changes).toHaveLength(0);
    expect(
      (
        await ws.api.get(
          `history?kind=variable&until=${encodeURIComponent(new Date(Date.parse(at) + 1).toISOString())}`,
        )
      ).body.changes,
    ).toHaveLength(1);
    expect((await ws.api.get(`history?actor=${ws.email.toUpperCase()}`)).body.changes).toHaveLength(1);
    expect((await ws.api.get('history?actor=cli')).body.changes.map((c: { kind: string }) => c.kind)).toEqual(['user']);
    expect((await ws.api.get(`history?actor=${other.email}`)).body.changes).toHaveLength(0);
    expect((await ws.api.get('history?kind=component')).body.changes).toHaveLength(0);
    expect((await ws.api.get('history?id=theirs')).body.changes).toHaveLength(0);
    const theirs = (await other.api.get('history')).body.changes.map((c: { developerId: string }) => c.developerId);
    expect(theirs).toEqual(['theirs', other.email]);
  });

  it.each([
    ['kind=nope', /^kind must be one of: "textItem", "component"/],
    ['limit=0', /^limit must be an integer from 1 to 1000$/],
    ['limit=1001', /^limit must be an integer from 1 to 1000$/],
    ['since=yesterday', /^since: 'yesterday' is not an ISO 8601 date or date-time$/],
    ['until=2026-13-45', /^until: '2026-13-45' is not an ISO 8601 date or date-time$/],
    ['cursor=abc', /^cursor: not a cursor this server returned$/],
    [`cursor=${Buffer.from('h1:-3').toString('base64url')}`, /^cursor: not a cursor/],
  ])('answers 400 for %s', async (query, message) => {
    const ws = await createWorkspace(ctx);
    const res = await ws.api.get(`history?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('needs a key', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v2/history' });
    expect(res.statusCode).toBe(401);
  });

  it('keeps changes for the retention period only (0 keeps everything)', async () => {
    const ws = await createWorkspace(ctx);
    await variables(ws, ['old', 'recent']);
    // Age one change by three days; purging runs over every workspace, so only this one is old.
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000).toISOString();
    await ctx.database.db
      .updateTable('changes')
      .set({ at: threeDaysAgo })
      .where('workspace_id', '=', ws.id)
      .where('developer_id', '=', 'old')
      .execute();
    const keepAll = createHistoryService({ db: ctx.database.db, retentionDays: 0 });
    expect(await keepAll.purgeExpired()).toBe(0);
    expect((await ws.api.get('history?kind=variable')).body.changes).toHaveLength(2);
    // The server's own purge (it shares the server's write path, so the server sees it at once).
    const twoDays = createHistoryService({ db: ctx.database.db, retentionDays: 2, writes: ctx.services.writes });
    expect(await twoDays.purgeExpired()).toBeGreaterThanOrEqual(1);
    const kept = (await ws.api.get('history?kind=variable')).body.changes.map(
      (c: { developerId: string }) => c.developerId,
    );
    expect(kept).toEqual(['recent']);
  });
});
