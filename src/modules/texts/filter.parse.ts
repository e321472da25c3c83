import { badRequest } from '../../http/errors.js';

/**
 * The `filter` query parameter of the fetches (contract section 1): URL-encoded JSON, checked
 * strictly. Malformed JSON, unknown keys and wrong types are 400s naming the field; empty
 * arrays mean "no restriction", so a client's default filter is the same as no filter.
 */
export type FilterKey = 'folders' | 'projects' | 'bases' | 'variants' | 'statuses' | 'tags' | 'assignee' | 'integrated';

export interface ParsedFilter {
  folders?: { id: string; excludeNestedFolders: boolean }[];
  projects?: string[];
  bases?: string[];
  /** Variant developer IDs, `base` or `all`. */
  variants?: string[];
  statuses?: string[];
  tags?: { values: string[]; operator: 'AND' | 'OR' };
  /** An email, or null for unassigned; absent means no restriction. */
  assignee?: string | null;
  integrated?: boolean;
}

type Json = unknown;

const typeName = (value: Json) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

function fail(path: string, message: string): never {
  throw badRequest(`${path} ${message}`);
}

function object(value: Json, path: string, keys: readonly string[]): Record<string, Json> {
  if (typeName(value) !== 'object') fail(path, 'must be object');
  const record = value as Record<string, Json>;
  for (const key of Object.keys(record)) if (!keys.includes(key)) fail(`${path}.${key}`, 'is not a known field');
  return record;
}

function array(value: Json, path: string, maxItems: number): Json[] {
  if (!Array.isArray(value)) fail(path, 'must be array');
  if (value.length > maxItems) fail(path, `must NOT have more than ${maxItems} items`);
  return value;
}

function string(value: Json, path: string): string {
  if (typeof value !== 'string') fail(path, 'must be string');
  return value;
}

function boolean(value: Json, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'must be boolean');
  return value;
}

/** `[{ id }]` lists (`projects`, `bases`, `variants`) as their ids. */
function idList(value: Json, path: string, maxItems: number): string[] {
  return array(value, path, maxItems).map((item, i) =>
    string(object(item, `${path}[${i}]`, ['id']).id, `${path}[${i}].id`),
  );
}

export function parseFilter(raw: string | undefined, allowed: readonly FilterKey[], maxIds: number): ParsedFilter {
  if (raw === undefined || raw.trim() === '') return {};
  let json: Json;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw badRequest(`filter is not valid JSON (${(error as Error).message})`);
  }
  const input = object(json, 'filter', allowed);
  const filter: ParsedFilter = {};
  const at = (key: string) => `filter.${key}`;
  const present = (key: FilterKey) => input[key] !== undefined;

  if (present('folders')) {
    const folders = array(input.folders, at('folders'), maxIds).map((item, i) => {
      const path = `${at('folders')}[${i}]`;
      const folder = object(item, path, ['id', 'excludeNestedFolders']);
      const exclude = folder.excludeNestedFolders;
      return {
        id: string(folder.id, `${path}.id`),
        excludeNestedFolders: exclude === undefined ? false : boolean(exclude, `${path}.excludeNestedFolders`),
      };
    });
    if (folders.length > 0) filter.folders = folders;
  }
  for (const key of ['projects', 'bases', 'variants'] as const) {
    if (!present(key)) continue;
    const ids = idList(input[key], at(key), maxIds);
    if (ids.length > 0) filter[key] = ids;
  }
  if (present('statuses')) {
    const statuses = array(input.statuses, at('statuses'), maxIds).map((s, i) => string(s, `${at('statuses')}[${i}]`));
    if (statuses.length > 0) filter.statuses = statuses;
  }
  if (present('tags')) {
    const tags = object(input.tags, at('tags'), ['values', 'operator']);
    if (tags.values === undefined) fail(`${at('tags')}.values`, 'is required');
    const values = array(tags.values, `${at('tags')}.values`, maxIds).map((t, i) =>
      string(t, `${at('tags')}.values[${i}]`),
    );
    const operator = tags.operator === undefined ? 'OR' : tags.operator;
    if (operator !== 'AND' && operator !== 'OR') fail(`${at('tags')}.operator`, 'must be one of: "AND", "OR"');
    if (values.length > 0) filter.tags = { values, operator };
  }
  if (present('assignee')) {
    const assignee = input.assignee;
    if (assignee !== null && typeof assignee !== 'string') fail(at('assignee'), 'must be string or null');
    filter.assignee = assignee;
  }
  if (present('integrated')) filter.integrated = boolean(input.integrated, at('integrated'));
  return filter;
}
