import type { Readable } from 'node:stream';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import type { ContentAddressedBody } from '../../http/cache/index.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import type { Change, PlannedWrite, WriteScope } from '../changes/index.js';
import type { FoldersService } from '../folders/folders.service.js';
import type { ReleasesService } from '../releases/releases.service.js';
import {
  assertDistinctCreateIds,
  assertIfMatch,
  createTexts,
  deleteTexts,
  detachInstances,
  type FilterKey,
  type IfMatch,
  importTexts,
  insertingTexts,
  loadExistingTexts,
  loadTextsByDeveloperIds,
  loadWriteContext,
  lookupsOfCreate,
  namesOfNewTexts,
  parseFilter,
  pluralFormsOfRenameTargets,
  requireTexts,
  type TextsImport,
  type TextsServiceDeps,
  takenPluralIds,
  targetVariant,
  textChanges,
  wantedIds,
  writeOfCreate,
  writeOfUpdates,
} from '../texts/index.js';
import { checkNewComponents, newComponent } from './components.create.js';
import { publishTextItem } from './components.publish.js';
import type {
  ComponentUpdateInput,
  CreateComponentsInput,
  ListComponentsQuery,
  NewComponentInput,
  PublishInput,
  UpdateComponentsInput,
} from './components.schemas.js';
import { checkComponentUpdates, componentNotFound } from './components.update.js';

const ROOT = 'root';
const FILTER_KEYS: readonly FilterKey[] = ['folders', 'variants', 'statuses', 'tags', 'assignee', 'integrated'];

export interface ComponentsDeps extends TextsServiceDeps {
  /** The reads of releases (`release=`). */
  releases: Pick<ReleasesService, 'records'>;
  folders: Pick<FoldersService, 'loadFolderTree'>;
}

export function createComponentsService(deps: ComponentsDeps) {
  const { writes } = deps;

  /** The create of a POST (or an import) inside the caller's transaction: checked whole, then inserted. */
  async function createIn(
    trx: Transaction<Database>,
    workspaceId: number,
    input: CreateComponentsInput,
    userIds: ReadonlyMap<string, number>,
  ): Promise<PlannedWrite<string[]>> {
    const components = input.components;
    assertDistinctCreateIds(components, 'components');
    const names = namesOfNewTexts(components);
    const context = await loadWriteContext(deps, trx, {
      workspaceId,
      userIds,
      names,
      richText: input.richText === 'html',
    });
    const tree = await deps.folders.loadFolderTree(trx, workspaceId);
    const existing = await loadExistingTexts(trx, workspaceId, 'component', wantedIds(components));
    const plan = checkNewComponents(components, context, tree, existing);
    const created = await createTexts(trx, workspaceId, plan.map(newComponent), now());
    const folders = new Map(tree.folders.map((folder) => [folder.id, folder.developerId]));
    return writeOfCreate(created, lookupsOfCreate(context, { folders }));
  }

  async function create(scope: WriteScope, input: CreateComponentsInput): Promise<string[]> {
    const { workspaceId } = scope;
    if (input.components.length === 0) return [];
    // Outside the transaction: the accounts service reads on its own connection.
    const userIds = await deps.accounts.userIdsByEmail(workspaceId);
    return insertingTexts(
      () => writes.write(scope, (trx) => createIn(trx, workspaceId, input, userIds)),
      'Component already exists in workspace',
    );
  }

  /** The updates of a PATCH (or an import) inside the caller's transaction: all checked, then the plan to apply. */
  async function updatesIn(
    trx: Transaction<Database>,
    workspaceId: number,
    input: UpdateComponentsInput,
    userIds: ReadonlyMap<string, number>,
  ): Promise<PlannedWrite<undefined>> {
    const { variant, created } = await targetVariant(deps.variants, trx, workspaceId, input);
    const ids = input.updates.map((u) => u.developerId);
    const entities = await loadTextsByDeveloperIds(trx, workspaceId, 'component', ids);
    const names = { variants: [], variables: input.updates.flatMap((u) => u.variables ?? []) };
    const context = await loadWriteContext(deps, trx, {
      workspaceId,
      userIds,
      names,
      richText: input.richText === 'html',
    });
    const movesToFolder = input.updates.some((u) => u.folderId != null && u.folderId !== ROOT);
    const tree = movesToFolder ? await deps.folders.loadFolderTree(trx, workspaceId) : null;
    const existing = await takenPluralIds(trx, workspaceId, { kind: 'component', updates: input.updates, variant });
    const forms = await pluralFormsOfRenameTargets(trx, workspaceId, 'component', input.updates);
    const plans = checkComponentUpdates(input.updates, {
      entities: new Map(entities.map((e) => [e.developerId, e])),
      variant,
      context,
      tree,
      exists: (id) => existing.has(id),
      formsOf: (id) => forms.get(id),
      ...(deps.maxTags !== undefined && { maxTags: deps.maxTags }),
    });

    const lookups = await deps.texts.lookupsFor(trx, workspaceId, entities);
    return writeOfUpdates(workspaceId, { plans, variant, createdVariant: created, lookups });
  }

  /** `ifMatch`: the ETags the client read (`If-Match`); a component changed since is a 412. */
  async function update(scope: WriteScope, input: UpdateComponentsInput, ifMatch: IfMatch = null): Promise<void> {
    const userIds = await deps.accounts.userIdsByEmail(scope.workspaceId);
    await writes.write(scope, async (trx) => {
      const ids = input.updates.map((u) => u.developerId);
      await assertIfMatch(trx, scope.workspaceId, { kind: 'component', developerIds: ids }, ifMatch);
      return updatesIn(trx, scope.workspaceId, input, userIds);
    });
  }

  /** An import's writes of components, by the routes' own rules but with no batch limit (see `importTexts`). */
  async function importIn(
    trx: Transaction<Database>,
    workspaceId: number,
    userIds: ReadonlyMap<string, number>,
    input: ComponentsImport,
  ): Promise<Change[]> {
    return importTexts(
      trx,
      input,
      (components, richText) => createIn(trx, workspaceId, { components, ...richText }, userIds),
      (updates, options) => updatesIn(trx, workspaceId, { updates, ...options }, userIds),
    );
  }

  /** Deletes components, all or none; their linked instances keep the text and are detached. */
  async function remove(scope: WriteScope, developerIds: readonly string[]): Promise<void> {
    const { workspaceId } = scope;
    assertDistinctIds(developerIds, (index) => `developerIds[${index}]`);
    await writes.write(scope, async (trx) => {
      const entities = await requireTexts(trx, workspaceId, { kind: 'component', developerIds }, componentNotFound);
      const lookups = await deps.texts.lookupsFor(trx, workspaceId, entities);
      const detached = await detachInstances(trx, workspaceId, entities);
      const instanceLookups = await deps.texts.lookupsFor(
        trx,
        workspaceId,
        detached.map((d) => d.before),
      );
      await deleteTexts(
        trx,
        workspaceId,
        entities.map((e) => e.id),
      );
      const changes = [
        ...entities.flatMap((entity) => textChanges(entity, null, lookups)),
        ...detached.flatMap((d) => textChanges(d.before, d.after, instanceLookups)),
      ];
      return { changes, result: undefined };
    });
  }

  /** POST /components/publish: a text item becomes the first linked instance of a new component. */
  async function publish(scope: WriteScope, input: PublishInput): Promise<string> {
    return insertingTexts(
      () =>
        writes.write(scope, async (trx) => {
          const { developerId, changes } = await publishTextItem(trx, scope.workspaceId, input, {
            loadFolderTree: deps.folders.loadFolderTree,
            lookupsFor: deps.texts.lookupsFor,
          });
          return { changes, result: developerId };
        }),
      'Component already exists in workspace',
    );
  }

  const listQuery = (query: ListComponentsQuery, maxFilterIds: number) => ({
    kind: 'component' as const,
    filter: parseFilter(query.filter, FILTER_KEYS, maxFilterIds),
    ...(query.withTranslationState && { translationState: true }),
  });

  /** GET /components: the records of the texts core's reader, as the bytes of a JSON array. */
  async function list(
    workspaceId: number,
    revision: number,
    query: ListComponentsQuery,
    maxFilterIds: number,
  ): Promise<Buffer> {
    const textQuery = listQuery(query, maxFilterIds);
    return deps.reader.records(workspaceId, revision, textQuery, {
      richText: query.richText ?? null,
      etags: query.withEtag === true,
    });
  }

  /** GET /components as sent: the bytes of a small list, a large one as a stream read page by page. */
  async function listBody(
    workspaceId: number,
    revision: number,
    query: ListComponentsQuery,
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
    query: ListComponentsQuery,
    maxFilterIds: number,
  ): Promise<ContentAddressedBody> {
    return deps.releases.records(workspaceId, query.release as string, listQuery(query, maxFilterIds), {
      richText: query.richText ?? null,
      etags: query.withEtag === true,
    });
  }

  // `createIn` and `updatesIn`: a POST's or PATCH's write inside the caller's write (a restore).
  return { list, listBody, releaseListBody, create, update, remove, publish, importIn, createIn, updatesIn };
}

export type ComponentsService = ReturnType<typeof createComponentsService>;

/** What an import writes into the library: new components, and updates of the base text or of a variant. */
export type ComponentsImport = TextsImport<NewComponentInput, ComponentUpdateInput>;
