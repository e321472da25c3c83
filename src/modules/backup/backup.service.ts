import { gunzipSync, gzipSync } from 'node:zlib';
import type { Kysely, Transaction } from 'kysely';
import type { IdMap, IdMaps } from '../../db/backup-rows.js';
import { dialectOf } from '../../db/dialect.js';
import type { Database, Executor } from '../../db/schema.js';
import { badRequest, conflict } from '../../http/errors.js';
import { dumpAccounts, restoreAccounts, soleWorkspaceId } from '../accounts/accounts.backup.service.js';
import { dumpBlocks, restoreBlocks } from '../blocks/blocks.backup.service.js';
import { dumpChanges, restoreChanges } from '../changes/changes.backup.service.js';
import { CLI_ACTOR, type WritePath } from '../changes/index.js';
import { dumpFolders, restoreFolders } from '../folders/folders.backup.service.js';
import { dumpProjects, restoreProjects } from '../projects/projects.backup.service.js';
import { dumpStatuses, restoreStatuses } from '../statuses/statuses.backup.service.js';
import { dumpStyleguides, restoreStyleguides } from '../styleguides/styleguides.backup.service.js';
import { dumpTexts, restoreTexts } from '../texts/texts.backup.service.js';
import { dumpVariables, restoreVariables } from '../variables/variables.backup.service.js';
import { dumpVariants, restoreVariants } from '../variants/variants.backup.service.js';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupFile,
  canonicalTables,
  parseBackup,
  REF_TABLES,
  TABLES,
  type TableName,
  type Tables,
  WORKSPACE_REFS,
} from './backup.format.js';

export interface RestoreSummary {
  workspaceId: number;
  /** Rows restored per table of the file. */
  restored: Record<TableName, number>;
  /** API keys left out because this database already holds their id or hash. */
  skippedKeys: string[];
}

async function readTables(executor: Executor, workspaceId: number) {
  const accounts = await dumpAccounts(executor, workspaceId);
  const tables: Tables = {
    users: accounts.users,
    apiKeys: accounts.apiKeys,
    statuses: await dumpStatuses(executor, workspaceId),
    variants: await dumpVariants(executor, workspaceId),
    variables: await dumpVariables(executor, workspaceId),
    folders: await dumpFolders(executor, workspaceId),
    projects: await dumpProjects(executor, workspaceId),
    blocks: await dumpBlocks(executor, workspaceId),
    ...(await dumpTexts(executor, workspaceId)),
    ...(await dumpStyleguides(executor, workspaceId)),
    changes: await dumpChanges(executor, workspaceId),
  };
  return { workspace: accounts.workspace, tables };
}

/**
 * What makes a workspace not empty: any content, or history other than users joining. A new
 * workspace's workflow and built-in style guide, its users and keys are not content.
 */
function contentOf(tables: Tables): string[] {
  const found: string[] = [];
  const add = (what: string, rows: readonly unknown[]) => rows.length > 0 && found.push(`${rows.length} ${what}`);
  add('texts', tables.texts);
  add('variants', tables.variants);
  add('variables', tables.variables);
  add('folders', tables.folders);
  add('projects or bases', tables.projects);
  add(
    'style guides',
    tables.styleguides.filter((g) => g.developer_id !== 'default'),
  );
  add('style guide entries', [...tables.styleguideRules, ...tables.styleguideTerms]);
  add(
    'changes in history',
    tables.changes.filter((c) => c.kind !== 'user'),
  );
  return found;
}

export function createBackupService(deps: {
  db: Kysely<Database>;
  writes: WritePath;
  createWorkspace: (name: string) => Promise<{ id: number }>;
  requireWorkspace: (workspaceId: number) => Promise<unknown>;
}) {
  const { db, writes } = deps;

  /** The whole workspace as one consistent read (a snapshot on PostgreSQL). */
  async function exportWorkspace(workspaceId: number, exportedAt = new Date().toISOString()): Promise<BackupFile> {
    await deps.requireWorkspace(workspaceId);
    const read = (trx: Transaction<Database>) => readTables(trx, workspaceId);
    const builder = db.transaction();
    const { workspace, tables } = await (dialectOf(db) === 'postgres'
      ? builder.setIsolationLevel('repeatable read')
      : builder
    ).execute(read);
    return {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      exportedAt,
      workspace,
      tables: canonicalTables(tables, workspaceId),
    };
  }

  /**
   * Restores a backup into an empty workspace (a new one, named like the backup's, when none is
   * given), in one write: all or nothing. The restore is not a change of its own: the history
   * afterwards is the backup's.
   */
  async function importWorkspace(file: BackupFile, into?: number): Promise<RestoreSummary> {
    if (into !== undefined) await deps.requireWorkspace(into);
    const workspaceId = into ?? (await deps.createWorkspace(String(file.workspace.name ?? 'Restored workspace'))).id;
    return writes.write({ workspaceId, actor: CLI_ACTOR }, async (trx) => {
      const content = contentOf((await readTables(trx, workspaceId)).tables);
      if (content.length > 0) {
        throw conflict(
          `Workspace ${workspaceId} is not empty (${content.join(', ')}): a backup is restored only into an empty workspace; leave out --workspace to restore into a new one`,
        );
      }
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
      };
      const { tables } = file;
      const skippedKeys = await restoreAccounts(trx, maps, {
        workspace: file.workspace,
        users: tables.users,
        apiKeys: tables.apiKeys,
      });
      await restoreStatuses(trx, maps, tables.statuses);
      await restoreVariants(trx, maps, tables.variants);
      await restoreVariables(trx, maps, tables.variables);
      await restoreFolders(trx, maps, tables.folders);
      await restoreProjects(trx, maps, tables.projects);
      await restoreBlocks(trx, maps, tables.blocks);
      await restoreTexts(trx, maps, tables);
      await restoreStyleguides(trx, maps, tables);
      await restoreChanges(
        trx,
        workspaceId,
        tables.changes.map((c) => ({ ...c, record_ref: refIn(maps, String(c.record_ref)) })),
      );
      const restored = Object.fromEntries(TABLES.map((t) => [t, tables[t].length])) as Record<TableName, number>;
      restored.apiKeys -= skippedKeys.length;
      return { changes: [], result: { workspaceId, restored, skippedKeys } };
    });
  }

  return {
    exportWorkspace,
    importWorkspace,
    /** The workspace a command means when it names none: the only one, else a 400 asking. */
    async defaultWorkspace(): Promise<number> {
      const id = await soleWorkspaceId(db);
      if (id === undefined) throw badRequest('--workspace: this database holds several workspaces (or none); name one');
      return id;
    },
    /** The backup as the bytes of its file: gzip of the JSON document. */
    async exportFile(workspaceId: number): Promise<Buffer> {
      return gzipSync(JSON.stringify(await exportWorkspace(workspaceId)));
    },
    async importFile(bytes: Buffer, into?: number): Promise<RestoreSummary> {
      let document: unknown;
      try {
        document = JSON.parse(gunzipSync(bytes).toString('utf8'));
      } catch {
        throw badRequest('file: not a gzip-compressed JSON document');
      }
      return importWorkspace(parseBackup(document), into);
    },
  };
}

const MAP_OF: Partial<Record<TableName, keyof Omit<IdMaps, 'workspaceId'>>> = {
  users: 'users',
  variants: 'variants',
  variables: 'variables',
  folders: 'folders',
  projects: 'projects',
  blocks: 'blocks',
  texts: 'texts',
  styleguides: 'styleguides',
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
