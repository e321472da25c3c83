/**
 * A variant export holds the records that have a value of the variant, the same texts as the
 * variant records of GET /v2/textItems and GET /v2/components; `fallback=base` fills the rest.
 */
import { describe, expect, it } from 'vitest';
import { decodeStrings } from '../../formats/strings-decoder.js';
import { createWorkspace, setupApp, type Workspace, withFilter } from '../../helpers/app.js';
import { file, KINDS, type Kind, post } from './helpers.js';

const ctx = await setupApp();
const ws: Workspace = await createWorkspace(ctx);

await post(ws, 'variants', { variants: [{ name: 'German', developerId: 'de', localeCode: 'de' }] });
const TEXTS = [
  {
    developerId: 'final-both',
    text: 'Both',
    status: 'FINAL',
    variants: [{ variantId: 'de', text: 'Beide', status: 'FINAL' }],
  },
  {
    developerId: 'final-wip',
    text: 'Base final',
    status: 'FINAL',
    variants: [{ variantId: 'de', text: 'In Arbeit', status: 'WIP' }],
  },
  { developerId: 'no-de', text: 'English only', status: 'FINAL' },
  {
    developerId: 'wip-base',
    text: 'Draft',
    status: 'WIP',
    variants: [{ variantId: 'de', text: 'Entwurf', status: 'FINAL' }],
  },
];
await post(ws, 'components', { components: TEXTS.map((t) => ({ ...t, name: t.developerId })) });
await post(ws, 'projects', { projects: [{ name: 'App', developerId: 'app' }] });
await post(ws, 'textItems', { projectId: 'app', textItems: TEXTS });

/** The ids of the variant records GET /<kind> returns for `de` with the given extra filter. */
async function fetchedIds(kind: Kind, filter: object): Promise<string[]> {
  const res = await ws.api.get(withFilter(kind, { ...filter, variants: [{ id: 'de' }] }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as Array<{ id: string; variantId: string }>).map((r) => {
    expect(r.variantId).toBe('de');
    return r.id;
  });
}

const exportedKeys = async (kind: Kind, params: Record<string, unknown>) =>
  Object.keys(JSON.parse(await file(ws, kind, { format: 'json_i18next', excludeVariantMetadata: true, ...params })));

describe.each(KINDS)('variant exports of %s', (kind) => {
  it.each([
    ['no filter', {}],
    ['statuses FINAL', { statuses: ['FINAL'] }],
    ['statuses FINAL and WIP', { statuses: ['FINAL', 'WIP'] }],
  ])('hold the texts of the variant records GET returns (%s)', async (_, filter) => {
    const fetched = await fetchedIds(kind, filter);
    expect(fetched.length).toBeGreaterThan(0);
    expect(await exportedKeys(kind, { variantId: 'de', filter })).toEqual(fetched);
    // The other file formats hold the same records.
    const strings = decodeStrings(await file(ws, kind, { format: 'ios-strings', variantId: 'de', filter }));
    expect([...strings.keys()]).toEqual(fetched);
  });

  it('fills the texts without a value with base text with fallback=base, and keeps filtered values out', async () => {
    const json = JSON.parse(await file(ws, kind, { format: 'json_i18next', variantId: 'de', fallback: 'base' }));
    expect(json).toMatchObject({ 'final-both': 'Beide', 'final-wip': 'In Arbeit', 'no-de': 'English only' });
    const final = await exportedKeys(kind, { variantId: 'de', fallback: 'base', filter: { statuses: ['FINAL'] } });
    // final-wip's value is WIP: left out, not replaced by its base text.
    expect(final).toEqual(['final-both', 'no-de']);
  });

  it('ignores fallback for base text', async () => {
    const base = await file(ws, kind, { format: 'android' });
    expect(await file(ws, kind, { format: 'android', fallback: 'base' })).toBe(base);
  });
});

describe('the fallback parameter', () => {
  it('is in the OpenAPI document of both exports', async () => {
    const spec = (await ws.api.get('/v2/openapi.json')).body;
    for (const path of ['/v2/textItems/export', '/v2/components/export']) {
      const fallback = spec.paths[path].get.parameters.find((p: { name: string }) => p.name === 'fallback');
      expect(fallback, path).toMatchObject({ in: 'query', required: false, schema: { enum: ['base'] } });
    }
  });
});
