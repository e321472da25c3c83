import { type BackupRow, type IdMaps, insertRows, mapId, selectRows, updateColumn } from '../../db/backup-rows.js';
import type { Executor } from '../../db/schema.js';

/** Projects and bases as stored; a project's base is set once every row has its new id. */
const COLUMNS = ['id', 'kind', 'developer_id', 'name', 'base_id', 'developer_mode', 'created_at'];

export const dumpProjects = (executor: Executor, workspaceId: number) =>
  selectRows(executor, 'projects', COLUMNS, { column: 'workspace_id', in: [workspaceId] });

export async function restoreProjects(trx: Executor, maps: IdMaps, rows: readonly BackupRow[]): Promise<void> {
  const scope = { column: 'workspace_id', in: [maps.workspaceId] };
  maps.projects = await insertRows(
    trx,
    'projects',
    ['workspace_id', ...COLUMNS.slice(1)],
    rows.map((r) => ({ ...r, workspace_id: maps.workspaceId, base_id: null })),
    { keyColumns: ['developer_id'], scope },
  );
  const bases = rows.flatMap((r) => {
    const base = mapId(maps.projects, r.base_id);
    return base === null ? [] : [[maps.projects.get(Number(r.id)) as number, base] as [number, number]];
  });
  await updateColumn(trx, 'projects', 'base_id', bases);
}
