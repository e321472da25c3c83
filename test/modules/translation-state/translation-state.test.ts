import { describe, expect, it } from 'vitest';
import { updateTextFields } from '../../../src/modules/texts/index.js';
import { createWorkspace, setupApp, type Workspace, withFilter } from '../../helpers/app.js';
import { legacy } from '../legacy/helpers.js';
import { createItems, patchItems, post } from '../text-items/helpers.js';

const ctx = await setupApp();
const all = { variants: [{ id: 'all' }] };

/** Variants fr, de, es; a project `web` with items `hello` (fr value), `bye` (none). */
async function seeded(): Promise<Workspace> {
  const ws = await createWorkspace(ctx);
  await post(ws, 'variants', {
    variants: [
      { name: 'French', developerId: 'fr' },
      { name: 'German', developerId: 'de' },
      { name: 'Spanish', developerId: 'es' },
    ],
  });
  await post(ws, 'projects', { projects: [{ name: 'Web', developerId: 'web' }] });
  await createItems(ws, { projectId: 'web' }, [
    { developerId: 'hello', text: 'Hello', variants: [{ variantId: 'fr', text: 'Bonjour' }] },
    { developerId: 'bye', text: 'Bye' },
  ]);
  return ws;
}

async function get(ws: Workspace, url: string): Promise<any> {
  const res = await ws.api.get(url);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** `<id>[@variant]` -> the record's state: `translationStates` of a base record, `translationState` of a variant record. */
async function states(ws: Workspace, path: 'textItems' | 'components' = 'textItems', filter: object = all) {
  const records = await get(ws, withFilter(path, filter, '&withTranslationState=true'));
  return Object.fromEntries(
    records.map((r: any) => [
      r.variantId === null ? r.id : `${r.id}@${r.variantId}`,
      r.variantId === null ? r.translationStates : r.translationState,
    ]),
  );
}

const progress = (ws: Workspace, query = '') => get(ws, `translationProgress${query}`);

describe('translation state on GET /v2/textItems', () => {
  it('a new variant value is up to date; a text without a value is missing in that variant', async () => {
    const ws = await seeded();
    expect(await states(ws)).toEqual({
      hello: { fr: 'upToDate', de: 'missing', es: 'missing' },
      'hello@fr': 'upToDate',
      bye: { fr: 'missing', de: 'missing', es: 'missing' },
    });
  });

  it('editing the base text makes existing values outdated; status and notes do not', async () => {
    const ws = await seeded();
    await patchItems(ws, { updates: [{ developerId: 'hello', status: 'WIP', notes: 'n', tags: ['t'] }] });
    expect((await states(ws))['hello@fr']).toBe('upToDate');
    // The same text again is no change.
    await patchItems(ws, { updates: [{ developerId: 'hello', text: 'Hello' }] });
    expect((await states(ws))['hello@fr']).toBe('upToDate');
    await patchItems(ws, { updates: [{ developerId: 'hello', text: 'Hello there' }] });
    const after = await states(ws);
    expect(after.hello).toEqual({ fr: 'outdated', de: 'missing', es: 'missing' });
    expect(after['hello@fr']).toBe('outdated');
  });

  it('editing plural forms makes values outdated', async () => {
    const ws = await seeded();
    await patchItems(ws, {
      updates: [
        {
          developerId: 'hello',
          plurals: [
            { form: 'one', text: 'Hello' },
            { form: 'other', text: 'Hellos' },
          ],
        },
      ],
    });
    const after = await states(ws);
    expect(after['hello@fr']).toBe('outdated');
    // The plural records of the base and of the value carry the same states.
    expect(after.hello_other).toEqual({ fr: 'outdated', de: 'missing', es: 'missing' });
    await patchItems(ws, {
      updates: [
        {
          developerId: 'hello',
          plurals: [
            { form: 'one', text: 'Hello' },
            { form: 'other', text: 'Hi all' },
          ],
        },
      ],
    });
    expect((await states(ws))['hello@fr']).toBe('outdated');
  });

  it('writing the value again makes it up to date; its status alone does not', async () => {
    const ws = await seeded();
    await patchItems(ws, { updates: [{ developerId: 'hello', text: 'Hello there' }] });
    await patchItems(ws, { variantId: 'fr', updates: [{ developerId: 'hello', status: 'REVIEW', notes: 'x' }] });
    expect((await states(ws))['hello@fr']).toBe('outdated');
    await patchItems(ws, { variantId: 'fr', updates: [{ developerId: 'hello', text: 'Bonjour à tous' }] });
    expect((await states(ws))['hello@fr']).toBe('upToDate');
    // A value a text gains through PATCH is up to date; so is the same text written again.
    await patchItems(ws, { variantId: 'de', updates: [{ developerId: 'bye', text: 'Tschüss' }] });
    await patchItems(ws, { updates: [{ developerId: 'hello', text: 'Hello, all' }] });
    await patchItems(ws, { variantId: 'fr', updates: [{ developerId: 'hello', text: 'Bonjour à tous' }] });
    expect(await states(ws)).toMatchObject({
      hello: { fr: 'upToDate', de: 'missing', es: 'missing' },
      bye: { fr: 'missing', de: 'upToDate', es: 'missing' },
      'bye@de': 'upToDate',
    });
  });

  it('any write of the base text through the texts core counts, not only PATCH (as a restore would write it)', async () => {
    const ws = await seeded();
    const version = async () =>
      await ctx.database.db
        .selectFrom('texts')
        .select(['id', 'text_version'])
        .where('workspace_id', '=', ws.id)
        .where('developer_id', '=', 'hello')
        .executeTakeFirstOrThrow();
    const { id } = await version();
    await ctx.services.writes.write({ workspaceId: ws.id, actor: { email: ws.email, keyId: null } }, async (trx) => {
      await updateTextFields(trx, ws.id, { ids: [id], changes: { text: 'Hello', notes: 'same text' } });
      return { changes: [], result: undefined };
    });
    expect((await version()).text_version).toBe(0);
    await ctx.services.writes.write({ workspaceId: ws.id, actor: { email: ws.email, keyId: null } }, async (trx) => {
      await updateTextFields(trx, ws.id, { ids: [id], changes: { text: 'Hello again', plurals: null } });
      return { changes: [], result: undefined };
    });
    expect((await version()).text_version).toBe(1);
    expect((await states(ws))['hello@fr']).toBe('outdated');
  });

  it('the deprecated PUT /v2/textItems of a variant marks it up to date', async () => {
    const ws = await seeded();
    await patchItems(ws, { updates: [{ developerId: 'hello', text: 'Hello there' }] });
    const res = await ws.api.put('textItems', { variantId: 'fr', updates: [{ developerId: 'hello', text: 'Salut' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await states(ws))['hello@fr']).toBe('upToDate');
  });

  it('without the parameter the answer is the same bytes as before, and it has its own ETag', async () => {
    const ws = await seeded();
    await patchItems(ws, { updates: [{ developerId: 'hello', text: 'Hello there' }] });
    for (const path of ['textItems', 'components']) {
      const plain = await ws.api.get(withFilter(path, all));
      const stated = await ws.api.get(withFilter(path, all, '&withTranslationState=true'));
      expect(plain.raw.body).not.toContain('translationState');
      const stripped = stated.body.map(({ translationStates: _s, translationState: _t, ...rest }: any) => rest);
      expect(JSON.stringify(stripped)).toBe(plain.raw.body);
      expect(stated.headers.etag).not.toBe(plain.headers.etag);
    }
    // A filter that names one variant keeps its records, and its base states still name every variant.
    const records = await get(
      ws,
      withFilter('textItems', { variants: [{ id: 'base' }] }, '&withTranslationState=true'),
    );
    expect(records.map((r: any) => [r.id, r.variantId, r.translationStates])).toEqual([
      ['bye', null, { fr: 'missing', de: 'missing', es: 'missing' }],
      ['hello', null, { fr: 'outdated', de: 'missing', es: 'missing' }],
    ]);
    const res = await ws.api.get('textItems?withTranslationState=maybe');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('withTranslationState');
  });

  it('import into a variant marks its values up to date', async () => {
    const ws = await seeded();
    await patchItems(ws, { updates: [{ developerId: 'hello', text: 'Hello there' }] });
    const imported = await ws.api.post('import', {
      format: 'json_i18next',
      projectId: 'web',
      variantId: 'fr',
      content: JSON.stringify({ hello: 'Bonjour à tous', bye: 'Au revoir' }),
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(await states(ws)).toMatchObject({
      hello: { fr: 'upToDate' },
      bye: { fr: 'upToDate' },
    });
    // A base import that changes a text makes its values outdated.
    const base = await ws.api.post('import', {
      format: 'json_i18next',
      projectId: 'web',
      content: JSON.stringify({ hello: 'Hello there', bye: 'Goodbye' }),
    });
    expect(base.status, JSON.stringify(base.body)).toBe(200);
    expect(await states(ws)).toMatchObject({ 'hello@fr': 'upToDate', 'bye@fr': 'outdated' });
  });
});

describe('translation state of components and linked instances', () => {
  async function library(): Promise<Workspace> {
    const ws = await seeded();
    await post(ws, 'componentFolders', { folders: [{ name: 'Shop', developerId: 'shop' }] });
    await post(ws, 'componentFolders', { folders: [{ name: 'Cart', developerId: 'cart', parentId: 'shop' }] });
    await post(ws, 'components', {
      components: [
        { developerId: 'buy', text: 'Buy', folderId: 'cart', variants: [{ variantId: 'fr', text: 'Acheter' }] },
        { developerId: 'ok', text: 'OK', variants: [{ variantId: 'de', text: 'OK' }] },
      ],
    });
    return ws;
  }

  it('components have states; an instance shows its component’s; publish and detach keep them', async () => {
    const ws = await library();
    const placed = await ws.api.post('textItems/instances', { componentId: 'buy', projectId: 'web' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const edited = await ws.api.patch('components', { updates: [{ developerId: 'buy', text: 'Buy now' }] });
    expect(edited.status).toBe(200);
    expect(await states(ws, 'components')).toEqual({
      buy: { fr: 'outdated', de: 'missing', es: 'missing' },
      'buy@fr': 'outdated',
      ok: { fr: 'missing', de: 'upToDate', es: 'missing' },
      'ok@de': 'upToDate',
    });
    expect(await states(ws)).toMatchObject({ buy: { fr: 'outdated' }, 'buy@fr': 'outdated' });

    // Publishing an item whose value is outdated: the component keeps the state.
    await patchItems(ws, { updates: [{ developerId: 'hello', text: 'Hello there' }] });
    const published = await ws.api.post('components/publish', { textItemId: 'hello' });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    expect((await states(ws, 'components'))['hello@fr']).toBe('outdated');
    expect((await states(ws))['hello@fr']).toBe('outdated');

    // Detached (the component deleted), the item keeps what it showed, states included.
    const deleted = await ws.api.delete('components', { developerIds: ['buy'] });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await states(ws)).toMatchObject({ buy: { fr: 'outdated' }, 'buy@fr': 'outdated' });
    await patchItems(ws, { variantId: 'fr', updates: [{ developerId: 'buy', text: 'Acheter maintenant' }] });
    expect((await states(ws))['buy@fr']).toBe('upToDate');
  });

  it('the deprecated v1 PUT of a component’s variant marks it up to date; a v0 PUT of its base outdates it', async () => {
    const ws = await library();
    const put = async (url: string, body: object) => {
      const res = await legacy(ctx, ws, url, { method: 'PUT', body });
      expect(res.status, res.text).toBe(200);
    };
    await put('/components', { buy: { text: 'Buy now' } });
    expect((await states(ws, 'components'))['buy@fr']).toBe('outdated');
    await put('/v1/components?variant=fr', { data: { buy: { text: 'Acheter maintenant' } } });
    expect((await states(ws, 'components'))['buy@fr']).toBe('upToDate');
  });

  it('GET /v2/translationProgress counts per variant for a project, a folder, the library and everything', async () => {
    const ws = await library();
    await patchItems(ws, { updates: [{ developerId: 'hello', text: 'Hello there' }] });
    expect(await progress(ws, '?projectId=web')).toEqual([
      { variantId: 'fr', total: 2, missing: 1, outdated: 1, upToDate: 0 },
      { variantId: 'de', total: 2, missing: 2, outdated: 0, upToDate: 0 },
      { variantId: 'es', total: 2, missing: 2, outdated: 0, upToDate: 0 },
    ]);
    // A folder counts its subfolders; `root` is the whole library.
    expect(await progress(ws, '?folderId=shop')).toEqual([
      { variantId: 'fr', total: 1, missing: 0, outdated: 0, upToDate: 1 },
      { variantId: 'de', total: 1, missing: 1, outdated: 0, upToDate: 0 },
      { variantId: 'es', total: 1, missing: 1, outdated: 0, upToDate: 0 },
    ]);
    expect(await progress(ws, '?folderId=root')).toEqual([
      { variantId: 'fr', total: 2, missing: 1, outdated: 0, upToDate: 1 },
      { variantId: 'de', total: 2, missing: 1, outdated: 0, upToDate: 1 },
      { variantId: 'es', total: 2, missing: 2, outdated: 0, upToDate: 0 },
    ]);
    expect(await progress(ws)).toEqual([
      { variantId: 'fr', total: 4, missing: 2, outdated: 1, upToDate: 1 },
      { variantId: 'de', total: 4, missing: 3, outdated: 0, upToDate: 1 },
      { variantId: 'es', total: 4, missing: 4, outdated: 0, upToDate: 0 },
    ]);
    // Writing the value counts at once (the read is kept per revision).
    await patchItems(ws, { variantId: 'fr', updates: [{ developerId: 'hello', text: 'Bonjour à tous' }] });
    expect((await progress(ws, '?projectId=web'))[0]).toEqual({
      variantId: 'fr',
      total: 2,
      missing: 1,
      outdated: 0,
      upToDate: 1,
    });
  });

  it('GET /v2/translationProgress refuses an unknown project or folder, and both at once', async () => {
    const ws = await library();
    const cases: [string, string][] = [
      ['?projectId=nope', 'projectId: Project with developer ID nope not found'],
      ['?folderId=nope', 'folderId: Folder id not found: nope'],
      ['?projectId=web&folderId=shop', 'folderId: give projectId or folderId, not both'],
    ];
    for (const [query, message] of cases) {
      const res = await ws.api.get(`translationProgress${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const empty = await createWorkspace(ctx);
    expect(await progress(empty)).toEqual([]);
  });
});

describe("a project's progress, counted by the database", () => {
  it('agrees with the texts read whole: linked instances with their component, base edits, plural forms', async () => {
    const ws = await seeded();
    await post(ws, 'components', {
      components: [
        { developerId: 'ok', name: 'OK', text: 'OK', variants: [{ variantId: 'de', text: 'OK' }] },
        { developerId: 'cancel', name: 'Cancel', text: 'Cancel' },
      ],
    });
    await post(ws, 'textItems/instances', { componentId: 'ok', projectId: 'web', developerId: 'ok-web' });
    await createItems(ws, { projectId: 'web' }, [
      {
        developerId: 'items',
        text: 'One item',
        plurals: [
          { form: 'one', text: 'One item' },
          { form: 'other', text: '{{n}} items' },
        ],
        variants: [{ variantId: 'es', text: 'artículos' }],
      },
    ]);
    // The base text of hello changes: its French value is out of date; the component's German value too.
    await patchItems(ws, { updates: [{ developerId: 'hello', text: 'Hello there' }] });
    await post(ws, 'projects', { projects: [{ name: 'Empty', developerId: 'empty' }] });
    const res = await ws.api.patch('components', { updates: [{ developerId: 'ok', text: 'Okay' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const project = await progress(ws, '?projectId=web');
    expect(project).toEqual([
      { variantId: 'fr', total: 4, missing: 3, outdated: 1, upToDate: 0 },
      { variantId: 'de', total: 4, missing: 3, outdated: 1, upToDate: 0 },
      { variantId: 'es', total: 4, missing: 3, outdated: 0, upToDate: 1 },
    ]);
    // The workspace's figure (read whole, through the texts reader) is the library's plus the project's.
    const whole = await progress(ws);
    const library = await progress(ws, '?folderId=root');
    expect(whole).toEqual(
      library.map((l: any, i: number) => ({
        variantId: l.variantId,
        total: l.total + project[i].total,
        missing: l.missing + project[i].missing,
        outdated: l.outdated + project[i].outdated,
        upToDate: l.upToDate + project[i].upToDate,
      })),
    );
    expect(await progress(ws, '?projectId=empty')).toEqual([
      { variantId: 'fr', total: 0, missing: 0, outdated: 0, upToDate: 0 },
      { variantId: 'de', total: 0, missing: 0, outdated: 0, upToDate: 0 },
      { variantId: 'es', total: 0, missing: 0, outdated: 0, upToDate: 0 },
    ]);
    const unknown = await ws.api.get('translationProgress?projectId=nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^projectId: /);
  });
});
