import { createWriteStream } from 'node:fs';
import { rename, stat, unlink } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import { type BackupRow, type IdMap, type IdMaps, PAGE_SIZE, type TableRestorer } from '../../db/backup-rows.js';
import { consistentReadTransaction } from '../../db/query-plan.js';
import type { Database, Executor } from '../../db/schema.js';
import { badRequest, conflict } from '../../http/errors.js';
import {
  apiKeysRestorer,
  checkSettings,
  insertRestoredWorkspace,
  restoreSettings,
  soleWorkspaceId,
  usersRestorer,
} from '../accounts/accounts.backup.service.js';
import { blocksRestorer } from '../blocks/blocks.backup.service.js';
import { beginRestoreWrite, changesRestorer, restoredRevision } from '../changes/changes.backup.service.js';
import type { WritePath } from '../changes/index.js';
import { commentsRestorer } from '../comments/comments.backup.service.js';
import { foldersRestorer } from '../folders/folders.backup.service.js';
import { machineTranslationRestorers } from '../machine-translation/mt.backup.service.js';
import { followsRestorer } from '../notifications/notifications.backup.service.js';
import { projectsRestorer } from '../projects/projects.backup.service.js';
import {
  releaseContentsRestorer,
  releasePinsRestorer,
  releasesRestorer,
  releaseTextsRestorer,
} from '../releases/releases.backup.service.js';
import { statusesRestorer } from '../statuses/statuses.backup.service.js';
import { styleguideRestorers } from '../styleguides/styleguides.backup.service.js';
import { suggestionsRestorer } from '../suggestions/suggestions.backup.service.js';
import {
  indexRestoredTexts,
  textsRestorer,
  textVariablesRestorer,
  textVariantsRestorer,
} from '../texts/texts.backup.service.js';
import { variablesRestorer } from '../variables/variables.backup.service.js';
import { variantsRestorer } from '../variants/variants.backup.service.js';
import { type OpenBackup, openBackup } from './backup.file.js';
import { REF_TABLES, TABLES, type TableName, WORKSPACE_REFS } from './backup.format.js';
import { backupText } from './backup.writer.js';

export interface TransferOptions {
  /** Told the rows read or written so far, after each page. */
  progress?: (rows: number) => void;
  /** The export's time (default: now). */
  exportedAt?: string;
}

export interface RestoreSummary {
  workspaceId: number;
  /** Rows restored per table of the file. */
  restored: Record<TableName, number>;
  /** API keys left out because this database already holds their id or hash. */
  skippedKeys: string[];
}

/**
 * What makes a workspace not empty: any content, or history other than users joining. A new
 * workspace's workflow and built-in style guide, its users and keys are not content. Counted by
 * the database, so a large workspace is not read to be refused.
 */
async function contentOf(executor: Executor, workspaceId: number): Promise<string[]> {
  const count = async (what: string, query: ReturnType<typeof sql>) => {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${query}`.execute(executor);
    const n = Number(rows[0]?.n ?? 0);
    return n > 0 ? `${n} ${what}` : undefined;
  };
  const ws = workspaceId;
  const found = [
    await count('texts', sql`texts where workspace_id = ${ws}`),
    await count('variants', sql`variants where workspace_id = ${ws}`),
    await count('variables', sql`variables where workspace_id = ${ws}`),
    await count('folders', sql`component_folders where workspace_id = ${ws}`),
    await count('projects or bases', sql`projects where workspace_id = ${ws}`),
    await count('style guides', sql`styleguides where workspace_id = ${ws} and developer_id <> 'default'`),
    await count(
      'style guide entries',
      sql`(select r.id from styleguide_rules r join styleguides g on g.id = r.styleguide_id where g.workspace_id = ${ws}
        union all select t.id from styleguide_terms t join styleguides g on g.id = t.styleguide_id where g.workspace_id = ${ws}) as e`,
    ),
    await count('comments', sql`comments where workspace_id = ${ws}`),
    await count('suggestions', sql`suggestions where workspace_id = ${ws}`),
    await count('machine translation providers', sql`mt_providers where workspace_id = ${ws}`),
    await count('releases', sql`releases where workspace_id = ${ws}`),
    await count('changes in history', sql`changes where workspace_id = ${ws} and kind <> 'user'`),
  ];
  return found.filter((f): f is string => f !== undefined);
}

export function createBackupService(deps: {
  db: Kysely<Database>;
  writes: WritePath;
  requireWorkspace: (workspaceId: number) => Promise<unknown>;
}) {
  const { db, writes } = deps;

  /**
   * Writes the whole workspace to `path` as one consistent read (a snapshot on PostgreSQL), a
   * page at a time through gzip: written beside `path` first and renamed when complete, so an
   * interrupted export never leaves half a backup.
   */
  async function exportFile(workspaceId: number, path: string, options: TransferOptions = {}) {
    const exportedAt = options.exportedAt ?? new Date().toISOString();
    await deps.requireWorkspace(workspaceId);
    const partial = `${path}.partial`;
    try {
      await consistentReadTransaction(db).execute((trx) =>
        pipeline(
          Readable.from(backupText(trx, workspaceId, exportedAt, options.progress)),
          createGzip(),
          createWriteStream(partial),
        ),
      );
    } catch (error) {
      await unlink(partial).catch(() => undefined);
      throw error;
    }
    await rename(partial, path);
    return { workspaceId, file: path, bytes: (await stat(path)).size };
  }

  /**
   * Restores a backup file into an empty workspace (a new one, named like the backup's, when none
   * is given), reading it a line at a time. Everything is one transaction, the new workspace
   * included: every row is checked before its page is written, and a row that does not pass
   * rolls back all that was written, so a refused file leaves the database as it was. The
   * restore is not a change of its own: the history afterwards is the backup's.
   */
  async function importFile(path: string, into?: number, options: TransferOptions = {}): Promise<RestoreSummary> {
    if (into !== undefined) await deps.requireWorkspace(into);
    const file = await openBackup(path);
    try {
      const done = await restore(file, into, options.progress);
      if (done.revision !== undefined) writes.committed(done.summary.workspaceId, done.revision);
      return done.summary;
    } finally {
      await file.close();
    }
  }

  async function restore(file: OpenBackup, into: number | undefined, progress?: (rows: number) => void) {
    const settings = checkSettings(file.header.workspace);
    return db.transaction().execute(async (trx) => {
      const workspaceId = into ?? (await insertRestoredWorkspace(trx, settings));
      await beginRestoreWrite(trx, workspaceId);
      if (into !== undefined) {
        const content = await contentOf(trx, workspaceId);
        if (content.length > 0) {
          throw conflict(
            `Workspace ${workspaceId} is not empty (${content.join(', ')}): a backup is restored only into an empty workspace; leave out --workspace to restore into a new one`,
          );
        }
      }
      await restoreSettings(trx, workspaceId, settings);
      const maps: IdMaps = {
        workspaceId,
        users: new Map(),
        variants: new Map(),
        variables: new Map(),
        folders: new Map(),
        projects: new Map(),
        blocks: new Map(),
        texts: new Map(),
        styleguides: new Map(),
        sections: new Map(),
        comments: new Map(),
        suggestions: new Map(),
        mtProviders: new Map(),
        mtJobs: new Map(),
        statuses: new Set(),
      };
      const skippedKeys: string[] = [];
      // Releases are referred to by their texts and pins only: their ids are this module's own map.
      const releaseIds: IdMap = new Map();
      const guides = styleguideRestorers(maps);
      const mt = machineTranslationRestorers(maps);
      const restorers: Record<TableName, TableRestorer> = {
        users: usersRestorer(maps),
        apiKeys: apiKeysRestorer(maps, skippedKeys),
        statuses: statusesRestorer(maps),
        variants: variantsRestorer(maps),
        variables: variablesRestorer(maps),
        folders: foldersRestorer(maps),
        projects: projectsRestorer(maps),
        blocks: blocksRestorer(maps),
        texts: textsRestorer(maps),
        textVariants: textVariantsRestorer(maps),
        textVariables: textVariablesRestorer(maps),
        styleguides: guides.styleguides,
        styleguideSections: guides.sections,
        styleguideRules: guides.rules,
        styleguideTerms: guides.terms,
        comments: commentsRestorer(maps),
        suggestions: suggestionsRestorer(maps),
        follows: followsRestorer(maps),
        mtProviders: mt.providers,
        mtJobs: mt.jobs,
        mtJobItems: mt.items,
        changes: changesRestorer(workspaceId, (ref) => refIn(maps, ref)),
        releaseContents: releaseContentsRestorer(maps),
        releases: releasesRestorer(maps, releaseIds),
        releaseTexts: releaseTextsRestorer(releaseIds),
        releasePins: releasePinsRestorer(maps, releaseIds),
      };
      const restored = Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<TableName, number>;
      let current = -1;
      let rows = 0;
      let page: BackupRow[] = [];
      const flush = async () => {
        if (page.length === 0) return;
        const table = TABLES[current] as TableName;
        await restorers[table].rows(trx, page, restored[table] - page.length);
        page = [];
      };
      // Finishes the table under way and starts each one up to `target` (TABLES.length: the end).
      const advanceTo = async (target: number) => {
        while (current < target) {
          if (current >= 0) {
            await flush();
            await restorers[TABLES[current] as TableName].finish?.(trx);
          }
          current += 1;
          if (current < TABLES.length) await restorers[TABLES[current] as TableName].start?.(trx);
        }
      };
      for await (const { table, row } of file.rows) {
        await advanceTo(TABLES.indexOf(table));
        page.push(row);
        restored[table] += 1;
        if (page.length >= PAGE_SIZE) {
          await flush();
          rows += PAGE_SIZE;
          progress?.(rows);
        }
      }
      await advanceTo(TABLES.length);
      await indexRestoredTexts(trx, workspaceId);
      restored.apiKeys -= skippedKeys.length;
      const revision = await restoredRevision(trx, workspaceId);
      return { summary: { workspaceId, restored, skippedKeys } as RestoreSummary, revision };
    });
  }

  return {
    exportFile,
    importFile,
    /** The workspace a command means when it names none: the only one, else a 400 asking. */
    async defaultWorkspace(): Promise<number> {
      const id = await soleWorkspaceId(db);
      if (id === undefined) throw badRequest('--workspace: this database holds several workspaces (or none); name one');
      return id;
    },
  };
}

const MAP_OF: Partial<Record<TableName, keyof Omit<IdMaps, 'workspaceId' | 'statuses'>>> = {
  users: 'users',
  variants: 'variants',
  variables: 'variables',
  folders: 'folders',
  projects: 'projects',
  blocks: 'blocks',
  texts: 'texts',
  styleguides: 'styleguides',
  comments: 'comments',
  suggestions: 'suggestions',
};

/** A change's record ref in this database: the record's new row id, or the ref as the file has it. */
function refIn(maps: IdMaps, ref: string): string {
  const cut = ref.indexOf(':');
  const kind = ref.slice(0, cut);
  const id = ref.slice(cut + 1);
  if (id === '@' && WORKSPACE_REFS.has(kind)) return `${kind}:${maps.workspaceId}`;
  const table = REF_TABLES[kind];
  const map: IdMap | undefined = table && MAP_OF[table] ? maps[MAP_OF[table]] : undefined;
  const mapped = map && /^\d+$/.test(id) ? map.get(Number(id)) : undefined;
  return mapped === undefined ? ref : `${kind}:${mapped}`;
}

export type BackupService = ReturnType<typeof createBackupService>;
