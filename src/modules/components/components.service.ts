import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/dialect.js';
import type { Database, Executor } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { conflict } from '../../http/errors.js';
import type { RichTextMode } from '../../richtext/index.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { Change, PlannedWrite, WritePath, WriteScope } from '../changes/index.js';
import type { FoldersService } from '../folders/folders.service.js';
import type { StatusesService } from '../statuses/statuses.service.js';
import {
  applyUpdatePlans,
  assertDistinctCreateIds,
  assertIfMatch,
  createTexts,
  deleteTexts,
  detachInstances,
  existingDeveloperIds,
  type FilterKey,
  type IfMatch,
  loadExistingTexts,
  loadTextsByDeveloperIds,
  loadWriteContext,
  PLURAL_FORMS,
  parseFilter,
  type TextCascades,
  type TextsReader,
  targetVariant,
  textChanges,
  updatedEntity,
  variantNotFoundMessage,
  wantedIds,
} from '../texts/index.js';
import type { VariablesService } from '../variables/variables.service.js';
import type { VariantsService } from '../variants/variants.service.js';
import { newComponent, planCreate } from './components.create.js';
import { publishTextItem } from './components.publish.js';
import type {
  ComponentUpdateInput,
  CreateComponentsInput,
  NewComponentInput,
  PublishInput,
  UpdateComponentsInput,
} from './components.schemas.js';
import { componentNotFound, planUpdates } from './components.update.js';

const ROOT = 'root';
const FILTER_KEYS: readonly FilterKey[] = ['folders', 'variants', 'statuses', 'tags', 'assignee', 'integrated'];

export interface ListQuery {
  filter?: string;
  richText?: RichTextMode;
  withEtag?: boolean;
}

export interface ComponentsDeps {
  db: Kysely<Database>;
  writes: WritePath;
  reader: Pick<TextsReader, 'records'>;
  texts: Pick<TextCascades, 'lookupsFor'>;
  statuses: Pick<StatusesService, 'keys'>;
  accounts: Pick<AccountsService, 'userIdsByEmail' | 'supSubEnabled'>;
  variants: Pick<VariantsService, 'resolveVariants' | 'ensureVariant'>;
  variables: Pick<VariablesService, 'resolveVariables'>;
  folders: Pick<FoldersService, 'loadFolderTree'>;
}

export function createComponentsService(deps: ComponentsDeps) {
  const { writes } = deps;

  const writeContext = (
    trx: Executor,
    workspaceId: number,
    userIds: ReadonlyMap<string, number>,
    names: { variants: string[]; variables: string[] },
    richText: boolean,
  ) => loadWriteContext(deps, trx, workspaceId, userIds, names, richText);

  /** The create of a POST (or an import) inside the caller's transaction: checked whole, then inserted. */
  async function createIn(
    trx: Transaction<Database>,
    workspaceId: number,
    input: CreateComponentsInput,
    userIds: ReadonlyMap<string, number>,
  ): Promise<PlannedWrite<string[]>> {
    const components = input.components;
    assertDistinctCreateIds(components, 'components');
    const names = {
      variants: components.flatMap((c) => (c.variants ?? []).map((v) => v.variantId)),
      variables: components.flatMap((c) => c.variables ?? []),
    };
    const context = await writeContext(trx, workspaceId, userIds, names, input.richText === 'html');
    const tree = await deps.folders.loadFolderTree(trx, workspaceId);
    const existing = await loadExistingTexts(trx, workspaceId, 'component', wantedIds(components));
    const plan = planCreate(components, context, tree, existing);
    const created = await createTexts(trx, workspaceId, plan.map(newComponent), now());
    const lookups = await deps.texts.lookupsFor(trx, workspaceId, created);
    return {
      changes: created.flatMap((entity) => textChanges(null, entity, lookups)),
      result: plan.map((p) => p.developerId),
    };
  }

  async function create(scope: WriteScope, input: CreateComponentsInput): Promise<string[]> {
    const { workspaceId } = scope;
    if (input.components.length === 0) return [];
    // Outside the transaction: the accounts service reads on its own connection.
    const userIds = await deps.accounts.userIdsByEmail(workspaceId);
    try {
      return await writes.write(scope, (trx) => createIn(trx, workspaceId, input, userIds));
    } catch (error) {
      // Writers to one workspace queue on its row, so this is only a safety net.
      if (isUniqueViolation(error)) throw conflict('Component already exists in workspace');
      throw error;
    }
  }

  /** The updates of a PATCH (or an import) inside the caller's transaction: all checked, then the plan to apply. */
  async function updatesIn(
    trx: Transaction<Database>,
    workspaceId: number,
    input: UpdateComponentsInput,
    userIds: ReadonlyMap<string, number>,
  ): Promise<PlannedWrite<undefined>> {
    const { variant, created } = await targetVariant(deps.variants, trx, workspaceId, input, variantNotFoundMessage);
    const ids = input.updates.map((u) => u.developerId);
    const entities = await loadTextsByDeveloperIds(trx, workspaceId, 'component', ids);
    const names = { variants: [], variables: input.updates.flatMap((u) => u.variables ?? []) };
    const context = await writeContext(trx, workspaceId, userIds, names, input.richText === 'html');
    const movesToFolder = input.updates.some((u) => u.folderId != null && u.folderId !== ROOT);
    const tree = movesToFolder ? await deps.folders.loadFolderTree(trx, workspaceId) : null;
    const pluralIds = ids.flatMap((id) => PLURAL_FORMS.map((form) => `${id}_${form}`));
    const existing = await existingDeveloperIds(trx, workspaceId, 'component', pluralIds);
    const plans = planUpdates(
      input.updates,
      new Map(entities.map((e) => [e.developerId, e])),
      variant,
      context,
      tree,
      (id) => existing.has(id),
    );

    const lookups = await deps.texts.lookupsFor(trx, workspaceId, entities);
    const changes = [
      ...(created ? [created] : []),
      ...plans.flatMap((plan) => textChanges(plan.entity, updatedEntity(plan), lookups)),
    ];
    return { changes, apply: (trx) => applyUpdatePlans(trx, workspaceId, plans, variant), result: undefined };
  }

  /** `ifMatch`: the ETags the client read (`If-Match`); a component changed since is a 412. */
  async function update(scope: WriteScope, input: UpdateComponentsInput, ifMatch: IfMatch = null): Promise<void> {
    const userIds = await deps.accounts.userIdsByEmail(scope.workspaceId);
    await writes.write(scope, async (trx) => {
      const ids = input.updates.map((u) => u.developerId);
      await assertIfMatch(trx, scope.workspaceId, 'component', ids, ifMatch);
      return updatesIn(trx, scope.workspaceId, input, userIds);
    });
  }

  /**
   * The writes of a file import, inside the import's one transaction: a create, then one PATCH
   * per variant, each checked whole by the routes' own rules. No batch limit: that is the HTTP
   * routes' bound on one request, and an import is as large as its file.
   */
  async function importIn(
    trx: Transaction<Database>,
    workspaceId: number,
    userIds: ReadonlyMap<string, number>,
    input: ComponentsImport,
  ): Promise<Change[]> {
    const changes: Change[] = [];
    const richText = input.richText === 'html' ? { richText: 'html' as const } : {};
    if (input.create.length > 0) {
      changes.push(...(await createIn(trx, workspaceId, { components: input.create, ...richText }, userIds)).changes);
    }
    for (const batch of input.updates) {
      if (batch.updates.length === 0) continue;
      const variant = batch.variantId === undefined ? {} : { variantId: batch.variantId };
      const planned = await updatesIn(trx, workspaceId, { updates: batch.updates, ...variant, ...richText }, userIds);
      await planned.apply?.(trx);
      changes.push(...planned.changes);
    }
    return changes;
  }

  /** Deletes components, all or none; their linked instances keep the text and are detached. */
  async function remove(scope: WriteScope, developerIds: readonly string[]): Promise<void> {
    const { workspaceId } = scope;
    assertDistinctIds(developerIds, (index) => `developerIds[${index}]`);
    await writes.write(scope, async (trx) => {
      const entities = await loadTextsByDeveloperIds(trx, workspaceId, 'component', developerIds);
      const found = new Set(entities.map((e) => e.developerId));
      const missing = developerIds.find((id) => !found.has(id));
      if (missing !== undefined) throw componentNotFound(missing);
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
    try {
      return await writes.write(scope, async (trx) => {
        const { developerId, changes } = await publishTextItem(
          trx,
          scope.workspaceId,
          input,
          deps.folders.loadFolderTree,
          deps.texts.lookupsFor,
        );
        return { changes, result: developerId };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('Component already exists in workspace');
      throw error;
    }
  }

  /** GET /components: the records of the texts core's reader, as the bytes of a JSON array. */
  async function list(workspaceId: number, revision: number, query: ListQuery, maxFilterIds: number): Promise<Buffer> {
    const filter = parseFilter(query.filter, FILTER_KEYS, maxFilterIds);
    const textQuery = { kind: 'component' as const, filter };
    return deps.reader.records(workspaceId, revision, textQuery, query.richText ?? null, query.withEtag === true);
  }

  return { list, create, update, remove, publish, importIn };
}

export type ComponentsService = ReturnType<typeof createComponentsService>;

/** What an import writes into the library: new components, and updates of the base text or of a variant. */
export interface ComponentsImport {
  richText?: 'html';
  create: NewComponentInput[];
  updates: Array<{ variantId?: string; updates: ComponentUpdateInput[] }>;
}
