import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, type Workspace } from '../../helpers/app.js';
import { createFolders } from '../components/helpers.js';
import { exportOf, file, post, seed } from './helpers.js';

const ctx = await setupApp();
const ws: Workspace = await createWorkspace(ctx);
await seed(ws);

const keysOf = async (w: Workspace, kind: 'textItems' | 'components', params: Record<string, unknown> = {}) =>
  Object.keys(JSON.parse(await file(w, kind, { format: 'json_icu', ...params })));

async function message(params: Record<string, unknown>, kind: 'textItems' | 'components' = 'textItems') {
  const res = await exportOf(ws, kind, params);
  expect(res.status, res.raw.body).toBe(400);
  return res.body.message as string;
}

describe('export errors', () => {
  it('requires a known format and lists the valid ones', async () => {
    expect(await message({})).toBe('format is required');
    expect(await message({ format: 'xliff' }, 'components')).toBe(
      'format must be one of: "json_icu", "json_i18next", "json_vue_i18n", "ios-strings", "ios-stringsdict", "android", "arb"',
    );
  });

  it('answers unknown variants, statuses, projects, folders and bad filters with 400', async () => {
    expect(await message({ format: 'arb', variantId: 'nope' })).toBe('Variant with id nope not found');
    expect(await message({ format: 'arb', variant: 'nope' }, 'components')).toBe('Variant with id nope not found');
    expect(await message({ format: 'arb', variantId: 'fr', variant: 'ru' })).toBe(
      "variantId and variant name different variants ('fr', 'ru'): give one",
    );
    expect(await message({ format: 'arb', filter: { statuses: ['NOPE'] } })).toBe(
      "filter.statuses[0]: 'NOPE' is not a status of the workspace",
    );
    expect(await message({ format: 'android', filter: { statuses: ['FINAL', 'NOPE'] } }, 'components')).toBe(
      "filter.statuses[1]: 'NOPE' is not a status of the workspace",
    );
    expect(await message({ format: 'arb', filter: '{"projects":' })).toMatch(/^filter is not valid JSON \(/);
    expect(await message({ format: 'arb', filter: { variants: [{ id: 'fr' }] } })).toBe(
      'filter.variants is not a known field of exports: give the variant as the variantId parameter',
    );
    expect(await message({ format: 'arb', filter: { folders: [] } })).toBe('filter.folders is not a known field');
    expect(await message({ format: 'arb', filter: { projects: [{ id: 'nope' }] } })).toMatch(
      /^filter\.projects\[0\]: /,
    );
    expect(await message({ format: 'arb', filter: { folders: [{ id: 'nope' }] } }, 'components')).toBe(
      'Folder id not found: nope',
    );
    expect(await message({ format: 'arb', variableOrder: 'random' })).toBe(
      'variableOrder must be one of: "default", "alphabetical"',
    );
    expect(await message({ format: 'arb', includeVariableSummary: 'maybe' })).toBe(
      'includeVariableSummary must be boolean',
    );
    expect(await message({ format: 'arb', variantId: 'fr', fallback: 'none' })).toBe('fallback must be one of: "base"');
    expect(await message({ format: 'android', fallback: 'Base' }, 'components')).toBe(
      'fallback must be one of: "base"',
    );
  });

  it('needs an API key', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v2/textItems/export?format=arb' });
    expect(res.statusCode).toBe(401);
  });
});

describe('conditional and compressed exports', () => {
  it('gives an ETag, answers If-None-Match with 304, and a write changes it', async () => {
    const params = { format: 'android', variantId: 'fr', fallback: 'base' };
    const first = await exportOf(ws, 'components', params);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"\d+-/);
    const again = await exportOf(ws, 'components', params);
    expect(again.headers.etag).toBe(etag);
    expect(again.raw.body).toBe(first.raw.body);
    const hit = await exportOf(ws, 'components', params, { 'if-none-match': etag });
    expect(hit.status).toBe(304);
    expect(hit.raw.body).toBe('');
    // Another format is another representation.
    expect((await exportOf(ws, 'components', { ...params, format: 'arb' })).headers.etag).not.toBe(etag);
    await post(ws, 'components', { components: [{ developerId: 'added', name: 'added', text: 'Added later' }] });
    const changed = await exportOf(ws, 'components', params, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.raw.body).toContain('Added later');
  });

  it.each([
    ['gzip', gunzipSync],
    ['br', brotliDecompressSync],
  ] as const)('compresses with %s when accepted', async (encoding, decode) => {
    const params = { format: 'android' };
    const plain = await exportOf(ws, 'textItems', params);
    expect(plain.raw.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (let i = 0; i < 2; i++) {
      const res = await exportOf(ws, 'textItems', params, { 'accept-encoding': encoding });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
      expect(decode(res.raw.rawPayload).toString('utf8')).toBe(plain.raw.body);
    }
  });
});

describe('which texts an export holds, in which order', () => {
  it('text items: all projects and no base items by default; bases, projects, statuses, tags; sort', async () => {
    const w = await createWorkspace(ctx);
    await post(w, 'bases', { bases: [{ name: 'Core', developerId: 'core' }] });
    await post(w, 'projects', {
      projects: [
        { name: 'P2', developerId: 'p2', baseId: 'core' },
        { name: 'P1', developerId: 'p1' },
      ],
    });
    await post(w, 'textItems', { baseId: 'core', textItems: [{ developerId: 'core-x', text: 'Core', status: 'WIP' }] });
    await post(w, 'textItems', {
      projectId: 'p1',
      textItems: [
        { developerId: 'b-item', text: 'B', status: 'FINAL', tags: ['t'] },
        { developerId: 'a-item', text: 'A' },
      ],
    });
    await post(w, 'textItems', { projectId: 'p2', textItems: [{ developerId: 'c-item', text: 'C', status: 'FINAL' }] });
    expect(await keysOf(w, 'textItems')).toEqual(['a-item', 'b-item', 'c-item']);
    expect(await keysOf(w, 'textItems', { sort: 'project_order' })).toEqual(['b-item', 'a-item', 'c-item']);
    expect(await keysOf(w, 'textItems', { filter: { bases: [{ id: 'core' }] } })).toEqual(['core-x']);
    expect(await keysOf(w, 'textItems', { filter: { projects: [{ id: 'p2' }], bases: [{ id: 'core' }] } })).toEqual([
      'c-item',
      'core-x',
    ]);
    expect(await keysOf(w, 'textItems', { filter: { statuses: ['FINAL'] } })).toEqual(['b-item', 'c-item']);
    // Statuses do not filter base items (as GET /textItems).
    expect(await keysOf(w, 'textItems', { filter: { statuses: ['FINAL'], bases: [{ id: 'core' }] } })).toEqual([
      'core-x',
    ]);
    expect(await keysOf(w, 'textItems', { filter: { tags: { values: ['t'] } } })).toEqual(['b-item']);
    expect(await keysOf(w, 'components')).toEqual([]);
  });

  it('components: folders, statuses, tags, integrated; a variant value failing the status filter is left out', async () => {
    const w = await createWorkspace(ctx);
    await post(w, 'variants', { variants: [{ name: 'French', developerId: 'fr' }] });
    await createFolders(w, [{ developerId: 'top' }, { developerId: 'child', parentId: 'top' }]);
    await post(w, 'components', {
      components: [
        {
          developerId: 'r1',
          text: 'root',
          status: 'FINAL',
          variants: [{ variantId: 'fr', text: 'r1 fr', status: 'WIP' }],
        },
        { developerId: 't1', text: 'top', folderId: 'top', status: 'FINAL', integrated: true },
        { developerId: 'c1', text: 'child', folderId: 'child', tags: ['x'] },
      ],
    });
    expect(await keysOf(w, 'components')).toEqual(['c1', 'r1', 't1']);
    expect(await keysOf(w, 'components', { filter: { folders: [{ id: 'top' }] } })).toEqual(['c1', 't1']);
    expect(await keysOf(w, 'components', { filter: { folders: [{ id: 'top', excludeNestedFolders: true }] } })).toEqual(
      ['t1'],
    );
    expect(await keysOf(w, 'components', { filter: { folders: [{ id: 'root' }] } })).toEqual(['r1']);
    expect(await keysOf(w, 'components', { filter: { tags: { values: ['x'] } } })).toEqual(['c1']);
    expect(await keysOf(w, 'components', { filter: { integrated: true } })).toEqual(['t1']);
    expect(await keysOf(w, 'components', { filter: { statuses: ['FINAL'] } })).toEqual(['r1', 't1']);
    // r1's fr value is WIP: left out of a FINAL fr export, also with fallback=base; t1 has no fr
    // value: left out, or its base text with fallback=base.
    const final = { format: 'json_icu', variantId: 'fr', filter: { statuses: ['FINAL'] } };
    const fr = JSON.parse(await file(w, 'components', final));
    expect(fr).toEqual({ '__variant-name': 'French', '__variant-description': '' });
    const filled = JSON.parse(await file(w, 'components', { ...final, fallback: 'base' }));
    expect(filled).toEqual({ '__variant-name': 'French', '__variant-description': '', t1: 'top' });
    const all = JSON.parse(await file(w, 'components', { format: 'json_icu', variantId: 'fr' }));
    expect(all).toEqual({ '__variant-name': 'French', '__variant-description': '', r1: 'r1 fr' });
  });

  it('never shows another workspace', async () => {
    const w = await createWorkspace(ctx);
    expect(await keysOf(w, 'components')).toEqual([]);
    expect(await keysOf(w, 'textItems')).toEqual([]);
    expect((await exportOf(w, 'textItems', { format: 'arb', variantId: 'fr' })).status).toBe(400);
  });
});
