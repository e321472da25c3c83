import { type Static, type TSchema, Type } from 'typebox';
import { badRequest } from '../../http/errors.js';
import { findUnstorableText } from '../../http/storable-text.js';
import { compileStrict, describeSchemaError } from '../../http/validation.js';

/**
 * The `filter` query parameter of the fetches and exports: URL-encoded JSON, checked strictly
 * against a schema (unknown keys and wrong types are 400s naming the field, as for bodies). Empty
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

const closed = { additionalProperties: false } as const;
const IdRef = Type.Object({ id: Type.String() }, closed);

function fieldSchemas(maxItems: number) {
  const list = <T extends TSchema>(item: T) => Type.Array(item, { maxItems });
  return {
    folders: list(Type.Object({ id: Type.String(), excludeNestedFolders: Type.Optional(Type.Boolean()) }, closed)),
    projects: list(IdRef),
    bases: list(IdRef),
    variants: list(IdRef),
    statuses: list(Type.String()),
    tags: Type.Object({ values: list(Type.String()), operator: Type.Optional(Type.Enum(['AND', 'OR'])) }, closed),
    assignee: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
    integrated: Type.Boolean(),
  };
}

type FilterInput = Partial<Static<ReturnType<typeof Type.Object<ReturnType<typeof fieldSchemas>>>>>;
type Check = ReturnType<typeof compileStrict<{ filter: FilterInput }>>;

/** One compiled validator per set of keys and size limit (each route has one). */
const validators = new Map<string, Check>();

function validatorFor(allowed: readonly FilterKey[], maxIds: number): Check {
  const key = `${allowed.join(',')}:${maxIds}`;
  let check = validators.get(key);
  if (!check) {
    const fields = fieldSchemas(maxIds);
    const properties = Object.fromEntries(allowed.map((name) => [name, Type.Optional(fields[name])]));
    check = compileStrict(Type.Object({ filter: Type.Object(properties, closed) }));
    validators.set(key, check);
  }
  return check;
}

const ids = (list: { id: string }[] | undefined) => (list && list.length > 0 ? list.map((item) => item.id) : undefined);
const nonEmpty = <T>(list: T[] | undefined) => (list && list.length > 0 ? list : undefined);

/**
 * `hints` adds a word to the 400 of an unknown top-level key the caller expects people to try
 * (`filter.variants is not a known field of exports: ...`).
 */
export function parseFilter(
  raw: string | undefined,
  allowed: readonly FilterKey[],
  maxIds: number,
  hints: Partial<Record<FilterKey, string>> = {},
): ParsedFilter {
  if (raw === undefined || raw.trim() === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw badRequest(`filter is not valid JSON (${(error as Error).message})`);
  }
  // Wrapped, so that every message names its field from `filter`.
  const checked = validatorFor(allowed, maxIds)({ filter: json });
  if ('error' in checked) {
    const { error } = checked;
    const unknown = error.keyword === 'additionalProperties' && error.instancePath === '/filter';
    const hint = unknown ? hints[(error.params as { additionalProperty: FilterKey }).additionalProperty] : undefined;
    throw badRequest(`${describeSchemaError(error, 'filter')}${hint ? ` ${hint}` : ''}`);
  }
  const input = checked.value.filter;
  // JSON escapes inside the parameter get past the request's own check (`\u0000` is six characters there).
  const unstorable = findUnstorableText(checked.value, 'filter');
  if (unstorable) throw badRequest(unstorable);
  const filter: ParsedFilter = {
    folders: nonEmpty(input.folders)?.map((f) => ({ id: f.id, excludeNestedFolders: f.excludeNestedFolders ?? false })),
    projects: ids(input.projects),
    bases: ids(input.bases),
    variants: ids(input.variants),
    statuses: nonEmpty(input.statuses),
    tags:
      input.tags && input.tags.values.length > 0
        ? { values: input.tags.values, operator: input.tags.operator ?? 'OR' }
        : undefined,
    integrated: input.integrated,
  };
  if (input.assignee !== undefined) filter.assignee = input.assignee;
  for (const key of Object.keys(filter) as (keyof ParsedFilter)[]) if (filter[key] === undefined) delete filter[key];
  return filter;
}
