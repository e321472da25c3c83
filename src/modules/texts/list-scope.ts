import type { Executor } from '../../db/schema.js';
import { badRequest, notFound } from '../../http/errors.js';
import { projectNotFound, variantNotFoundMessage } from '../../shared/not-found.js';
import { developerIdsByRowIds, loadTextsByDeveloperIds } from './texts.repository.js';
import type { TextEntity, TextKind } from './texts.types.js';

/** What a list of things said about texts (comments, suggestions) takes to name its texts. */
export interface ListScopeQuery {
  limit?: number;
  cursor?: string;
  textItemId?: string;
  componentId?: string;
  projectId?: string;
}

/** Where such a list's rows come from, in row ids; `limit` is one more than the page. */
export interface ListScopeFilter {
  limit: number;
  afterId: number | undefined;
  textId?: number;
  /** A deleted text: its rows are stamped with the developer ID it last had. */
  deletedRecord?: { kind: TextKind; developerId: string };
  projectId?: number;
}

export interface ListScopeLookups {
  defaultLimit: number;
  maxLimit: number;
  cursor: { decode(cursor: string | undefined): number | undefined };
  /** Whether any row of the list names this deleted text. */
  hasDeletedRecord: (record: { kind: TextKind; developerId: string }) => Promise<boolean>;
  projectsOf: () => Promise<readonly { id: number; developerId: string }[]>;
}

/**
 * The page size and the filter a list query asks for, each field checked (a 400 naming it):
 * `limit`, `cursor`, the text by `textItemId` or `componentId` (a deleted one still names the rows
 * it left behind) and `projectId`.
 */
export async function resolveListScope(
  executor: Executor,
  workspaceId: number,
  query: ListScopeQuery,
  lookups: ListScopeLookups,
): Promise<{ limit: number; filter: ListScopeFilter }> {
  const limit = query.limit ?? lookups.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > lookups.maxLimit) {
    throw badRequest(`limit must be an integer from 1 to ${lookups.maxLimit}`);
  }
  if (query.textItemId !== undefined && query.componentId !== undefined) {
    throw badRequest('componentId: give textItemId or componentId, not both');
  }
  const filter: ListScopeFilter = { limit: limit + 1, afterId: lookups.cursor.decode(query.cursor) };
  const recordField = query.textItemId !== undefined ? 'textItemId' : 'componentId';
  const recordId = query.textItemId ?? query.componentId;
  if (recordId !== undefined) {
    const kind: TextKind = recordField === 'textItemId' ? 'text_item' : 'component';
    const [text] = await loadTextsByDeveloperIds(executor, workspaceId, kind, [recordId]);
    if (text) {
      filter.textId = text.id;
    } else {
      // A deleted text's rows stay listed under the developer ID it last had.
      filter.deletedRecord = { kind, developerId: recordId };
      if (!(await lookups.hasDeletedRecord(filter.deletedRecord))) {
        throw badRequest(
          `${recordField}: ${kind === 'text_item' ? 'Text item' : 'Component'} with developer ID ${recordId} not found`,
        );
      }
    }
  }
  if (query.projectId !== undefined) {
    const project = (await lookups.projectsOf()).find((p) => p.developerId === query.projectId);
    if (!project) throw badRequest(`projectId: ${projectNotFound(query.projectId)}`);
    filter.projectId = project.id;
  }
  return { limit, filter };
}

/** A count of things said about one text (open threads, undecided suggestions), as grouped in SQL. */
export interface TextCountRow {
  record_kind: 'component' | 'text_item';
  /** Null once the text is deleted: such rows are left out. */
  text_id: number | null;
  count: number | string;
}

/**
 * The `/counts` answer of such a list: `projectId` checked (a 400 naming it) and turned into its
 * row id for `countRows`, whose rows are then keyed by their texts' developer IDs.
 */
export async function countsPerText(
  executor: Executor,
  workspaceId: number,
  query: { projectId?: string },
  lookups: {
    projectsOf: () => Promise<readonly { id: number; developerId: string }[]>;
    countRows: (projectId: number | undefined) => Promise<readonly TextCountRow[]>;
  },
): Promise<{ textItems: Record<string, number>; components: Record<string, number> }> {
  let projectId: number | undefined;
  if (query.projectId !== undefined) {
    const project = (await lookups.projectsOf()).find((p) => p.developerId === query.projectId);
    if (!project) throw badRequest(`projectId: ${projectNotFound(query.projectId)}`);
    projectId = project.id;
  }
  const rows = await lookups.countRows(projectId);
  const ids = await developerIdsByRowIds(
    executor,
    workspaceId,
    rows.flatMap((r) => (r.text_id === null ? [] : [r.text_id])),
  );
  const textItems: Record<string, number> = {};
  const components: Record<string, number> = {};
  for (const row of rows) {
    const developerId = row.text_id === null ? undefined : ids.get(row.text_id);
    if (developerId === undefined) continue;
    (row.record_kind === 'text_item' ? textItems : components)[developerId] = Number(row.count);
  }
  return { textItems, components };
}

/** What a new comment or suggestion names: one text (`textItemId` or `componentId`), and maybe a variant. */
export interface TextTargetInput {
  textItemId?: string;
  componentId?: string;
  variantId?: string;
}

/** A named text, and the row id of the variant named (null: the base text). */
export interface TextTarget {
  developerId: string;
  text: TextEntity;
  variantId: number | null;
}

/**
 * The texts and variants a batch of new comments or suggestions names, read once for the batch;
 * answers a function that resolves one input at `path` (`comments[2]`), or refuses it naming the
 * field: a text that does not exist is a 404, a variant that does not a 400.
 */
export async function textTargets(
  executor: Executor,
  workspaceId: number,
  {
    inputs,
    variantsOf,
  }: {
    inputs: readonly TextTargetInput[];
    variantsOf: (executor: Executor, workspaceId: number) => Promise<readonly { id: number; developerId: string }[]>;
  },
): Promise<(input: TextTargetInput, path: string) => TextTarget> {
  const wanted = (field: 'textItemId' | 'componentId') =>
    inputs.flatMap((input) => (input[field] === undefined ? [] : [input[field] as string]));
  const [items, components, variants] = await Promise.all([
    loadTextsByDeveloperIds(executor, workspaceId, 'text_item', wanted('textItemId')),
    loadTextsByDeveloperIds(executor, workspaceId, 'component', wanted('componentId')),
    inputs.some((input) => input.variantId !== undefined) ? variantsOf(executor, workspaceId) : [],
  ]);
  const byKind = {
    text_item: new Map<string, TextEntity>(items.map((t) => [t.developerId, t])),
    component: new Map<string, TextEntity>(components.map((t) => [t.developerId, t])),
  };
  const variantIds = new Map(variants.map((v) => [v.developerId, v.id]));
  return (input, path) => {
    const onItem = input.textItemId !== undefined;
    const developerId = (input.textItemId ?? input.componentId) as string;
    const text = byKind[onItem ? 'text_item' : 'component'].get(developerId);
    if (!text) {
      const field = onItem ? 'textItemId' : 'componentId';
      throw notFound(
        `${path}.${field}: ${onItem ? 'Text item' : 'Component'} with developer ID ${developerId} not found`,
      );
    }
    let variantId: number | null = null;
    if (input.variantId !== undefined) {
      const found = variantIds.get(input.variantId);
      if (found === undefined) throw badRequest(`${path}.variantId: ${variantNotFoundMessage(input.variantId)}`);
      variantId = found;
    }
    return { developerId, text, variantId };
  };
}
