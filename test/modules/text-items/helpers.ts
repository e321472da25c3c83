import { expect } from 'vitest';
import { type TestContext, type Workspace, withFilter } from '../../helpers/app.js';

/** The fields of a text item record, exactly (the API description's table plus `componentId`). */
export const RECORD_FIELDS = [
  'assignee',
  'baseId',
  'baseTextItemId',
  'blockId',
  'blockName',
  'characterLimit',
  'componentId',
  'id',
  'integrated',
  'notes',
  'pluralForm',
  'projectId',
  'status',
  'tags',
  'text',
  'variableIds',
  'variantId',
].sort();

/** A whole text item record with the defaults of an item created with only `text`. */
export function record(fields: Record<string, unknown> & { id: string; text: string; projectId: string }) {
  return {
    notes: '',
    characterLimit: null,
    tags: [],
    integrated: false,
    variableIds: [],
    variantId: null,
    pluralForm: null,
    baseId: null,
    baseTextItemId: null,
    blockName: null,
    blockId: null,
    componentId: null,
    status: 'NONE',
    assignee: null,
    ...fields,
  };
}

export async function post(ws: Workspace, path: string, body: object): Promise<any> {
  const res = await ws.api.post(path, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

export async function createItems(ws: Workspace, container: object, textItems: unknown[], extra: object = {}) {
  return (await post(ws, 'textItems', { ...container, textItems, ...extra })).developerIds as string[];
}

export async function patchItems(ws: Workspace, body: object): Promise<void> {
  const res = await ws.api.patch('textItems', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ success: true });
}

/** The message of a request that must fail with `status`. */
export async function failure(
  ws: Workspace,
  method: 'post' | 'patch' | 'put' | 'delete',
  path: string,
  body: object,
  status = 400,
): Promise<string> {
  const res = await ws.api[method](path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.message;
}

/** GET /textItems with an optional filter (an object, sent URL-encoded) and extra query text (`&sort=...`). */
export async function list(ws: Workspace, filter?: unknown, extra = ''): Promise<any[]> {
  const url =
    filter === undefined ? `textItems${extra ? `?${extra.slice(1)}` : ''}` : withFilter('textItems', filter, extra);
  const res = await ws.api.get(url);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export async function listError(ws: Workspace, filter: unknown, extra = '') {
  const url =
    typeof filter === 'string'
      ? `textItems?filter=${encodeURIComponent(filter)}${extra}`
      : withFilter('textItems', filter, extra);
  const res = await ws.api.get(url);
  return { status: res.status, message: res.body.message };
}

/** Records as compact keys: `id`, `id@variant` for variant records. */
export const keys = (records: { id: string; variantId: string | null }[]) =>
  records.map((r) => (r.variantId ? `${r.id}@${r.variantId}` : r.id));

/**
 * A workspace with a base `core` (items `core-a`, `core-b`), projects `web` (connected to `core`,
 * blocks `header` and `footer`) and `app` (no base), and variants `fr`, `de`.
 */
export async function world(ws: Workspace): Promise<void> {
  await post(ws, 'variants', {
    variants: [
      { name: 'French', developerId: 'fr' },
      { name: 'German', developerId: 'de' },
    ],
  });
  await post(ws, 'bases', { bases: [{ name: 'Core', developerId: 'core' }] });
  await post(ws, 'projects', {
    projects: [
      { name: 'Web', developerId: 'web', baseId: 'core' },
      { name: 'App', developerId: 'app' },
    ],
  });
  await post(ws, 'projectBlocks', {
    projectId: 'web',
    blocks: [
      { name: 'Header', developerId: 'header' },
      { name: 'Footer', developerId: 'footer' },
    ],
  });
  await createItems(ws, { baseId: 'core' }, [
    { developerId: 'core-a', text: 'Core A', status: 'FINAL', variants: [{ variantId: 'fr', text: 'Noyau A' }] },
    { developerId: 'core-b', text: 'Core B', status: 'WIP', tags: ['shared'] },
  ]);
}

/** Row count of a table in the workspace (`text_variants` through their texts). */
export async function countTexts(ctx: TestContext, ws: Workspace, kind: 'text_item' | 'component'): Promise<number> {
  const row = await ctx.database.db
    .selectFrom('texts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', ws.id)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
