import type { FolderRow } from './folders.repository.js';

/** A folder as the other modules see it: the row id for joins, the developer ID for records. */
export interface FolderRef {
  id: number;
  developerId: string;
  name: string;
  parentId: number | null;
}

/**
 * The folder tree of one workspace, built from its rows. Pure, so the components module can load
 * it once per request and answer every folder question of a filter without more queries.
 */
export interface FolderTree {
  readonly folders: readonly FolderRef[];
  byDeveloperId(developerId: string): FolderRef | undefined;
  /** The developer ID of a folder row, null for the library root (a null folder id). */
  developerIdOf(rowId: number | null): string | null;
  /** Row ids of the folder and, unless `excludeNested`, of every folder nested below it. */
  rowIds(developerId: string, options?: { excludeNested?: boolean }): Set<number> | undefined;
  /** The nearest ancestor of `rowId` (itself excluded) for which `keep` holds, or null for the root. */
  nearestAncestor(rowId: number, keep: (id: number) => boolean): number | null;
}

export const toFolderRef = (row: FolderRow): FolderRef => ({
  id: row.id,
  developerId: row.developer_id,
  name: row.name,
  parentId: row.parent_id,
});

export function buildFolderTree(rows: readonly FolderRow[]): FolderTree {
  const folders = rows.map(toFolderRef);
  const byRowId = new Map(folders.map((f) => [f.id, f]));
  const byDevId = new Map(folders.map((f) => [f.developerId, f]));
  const children = new Map<number, number[]>();
  for (const folder of folders) {
    if (folder.parentId === null) continue;
    const siblings = children.get(folder.parentId);
    if (siblings) siblings.push(folder.id);
    else children.set(folder.parentId, [folder.id]);
  }

  return {
    folders,
    byDeveloperId: (developerId) => byDevId.get(developerId),
    developerIdOf: (rowId) => (rowId === null ? null : (byRowId.get(rowId)?.developerId ?? null)),
    rowIds(developerId, options = {}) {
      const start = byDevId.get(developerId);
      if (!start) return undefined;
      const ids = new Set([start.id]);
      if (options.excludeNested) return ids;
      const queue = [start.id];
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        for (const child of children.get(id) ?? []) {
          // The set doubles as a guard: a damaged tree with a cycle still terminates.
          if (ids.has(child)) continue;
          ids.add(child);
          queue.push(child);
        }
      }
      return ids;
    },
    nearestAncestor(rowId, keep) {
      const seen = new Set([rowId]);
      let parent = byRowId.get(rowId)?.parentId ?? null;
      while (parent !== null && !keep(parent) && !seen.has(parent)) {
        seen.add(parent);
        parent = byRowId.get(parent)?.parentId ?? null;
      }
      return parent !== null && keep(parent) ? parent : null;
    },
  };
}
