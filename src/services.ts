import type { Kysely } from 'kysely';
import {
  type Config,
  loadConfig,
  type MachineTranslationConfig,
  type MailConfig,
  type WebhooksConfig,
} from './config.js';
import type { DatabaseHandle } from './db/database.js';
import type { Database } from './db/schema.js';
import type { OpenSnapshot } from './db/snapshot.js';
import { createAccountsService, userEmails } from './modules/accounts/accounts.service.js';
import { createPeopleService } from './modules/accounts/people.service.js';
import { createWorkspaceService } from './modules/accounts/workspace.service.js';
import { createBackupService } from './modules/backup/backup.service.js';
import { createBlocksService, loadBlocks } from './modules/blocks/blocks.service.js';
import { createHistoryService, createRestoreService, createWritePath } from './modules/changes/index.js';
import { commentNotices, createCommentsService } from './modules/comments/comments.service.js';
import { createComponentsService } from './modules/components/components.service.js';
import { createEvents, databasePresenceStore, redisPresenceStore } from './modules/events/index.js';
import { createExportsService } from './modules/exports/exports.service.js';
import { createFoldersService, folderDeveloperIds } from './modules/folders/folders.service.js';
import { createImportsService } from './modules/imports/imports.service.js';
import { createLegacyService } from './modules/legacy/legacy.service.js';
import { createMachineTranslation } from './modules/machine-translation/index.js';
import { createMail } from './modules/mail/index.js';
import { createNotificationsService, emailNotifications } from './modules/notifications/notifications.service.js';
import { createProjectsService, projectDeveloperIds } from './modules/projects/projects.service.js';
import { createDistributionsService } from './modules/releases/distributions.service.js';
import { createPinsService } from './modules/releases/pins.service.js';
import { createReleasesService } from './modules/releases/releases.service.js';
import { createSearchService } from './modules/search/search.service.js';
import { createStatusesService } from './modules/statuses/statuses.service.js';
import { createStyleguideHooks, createStyleguidesService } from './modules/styleguides/styleguides.service.js';
import { createSuggestionsService } from './modules/suggestions/suggestions.service.js';
import { createSwiftDriverService } from './modules/swift-driver/swift-driver.service.js';
import { createTextItemsService } from './modules/text-items/text-items.service.js';
import {
  createSearchIndexer,
  createTextCascades,
  createTextsReader,
  type FieldLookupsLoader,
  textPositions,
} from './modules/texts/index.js';
import { createTranslationMemoryService } from './modules/translation-memory/translation-memory.service.js';
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
    mail?: MailConfig;
    machineTranslation?: MachineTranslationConfig;
    /** Where people reach this server: the links of emails. */
    publicUrl?: string;
    sessions?: Config['sessions'];
    snapshot?: OpenSnapshot;
    limits?: Config['limits'];
    /** The live event stream's settings, and Redis for presence when configured. */
    events?: Config['events'];
    redis?: Config['redis'];
    /** The time for presence entries (tests move it by hand). */
    now?: () => number;
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
  const defaults = options.mail === undefined || options.publicUrl === undefined ? loadConfig({}) : null;
  const mail = createMail({
    db,
    config: options.mail ?? (defaults as Config).mail,
    publicUrl: options.publicUrl ?? (defaults as Config).publicUrl,
  });
  const sessions = options.sessions ?? { idleMs: 7 * DAY_MS, maxMs: 30 * DAY_MS, passwordLinkMs: 3 * DAY_MS };
  const people = createPeopleService({
    db,
    writes,
    accounts,
    textAssignees: textCascades,
    enqueueEmail: mail.service.enqueue,
    publicUrl: options.publicUrl ?? (defaults as Config).publicUrl,
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
  // Without a snapshot source (the CLI), an export reads query by query on the shared connection.
  const snapshot = options.snapshot ?? (async () => ({ db, close: async () => {} }));
  // Releases freeze texts through the reader; the lists and exports read them back with `release=`.
  const releases = createReleasesService({ db, snapshot, texts, accounts });
  const distributions = createDistributionsService({ db, writes, releases });
  const pins = createPinsService({ db });
  // Components and text items write texts alike; each adds the containers it places them in.
  const textsServiceDeps = {
    db,
    writes,
    reader: texts,
    releases,
    texts: textCascades,
    statuses,
    accounts,
    variants,
    variables,
    maxTags: (options.limits ?? loadConfig({}).limits).tags,
  };
  const components = createComponentsService({ ...textsServiceDeps, folders });
  const textItems = createTextItemsService({
    ...textsServiceDeps,
    projects,
    blocks,
    indexUpToDate: searchIndex.upToDate,
  });
  const translationState = createTranslationStateService({ db, texts, projects, folders, variants });
  const search = createSearchService({
    db,
    folderDeveloperIds: folders.folderDeveloperIds,
    projectDeveloperIds: projects.projectDeveloperIds,
    indexUpToDate: searchIndex.upToDate,
  });
  const translationMemory = createTranslationMemoryService({
    db,
    listVariants: variants.listVariants,
    folderDeveloperIds: folders.folderDeveloperIds,
    projectDeveloperIds: projects.projectDeveloperIds,
    indexUpToDate: searchIndex.upToDate,
  });
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
  // Comments name texts through the core, and their variants, projects and mentioned users
  // through those modules' plain reads.
  const comments = createCommentsService({
    db,
    writes,
    variantsOf: listVariants,
    projectsOf: projects.listProjectRefs,
    usersOf: userEmails,
  });
  // Suggestions apply through the very updates of a PATCH of their text, each kind's own.
  const suggestions = createSuggestionsService({
    db,
    writes,
    variantsOf: listVariants,
    projectsOf: projects.listProjectRefs,
    userIdsByEmail: accounts.userIdsByEmail,
    supSubEnabled: accounts.supSubEnabled,
    updateIn: {
      text_item: (trx, workspaceId, input, userIds) =>
        textItems.updateIn(trx, workspaceId, input as Parameters<typeof textItems.updateIn>[2], userIds),
      component: (trx, workspaceId, input, userIds) =>
        components.updatesIn(trx, workspaceId, input as Parameters<typeof components.updatesIn>[2], userIds),
    },
  });
  // Machine translation lands through the suggestions' create and the texts' own PATCH updates,
  // reads the style guides for its prompts, and the translation state for what is missing.
  const machineTranslation = createMachineTranslation({
    db,
    writes,
    config: options.machineTranslation ?? loadConfig({}).machineTranslation,
    variantsOf: listVariants,
    baseLanguage: accounts.baseLanguage,
    supSubEnabled: accounts.supSubEnabled,
    styleguides: styleguides.list,
    userIdsByEmail: accounts.userIdsByEmail,
    updateIn: {
      text_item: (trx, workspaceId, input, userIds) =>
        textItems.updateIn(trx, workspaceId, input as Parameters<typeof textItems.updateIn>[2], userIds),
      component: (trx, workspaceId, input, userIds) =>
        components.updatesIn(trx, workspaceId, input as Parameters<typeof components.updatesIn>[2], userIds),
    },
    suggest: suggestions.create,
    textsToTranslate: translationState.textsToTranslate,
  });
  // Notifications subscribe to the write path after comments, so a comment's thread is read as
  // that write left it; they read users, projects and comments through their owners' plain reads.
  const notifications = createNotificationsService({
    db,
    writes,
    usersOf: userEmails,
    projectsOf: projects.projectDeveloperIds,
    commentNotices,
    // Each notification is emailed in its write's transaction, when this server sends email: at
    // once, in the daily digest or not at all, as its recipient chose (docs/notifications.md#email).
    ...(mail.service.enabled && {
      onNotified: emailNotifications(mail.service.enqueue, options.publicUrl ?? (defaults as Config).publicUrl),
    }),
  });
  // The live event stream reads the change log; presence is shared through Redis when there is one.
  const events = createEvents({
    history,
    presenceStore: options.redis
      ? redisPresenceStore(options.redis.url, options.redis.prefix)
      : databasePresenceStore(db),
    config: options.events ?? loadConfig({}).events,
    ...(options.changeToken && { changeToken: options.changeToken }),
    ...(options.now && { now: options.now }),
    onError: (error) => console.warn(`copydesk: event stream: ${error instanceof Error ? error.message : error}`),
  });
  writes.afterCommit(events.revision);
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
    translationMemory,
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
    mail,
    machineTranslation,
    translationState,
    comments,
    suggestions,
    notifications,
    releases,
    distributions,
    pins,
    events,
  };
}

export type Services = ReturnType<typeof createServices>;

/** The services of a server process: built once, shared by the app, the CLI and background jobs. */
export function servicesFor(
  config: Config,
  database: DatabaseHandle,
  /** The time of presence entries; tests give a clock they move by hand. */
  clock: { now?: () => number } = {},
): Services {
  const services = createServices(database.db, {
    ...clock,
    changeToken: database.changeToken,
    snapshot: database.snapshot,
    historyRetentionDays: config.historyRetentionDays,
    webhooks: config.webhooks,
    mail: config.mail,
    machineTranslation: config.machineTranslation,
    publicUrl: config.publicUrl,
    sessions: config.sessions,
    limits: config.limits,
    events: config.events,
    redis: config.redis,
  });
  // On PostgreSQL, what other servers commit reaches this one's caches and its event streams
  // (closed with the database).
  const keys = services.accounts.changeEvents;
  database.watchChanges(
    {
      revision: (workspaceId, revision) => {
        keys.revision(workspaceId, revision);
        services.events.revision(workspaceId, revision);
      },
      keys: () => keys.keys(),
      connected: () => {
        keys.connected();
        services.events.notified(true);
      },
      disconnected: () => {
        keys.disconnected();
        services.events.notified(false);
      },
    },
    {
      onError: (error) => console.warn(`copydesk: change feed: ${error instanceof Error ? error.message : error}`),
    },
  );
  return services;
}
