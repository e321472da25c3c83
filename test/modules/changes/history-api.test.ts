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

  it('pages through the changes of one record and its variant values without gaps, at any page size', async () => {
    const ws = await createWorkspace(ctx);
    expect(
      (await ws.api.post('variants', { variants: ['fr', 'de', 'es'].map((id) => ({ name: id, developerId: id })) }))
        .status,
    ).toBe(201);
    const values = (n: number) => ['fr', 'de', 'es'].map((variantId) => ({ variantId, text: `${variantId} ${n}` }));
    const created = await ws.api.post('components', {
      components: Array.from({ length: 5 }, (_, n) => ({
        developerId: `c${n}`,
        name: `C${n}`,
        text: `en ${n}`,
        variants: values(n),
      })),
    });
    expect(created.status).toBe(201);
    // A base text; a variant value's text with the base's tags (two changes of one write); a delete
    // (the component and its three values).
    expect((await ws.api.patch('components', { updates: [{ developerId: 'c1', text: 'en 1 again' }] })).status).toBe(
      200,
    );
    expect(
      (
        await ws.api.patch('components', {
          updates: [{ developerId: 'c2', text: 'es 2 again', tags: ['again'] }],
          variantId: 'es',
        })
      ).status,
    ).toBe(200);
    expect((await ws.api.delete('components', { developerIds: ['c3'] })).status).toBeLessThan(300);
    const all = (await ws.api.get('history?kind=component&limit=1000')).body.changes as {
      id: string;
      developerId: string;
      variantId: string | null;
      action: string;
      fields: Record<string, { after: unknown }>;
    }[];
    // 5 creates of a component and 3 values each, 3 updates, a delete of a component and 3 values.
    expect(all).toHaveLength(27);
    expect(all.slice(0, 7).map((c) => [c.developerId, c.variantId, c.action, c.fields.text?.after])).toEqual([
      ['c3', 'es', 'deleted', null],
      ['c3', 'de', 'deleted', null],
      ['c3', 'fr', 'deleted', null],
      ['c3', null, 'deleted', null],
      ['c2', 'es', 'updated', 'es 2 again'],
      ['c2', null, 'updated', undefined],
      ['c1', null, 'updated', 'en 1 again'],
    ]);
    const created0 = all
      .filter((c) => c.developerId === 'c0')
      .map((c) => [c.variantId, c.action, c.fields.text?.after]);
    expect(created0).toEqual([
      ['es', 'created', 'es 0'],
      ['de', 'created', 'de 0'],
      ['fr', 'created', 'fr 0'],
      [null, 'created', 'en 0'],
    ]);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    const numeric = all.map((c) => Number(c.id));
    expect(numeric).toEqual([...numeric].sort((a, b) => b - a));
    for (const limit of [1, 2, 3, 5]) {
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: any } = await ws.api.get(
          `history?kind=component&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(res.status).toBe(200);
        expect(res.body.changes.length).toBeLessThanOrEqual(limit);
        paged.push(...res.body.changes.map((c: { id: string }) => c.id));
        cursor = res.body.nextCursor;
      } while (cursor !== null);
      expect(paged).toEqual(all.map((c) => c.id));
    }
    // The id filter reads every change of the record, its variant values' included.
    expect(
      (await ws.api.get('history?id=c3')).body.changes.map((c: { variantId: string | null; action: string }) => [
        c.variantId,
        c.action,
      ]),
    ).toEqual([
      ['es', 'deleted'],
      ['de', 'deleted'],
      ['fr', 'deleted'],
      [null, 'deleted'],
      ['es', 'created'],
      ['de', 'created'],
      ['fr', 'created'],
      [null, 'created'],
    ]);
  });

  it('still reads changes stored one to a row, and cursors that name a row', async () => {
    const ws = await createWorkspace(ctx);
    await variables(ws, ['first']);
    // A change as stored before a row could hold several: its own variant and action columns.
    await ctx.database.db
      .insertInto('changes')
      .values({
        workspace_id: ws.id,
        at: new Date().toISOString(),
        actor: ws.email,
        key_id: null,
        kind: 'component',
        record_ref: 'component:999999',
        developer_id: 'old',
        variant_id: 'fr',
        action: 'updated',
        fields: JSON.stringify([{ text: 'Avant' }, { text: 'Après' }]),
      })
      .execute();
    await variables(ws, ['second']);
    const changes = (await ws.api.get('history?limit=1000')).body.changes as { id: string; developerId: string }[];
    const old = changes.find((c) => c.developerId === 'old');
    expect(old).toMatchObject({
      kind: 'component',
      variantId: 'fr',
      action: 'updated',
      fields: { text: { before: 'Avant', after: 'Après' } },
    });
    // A cursor from before names the row of the last change of its page: the next page starts below it.
    const rowOfOld = Number(old?.id) / 1000;
    expect(Number.isInteger(rowOfOld)).toBe(true);
    const legacy = Buffer.from(`h1:${rowOfOld}`).toString('base64url');
    const after = (await ws.api.get(`history?limit=1000&cursor=${legacy}`)).body.changes as { developerId: string }[];
    expect(after.map((c) => c.developerId)).toEqual(
      changes.slice(changes.indexOf(old as never) + 1).map((c) => c.developerId),
    );
    expect(after.map((c) => c.developerId)).toContain('first');
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
