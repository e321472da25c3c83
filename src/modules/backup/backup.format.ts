import type { BackupRow } from '../../db/backup-rows.js';
import { badRequest } from '../../http/errors.js';

/**
 * The backup file: gzip of one JSON document. Rows are as stored, but their ids are the file's
 * own (1, 2, 3... per table, in creation order) and every reference uses them, so that two
 * backups of equal workspaces are equal files whatever database or ids they came from.
 */

export const BACKUP_FORMAT = 'copydesk-workspace-backup';
export const BACKUP_VERSION = 1;

/** The tables of a backup, in the order a restore writes them. */
export const TABLES = [
  'users',
  'apiKeys',
  'statuses',
  'variants',
  'variables',
  'folders',
  'projects',
  'blocks',
  'texts',
  'textVariants',
  'textVariables',
  'styleguides',
  'styleguideSections',
  'styleguideRules',
  'styleguideTerms',
  'changes',
] as const;
export type TableName = (typeof TABLES)[number];
export type Tables = Record<TableName, BackupRow[]>;

export interface BackupFile {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  /** When the backup was written: the one field two backups of one workspace may differ in. */
  exportedAt: string;
  workspace: BackupRow;
  tables: Tables;
}

/** Tables whose rows have an integer `id` that other rows refer to. */
const NUMBERED: readonly TableName[] = [
  'users',
  'variants',
  'variables',
  'folders',
  'projects',
  'blocks',
  'texts',
  'styleguides',
  'styleguideSections',
  'styleguideRules',
  'styleguideTerms',
  'changes',
];

/** Which column of which table refers to which table. */
const REFERENCES: Partial<Record<TableName, Record<string, TableName>>> = {
  apiKeys: { user_id: 'users' },
  folders: { parent_id: 'folders' },
  projects: { base_id: 'projects' },
  blocks: { project_id: 'projects' },
  texts: {
    folder_id: 'folders',
    project_id: 'projects',
    block_id: 'blocks',
    base_text_item_id: 'texts',
    component_id: 'texts',
    assignee_id: 'users',
  },
  textVariants: { text_id: 'texts', variant_id: 'variants', assignee_id: 'users' },
  textVariables: { text_id: 'texts', variable_id: 'variables' },
  styleguides: { variant_id: 'variants' },
  styleguideSections: { styleguide_id: 'styleguides' },
  styleguideRules: { styleguide_id: 'styleguides', section_id: 'styleguideSections' },
  styleguideTerms: { styleguide_id: 'styleguides', section_id: 'styleguideSections' },
};

/** The table a change's `record_ref` (`component:42`) points into, by its kind. */
export const REF_TABLES: Record<string, TableName> = {
  component: 'texts',
  textItem: 'texts',
  variant: 'variants',
  variable: 'variables',
  folder: 'folders',
  project: 'projects',
  base: 'projects',
  block: 'blocks',
  styleGuide: 'styleguides',
  user: 'users',
};
/** Refs that name the workspace itself (`statuses:7`) are written `statuses:@`. */
export const WORKSPACE_REFS = new Set(['workspace', 'statuses']);

/** Renumbers ids 1..n per table, rewrites references, and names gone records' refs `kind:~n`. */
export function canonicalTables(tables: Tables, workspaceId: number): Tables {
  const ids = new Map<TableName, Map<number, number>>();
  for (const table of NUMBERED) ids.set(table, new Map(tables[table].map((row, i) => [Number(row.id), i + 1])));
  const out = {} as Tables;
  for (const table of TABLES) {
    const own = ids.get(table);
    const refs = REFERENCES[table] ?? {};
    out[table] = tables[table].map((row) => {
      const copy: BackupRow = { ...row };
      if (own) copy.id = own.get(Number(row.id));
      for (const [column, target] of Object.entries(refs)) {
        if (copy[column] !== null && copy[column] !== undefined) {
          copy[column] = ids.get(target)?.get(Number(copy[column])) ?? null;
        }
      }
      return copy;
    });
  }
  const gone = new Map<string, string>();
  for (const change of out.changes) {
    const ref = String(change.record_ref);
    const cut = ref.indexOf(':');
    const kind = ref.slice(0, cut);
    const id = ref.slice(cut + 1);
    const table = REF_TABLES[kind];
    const local = table && /^\d+$/.test(id) ? ids.get(table)?.get(Number(id)) : undefined;
    if (local !== undefined) change.record_ref = `${kind}:${local}`;
    else if (WORKSPACE_REFS.has(kind) && id === String(workspaceId)) change.record_ref = `${kind}:@`;
    else {
      if (!gone.has(ref)) gone.set(ref, `${kind}:~${gone.size + 1}`);
      change.record_ref = gone.get(ref);
    }
  }
  return out;
}

/** A file's document checked for what a restore relies on; anything else is a 400 naming it. */
export function parseBackup(document: unknown): BackupFile {
  const doc = document as Partial<BackupFile> | null;
  if (!doc || typeof doc !== 'object' || doc.format !== BACKUP_FORMAT) {
    throw badRequest(`file: not a copydesk workspace backup (format must be '${BACKUP_FORMAT}')`);
  }
  if (doc.version !== BACKUP_VERSION) {
    throw badRequest(
      `file: backup version ${String(doc.version)} is not supported (this server reads ${BACKUP_VERSION})`,
    );
  }
  if (!doc.workspace || typeof doc.workspace !== 'object') throw badRequest('file: workspace is missing');
  if (!doc.tables || typeof doc.tables !== 'object') throw badRequest('file: tables is missing');
  for (const table of TABLES) {
    const rows = (doc.tables as Partial<Tables>)[table];
    if (!Array.isArray(rows)) throw badRequest(`file: tables.${table} must be an array`);
    rows.forEach((row, i) => {
      if (!row || typeof row !== 'object' || Array.isArray(row)) {
        throw badRequest(`file: tables.${table}[${i}] must be an object`);
      }
    });
  }
  return doc as BackupFile;
}
