import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/schema.js';
import { indexQueued } from '../../../src/db/search-index.js';
import { createSearchIndexer } from '../../../src/modules/texts/index.js';
import {
  anotherServer,
  apiClient,
  createWorkspace,
  setupApp,
  type TestContext,
  type Workspace,
} from '../../helpers/app.js';
import { manualClock } from '../../helpers/clock.js';
import { onPostgres, scratchPostgres } from '../../helpers/database.js';
import { waitFor } from '../../helpers/wait.js';

const ctx = await setupApp();

// Another server on the same database, whose search index is never worked off in the background.
const { app: quiet, services: quietServices } = await anotherServer(ctx);
await quietServices.searchIndex.stop();

// SQLite: a database of its own, whose search index is never worked off in the background either.
const alone = onPostgres() ? null : await setupApp();
await alone?.services.searchIndex.stop();

/**
 * PostgreSQL: a database of its own, whose search index is never worked off in the background, for
 * the test that needs to know who holds the queue's rows: on the suite's shared database the
 * servers of the other test files work the same queue off meanwhile. Dropped once its app closed.
 */
async function ownPostgres(): Promise<TestContext> {
  const scratch = await scratchPostgres('copydesk_search');
  afterAll(() => scratch.drop());
  const own = await setupApp({ database: { kind: 'postgres', url: scratch.url } });
  await own.services.searchIndex.stop();
  return own;
}
const own = onPostgres() ? await ownPostgres() : null;

/** Texts of the workspace waiting in the search queue (other test files write to the database too). */
const queued = async (ws: Workspace, on: TestContext = ctx) =>
  Number(
    (
      await sql<{ n: number }>`select count(*) as n from text_search_queue q join texts t on t.id = q.text_id
        where t.workspace_id = ${ws.id}`.execute(on.database.db)
    ).rows[0]?.n,
  );

/** The database as `db`, calling `seen` before each statement whose tree mentions `text`. */
const counting = (db: Kysely<Database>, text: string, seen: () => void) =>
  db.withPlugin({
    transformQuery: ({ node }) => {
      if (JSON.stringify(node).includes(text)) seen();
      return node;
    },
    transformResult: async ({ result }) => result,
  });

async function seed(ws: Workspace): Promise<void> {
  const calls = [
    ws.api.post('variants', { variants: [{ name: 'French', developerId: 'fr' }] }),
    ws.api.post('projects', { projects: [{ name: 'Shop', developerId: 'shop' }] }),
    ws.api.post('componentFolders', { folders: [{ name: 'Buttons', developerId: 'buttons' }] }),
  ];
  for (const call of calls) expect((await call).status).toBe(201);
  const items = await ws.api.post('textItems', {
    projectId: 'shop',
    textItems: [
      { developerId: 'checkout-button', text: 'Pay now', notes: 'Shown on the basket page', tags: ['payments'] },
      {
        developerId: 'welcome.title',
        text: 'Welcome back, {{name}}',
        variants: [{ variantId: 'fr', text: 'Content de vous revoir' }],
      },
    ],
  });
  expect(items.status).toBe(201);
  const components = await ws.api.post('components', {
    components: [{ developerId: 'cancel', name: 'Cancel button', text: 'Cancel', folderId: 'buttons' }],
  });
  expect(components.status).toBe(201);
}

const ids = async (ws: Workspace, q: string) => {
  const res = await ws.api.get(`search?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  return res.body.results.map((r: { kind: string; developerId: string }) => `${r.kind}:${r.developerId}`).sort();
};

describe('GET /v2/search', () => {
  it('finds text items and components by text, developer ID, name, notes, tags and variant text', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    expect(await ids(ws, 'pay')).toEqual(['textItem:checkout-button']);
    expect(await ids(ws, 'CHECKOUT')).toEqual(['textItem:checkout-button']);
    expect(await ids(ws, 'basket')).toEqual(['textItem:checkout-button']);
    expect(await ids(ws, 'payments')).toEqual(['textItem:checkout-button']);
    expect(await ids(ws, 'revoir')).toEqual(['textItem:welcome.title']);
    expect(await ids(ws, 'welcome title')).toEqual(['textItem:welcome.title']);
    expect(await ids(ws, 'button')).toEqual(['component:cancel', 'textItem:checkout-button']);
    expect(await ids(ws, 'pay basket')).toEqual(['textItem:checkout-button']);
    expect(await ids(ws, 'pay welcome')).toEqual([]);

    const res = await ws.api.get('search?q=cancel');
    expect(res.body.results).toEqual([
      {
        kind: 'component',
        developerId: 'cancel',
        name: 'Cancel button',
        text: 'Cancel',
        projectId: null,
        folderId: 'buttons',
      },
    ]);
    const item = (await ws.api.get('search?q=pay')).body.results[0];
    expect(item).toMatchObject({ kind: 'textItem', projectId: 'shop', folderId: null, name: null, text: 'Pay now' });
  });

  it('ranks a text that has the word whole and short above one where it only begins a word', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    const items = await ws.api.post('textItems', {
      projectId: 'shop',
      textItems: [
        { developerId: 'a-payment', text: 'Payment details for the order shown on this page' },
        { developerId: 'z-pay', text: 'Pay' },
      ],
    });
    expect(items.status).toBe(201);
    const res = await ws.api.get('search?q=pay');
    const order = res.body.results.map((r: { developerId: string }) => r.developerId);
    // Developer IDs alone would put a-payment first.
    expect(order.indexOf('z-pay')).toBeLessThan(order.indexOf('a-payment'));
    expect(order).toHaveLength(3);
  });

  it('follows every write: updates, variant values, deletes', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    expect(
      (await ws.api.patch('textItems', { updates: [{ developerId: 'checkout-button', text: 'Buy it' }] })).status,
    ).toBe(200);
    // "Pay now" is gone; its tag "payments" stays.
    expect(await ids(ws, 'now')).toEqual([]);
    expect(await ids(ws, 'buy')).toEqual(['textItem:checkout-button']);
    const variant = await ws.api.patch('textItems', {
      variantId: 'fr',
      updates: [{ developerId: 'checkout-button', text: 'Acheter' }],
    });
    expect(variant.status).toBe(200);
    expect(await ids(ws, 'acheter')).toEqual(['textItem:checkout-button']);
    expect((await ws.api.delete('variants', { developerIds: ['fr'] })).status).toBe(200);
    expect(await ids(ws, 'acheter')).toEqual([]);
    expect(await ids(ws, 'revoir')).toEqual([]);
    expect((await ws.api.delete('components', { developerIds: ['cancel'] })).status).toBe(200);
    expect(await ids(ws, 'cancel')).toEqual([]);
  });

  it('indexes every row a request writes, and nothing of a request that fails', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    const variants = [
      { name: 'German', developerId: 'de' },
      { name: 'Spanish', developerId: 'es' },
    ];
    expect((await ws.api.post('variants', { variants })).status).toBe(201);
    const created = await ws.api.post('components', {
      components: [
        {
          developerId: 'save',
          text: 'Save',
          variants: [
            { variantId: 'fr', text: 'Enregistrer' },
            { variantId: 'de', text: 'Speichern' },
            { variantId: 'es', text: 'Guardar' },
          ],
        },
      ],
    });
    expect(created.status).toBe(201);
    for (const word of ['save', 'enregistrer', 'speichern', 'guardar']) {
      expect(await ids(ws, word)).toEqual(['component:save']);
    }
    // A variant value changed: the document keeps the others and has the new one.
    const changed = await ws.api.patch('components', {
      variantId: 'de',
      updates: [{ developerId: 'save', text: 'Sichern' }],
    });
    expect(changed.status).toBe(200);
    expect(await ids(ws, 'sichern')).toEqual(['component:save']);
    expect(await ids(ws, 'speichern')).toEqual([]);
    expect(await ids(ws, 'enregistrer save')).toEqual(['component:save']);
    // The second element is refused, so the first is not written, nor indexed.
    const refused = await ws.api.post('components', {
      components: [
        { developerId: 'draft', text: 'Draft' },
        { developerId: 'broken', text: 'Broken', folderId: 'no-such-folder' },
      ],
    });
    expect(refused.status).toBe(400);
    expect(await ids(ws, 'draft')).toEqual([]);
    expect(await ids(ws, 'guardar')).toEqual(['component:save']);
  });

  it('finds what another server wrote the moment it is acknowledged, and indexes it in the background', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    await ctx.services.searchIndex.upToDate();
    expect(await queued(ws)).toBe(0);
    // Written through a server that never indexes by itself (as if it stopped right after the
    // write): the texts wait in the queue, and a search on either server finds them.
    const onQuiet = apiClient(quiet, ws.key);
    const created = await onQuiet.post('components', {
      components: [
        { developerId: 'refund', text: 'Refund the order', variants: [{ variantId: 'fr', text: 'Rembourser' }] },
      ],
    });
    expect(created.status).toBe(201);
    expect(await queued(ws)).toBe(1);
    expect(await ids(ws, 'rembourser')).toEqual(['component:refund']);
    expect(await queued(ws)).toBe(0);
    const renamed = await onQuiet.patch('components', {
      updates: [{ developerId: 'refund', text: 'Give the money back' }],
    });
    expect(renamed.status).toBe(200);
    const res = await onQuiet.get('search?q=money');
    expect(res.body.results.map((r: { developerId: string }) => r.developerId)).toEqual(['refund']);
    // A write through a server that indexes: its queue is worked off shortly after, with no search.
    const again = await ws.api.patch('components', { updates: [{ developerId: 'refund', text: 'Refund it' }] });
    expect(again.status).toBe(200);
    await waitFor(async () => (await queued(ws)) === 0, 'the queue worked off in the background');
    expect(await ids(ws, 'refund')).toEqual(['component:refund']);
    expect(await ids(ws, 'money')).toEqual([]);
  });

  it('waits for the writes under way before indexing in the background, at most its longest delay', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    await ctx.services.searchIndex.upToDate();
    const onQuiet = apiClient(quiet, ws.key);
    const write = async (developerId: string) => {
      const res = await onQuiet.post('components', { components: [{ developerId, text: 'Queued' }] });
      expect(res.status).toBe(201);
    };
    const workedOff = () => waitFor(async () => (await queued(ws)) === 0, 'the queue worked off');
    // An indexer on a clock moved by hand, told that this process has a write under way, asked
    // each time its turn comes; `looked` counts its looks at the queue (a pass begins with one, and
    // looks again after each batch until the queue is empty).
    const clock = manualClock();
    let busy = true;
    let asked = 0;
    let looked = 0;
    const indexer = createSearchIndexer(
      counting(ctx.database.db, 'text_search_queue limit 1', () => (looked += 1)),
      {
        writing: () => {
          asked += 1;
          return busy;
        },
        maxDelayMs: 1_000,
        clock,
      },
    );
    try {
      await write('first');
      indexer.scheduled();
      await clock.advance(300);
      // Its turn came several times and was put off each time, the write being under way.
      expect(asked).toBeGreaterThanOrEqual(3);
      expect(looked).toBe(0);
      busy = false;
      await clock.advance(100);
      expect(looked).toBeGreaterThan(0);
      // Worked off, and the pass that did it ended (it looks at the queue once more after its batch).
      await workedOff();
      await indexer.upToDate();
      // A write request being read and checked (held by the HTTP layer) puts it off too.
      const release = indexer.hold();
      await write('held');
      const heldFrom = asked;
      const lookedFrom = looked;
      indexer.scheduled();
      await clock.advance(300);
      expect(asked - heldFrom).toBeGreaterThanOrEqual(3);
      expect(looked).toBe(lookedFrom);
      release();
      release();
      await clock.advance(100);
      expect(looked).toBeGreaterThan(lookedFrom);
      await workedOff();
      await indexer.upToDate();
      // A burst that never pauses is indexed all the same, its longest delay (here a second) after its first write.
      busy = true;
      await write('second');
      const burstFrom = looked;
      indexer.scheduled();
      await clock.advance(999);
      expect(looked).toBe(burstFrom);
      await clock.advance(1);
      expect(looked).toBeGreaterThan(burstFrom);
      await workedOff();
      // Past its longest delay it is asked no more: no turn is left to come.
      const askedThen = asked;
      const lookedThen = looked;
      expect(clock.pending()).toBe(0);
      await clock.advance(10_000);
      expect(asked).toBe(askedThen);
      expect(looked).toBe(lookedThen);
    } finally {
      await indexer.stop();
    }
  });

  // SQLite only, on a database of its own (`alone`): on PostgreSQL the test files share one
  // queue, which another file's server may work off before this indexer's first batch, so its
  // turn to give way may never come. What is tested is the indexer's own scheduling, the same on
  // both databases.
  it.skipIf(onPostgres())(
    'gives way between batches to a write that arrives while it works the queue off',
    async () => {
      if (!alone) throw new Error('no database of its own');
      const ws = await createWorkspace(alone);
      // The texts the indexer takes in a transaction (INDEX_BATCH in search.repository.ts).
      const batch = onPostgres() ? 1_000 : 250;
      const components = Array.from({ length: batch }, (_, i) => ({ developerId: `c-${i}`, text: `Batch ${i}` }));
      // One more text than the indexer takes in a transaction.
      expect((await ws.api.post('components', { components })).status).toBe(201);
      expect((await ws.api.post('components', { components: [{ developerId: 'last', text: 'Last' }] })).status).toBe(
        201,
      );
      expect(await queued(ws, alone)).toBe(batch + 1);
      // No write under way until the indexer has written its first batch of documents; one from then on.
      let batches = 0;
      let asked = 0;
      let writes = true;
      const clock = manualClock();
      const indexer = createSearchIndexer(
        counting(alone.database.db, 'insert into text_search ', () => (batches += 1)),
        {
          writing: () => {
            if (batches === 0) return false;
            asked += 1;
            return writes;
          },
          clock,
        },
      );
      try {
        indexer.scheduled();
        await clock.advance(50);
        // Between its first batch and the next it found a write under way, and stopped.
        await waitFor(() => asked >= 1, 'the first batch written');
        await clock.advance(30);
        // It stopped after one batch and keeps waiting for the write to end (its turn every 10 ms).
        expect(batches).toBe(1);
        expect(asked).toBeGreaterThanOrEqual(4);
        expect(await queued(ws, alone)).toBe(1);
        writes = false;
        await clock.advance(10);
        await waitFor(async () => (await queued(ws, alone)) === 0, 'the rest worked off');
        expect(batches).toBe(2);
      } finally {
        await indexer.stop();
      }
    },
  );

  // PostgreSQL only: SQLite has one writer at a time, so no pass can hold rows another one reads.
  it.runIf(onPostgres())(
    "works the queue off to its end while another server's pass holds the first rows it looks at",
    async () => {
      if (!own) throw new Error('no database of its own');
      const ws = await createWorkspace(own);
      // More texts than a pass takes in a transaction (1,000 on PostgreSQL), written where no
      // pass runs in the background.
      for (const part of [0, 1]) {
        const components = Array.from({ length: 600 }, (_, i) => ({
          developerId: `held-${part}-${i}`,
          text: `Held ${part * 600 + i}`,
        }));
        expect((await ws.api.post('components', { components })).status).toBe(201);
      }
      // Another server's pass: it has taken the first texts of the queue off it and not committed.
      let release = () => {};
      const released = new Promise<void>((done) => (release = done));
      let holding = () => {};
      const taken = new Promise<void>((done) => (holding = done));
      const other = own.database.db.transaction().execute(async (trx) => {
        await indexQueued(trx, 1_000);
        holding();
        await released;
      });
      await taken;
      const indexer = createSearchIndexer(own.database.db);
      try {
        const upToDate = indexer.upToDate();
        // Once this pass waits for the rows the other holds, the other commits.
        await waitFor(
          async () =>
            Number(
              (
                await sql<{ n: number }>`select count(*) as n from pg_stat_activity
                  where datname = current_database() and wait_event_type = 'Lock'
                    and query like 'delete from text_search_queue%'`.execute(own.database.db)
              ).rows[0]?.n,
            ) > 0,
          'a pass waiting for the rows another one holds',
        );
        release();
        await other;
        await upToDate;
        // Every text is indexed: none of the workspace's is left in the queue, and the last is found.
        expect(await queued(ws, own)).toBe(0);
        expect(await ids(ws, 'Held 1199')).toEqual(['component:held-1-599']);
      } finally {
        release();
        await other.catch(() => {});
        await indexer.stop();
      }
    },
  );

  it('does not retry a failing background pass until the next write', async () => {
    // A database without the search tables: every pass fails at its first statement.
    let statements = 0;
    const broken = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SQLite(':memory:') }),
      log: () => {
        statements += 1;
      },
    });
    const clock = manualClock();
    const indexer = createSearchIndexer(broken, { maxDelayMs: 100, clock });
    try {
      indexer.scheduled();
      await clock.advance(100);
      await waitFor(() => statements >= 1, 'the background pass');
      // Nothing is set to try again: ten times its longest delay later, no other statement.
      expect(clock.pending()).toBe(0);
      await clock.advance(1_000);
      expect(statements).toBe(1);
      await expect(indexer.upToDate()).rejects.toThrow(/text_search_queue/);
    } finally {
      await indexer.stop();
      await broken.destroy();
    }
  });

  it("never shows another workspace's texts; a query without words finds nothing; no q is a 400", async () => {
    const ws = await createWorkspace(ctx);
    const other = await createWorkspace(ctx);
    await seed(ws);
    expect(await ids(other, 'pay')).toEqual([]);
    expect(await ids(ws, '"*: -')).toEqual([]);
    const missing = await ws.api.get('search');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/q/);
  });
});
