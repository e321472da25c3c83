import { type BackupRow, type IdMaps, insertRows, mapId, selectRows, updateColumn } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';

/** Component folders as stored; parents are set once every folder has its new id. */
const COLUMNS = ['id', 'developer_id', 'name', 'parent_id', 'created_at'];

export const dumpFolders = (executor: Executor, workspaceId: number) =>
  selectRows(executor, 'component_folders', COLUMNS, { column: 'workspace_id', in: [workspaceId] });

export async function restoreFolders(trx: Executor, maps: IdMaps, rows: readonly BackupRow[]): Promise<void> {
  const scope = { column: 'workspace_id', in: [maps.workspaceId] };
  maps.folders = await insertRows(
    trx,
    'component_folders',
    ['workspace_id', ...COLUMNS.slice(1)],
    rows.map((r) => ({ ...r, workspace_id: maps.workspaceId, parent_id: null })),
    { keyColumns: ['developer_id'], scope },
  );
  const parents = rows.flatMap((r) => {
    const parent = mapId(maps.folders, r.parent_id);
    return parent === null ? [] : [[maps.folders.get(Number(r.id)) as number, parent] as [number, number]];
  });
  await updateColumn(trx, 'component_folders', 'parent_id', parents);
}
