import type { BackupRow } from '../../db/backup-rows.js';

/**
 * The backup file. Version 2 (written since backups stream): gzip of JSON Lines, a header line
 * `{format, version, exportedAt, workspace}` then one line `{"table": ..., "row": {...}}` per row,
 * tables in the order a restore writes them. Version 1 (still read): gzip of one JSON document
 * `{format, version, exportedAt, workspace, tables: {name: rows}}`. Rows are as stored, but their
 * ids are the file's own (1, 2, 3... per table, in creation order) and every reference uses them,
 * so that two backups of equal workspaces are equal files whatever database or ids they came from.
 */

export const BACKUP_FORMAT = 'copydesk-workspace-backup';
export const BACKUP_VERSION = 2;
/** The versions a restore reads. */
export const READABLE_VERSIONS = [1, 2] as const;

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
  'comments',
  'suggestions',
  'follows',
  'mtProviders',
  'mtJobs',
  'mtJobItems',
  'changes',
  'releaseContents',
  'releases',
  'releaseTexts',
  'releasePins',
] as const;
export type TableName = (typeof TABLES)[number];

/** The first line of a version 2 file. */
export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  /** When the backup was written: the one field two backups of one workspace may differ in. */
  exportedAt: string;
  workspace: BackupRow;
}

/** One row line of a version 2 file. */
export interface RowLine {
  table: TableName;
  row: BackupRow;
}

/** Tables whose rows have an integer `id` that other rows refer to. */
export const NUMBERED: readonly TableName[] = [
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
  'comments',
  'suggestions',
  'follows',
  'mtProviders',
  'mtJobs',
  'mtJobItems',
  'changes',
  'releases',
];

/** Which column of which table refers to which table. */
export const REFERENCES: Partial<Record<TableName, Record<string, TableName>>> = {
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
  comments: {
    thread_id: 'comments',
    text_id: 'texts',
    project_id: 'projects',
    variant_id: 'variants',
    author_id: 'users',
  },
  suggestions: { text_id: 'texts', project_id: 'projects', variant_id: 'variants', author_id: 'users' },
  follows: { user_id: 'users', text_id: 'texts' },
  mtJobs: { provider_id: 'mtProviders', variant_id: 'variants' },
  mtJobItems: { job_id: 'mtJobs', text_id: 'texts' },
  releaseTexts: { release_id: 'releases' },
  releasePins: { project_id: 'projects', release_id: 'releases' },
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
  comment: 'comments',
  suggestion: 'suggestions',
};
/** Refs that name the workspace itself (`statuses:7`) are written `statuses:@`. */
export const WORKSPACE_REFS = new Set(['workspace', 'statuses']);
