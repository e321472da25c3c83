import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../../src/formats/types.js';
import {
  anotherServer,
  apiClient,
  createWorkspace,
  setupApp,
  type TestContext,
  type Workspace,
} from '../../helpers/app.js';
import { waitFor } from '../../helpers/wait.js';
import { post } from './helpers.js';

// Exports are written from rendered fragments kept in the database (docs/exports.md#fragments).
// After every kind of write, the file must be exactly what a server that never kept a fragment
// renders: here, a second app on the same database (another server: its own memory and response
// cache) after the workspace's fragments are dropped. Writes are made on one server and the
// export asked of the other, too.
// Runs of three texts, so that the few texts here make several runs, and new texts fall between
// and inside them.
const ctx = await setupApp({ exportRunTexts: 3 });

const { app: other } = await anotherServer(ctx);

type Params = Record<string, string>;
type App = TestContext['app'];

async function exportFrom(app: App, ws: Workspace, params: Params): Promise<string> {
  const res = await apiClient(app, ws.key).get(`textItems/export?${new URLSearchParams(params)}`);
  expect(res.status, res.raw.body).toBe(200);
  return res.raw.body;
}

/** What is kept for the workspace: the runs of fragments of every rendering (a precondition, not a result). */
async function storedFragments(ws: Workspace): Promise<number> {
  const row = await ctx.database.db
    .selectFrom('export_fragment_runs')
    .innerJoin('export_fragment_sets', 'export_fragment_sets.id', 'export_fragment_runs.set_id')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('export_fragment_sets.workspace_id', '=', ws.id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The file rendered from nothing: the workspace's fragments dropped, asked of the other server. */
async function renderedAfresh(ws: Workspace, params: Params): Promise<string> {
  await ctx.database.db.deleteFrom('export_fragment_sets').where('workspace_id', '=', ws.id).execute();
  expect(await storedFragments(ws)).toBe(0);
  return exportFrom(other, ws, params);
}

const revisionOf = (etag: unknown) => Number(/^(?:W\/)?"(\d+)-/.exec(String(etag ?? ''))?.[1] ?? -1);

/** Waits until `app` answers for the workspace at `revision` or later (it may learn of another server's write late). */
async function caughtUp(app: App, ws: Workspace, revision: number): Promise<void> {
  await waitFor(
    async () => revisionOf((await apiClient(app, ws.key).get('statuses')).headers.etag) >= revision,
    `an answer at revision ${revision}`,
  );
}

const revisionOn = async (app: App, ws: Workspace) =>
  revisionOf((await apiClient(app, ws.key).get('statuses')).headers.etag);

/** Every format, base text and the `fr` variant, with and without a summary and fallback. */
const RENDERINGS: Params[] = FORMATS.flatMap((format): Params[] => [
  { format },
  { format, variantId: 'fr' },
  ...(format.startsWith('json') ? [{ format, includeVariableSummary: 'true', variantId: 'fr', fallback: 'base' }] : []),
]);

/** Variables, variants fr and de, two projects, plural and plain items, notes, and two IDs that clash on Android. */
async function seeded(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await post(ws, 'variables', {
    variables: [
      { name: 'count', type: 'number', data: { example: 3 } },
      { name: 'name', type: 'string', data: { example: 'Ann' } },
    ],
  });
  await post(ws, 'variants', {
    variants: [
      { name: 'French', developerId: 'fr', localeCode: 'fr' },
      { name: 'German', developerId: 'de', localeCode: 'de' },
    ],
  });
  await post(ws, 'projects', {
    projects: [
      { name: 'Web', developerId: 'web' },
      { name: 'App', developerId: 'app' },
    ],
  });
  const items = (prefix: string) =>
    Array.from({ length: 6 }, (_, n) => ({
      developerId: `${prefix}-${n}`,
      text: n % 2 === 0 ? `${prefix} {{count}} thing ${n}` : `${prefix} text ${n} for {{name}}`,
      variables: ['count', 'name'],
      ...(n % 5 === 0 && { notes: `Notes ${n}` }),
      ...(n % 2 === 0 && {
        plurals: [
          { form: 'one', text: `${prefix} {{count}} thing ${n}` },
          { form: 'other', text: `${prefix} {{count}} things ${n}` },
        ],
      }),
      ...(n !== 3 && {
        variants: [
          {
            variantId: 'fr',
            text: n % 2 === 0 ? `${prefix} {{count}} chose ${n}` : `${prefix} texte ${n} pour {{name}}`,
            ...(n % 2 === 0 && {
              plurals: [
                { form: 'one', text: `${prefix} {{count}} chose ${n}` },
                { form: 'other', text: `${prefix} {{count}} choses ${n}` },
              ],
            }),
          },
        ],
      }),
    }));
  await post(ws, 'textItems', { projectId: 'web', textItems: [...items('web'), { developerId: 'a-b', text: 'Dash' }] });
  await post(ws, 'textItems', {
    projectId: 'app',
    textItems: [...items('app'), { developerId: 'a_b', text: 'Under' }],
  });
  return ws;
}

/**
 * Exports every rendering (storing its fragments), runs `write`, then checks that each rendering,
 * asked of `reader`, is the file rendered afresh, and that `changed` sees the write in it. The
 * write is made on `writer`'s database connection: `reader` is asked once it knows of it.
 */
async function expectFresh(
  ws: Workspace,
  write: () => Promise<void>,
  changed: (before: string, after: string, params: Params) => void,
  {
    renderings = RENDERINGS,
    reader = ctx.app,
    writer = ctx.app,
    filter,
  }: { renderings?: Params[]; reader?: App; writer?: App; filter?: object } = {},
): Promise<void> {
  const all = renderings.map((params) => (filter ? { ...params, filter: JSON.stringify(filter) } : params));
  const before = new Map<Params, string>();
  for (const params of all) before.set(params, await exportFrom(reader, ws, params));
  expect(await storedFragments(ws)).toBeGreaterThan(0);
  await write();
  await caughtUp(reader, ws, await revisionOn(writer, ws));
  const after = new Map<Params, string>();
  for (const params of all) after.set(params, await exportFrom(reader, ws, params));
  for (const params of all) {
    const file = after.get(params) as string;
    changed(before.get(params) as string, file, params);
    expect(file, JSON.stringify(params)).toBe(await renderedAfresh(ws, params));
  }
}

const ok = async (res: Promise<{ status: number; body: unknown }>, status = 200) => {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
};

/** A file changed by the write: it differs from before, and says what the write said. */
const shows =
  (text: string | null, gone: string | null = null, when: (params: Params) => boolean = () => true) =>
  (before: string, after: string, params: Params) => {
    if (!when(params)) return;
    expect(after, JSON.stringify(params)).not.toBe(before);
    if (text !== null) expect(after, JSON.stringify(params)).toContain(text);
    if (gone !== null) expect(after, JSON.stringify(params)).not.toContain(gone);
  };

describe('exports written from kept fragments', () => {
  it('show an edited base text in every format, and keep the rest byte for byte', async () => {
    const ws = await seeded();
    await expectFresh(
      ws,
      () => ok(ws.api.patch('textItems', { updates: [{ developerId: 'web-1', text: 'Edited one' }] })),
      shows('Edited one', 'web text 1 ', (p) => p.variantId === undefined && p.format !== 'ios-stringsdict'),
    );
  });

  it('show a changed variant value, plural forms included', async () => {
    const ws = await seeded();
    await expectFresh(
      ws,
      () =>
        ok(
          ws.api.patch('textItems', {
            variantId: 'fr',
            updates: [
              {
                developerId: 'app-2',
                text: 'Un nouveau',
                plurals: [
                  { form: 'one', text: 'Un nouveau' },
                  { form: 'other', text: 'Des nouveaux' },
                ],
              },
            ],
          }),
        ),
      shows('nouveau', null, (p) => p.variantId === 'fr' && p.format !== 'ios-strings'),
    );
  });

  it('leave out a deleted text, and give back an Android name it had taken', async () => {
    const ws = await seeded();
    await expectFresh(
      ws,
      () => ok(ws.api.delete('textItems', { developerIds: ['web-4', 'a-b'] })),
      shows(null, 'web-4'),
    );
    const android = await exportFrom(ctx.app, ws, { format: 'android' });
    // `a_b` was renamed `a_b_2` after `a-b`; alone now, it has its own name.
    expect(android).toContain('name="a_b" ditto_api_id="a_b"');
    expect(android).not.toContain('a_b_2');
  });

  it('show a text deleted and created again under the same developer ID as the new one', async () => {
    const ws = await seeded();
    await expectFresh(
      ws,
      async () => {
        await ok(ws.api.delete('textItems', { developerIds: ['web-2'] }));
        await post(ws, 'textItems', { projectId: 'app', textItems: [{ developerId: 'web-2', text: 'Born again' }] });
      },
      shows('Born again', null, (p) => p.variantId === undefined && p.format !== 'ios-stringsdict'),
    );
  });

  it('follow a variable whose example changed', async () => {
    const ws = await seeded();
    await expectFresh(
      ws,
      () => ok(ws.api.patch('variables', { updates: [{ developerId: 'name', data: { example: 'Zoë' } }] })),
      shows('Zoë', null, (p) => p.format === 'arb'),
    );
  });

  it('follow a variant whose locale changed (its plural categories) and a renamed variant', async () => {
    const ws = await seeded();
    const renderings = FORMATS.map((format) => ({ format, variantId: 'fr' }));
    await expectFresh(
      ws,
      () => ok(ws.api.patch('variants', { updates: [{ developerId: 'fr', localeCode: 'ru' }] })),
      shows('"ru"', null, (p) => p.format === 'arb'),
      { renderings },
    );
    await ok(ws.api.patch('variants', { updates: [{ developerId: 'fr', newDeveloperId: 'fr-ru', name: 'Russe' }] }));
    for (const { format } of renderings) {
      const params = { format, variantId: 'fr-ru' };
      const file = await exportFrom(ctx.app, ws, params);
      expect(file).toBe(await renderedAfresh(ws, params));
    }
  });

  it('follow a status change under a status filter, and a change of the texts the filter keeps', async () => {
    const ws = await seeded();
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'web-1', status: 'FINAL' }] }));
    await expectFresh(
      ws,
      () => ok(ws.api.patch('textItems', { updates: [{ developerId: 'app-1', status: 'FINAL' }] })),
      shows('app-1'),
      {
        renderings: FORMATS.filter((f) => f !== 'ios-stringsdict').map((format) => ({ format })),
        filter: { statuses: ['FINAL'] },
      },
    );
  });

  it('keep to the project filter, with fragments shared by every filter of a rendering', async () => {
    const ws = await seeded();
    // Fragments stored by a whole-workspace export serve a one-project export, and the other way round.
    for (const format of FORMATS) await exportFrom(ctx.app, ws, { format });
    await expectFresh(
      ws,
      () =>
        ok(
          ws.api.patch('textItems', {
            updates: [
              { developerId: 'app-5', text: 'Only in app' },
              { developerId: 'web-5', text: 'Only in web' },
            ],
          }),
        ),
      (_before, after, params) => {
        expect(after).not.toContain('Only in web');
        expect(after).not.toContain('web-');
        if (params.format !== 'ios-stringsdict') expect(after).toContain('Only in app');
      },
      { renderings: FORMATS.map((format) => ({ format })), filter: { projects: [{ id: 'app' }] } },
    );
  });

  it('show a component edit in its linked instance', async () => {
    const ws = await seeded();
    await ok(ws.api.post('components/publish', { textItemId: 'web-3' }), 201);
    await expectFresh(
      ws,
      () => ok(ws.api.patch('components', { updates: [{ developerId: 'web-3', text: 'From the library' }] })),
      shows('From the library', null, (p) => p.variantId === undefined && p.format !== 'ios-stringsdict'),
    );
  });

  it('never serve a fragment stored late by an export that began before a write', async () => {
    const ws = await seeded();
    const renderings = FORMATS.map((format) => ({ format }));
    for (const params of renderings) await exportFrom(ctx.app, ws, params);
    const db = ctx.database.db;
    const sets = db.selectFrom('export_fragment_sets').select('id').where('workspace_id', '=', ws.id);
    const kept = await db.selectFrom('export_fragment_runs').selectAll().where('set_id', 'in', sets).execute();
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'app-1', text: 'After the race' }] }));
    // An export that read the texts before the write stores its fragments after it: the old bytes
    // are back in the store, under the stamps they were rendered at.
    await db.deleteFrom('export_fragment_runs').where('set_id', 'in', sets).execute();
    await db.insertInto('export_fragment_runs').values(kept).execute();
    for (const params of renderings) {
      const file = await exportFrom(ctx.app, ws, params);
      if (params.format !== 'ios-stringsdict') expect(file).toContain('After the race');
      expect(file).toBe(await renderedAfresh(ws, params));
    }
  });

  it('after a write on the other server, never serve the fragments of before', async () => {
    const ws = await seeded();
    const otherApi = apiClient(other, ws.key);
    await expectFresh(
      ws,
      async () => {
        await ok(otherApi.patch('textItems', { updates: [{ developerId: 'web-5', text: 'Written elsewhere' }] }));
        await ok(
          otherApi.patch('textItems', { variantId: 'fr', updates: [{ developerId: 'web-0', text: 'Ailleurs' }] }),
        );
      },
      (before, after, params) => {
        if (params.format === 'ios-stringsdict') return;
        expect(after).not.toBe(before);
        expect(after).toContain(params.variantId === 'fr' ? 'Ailleurs' : 'Written elsewhere');
      },
      { renderings: FORMATS.flatMap((format): Params[] => [{ format }, { format, variantId: 'fr' }]), writer: other },
    );
  });
});

/** The developer IDs of every stored entry of the workspace, per rendering (set), in stored order. */
async function storedEntries(ws: Workspace): Promise<Map<number, string[]>> {
  const rows = await ctx.database.db
    .selectFrom('export_fragment_runs')
    .innerJoin('export_fragment_sets', 'export_fragment_sets.id', 'export_fragment_runs.set_id')
    .select(['export_fragment_runs.set_id', 'export_fragment_runs.first_key', 'export_fragment_runs.entries'])
    .where('export_fragment_sets.workspace_id', '=', ws.id)
    .execute();
  rows.sort((a, b) => (a.first_key < b.first_key ? -1 : a.first_key > b.first_key ? 1 : 0));
  const sets = new Map<number, string[]>();
  for (const row of rows) {
    const ids = (JSON.parse(row.entries) as [number, string, string][]).map((entry) => entry[2]);
    sets.set(Number(row.set_id), [...(sets.get(Number(row.set_id)) ?? []), ...ids]);
  }
  return sets;
}

describe('runs of fragments', () => {
  const renderings = FORMATS.map((format) => ({ format }));

  it('take in texts created before, inside and after the stored runs, many inside one run', async () => {
    const ws = await seeded();
    const many = Array.from({ length: 8 }, (_, n) => ({ developerId: `app-2${'abcdefgh'[n]}`, text: `Inside ${n}` }));
    await expectFresh(
      ws,
      () =>
        post(ws, 'textItems', {
          projectId: 'app',
          textItems: [
            { developerId: 'a-a', text: 'First of all' },
            { developerId: 'app-0a', text: 'Between {{count}}', variables: ['count'] },
            { developerId: 'zzz', text: 'Last of all' },
            ...many,
          ],
        }),
      shows('Inside 7', null, (p) => p.format !== 'ios-stringsdict'),
      { renderings },
    );
    // Each text is kept once per rendering, in developer-ID order.
    for (const ids of (await storedEntries(ws)).values()) {
      expect(ids).toEqual([...ids].sort());
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('drop a deleted text from the store when every text is exported', async () => {
    const ws = await seeded();
    await expectFresh(ws, () => ok(ws.api.delete('textItems', { developerIds: ['app-4'] })), shows(null, 'app-4'), {
      renderings,
    });
    for (const format of FORMATS) await exportFrom(ctx.app, ws, { format });
    for (const ids of (await storedEntries(ws)).values()) expect(ids).not.toContain('app-4');
  });

  it('keep the texts a filtered export leaves out, and serve them to the next whole export', async () => {
    const ws = await seeded();
    for (const params of renderings) await exportFrom(ctx.app, ws, params);
    const before = await storedEntries(ws);
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'app-1', text: 'Only the app' }] }));
    const filter = JSON.stringify({ projects: [{ id: 'app' }] });
    const filtered = new Map<Params, string>();
    for (const params of renderings) filtered.set(params, await exportFrom(ctx.app, ws, { ...params, filter }));
    // The web texts' entries were kept through the filtered export, which stored the changed text.
    const after = await storedEntries(ws);
    expect([...after.values()].map((ids) => ids.length)).toEqual([...before.values()].map((ids) => ids.length));
    for (const ids of after.values()) expect(ids).toContain('web-2');
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'app-3', text: 'App again' }] }));
    const whole = new Map<Params, string>();
    for (const params of renderings) whole.set(params, await exportFrom(ctx.app, ws, params));
    for (const params of renderings) {
      // (The filtered files themselves are checked byte for byte in the project filter's test above.)
      expect(filtered.get(params)).not.toContain('web-');
      if (params.format !== 'ios-stringsdict') expect(filtered.get(params)).toContain('Only the app');
      const file = whole.get(params) as string;
      if (params.format !== 'ios-stringsdict') expect(file).toContain('App again');
      expect(file).toBe(await renderedAfresh(ws, params));
    }
  });

  it('serve runs stored twice by racing exports, and keep one of them after a write', async () => {
    const ws = await seeded();
    for (const params of renderings) await exportFrom(ctx.app, ws, params);
    const db = ctx.database.db;
    const sets = db.selectFrom('export_fragment_sets').select('id').where('workspace_id', '=', ws.id);
    const kept = await db
      .selectFrom('export_fragment_runs')
      .select(['set_id', 'first_key', 'last_key', 'entries', 'body'])
      .where('set_id', 'in', sets)
      .execute();
    // Another export stored the same runs meanwhile, overlapping them.
    await db.insertInto('export_fragment_runs').values(kept).execute();
    const files = new Map<Params, string>();
    for (const params of renderings) files.set(params, await exportFrom(other, ws, params));
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'web-3', text: 'Raced' }] }));
    await caughtUp(other, ws, await revisionOn(ctx.app, ws));
    for (const params of renderings) files.set(params, await exportFrom(other, ws, params));
    // The write's exports stored the run of web-3 again and deleted both copies of the old one.
    for (const ids of (await storedEntries(ws)).values()) expect(ids.filter((id) => id === 'web-3')).toHaveLength(1);
    for (const params of renderings) {
      const file = files.get(params) as string;
      if (params.format !== 'ios-stringsdict') expect(file).toContain('Raced');
      expect(file).toBe(await renderedAfresh(ws, params));
    }
  });
});
