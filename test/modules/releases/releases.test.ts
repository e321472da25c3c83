import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { anotherServer, apiClient, createWorkspace, ok, setupApp, type Workspace } from '../../helpers/app.js';
import { KINDS, seed } from '../exports/helpers.js';

const ctx = await setupApp();

const FORMATS = ['json_icu', 'json_i18next', 'json_vue_i18n', 'ios-strings', 'ios-stringsdict', 'android', 'arb'];

/** The export and list URLs a release must answer as the workspace did (without `release=`). */
function readUrls(): string[] {
  const urls: string[] = [];
  for (const kind of KINDS) {
    for (const format of FORMATS) {
      for (const variant of ['base', 'fr', 'ru']) urls.push(`${kind}/export?format=${format}&variantId=${variant}`);
    }
    urls.push(`${kind}/export?format=json_i18next&variantId=fr&fallback=base&richText=html`);
    urls.push(`${kind}/export?format=android&variantId=ru&variableOrder=alphabetical`);
  }
  urls.push('textItems/export?format=json_icu&sort=project_order');
  urls.push(`textItems/export?format=arb&filter=${encodeURIComponent(JSON.stringify({ projects: [{ id: 'web' }] }))}`);
  const all = encodeURIComponent(JSON.stringify({ variants: [{ id: 'all' }] }));
  for (const kind of KINDS) {
    urls.push(kind, `${kind}?filter=${all}`, `${kind}?filter=${all}&richText=html&withEtag=true`);
    urls.push(`${kind}?filter=${all}&withTranslationState=true`);
  }
  urls.push(`textItems?sort=project_order&filter=${all}`);
  return urls;
}

const withRelease = (url: string, name: string) => `${url}${url.includes('?') ? '&' : '?'}release=${name}`;

async function bytesOf(ws: Workspace, url: string): Promise<string> {
  const res = await ws.api.get(url);
  expect(res.status, `${url}: ${res.raw.body}`).toBe(200);
  return res.raw.body;
}

/** Edits of every kind: text changed, a text deleted, one added, a variant value added. */
async function editEverything(ws: Workspace): Promise<void> {
  await ok(ws.api.patch('textItems', { updates: [{ developerId: 'greet', text: 'Hello {{name}} (edited)' }] }));
  await ok(ws.api.patch('components', { updates: [{ developerId: 'greet', text: 'Hello {{name}} (edited)' }] }));
  await ok(ws.api.delete('textItems', { developerIds: ['only-base'] }));
  await ok(ws.api.post('textItems', { projectId: 'web', textItems: [{ developerId: 'new-one', text: 'New' }] }));
  await ok(ws.api.patch('components', { variantId: 'fr', updates: [{ developerId: 'order', text: 'fr order' }] }));
}

describe('releases: frozen texts read back byte for byte', () => {
  it('answers every export and list of a release with the bytes the workspace gave when it was made', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    const urls = readUrls();
    const before = new Map<string, string>();
    for (const url of urls) before.set(url, await bytesOf(ws, url));

    const made = await ws.api.post('releases', { name: '2026.12.1', filter: { statuses: [] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ name: '2026.12.1', createdBy: ws.email, previous: null });
    expect(made.body.hash).toMatch(/^[0-9a-f]{64}$/);

    await editEverything(ws);
    let differs = 0;
    for (const url of urls) {
      const now = await bytesOf(ws, url);
      if (now !== before.get(url)) differs += 1;
      expect(await bytesOf(ws, withRelease(url, '2026.12.1')), url).toBe(before.get(url));
    }
    // The edits reached most of the current answers: the release did not just read the workspace.
    expect(differs).toBeGreaterThan(urls.length / 2);
  }, 120_000);

  it('freezes FINAL texts only by default, as an export filtered on FINAL gave them', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    await ok(
      ws.api.patch('textItems', {
        updates: [
          { developerId: 'greet', status: 'FINAL' },
          { developerId: 'cart', status: 'FINAL' },
        ],
      }),
    );
    await ok(ws.api.patch('textItems', { variantId: 'fr', updates: [{ developerId: 'greet', status: 'FINAL' }] }));
    const final = encodeURIComponent(JSON.stringify({ statuses: ['FINAL'] }));
    const urls = ['json_i18next', 'android'].flatMap((format) =>
      ['base', 'fr', 'ru'].map((v) => `textItems/export?format=${format}&variantId=${v}&filter=${final}`),
    );
    const before = await Promise.all(urls.map((url) => bytesOf(ws, url)));
    const made = await ok(ws.api.post('releases', { name: 'ios-4.2' }));
    expect(made).toMatchObject({ textItems: 2, components: 0 });
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'greet', text: 'Changed' }] }));
    for (const [i, url] of urls.entries()) {
      const pinned = url.replace(`&filter=${final}`, '&release=ios-4.2');
      expect(await bytesOf(ws, pinned), pinned).toBe(before[i]);
    }
  });

  it('gives a release answer a strong ETag that hashes its bytes, the same on another server', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    await ok(ws.api.post('releases', { name: 'r1', filter: { statuses: [] } }));
    const all = encodeURIComponent(JSON.stringify({ variants: [{ id: 'all' }] }));
    const url = `textItems?filter=${all}&release=r1`;
    const first = await ws.api.get(url);
    expect(first.headers.etag).toMatch(/^"sha256-[A-Za-z0-9_-]{43}"$/);
    const other = apiClient((await anotherServer(ctx)).app, ws.key);
    const second = await other.get(url);
    expect(second.raw.body).toBe(first.raw.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    // A write elsewhere in the workspace leaves the release's tag as it was.
    await ok(ws.api.patch('textItems', { updates: [{ developerId: 'greet', text: 'Changed' }] }));
    const again = await ws.api.get(url, { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    const gzipped = await ctx.app.inject({
      url: `/v2/${url}`,
      headers: { authorization: ws.key, 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.etag).toBe(`W/${first.headers.etag}`);
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(first.raw.body);
  });
});

describe('releases: names, listing and deleting', () => {
  it('checks names, refuses a second release of a name and answers 404 for an unknown one', async () => {
    const ws = await createWorkspace(ctx);
    const bad = await ws.api.post('releases', { name: 'not ok!' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^name: 'not ok!' is not a release name/);
    expect((await ws.api.post('releases', { name: 'latest' })).body.message).toMatch(/^name: 'latest' is reserved/);
    await ok(ws.api.post('releases', { name: 'a.1' }));
    const twice = await ws.api.post('releases', { name: 'a.1' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('name: a release named a.1 already exists');
    expect((await ws.api.get('textItems/export?format=arb&release=nope')).status).toBe(404);
    expect((await ws.api.get('components?release=nope')).status).toBe(404);
    const unknown = await ws.api.post('releases', { name: 'b', filter: { statuses: ['NOPE'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("'NOPE' is not a status of the workspace");
  });

  it('lists releases oldest first, lets only admins delete, and forgets the deleted', async () => {
    const ws = await createWorkspace(ctx);
    await ok(ws.api.post('releases', { name: 'one' }));
    await ok(ws.api.post('releases', { name: 'two' }));
    const list = await ok(ws.api.get('releases'));
    expect(list.releases.map((r: { name: string; previous: string | null }) => [r.name, r.previous])).toEqual([
      ['one', null],
      ['two', 'one'],
    ]);
    const editorEmail = `editor-${ws.id}@example.com`;
    await ctx.services.accounts.createUser({ workspaceId: ws.id, email: editorEmail, name: 'Ed', role: 'editor' });
    const { key } = await ctx.services.accounts.createKey({ workspaceId: ws.id, email: editorEmail });
    const editor = apiClient(ctx.app, key);
    expect((await editor.post('releases', { name: 'by-editor' })).status).toBe(201);
    expect((await editor.delete('releases/one', undefined)).status).toBe(403);
    expect((await ws.api.delete('releases/one', undefined)).status).toBe(200);
    expect((await ws.api.get('releases/one')).status).toBe(404);
    expect((await ok(ws.api.get('releases/two'))).previous).toBe(null);
  });
});

describe('releases: diffs', () => {
  it('lists the keys added, changed and removed per variant, between releases and to the current text', async () => {
    const ws = await createWorkspace(ctx);
    await seed(ws);
    await ok(ws.api.post('releases', { name: 'r1', filter: { statuses: [], library: false } }));
    await editEverything(ws);
    const toCurrent = await ok(ws.api.get('releases/diff?from=r1'));
    await ok(ws.api.post('releases', { name: 'r2', filter: { statuses: [], library: false } }));
    const diff = await ok(ws.api.get('releases/diff?from=r1&to=r2'));
    expect({ ...toCurrent, to: 'r2' }).toEqual(diff);
    expect(diff.added).toEqual([
      { kind: 'textItem', id: 'new-one', variantId: null, value: { text: 'New', richText: null, plurals: null } },
    ]);
    expect(diff.changed).toEqual([
      {
        kind: 'textItem',
        id: 'greet',
        variantId: null,
        before: { text: "Hi {{name}}, it's 100% on {{link}}!", richText: null, plurals: null },
        after: { text: 'Hello {{name}} (edited)', richText: null, plurals: null },
      },
    ]);
    expect(diff.removed).toEqual([
      {
        kind: 'textItem',
        id: 'only-base',
        variantId: null,
        value: { text: 'Only base', richText: null, plurals: null },
      },
    ]);
    const none = await ok(ws.api.get('releases/diff?from=r2&to=r2'));
    expect(none).toMatchObject({ added: [], changed: [], removed: [] });
  });
});
