import { type BackupRow, type IdMaps, insertRows, mapId, selectRows, updateColumn } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';
import { refreshSearchIndex } from './search.repository.js';
import { TEXT_COLUMNS } from './texts.repository.js';

/**
 * Components and text items, their variant values and variable links, as stored, for backup and
 * restore. Rows leave this module only as backup rows, never as the core's domain types. A text
 * carries the columns a read takes, less the revision stamp, plus its timestamps; a text and its
 * variant values carry their `text_version`, so translation states survive a restore.
 */
const TEXTS = [...TEXT_COLUMNS.filter((column) => column !== 'revision'), 'created_at', 'updated_at'];
const VALUES = [
  'text_id',
  'variant_id',
  'text',
  'rich_text',
  'plurals',
  'status',
  'assignee_id',
  'notes',
  'character_limit',
  'text_version',
];
const VARIABLES = ['text_id', 'variable_id'];

export interface TextsBackup {
  texts: BackupRow[];
  textVariants: BackupRow[];
  textVariables: BackupRow[];
}

export async function dumpTexts(executor: Executor, workspaceId: number): Promise<TextsBackup> {
  const texts = await selectRows(executor, 'texts', TEXTS, { column: 'workspace_id', in: [workspaceId] });
  const ids = texts.map((t) => Number(t.id));
  const byTextThen = (column: string) => (a: BackupRow, b: BackupRow) =>
    Number(a.text_id) - Number(b.text_id) || Number(a[column]) - Number(b[column]);
  const textVariants = await selectRows(executor, 'text_variants', VALUES, { column: 'text_id', in: ids });
  const textVariables = await selectRows(executor, 'text_variables', VARIABLES, { column: 'text_id', in: ids });
  return {
    texts,
    textVariants: textVariants.sort(byTextThen('variant_id')),
    textVariables: textVariables.sort(byTextThen('variable_id')),
  };
}

export async function restoreTexts(trx: Executor, maps: IdMaps, backup: TextsBackup): Promise<void> {
  const rows = backup.texts.map((t) => ({
    ...t,
    workspace_id: maps.workspaceId,
    folder_id: mapId(maps.folders, t.folder_id),
    project_id: mapId(maps.projects, t.project_id),
    block_id: mapId(maps.blocks, t.block_id),
    assignee_id: mapId(maps.users, t.assignee_id),
    // A backup written before translation states were kept has no versions: its values are up to date.
    text_version: t.text_version ?? 0,
    // References between texts are set once every text has its new id.
    base_text_item_id: null,
    component_id: null,
  }));
  maps.texts = await insertRows(trx, 'texts', ['workspace_id', ...TEXTS.slice(1)], rows, {
    keyColumns: ['kind', 'developer_id'],
    scope: { column: 'workspace_id', in: [maps.workspaceId] },
  });
  for (const column of ['base_text_item_id', 'component_id'] as const) {
    const links = backup.texts.flatMap((t) => {
      const target = mapId(maps.texts, t[column]);
      return target === null ? [] : [[maps.texts.get(Number(t.id)) as number, target] as [number, number]];
    });
    await updateColumn(trx, 'texts', column, links);
  }
  await insertRows(
    trx,
    'text_variants',
    VALUES,
    backup.textVariants.map((v) => ({
      ...v,
      text_id: mapId(maps.texts, v.text_id),
      variant_id: mapId(maps.variants, v.variant_id),
      assignee_id: mapId(maps.users, v.assignee_id),
      text_version: v.text_version ?? 0,
    })),
  );
  await insertRows(
    trx,
    'text_variables',
    VARIABLES,
    backup.textVariables.map((v) => ({
      text_id: mapId(maps.texts, v.text_id),
      variable_id: mapId(maps.variables, v.variable_id),
    })),
  );
  // The restored texts' search documents, built once each (the triggers only queued them).
  await refreshSearchIndex(trx);
}
