import type { BackupRow, DumpSpec } from '../../db/backup-rows.js';
import { pageRows } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';
import { dumpApiKeys, dumpSettings, USERS_DUMP } from '../accounts/accounts.backup.service.js';
import { BLOCKS_DUMP } from '../blocks/blocks.backup.service.js';
import { CHANGES_DUMP } from '../changes/changes.backup.service.js';
import { COMMENTS_DUMP } from '../comments/comments.backup.service.js';
import { FOLDERS_DUMP } from '../folders/folders.backup.service.js';
import { MT_JOB_ITEMS_DUMP, MT_JOBS_DUMP, MT_PROVIDERS_DUMP } from '../machine-translation/mt.backup.service.js';
import { FOLLOWS_DUMP } from '../notifications/notifications.backup.service.js';
import { PROJECTS_DUMP } from '../projects/projects.backup.service.js';
import {
  RELEASE_CONTENTS_DUMP,
  RELEASE_PINS_DUMP,
  RELEASE_TEXTS_DUMP,
  RELEASES_DUMP,
} from '../releases/releases.backup.service.js';
import { dumpStatuses } from '../statuses/statuses.backup.service.js';
import { RULES_DUMP, SECTIONS_DUMP, STYLEGUIDES_DUMP, TERMS_DUMP } from '../styleguides/styleguides.backup.service.js';
import { SUGGESTIONS_DUMP } from '../suggestions/suggestions.backup.service.js';
import { TEXT_VARIABLES_DUMP, TEXT_VARIANTS_DUMP, TEXTS_DUMP } from '../texts/texts.backup.service.js';
import { VARIABLES_DUMP } from '../variables/variables.backup.service.js';
import { VARIANTS_DUMP } from '../variants/variants.backup.service.js';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupHeader,
  NUMBERED,
  REF_TABLES,
  REFERENCES,
  TABLES,
  type TableName,
  WORKSPACE_REFS,
} from './backup.format.js';

/**
 * Writing a backup (version 2) as a stream of text: each table is read in keyset pages and each
 * page leaves as lines before the next is read. What is held is a page of rows and, for the tables
 * other rows refer to, a map from row id to file id (integers: about 40 MB per million rows).
 */

/** Each table's rows: paged from the database, or read whole for the few a workspace has. */
const DUMPS: Record<TableName, DumpSpec | ((executor: Executor, workspaceId: number) => Promise<BackupRow[]>)> = {
  users: USERS_DUMP,
  apiKeys: dumpApiKeys,
  statuses: dumpStatuses,
  variants: VARIANTS_DUMP,
  variables: VARIABLES_DUMP,
  folders: FOLDERS_DUMP,
  projects: PROJECTS_DUMP,
  blocks: BLOCKS_DUMP,
  texts: TEXTS_DUMP,
  textVariants: TEXT_VARIANTS_DUMP,
  textVariables: TEXT_VARIABLES_DUMP,
  styleguides: STYLEGUIDES_DUMP,
  styleguideSections: SECTIONS_DUMP,
  styleguideRules: RULES_DUMP,
  styleguideTerms: TERMS_DUMP,
  comments: COMMENTS_DUMP,
  suggestions: SUGGESTIONS_DUMP,
  follows: FOLLOWS_DUMP,
  mtProviders: MT_PROVIDERS_DUMP,
  mtJobs: MT_JOBS_DUMP,
  mtJobItems: MT_JOB_ITEMS_DUMP,
  changes: CHANGES_DUMP,
  releaseContents: RELEASE_CONTENTS_DUMP,
  releases: RELEASES_DUMP,
  releaseTexts: RELEASE_TEXTS_DUMP,
  releasePins: RELEASE_PINS_DUMP,
};

/** Tables other rows refer to: their id -> file id maps are kept for the rest of the backup. */
const REFERENCED = new Set<TableName>();
for (const refs of Object.values(REFERENCES)) for (const target of Object.values(refs)) REFERENCED.add(target);
for (const target of Object.values(REF_TABLES)) REFERENCED.add(target);

async function* pagesOf(executor: Executor, workspaceId: number, table: TableName): AsyncGenerator<BackupRow[]> {
  const dump = DUMPS[table];
  if (typeof dump === 'function') yield await dump(executor, workspaceId);
  else yield* pageRows(executor, dump, workspaceId);
}

/**
 * The backup of a workspace as chunks of its file's text (before gzip): the header line, then a
 * line per row, a page of lines per chunk. Ids are renumbered 1..n per table in creation order
 * and references rewritten, so two backups of equal workspaces are equal files.
 */
export async function* backupText(
  executor: Executor,
  workspaceId: number,
  exportedAt: string,
  progress?: (rows: number) => void,
): AsyncGenerator<string> {
  let written = 0;
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exportedAt,
    workspace: await dumpSettings(executor, workspaceId),
  };
  yield `${JSON.stringify(header)}\n`;
  const ids = new Map<TableName, Map<number, number>>();
  /** Refs to records that no longer exist, named `kind:~n` in order of first appearance. */
  const gone = new Map<string, string>();
  for (const table of TABLES) {
    const numbered = NUMBERED.includes(table);
    const refs = Object.entries(REFERENCES[table] ?? {});
    let own: Map<number, number> | undefined;
    if (REFERENCED.has(table)) {
      own = new Map();
      ids.set(table, own);
      // A table that refers to itself needs every row's file id before its first row is written.
      if (refs.some(([, target]) => target === table)) {
        const dump = DUMPS[table] as DumpSpec;
        for await (const page of pageRows(executor, dump, workspaceId, ['id'])) {
          for (const row of page) own.set(Number(row.id), own.size + 1);
        }
      }
    }
    let count = 0;
    for await (const page of pagesOf(executor, workspaceId, table)) {
      let chunk = '';
      for (const stored of page) {
        const row: BackupRow = { ...stored };
        count += 1;
        if (numbered) {
          if (own && !own.has(Number(stored.id))) own.set(Number(stored.id), count);
          row.id = own ? own.get(Number(stored.id)) : count;
        }
        for (const [column, target] of refs) {
          if (row[column] !== null && row[column] !== undefined) {
            row[column] = ids.get(target)?.get(Number(row[column])) ?? null;
          }
        }
        if (table === 'changes') row.record_ref = fileRef(String(row.record_ref), ids, gone, workspaceId);
        chunk += `${JSON.stringify({ table, row })}\n`;
      }
      written += page.length;
      progress?.(written);
      yield chunk;
    }
  }
}

/** A change's `record_ref` in the file: the record's file id, `kind:@` or `kind:~n`. */
function fileRef(
  ref: string,
  ids: Map<TableName, Map<number, number>>,
  gone: Map<string, string>,
  workspaceId: number,
) {
  const cut = ref.indexOf(':');
  const kind = ref.slice(0, cut);
  const id = ref.slice(cut + 1);
  const table = REF_TABLES[kind];
  const local = table && /^\d+$/.test(id) ? ids.get(table)?.get(Number(id)) : undefined;
  if (local !== undefined) return `${kind}:${local}`;
  if (WORKSPACE_REFS.has(kind) && id === String(workspaceId)) return `${kind}:@`;
  let named = gone.get(ref);
  if (named === undefined) {
    named = `${kind}:~${gone.size + 1}`;
    gone.set(ref, named);
  }
  return named;
}
