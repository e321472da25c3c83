/**
 * The text items service: GET, POST, PATCH and PUT, DELETE and the linked instances of
 * `/v2/textItems`, on the texts core (src/modules/texts/). Read top-down: the service, where a
 * PATCH loads what its updates name and hands them to the write path; then the checks a PATCH or
 * PUT of text items adds to the core's (`checkTextItemUpdates`: instances, blocks, moves to
 * another project; the PUT's plural operations translated to PATCH's lists).
 */

import type { Readable } from 'node:stream';
import type { Transaction } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import type { ContentAddressedBody } from '../../http/cache/index.js';
import { type AppError, badRequest, notFound } from '../../http/errors.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import type { BlockRef, BlocksService } from '../blocks/blocks.service.js';
import type { Change, PlannedWrite, WriteScope } from '../changes/index.js';
import { baseNotFound, type ProjectRef, type ProjectsService, projectNotFound } from '../projects/projects.service.js';
import type { ReleasesService } from '../releases/releases.service.js';
import {
  assertDistinctCreateIds,
  assertIfMatch,
  type Component,
  type ContentUpdateInput,
  checkTextUpdates,
  createTexts,
  deleteTexts,
  derivedItems,
  detachTextItems,
  type FilterKey,
  type IfMatch,
  importTexts,
  insertingTexts,
  itemsOfContainer,
  loadExistingTexts,
  loadTextsByDeveloperIds,
  loadWriteContext,
  lookupsOfCreate,
  namesOfNewTexts,
  type ParsedFilter,
  type PluralForm,
  type PluralInput,
  type PluralsUpdate,
  parseFilter,
  pluralFormsOfRenameTargets,
  relinkTextItems,
  requireTexts,
  showInstances,
  storedText,
  type TextFieldChanges,
  type TextItem,
  type TextsImport,
  type TextsServiceDeps,
  takenPluralIds,
  targetVariant,
  textChanges,
  type UpdatePlan,
  updateTextFields,
  type VariantLookups,
  type VariantRef,
  type WriteContext,
  wantedIds,
  writeOfCreate,
  writeOfUpdates,
} from '../texts/index.js';
import { type CreateTarget, checkNewTextItems, newTextItem } from './text-items.create.js';
import { type InstanceRef, listInstances, placeInstance } from './text-items.instances.js';
import { createTextRows } from './text-items.rows.js';
import type {
  CreateTextItemsInput,
  ListTextItemsQuery,
  NewTextItemInput,
  PlaceInstanceInput,
  PutTextItemInput,
  PutTextItemsInput,
  TextItemUpdateInput,
  UpdateTextItemsInput,
} from './text-items.schemas.js';

const FILTER_KEYS: readonly FilterKey[] = [
  'projects',
  'bases',
  'variants',
  'statuses',
  'tags',
  'assignee',
  'integrated',
];

/** A filter narrowed to the `ids` parameter's developer IDs, when given. */
function withIds(filter: ParsedFilter, ids: string | undefined, maxIds: number): ParsedFilter {
  if (ids === undefined) return filter;
  const developerIds = [...new Set(ids.split(',').filter(Boolean))];
  if (developerIds.length === 0) throw badRequest('ids: give at least one developer ID');
  if (developerIds.length > maxIds) throw badRequest(`ids: at most ${maxIds} developer IDs`);
  return { ...filter, developerIds };
}

/** One batch of updates, as PATCH, the translated PUT, an import or a restore gives it. */
interface UpdateBatch {
  /** The body's `variantId` (the variant the updates write), `forceVariantCreation` and `richText`. */
  options: { variantId?: string; forceVariantCreation?: boolean; richText?: 'html' };
  updates: readonly PluralsUpdate[];
  /** The variable names the updates list (looked up once for the batch). */
  variables: readonly string[];
  /** Whether the updates may move items (another block or project): the end positions are then read. */
  moves: boolean;
  /** Checks every update against what was loaded: the first bad one is the error. */
  check: (variant: VariantRef | null, context: WriteContext, targets: UpdateTargets) => UpdatePlan[];
}

export interface TextItemsDeps extends TextsServiceDeps {
  /** The reads of releases (`release=`). */
  releases: Pick<ReleasesService, 'records'>;
  projects: Pick<ProjectsService, 'listProjectRefs' | 'resolveProjects' | 'resolveBases'>;
  blocks: Pick<BlocksService, 'loadBlocks' | 'resolveBlocks' | 'nextItemPosition'>;
  variants: TextsServiceDeps['variants'] & Pick<VariantLookups, 'listVariants'>;
  /** Brings the search index up to date with every committed write (the app's list, `q`). */
  indexUpToDate?: () => Promise<void>;
}

export function createTextItemsService(deps: TextItemsDeps) {
  const { db, writes } = deps;
  const textRows = createTextRows(deps);

  /** `projectId` or `baseId` of a POST, with the blocks and base items its elements may name. */
  async function createTarget(trx: Executor, workspaceId: number, input: CreateTextItemsInput): Promise<CreateTarget> {
    const { projectId, baseId } = input;
    if (projectId !== undefined && baseId !== undefined) throw badRequest('Give either projectId or baseId, not both');
    if (projectId === undefined && baseId === undefined) throw badRequest('projectId or baseId is required');
    const container =
      projectId !== undefined
        ? (await deps.projects.resolveProjects(trx, workspaceId, [projectId])).get(projectId)
        : (await deps.projects.resolveBases(trx, workspaceId, [baseId as string])).get(baseId as string);
    if (!container) {
      throw badRequest(
        projectId !== undefined
          ? `projectId: ${projectNotFound(projectId)}`
          : `baseId: ${baseNotFound(baseId as string)}`,
      );
    }
    const items = input.textItems;
    const blockIds = items.flatMap((i) => i.blockId ?? []);
    const blocks =
      blockIds.length > 0 ? await deps.blocks.resolveBlocks(trx, workspaceId, container.id, blockIds) : new Map();
    const refs = await deps.projects.listProjectRefs(trx, workspaceId);
    const base = container.baseId === null ? null : (refs.find((r) => r.id === container.baseId) ?? null);
    const derived = items.flatMap((i) => i.baseTextItemId ?? []);
    const baseItems =
      base && derived.length > 0 ? await itemsOfContainer(trx, workspaceId, base.id, derived) : new Map();
    return { container, base, blocks, baseItems };
  }

  /** The create of a POST (or an import) inside the caller's transaction: checked whole, then inserted. */
  async function createIn(
    trx: Transaction<Database>,
    workspaceId: number,
    input: CreateTextItemsInput,
    userIds: ReadonlyMap<string, number>,
  ): Promise<PlannedWrite<string[]>> {
    const items = input.textItems;
    assertDistinctCreateIds(items, 'textItems');
    const target = await createTarget(trx, workspaceId, input);
    const names = namesOfNewTexts(items);
    const context = await loadWriteContext(deps, trx, {
      workspaceId,
      userIds,
      names,
      richText: input.richText === 'html',
    });
    const existing = await loadExistingTexts(trx, workspaceId, 'text_item', wantedIds(items));
    const plan = checkNewTextItems(items, context, target, existing);
    const position = await deps.blocks.nextItemPosition(trx, workspaceId, target.container.id);
    const planned = plan.map((p, i) => newTextItem(target.container.id, p, position + i));
    const created = await createTexts(trx, workspaceId, planned, now());
    const { container, blocks, baseItems } = target;
    const lookups = lookupsOfCreate(context, {
      containers: new Map([[container.id, container.developerId]]),
      blocks: new Map([...blocks.values()].map((block) => [block.id, block.developerId])),
      texts: new Map([...baseItems].map(([developerId, id]) => [id, developerId])),
    });
    return writeOfCreate(created, lookups);
  }

  async function create(scope: WriteScope, input: CreateTextItemsInput): Promise<string[]> {
    const { workspaceId } = scope;
    if (input.textItems.length === 0) {
      // Nothing to write, but the container is still checked.
      await createTarget(db, workspaceId, input);
      return [];
    }
    // Outside the transaction: the accounts service reads on its own connection.
    const userIds = await deps.accounts.userIdsByEmail(workspaceId);
    return insertingTexts(
      () => writes.write(scope, (trx) => createIn(trx, workspaceId, input, userIds)),
      'Text item already exists in workspace',
    );
  }

  /** PATCH and the translated PUT: one transaction, every update checked before the first write. */
  async function applyUpdates(scope: WriteScope, batch: UpdateBatch, ifMatch: IfMatch = null): Promise<void> {
    const { workspaceId } = scope;
    const userIds = await deps.accounts.userIdsByEmail(workspaceId);
    await writes.write(scope, async (trx) => {
      const developerIds = batch.updates.map((u) => u.developerId);
      await assertIfMatch(trx, workspaceId, { kind: 'text_item', developerIds }, ifMatch);
      return updatesIn(trx, { workspaceId, userIds, batch });
    });
  }

  /** The updates of a PATCH, PUT or import inside the caller's transaction: all checked, then the plan to apply. */
  async function updatesIn(
    trx: Transaction<Database>,
    { workspaceId, userIds, batch }: { workspaceId: number; userIds: ReadonlyMap<string, number>; batch: UpdateBatch },
  ): Promise<PlannedWrite<undefined>> {
    const { options, updates, variables, moves } = batch;
    const { variant, created } = await targetVariant(deps.variants, trx, workspaceId, options);
    const developerIds = updates.map((u) => u.developerId);
    const items = await loadTextsByDeveloperIds(trx, workspaceId, 'text_item', developerIds);
    // An instance as it shows: a variant value it gains starts from the text it shows.
    const entities = await showInstances(trx, workspaceId, items);
    const names = { variants: [], variables };
    const context = await loadWriteContext(deps, trx, {
      workspaceId,
      userIds,
      names,
      richText: options.richText === 'html',
    });
    // Moves to other projects: every container, and the blocks of the projects moved to.
    const moving = updates.some((u) => (u as { projectId?: string }).projectId !== undefined);
    const containers = moving ? await deps.projects.listProjectRefs(trx, workspaceId) : [];
    const containerByDeveloperId = new Map(containers.map((c) => [c.developerId, c]));
    const containerById = new Map(containers.map((c) => [c.id, c]));
    const targetIds = updates.flatMap((u) => {
      const target = containerByDeveloperId.get((u as { projectId?: string }).projectId ?? '');
      return target ? [target.id] : [];
    });
    const projectIds = [...new Set([...entities.map(({ entity }) => entity.projectId), ...targetIds])];
    const blocks = await deps.blocks.loadBlocks(trx, workspaceId, projectIds);
    const byKey = new Map([...blocks.values()].map((b) => [`${b.projectId}:${b.developerId}`, b]));
    const existing = await takenPluralIds(trx, workspaceId, { kind: 'text_item', updates, variant });
    const forms = await pluralFormsOfRenameTargets(trx, workspaceId, 'text_item', updates);
    const positions = new Map<number, number>();
    if (moves) {
      for (const projectId of projectIds) {
        positions.set(projectId, await deps.blocks.nextItemPosition(trx, workspaceId, projectId));
      }
    }
    const plans = batch.check(variant, context, {
      entities: new Map(entities.map(({ entity }) => [entity.developerId, entity])),
      blockOf: (projectId, developerId) => byKey.get(`${projectId}:${developerId}`),
      projectOf: (developerId) => containerByDeveloperId.get(developerId),
      containerOf: (rowId) => containerById.get(rowId),
      formsOf: (developerId) => forms.get(developerId),
      ...(deps.maxTags !== undefined && { maxTags: deps.maxTags }),
      componentIds: new Map(
        entities.flatMap(({ component }) => (component ? [[component.id, component.developerId]] : [])),
      ),
      exists: (id) => existing.has(id),
      takePosition: (projectId) => {
        const position = positions.get(projectId) ?? 0;
        positions.set(projectId, position + 1);
        return position;
      },
    });
    const lookups = await deps.texts.lookupsFor(
      trx,
      workspaceId,
      entities.map(({ entity }) => entity),
    );
    return writeOfUpdates(workspaceId, { plans, variant, createdVariant: created, lookups });
  }

  /** An import's writes of text items, by the routes' own rules but with no batch limit (see `importTexts`). */
  async function importIn(
    trx: Transaction<Database>,
    workspaceId: number,
    userIds: ReadonlyMap<string, number>,
    input: TextItemsImport,
  ): Promise<Change[]> {
    return importTexts(
      trx,
      input,
      (textItems, richText) =>
        createIn(trx, workspaceId, { projectId: input.projectId, textItems, ...richText }, userIds),
      (updates, options) =>
        updatesIn(trx, {
          workspaceId,
          userIds,
          batch: {
            options,
            updates,
            variables: updates.flatMap((u) => u.variables ?? []),
            moves: false,
            check: (variant, context, targets) => checkTextItemUpdates(updates, { variant, context, targets }),
          },
        }),
    );
  }

  /** `ifMatch`: the ETags the client read (`If-Match`); an item changed since is a 412. */
  const update = (scope: WriteScope, input: UpdateTextItemsInput, ifMatch: IfMatch = null) =>
    applyUpdates(
      scope,
      {
        options: input,
        updates: input.updates,
        variables: input.updates.flatMap((u) => u.variables ?? []),
        moves: input.updates.some((u) => u.blockId !== undefined || u.projectId !== undefined),
        check: (variant, context, targets) => checkTextItemUpdates(input.updates, { variant, context, targets }),
      },
      ifMatch,
    );

  /** The deprecated PUT: its updates become PATCH updates, its plural operations whole lists. */
  const put = (scope: WriteScope, input: PutTextItemsInput) =>
    applyUpdates(scope, {
      options: input,
      updates: input.updates,
      variables: [],
      moves: false,
      check: (variant, context, targets) => {
        const { updates, deferred } = translatePut(input.updates, targets.entities, variant, context);
        return checkTextItemUpdates(updates, { variant, context, targets, deferred });
      },
    });

  /** Deletes text items, all or none; items deriving from a deleted base item lose the link. */
  async function remove(scope: WriteScope, developerIds: readonly string[]): Promise<void> {
    const { workspaceId } = scope;
    assertDistinctIds(developerIds, (index) => `developerIds[${index}]`);
    await writes.write(scope, async (trx) => {
      const entities = await requireTexts(trx, workspaceId, { kind: 'text_item', developerIds }, textItemNotFound);
      const ids = entities.map((e) => e.id);
      const derived = await derivedItems(trx, workspaceId, ids);
      const lookups = await deps.texts.lookupsFor(trx, workspaceId, [...entities, ...derived]);
      await updateTextFields(trx, workspaceId, { ids: derived.map((e) => e.id), changes: { baseTextItemId: null } });
      await deleteTexts(trx, workspaceId, ids);
      const changes = [
        ...entities.flatMap((entity) => textChanges(entity, null, lookups)),
        ...derived.flatMap((e) => textChanges(e, { ...e, baseTextItemId: null }, lookups)),
      ];
      return { changes, result: undefined };
    });
  }

  const listQuery = (query: ListTextItemsQuery, maxFilterIds: number) => ({
    kind: 'text_item' as const,
    filter: withIds(parseFilter(query.filter, FILTER_KEYS, maxFilterIds), query.ids, maxFilterIds),
    ...(query.sort && { sort: query.sort }),
    ...(query.withTranslationState && { translationState: true }),
  });

  /** GET /textItems: the records of the texts core's reader, as the bytes of a JSON array. */
  async function list(
    workspaceId: number,
    revision: number,
    query: ListTextItemsQuery,
    maxFilterIds: number,
  ): Promise<Buffer> {
    const textQuery = listQuery(query, maxFilterIds);
    return deps.reader.records(workspaceId, revision, textQuery, {
      richText: query.richText ?? null,
      etags: query.withEtag === true,
    });
  }

  /** GET /textItems as sent: the bytes of a small list, a large one as a stream read page by page. */
  async function listBody(
    workspaceId: number,
    revision: number,
    query: ListTextItemsQuery,
    maxFilterIds: number,
  ): Promise<Buffer | Readable> {
    const textQuery = listQuery(query, maxFilterIds);
    return deps.reader.recordStream(workspaceId, revision, textQuery, {
      richText: query.richText ?? null,
      etags: query.withEtag === true,
    });
  }

  /** GET with `release=`: the release's frozen records, content-addressed (docs/releases.md). */
  function releaseListBody(
    workspaceId: number,
    query: ListTextItemsQuery,
    maxFilterIds: number,
  ): Promise<ContentAddressedBody> {
    return deps.releases.records(workspaceId, query.release as string, listQuery(query, maxFilterIds), {
      richText: query.richText ?? null,
      etags: query.withEtag === true,
    });
  }

  /** POST /textItems/instances: a component placed into a project as a new linked instance. */
  function place(scope: WriteScope, input: PlaceInstanceInput): Promise<string> {
    const { workspaceId } = scope;
    return writes.write(scope, async (trx) => {
      const { developerId, changes } = await placeInstance(trx, workspaceId, input, {
        resolveProjects: deps.projects.resolveProjects,
        resolveBlocks: deps.blocks.resolveBlocks,
        nextItemPosition: deps.blocks.nextItemPosition,
        lookupsFor: deps.texts.lookupsFor,
      });
      return { changes, result: developerId };
    });
  }

  /** GET /textItems/instances: the linked instances of one component. */
  const instances = (workspaceId: number, componentId: string): Promise<InstanceRef[]> =>
    listInstances(db, workspaceId, componentId, {
      listProjectRefs: deps.projects.listProjectRefs,
      loadBlocks: deps.blocks.loadBlocks,
    });

  /** POST /textItems/instances/detach: instances become plain items showing what they showed. */
  async function detach(scope: WriteScope, developerIds: readonly string[]): Promise<void> {
    const { workspaceId } = scope;
    assertDistinctIds(developerIds, (index) => `developerIds[${index}]`);
    await writes.write(scope, async (trx) => {
      const items = await loadTextsByDeveloperIds(trx, workspaceId, 'text_item', developerIds);
      const byId = new Map(items.map((e) => [e.developerId, e]));
      developerIds.forEach((id, index) => {
        const item = byId.get(id);
        if (!item) throw textItemNotFound(id);
        if (item.componentId === null) {
          throw badRequest(`developerIds[${index}]: text item ${id} is not a linked instance of a component`);
        }
      });
      const detached = await detachTextItems(trx, workspaceId, items);
      const lookups = await deps.texts.lookupsFor(
        trx,
        workspaceId,
        detached.map((d) => d.before),
      );
      return { changes: detached.flatMap((d) => textChanges(d.before, d.after, lookups)), result: undefined };
    });
  }

  /** A PATCH's updates inside the caller's write (a restore re-applies a record's fields this way). */
  const updateIn = (
    trx: Transaction<Database>,
    workspaceId: number,
    input: UpdateTextItemsInput,
    userIds: ReadonlyMap<string, number>,
  ) =>
    updatesIn(trx, {
      workspaceId,
      userIds,
      batch: {
        options: input,
        updates: input.updates,
        variables: input.updates.flatMap((u) => u.variables ?? []),
        moves: input.updates.some((u) => u.blockId !== undefined),
        check: (variant, context, targets) => checkTextItemUpdates(input.updates, { variant, context, targets }),
      },
    });

  /** Links detached text items to their components again (a restore undoing a detach), all or none. */
  async function relink(scope: WriteScope, links: readonly { developerId: string; componentId: string }[]) {
    const { workspaceId } = scope;
    await writes.write(scope, async (trx) => {
      const items = await loadTextsByDeveloperIds(
        trx,
        workspaceId,
        'text_item',
        links.map((l) => l.developerId),
      );
      const components = await loadTextsByDeveloperIds(
        trx,
        workspaceId,
        'component',
        links.map((l) => l.componentId),
      );
      const pairs = links.map((link, index) => {
        const item = items.find((i) => i.developerId === link.developerId) as TextItem | undefined;
        if (!item) throw textItemNotFound(link.developerId);
        if (item.componentId !== null) {
          throw badRequest(`links[${index}]: text item ${link.developerId} is already a linked instance`);
        }
        const component = components.find((c) => c.developerId === link.componentId) as Component | undefined;
        if (!component) throw badRequest(`links[${index}].componentId: Component ${link.componentId} not found`);
        return { item, component };
      });
      const linked = await relinkTextItems(trx, workspaceId, pairs);
      const lookups = await deps.texts.lookupsFor(
        trx,
        workspaceId,
        linked.map((l) => l.after),
      );
      return { changes: linked.flatMap((l) => textChanges(l.before, l.after, lookups)), result: undefined };
    });
  }

  return {
    list,
    listBody,
    rows: textRows.rows,
    releaseListBody,
    create,
    update,
    put,
    remove,
    importIn,
    place,
    instances,
    detach,
    createIn,
    updateIn,
    relink,
  };
}

export type TextItemsService = ReturnType<typeof createTextItemsService>;

/** What an import writes into a project: new items, and updates of the base text or of a variant. */
export interface TextItemsImport extends TextsImport<NewTextItemInput, TextItemUpdateInput> {
  projectId: string;
}

// The checks of a PATCH or PUT of text items, on top of the core's (`checkTextUpdates`).

const textItemNotFound = (developerId: string) => notFound(`Text item with developer ID ${developerId} not found`);

interface TextItemUpdate extends ContentUpdateInput {
  blockId?: string | null;
  /** Another project to move the item to. */
  projectId?: string;
}

/** What the updates of one PATCH or PUT are checked against, loaded by the service. */
interface UpdateTargets {
  entities: ReadonlyMap<string, TextItem>;
  /** A block of the project (row id) by developer ID. */
  blockOf: (projectId: number, developerId: string) => BlockRef | undefined;
  /** A project or base by developer ID, and by row id (the containers of the items). */
  projectOf: (developerId: string) => ProjectRef | undefined;
  containerOf: (rowId: number) => ProjectRef | undefined;
  /** The plural forms of a text item, by developer ID, for new developer IDs that look like plural records. */
  formsOf?: (developerId: string) => ReadonlySet<PluralForm> | undefined;
  maxTags?: number;
  /** Component developer ID by row id, for the items that are linked instances. */
  componentIds: ReadonlyMap<number, string>;
  /** Whether a text item has the developer ID (plural-record collisions). */
  exists: (developerId: string) => boolean;
  /** The next free place at the end of a project's custom order; each call takes one. */
  takePosition: (projectId: number) => number;
}

/**
 * Checks a whole PATCH (or translated PUT) before anything is written. An instance's text and
 * plurals are its component's: changing them is a 400 naming the component. An item moved to
 * another block (or out of blocks) goes to the end of the project's custom order.
 */
function checkTextItemUpdates(
  updates: readonly TextItemUpdate[],
  {
    variant,
    context,
    targets,
    deferred = new Map(),
  }: {
    variant: VariantRef | null;
    context: WriteContext;
    targets: UpdateTargets;
    /** Errors found earlier (the PUT's plural operations), reported at their element's turn. */
    deferred?: ReadonlyMap<TextItemUpdate, AppError>;
  },
): UpdatePlan[] {
  return checkTextUpdates(
    updates,
    { entities: targets.entities, variant, context },
    {
      notFound: textItemNotFound,
      label: 'Text item',
      exists: targets.exists,
      ...(targets.formsOf && { formsOf: targets.formsOf }),
      ...(targets.maxTags !== undefined && { maxTags: targets.maxTags }),
      check: (u, entity, at) => {
        const { componentId } = entity as TextItem;
        if (componentId !== null && (u.text !== undefined || u.plurals !== undefined)) {
          const component = targets.componentIds.get(componentId) ?? String(componentId);
          throw badRequest(
            `${at}: text item ${u.developerId} is a linked instance of component ${component}; its text and plurals are the component's (PATCH /v2/components)`,
          );
        }
        const error = deferred.get(u);
        if (error) throw error;
      },
      own: (u, entity, at): TextFieldChanges => {
        const moved = u.projectId === undefined ? null : toProject(u, entity as TextItem, targets, at);
        if (moved) return moved;
        if (u.blockId === undefined) return {};
        const { projectId } = entity as TextItem;
        let blockId: number | null = null;
        if (u.blockId !== null) {
          const block = targets.blockOf(projectId, u.blockId);
          if (!block) throw badRequest(`${at}.blockId: Block id not found: ${u.blockId}`);
          blockId = block.id;
        }
        if (blockId === (entity as TextItem).blockId) return {};
        return { blockId, position: targets.takePosition(projectId) };
      },
    },
  );
}

/**
 * An update's `projectId`: the item moves to the end of another project, into the named block of
 * that project or outside blocks. It keeps the base text item it derives from only when the new
 * project is connected to the same base. Null when `projectId` names the item's own project
 * (then `blockId` means what it always means).
 */
function toProject(u: TextItemUpdate, item: TextItem, targets: UpdateTargets, at: string): TextFieldChanges | null {
  const target = targets.projectOf(u.projectId as string);
  if (target?.kind !== 'project') throw badRequest(`${at}.projectId: ${projectNotFound(u.projectId as string)}`);
  if (target.id === item.projectId) return null;
  const from = targets.containerOf(item.projectId);
  if (from?.kind === 'base') {
    throw badRequest(
      `${at}.projectId: text item ${item.developerId} belongs to base ${from.developerId}; the items of a base stay in it`,
    );
  }
  let blockId: number | null = null;
  if (u.blockId != null) {
    const block = targets.blockOf(target.id, u.blockId);
    if (!block) throw badRequest(`${at}.blockId: Block id not found in project ${target.developerId}: ${u.blockId}`);
    blockId = block.id;
  }
  const changes: TextFieldChanges = { projectId: target.id, blockId, position: targets.takePosition(target.id) };
  if (item.baseTextItemId !== null && target.baseId !== (from?.baseId ?? null)) changes.baseTextItemId = null;
  return changes;
}

/**
 * The deprecated PUT's updates as PATCH updates. Errors of the plural operations are deferred to
 * their element's turn in `checkTextItemUpdates`, so the first bad element is still the one reported.
 */
function translatePut(
  updates: readonly PutTextItemInput[],
  entities: ReadonlyMap<string, TextItem>,
  variant: VariantRef | null,
  context: WriteContext,
): { updates: TextItemUpdate[]; deferred: Map<TextItemUpdate, AppError> } {
  const deferred = new Map<TextItemUpdate, AppError>();
  const translated = updates.map((u, index) => {
    const { plurals, ...fields } = u;
    const update: TextItemUpdate = { ...fields };
    if (plurals === undefined) return update;
    // An unknown item or an instance fails before its plurals are looked at.
    update.plurals = [];
    const entity = entities.get(u.developerId);
    if (!entity || entity.componentId !== null) return update;
    const current = variant ? entity.variants.find((v) => v.variantId === variant.id)?.plurals : entity.plurals;
    try {
      update.plurals = mergePlurals(u, current ?? [], context, `updates[${index}]`);
    } catch (error) {
      deferred.set(update, error as AppError);
    }
    return update;
  });
  return { updates: translated, deferred };
}

/**
 * The plural operations of one PUT update as the whole list PATCH takes. Existing forms keep
 * their place (upserted ones take the new text), new forms follow in request order, removed ones
 * go. With `text`, a kept first form takes that text (as PATCH's text alone does); an upserted
 * first form must agree with it.
 */
function mergePlurals(
  u: PutTextItemInput,
  current: readonly { form: PluralForm; text: string }[],
  context: WriteContext,
  at: string,
): PluralInput[] {
  const upsert = u.plurals?.upsert ?? [];
  const remove = new Set(u.plurals?.remove ?? []);
  const upserted = new Map<PluralForm, number>();
  upsert.forEach((p, k) => {
    if (upserted.has(p.form)) {
      throw badRequest(`${at}.plurals.upsert[${k}].form: plural form '${p.form}' appears more than once`);
    }
    if (remove.has(p.form))
      throw badRequest(`${at}.plurals.upsert[${k}].form: plural form '${p.form}' is also removed`);
    upserted.set(p.form, k);
  });
  const missing = [...remove].filter((form) => !current.some((p) => p.form === form));
  if (missing.length > 0) throw cannotRemove(u.developerId, missing);

  const merged: PluralInput[] = current
    .filter((p) => !remove.has(p.form))
    .map((p) => {
      const k = upserted.get(p.form);
      return k === undefined ? { form: p.form, text: p.text, kept: p } : { form: p.form, text: upsert[k]?.text ?? '' };
    });
  for (const p of upsert) if (!current.some((c) => c.form === p.form)) merged.push({ form: p.form, text: p.text });

  const first = merged[0];
  if (u.text !== undefined && first) {
    if (first.kept) merged[0] = { form: first.form, text: u.text };
    else if (storedText(context, first.text).text !== storedText(context, u.text).text) {
      throw badRequest(
        `${at}.plurals.upsert[${upserted.get(first.form)}].text: the first plural form's text must equal the text`,
      );
    }
  }
  return merged;
}

const cannotRemove = (developerId: string, forms: readonly string[]) =>
  badRequest(`Cannot remove plural forms that do not exist on text item ${developerId}: ${forms.join(', ')}`);
