import { expect } from 'vitest';
import { type Workspace, withFilter } from '../../helpers/app.js';

/** The fields of a component record, exactly (the API description's table). */
export const RECORD_FIELDS = [
  'assignee',
  'characterLimit',
  'folderId',
  'id',
  'integrated',
  'name',
  'notes',
  'pluralForm',
  'status',
  'tags',
  'text',
  'variableIds',
  'variantId',
].sort();

/** A whole component record with the defaults of a component created with only `text`. */
export function record(fields: Record<string, unknown> & { id: string; text: string }) {
  return {
    notes: '',
    characterLimit: null,
    tags: [],
    integrated: false,
    variableIds: [],
    variantId: null,
    pluralForm: null,
    folderId: null,
    name: fields.id,
    status: 'NONE',
    assignee: null,
    ...fields,
  };
}

export async function createComponents(ws: Workspace, components: unknown[], extra: object = {}): Promise<string[]> {
  const res = await ws.api.post('components', { components, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.developerIds;
}

export async function patchComponents(ws: Workspace, body: object): Promise<void> {
  const res = await ws.api.patch('components', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ success: true });
}

export async function createVariants(ws: Workspace, ids: string[]): Promise<void> {
  const res = await ws.api.post('variants', {
    variants: ids.map((id) => ({ name: `Variant ${id}`, developerId: id })),
  });
  expect(res.status).toBe(201);
}

export async function createVariables(ws: Workspace, names: string[]): Promise<void> {
  const variables = names.map((name) => ({ name, type: 'string', data: { example: name } }));
  expect((await ws.api.post('variables', { variables })).status).toBe(201);
}

export async function createFolders(ws: Workspace, folders: { developerId: string; parentId?: string }[]) {
  const body = { folders: folders.map((f) => ({ name: `Folder ${f.developerId}`, ...f })) };
  expect((await ws.api.post('componentFolders', body)).status).toBe(201);
}

/** GET /components with an optional filter (an object, sent URL-encoded) and extra query text. */
export async function list(ws: Workspace, filter?: unknown, extra = ''): Promise<any[]> {
  const url =
    filter === undefined ? `components${extra ? `?${extra.slice(1)}` : ''}` : withFilter('components', filter, extra);
  const res = await ws.api.get(url);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Records as compact keys: `id`, `id@variant` for variant records. */
export const keys = (records: { id: string; variantId: string | null }[]) =>
  records.map((r) => (r.variantId ? `${r.id}@${r.variantId}` : r.id));

export async function listError(
  ws: Workspace,
  filter: unknown,
  extra = '',
): Promise<{ status: number; message: string }> {
  const url =
    typeof filter === 'string'
      ? `components?filter=${encodeURIComponent(filter)}${extra}`
      : withFilter('components', filter, extra);
  const res = await ws.api.get(url);
  return { status: res.status, message: res.body.message };
}
