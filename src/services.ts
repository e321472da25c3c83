import type { Kysely } from 'kysely';
import { type Config, loadConfig, type WebhooksConfig } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import type { Database } from './db/schema.js';
import type { OpenSnapshot } from './db/snapshot.js';
import { createAccountsService, userEmails } from './modules/accounts/accounts.service.js';
import { createPeopleService } from './modules/accounts/people.service.js';
import { createWorkspaceService } from './modules/accounts/workspace.service.js';
import { createBackupService } from './modules/backup/backup.service.js';
import { createBlocksService, loadBlocks } from './modules/blocks/blocks.service.js';
import { createHistoryService, createRestoreService, createWritePath } from './modules/changes/index.js';
import { createComponentsService } from './modules/components/components.service.js';
import { createExportsService } from './modules/exports/exports.service.js';
import { createFoldersService, folderDeveloperIds } from './modules/folders/folders.service.js';
import { createImportsService } from './modules/imports/imports.service.js';
import { createLegacyService } from './modules/legacy/legacy.service.js';
import { createProjectsService, projectDeveloperIds } from './modules/projects/projects.service.js';
import { createSearchService } from './modules/search/search.service.js';
import { createStatusesService } from './modules/statuses/statuses.service.js';
import { createStyleguideHooks, createStyleguidesService } from './modules/styleguides/styleguides.service.js';
import { createSwiftDriverService } from './modules/swift-driver/swift-driver.service.js';
import { createTextItemsService } from './modules/text-items/text-items.service.js';
import {
  createSearchIndexer,
  createTextCascades,
  createTextsReader,
  type FieldLookupsLoader,
  textPositions,
} from './modules/texts/index.js';
import { createTranslationStateService } from './modules/translation-state/translation-state.service.js';
import { createVariablesService, listVariables } from './modules/variables/variables.service.js';
import { createVariantsService, listVariants } from './modules/variants/variants.service.js';
import { createWebhooks } from './modules/webhooks/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Every domain service, wired in one place. Each takes only what it needs, and is built after
 * everything it takes: no service refers to one built later. Where two modules need each other
 * (the texts cascades need the owners' names; the owners' writes need the cascades), the one
 * built first takes the other's plain reads (functions of an executor), not its service.
 */
export function createServices(
  db: Kysely<Database>,
  options: {
    changeToken?: () => Promise<string | null> | null;
    historyRetentionDays?: number;
    webhooks?: WebhooksConfig;
    sessions?: Config['sessions'];
    snapshot?: OpenSnapshot;
    limits?: Config['limits'];
  } = {},
) {
  const writes = createWritePath(db);
  // The search documents of the texts a write changed, built a moment after it commits.
  const searchIndex = createSearchIndexer(db, { writing: writes.writing });
  writes.afterCommit(() => searchIndex.scheduled());
  const history = createHistoryService({ db, writes, retentionDays: options.historyRetentionDays ?? 365 });
  const webhooks = createWebhooks({
    db,
    writes,
    changeLog: history,
    config: options.webhooks ?? loadConfig({}).webhooks,
  });
  // What the change log needs to name the rows a text refers to: plain reads of the modules that
  // own them (they need no service, so the cascades exist before the services that use them).
  const fieldLookups: FieldLookupsLoader = async (executor, workspaceId) => {
    const [variantRows, variableRows, users, folderIds, blockRefs, containers] = await Promise.all([
      listVariants(executor, workspaceId),
      listVariables(executor, workspaceId),
      userEmails(executor, workspaceId),
      folderDeveloperIds(executor, workspaceId),
      loadBlocks(executor, workspaceId),
      projectDeveloperIds(executor, workspaceId),
    ]);
    return {
      variants: new Map(variantRows.map((v) => [v.id, v.developerId])),
      variables: new Map(variableRows.map((v) => [v.id, v.name])),
      users,
      folders: folderIds,
      blocks: new Map([...blockRefs].map(([id, block]) => [id, block.developerId])),
      containers,
    };
  };
  const textCascades = createTextCascades(fieldLookups);
  const statuses = createStatusesService({ db, writes, textStatuses: textCascades });
  // A new workspace's style guide and a deleted variant's scopes: the style guides service itself
  // is built further down (it reads through components and text items).
  const styleguideHooks = createStyleguideHooks({ listVariants });
  const accounts = createAccountsService({
    db,
    writes,
    statuses,
    styleguides: styleguideHooks,
    changeToken: options.changeToken,
  });
  const sessions = options.sessions ?? { idleMs: 7 * DAY_MS, maxMs: 30 * DAY_MS, passwordLinkMs: 3 * DAY_MS };
  const people = createPeopleService({
    db,
    writes,
    accounts,
    textAssignees: textCascades,
    sessionIdleMs: sessions.idleMs,
    sessionMaxMs: sessions.maxMs,
    passwordLinkMs: sessions.passwordLinkMs,
  });
  const variants = createVariantsService({
    db,
    writes,
    variantValues: textCascades,
    styleguideScopes: styleguideHooks,
  });
  const folders = createFoldersService({ db, writes, components: textCascades });
  const variables = createVariablesService({ db, writes, variableUsage: textCascades.variableUsage });
  const blocks = createBlocksService({
    db,
    writes,
    itemPositions: textPositions,
    detachFromBlocks: textCascades.detachFromBlocks,
  });
  const projects = createProjectsService({ db, writes, textCascades, deleteBlocksOf: blocks.deleteBlocksOf });
  // The one reader of components and text items, with the one cache of what it read.
  const texts = createTextsReader({
    db,
    statuses,
    accounts,
    variants,
    variables,
    folders,
    projects,
    blocks,
    // Large lists are read page by page from one snapshot, as exports are.
    ...(options.snapshot && { snapshot: options.snapshot }),
  });
  // Components and text items write texts alike; each adds the containers it places them in.
  const textsServiceDeps = {
    db,
    writes,
    reader: texts,
    texts: textCascades,
    statuses,
    accounts,
    variants,
    variables,
    maxTags: (options.limits ?? loadConfig({}).limits).tags,
  };
  const components = createComponentsService({ ...textsServiceDeps, folders });
  const textItems = createTextItemsService({ ...textsServiceDeps, projects, blocks });
  const translationState = createTranslationStateService({ db, texts, projects, folders, variants });
  const search = createSearchService({
    db,
    folderDeveloperIds: folders.folderDeveloperIds,
    projectDeveloperIds: projects.projectDeveloperIds,
    indexUpToDate: searchIndex.upToDate,
  });
  // Without a snapshot source (the CLI), an export reads query by query on the shared connection.
  const snapshot = options.snapshot ?? (async () => ({ db, close: async () => {} }));
  const exports = createExportsService({ snapshot, accounts, texts, variants, variables });
  const imports = createImportsService({
    db,
    writes,
    accounts,
    variants,
    variables,
    projects,
    blocks,
    folders,
    textItems,
    components,
  });
  const styleguides = createStyleguidesService({ db, writes, variants, components, textItems });
  const workspace = createWorkspaceService({ db, writes });
  const backup = createBackupService({
    db,
    writes,
    requireWorkspace: workspace.get,
  });
  const legacy = createLegacyService(
    { db, projects, texts, folders, blocks, statuses, variants, variables, workspace, components, snapshot },
    options.limits ?? loadConfig({}).limits,
  );

  const swiftDriver = createSwiftDriverService({
    db,
    texts,
    variables,
    projects,
    folders,
    statuses,
    workspace,
    // The driver reads its keys, then its texts, from one snapshot (docs/swift-driver.md).
    snapshot,
  });
  // Restoring history writes through the services that own each kind of record.
  const restore = createRestoreService({
    db,
    writes,
    userIdsByEmail: accounts.userIdsByEmail,
    projectIds: async (trx, workspaceId) =>
      new Set(
        (await projects.listProjectRefs(trx, workspaceId))
          .filter((p) => p.kind === 'project')
          .map((p) => p.developerId),
      ),
    blocks: async (trx, workspaceId) => {
      const refs = await projects.projectDeveloperIds(trx, workspaceId);
      const all = await blocks.loadBlocks(trx, workspaceId);
      return new Map(
        [...all].map(([id, b]) => [id, { developerId: b.developerId, projectId: refs.get(b.projectId) ?? '' }]),
      );
    },
    folders: async (trx, workspaceId) => {
      const tree = await folders.loadFolderTree(trx, workspaceId);
      return new Map(
        tree.folders.map((f) => [f.developerId, { name: f.name, parentId: tree.developerIdOf(f.parentId) }]),
      );
    },
    projects: { create: projects.createProjects, update: projects.updateProjects, remove: projects.removeProjects },
    blocksOps: { create: blocks.create, update: blocks.update, remove: blocks.remove },
    foldersOps: { create: folders.create, place: folders.place, remove: folders.remove },
    components: {
      createIn: (trx, workspaceId, input, userIds) =>
        components.createIn(trx, workspaceId, input as unknown as Parameters<typeof components.createIn>[2], userIds),
      updateIn: (trx, workspaceId, input, userIds) =>
        components.updatesIn(trx, workspaceId, input as unknown as Parameters<typeof components.updatesIn>[2], userIds),
      remove: components.remove,
    },
    textItems: {
      createIn: (trx, workspaceId, input, userIds) =>
        textItems.createIn(trx, workspaceId, input as unknown as Parameters<typeof textItems.createIn>[2], userIds),
      updateIn: (trx, workspaceId, input, userIds) =>
        textItems.updateIn(trx, workspaceId, input as unknown as Parameters<typeof textItems.updateIn>[2], userIds),
      place: textItems.place,
      remove: textItems.remove,
      relink: textItems.relink,
      detach: textItems.detach,
    },
  });

  return {
    writes,
    restore,
    searchIndex,
    backup,
    texts,
    swiftDriver,
    textCascades,
    history,
    accounts,
    people,
    search,
    blocks,
    components,
    exports,
    folders,
    imports,
    projects,
    statuses,
    styleguides,
    textItems,
    variables,
    variants,
    workspace,
    legacy,
    webhooks,
    translationState,
  };
}

export type Services = ReturnType<typeof createServices>;

/** The services of a server process: built once, shared by the app, the CLI and background jobs. */
export function servicesFor(config: Config, database: DatabaseHandle): Services {
  const services = createServices(database.db, {
    changeToken: database.changeToken,
    snapshot: database.snapshot,
    historyRetentionDays: config.historyRetentionDays,
    webhooks: config.webhooks,
    sessions: config.sessions,
    limits: config.limits,
  });
  // On PostgreSQL, what other servers commit reaches this one's caches (closed with the database).
  database.watchChanges(services.accounts.changeEvents, {
    onError: (error) => console.warn(`copydesk: change feed: ${error instanceof Error ? error.message : error}`),
  });
  return services;
}
