import { describeVariable } from '../../formats/legacy/index.js';
import { usedVariantIds } from '../texts/index.js';
import { LIBRARY_ID, LIBRARY_NAME, type Reach, requireSources } from './legacy.access.js';
import type { LegacyReadDeps, Reader } from './legacy.deps.js';

/** The list endpoints of the v0 and v1 APIs: sources, variants, folders, variables. */
export function createLegacyLists(deps: LegacyReadDeps, reach: (workspaceId: number) => Promise<Reach>) {
  const { db } = deps;
  return {
    /** GET /project-names, GET /v1/projects: the reachable sources. */
    async projectList(workspaceId: number) {
      const { projects, library } = await reach(workspaceId);
      const list = [...projects.values()]
        .filter((p) => p.developerMode)
        .map((p) => ({ id: p.developerId, name: p.name }));
      return library ? [{ id: LIBRARY_ID, name: LIBRARY_NAME }, ...list] : list;
    },

    /** GET /variants: every variant, or those with a value in the given projects (see `usedVariantIds`). */
    async variantList(reader: Reader, projectIds: readonly string[] | null) {
      const variants = await deps.variants.listVariants(db, reader.workspaceId);
      let shown = variants;
      if (projectIds !== null) {
        const sources = requireSources(await reach(reader.workspaceId), projectIds);
        const used =
          variants.length === 0
            ? new Set<number>()
            : await usedVariantIds(
                db,
                reader.workspaceId,
                variants.map((v) => v.id),
                {
                  containerIds: sources.flatMap((s) => (s.kind === 'project' ? [s.project.id] : [])),
                  library: sources.some((s) => s.kind === 'library'),
                },
              );
        shown = variants.filter((v) => used.has(v.id));
      }
      return shown.map((v) => ({ apiID: v.developerId, name: v.name, description: v.description }));
    },

    /** GET /component-folders. An unreachable library has no folders to show (see docs/legacy-api.md). */
    async folderMap(workspaceId: number): Promise<Record<string, string>> {
      const { library } = await reach(workspaceId);
      if (!library) return {};
      const tree = await deps.folders.loadFolderTree(db, workspaceId);
      return Object.fromEntries(tree.folders.map((f) => [f.developerId, f.name]));
    },

    /** GET /variables: name to description, in creation order. */
    async variableMap(workspaceId: number) {
      const variables = await deps.variables.listVariables(db, workspaceId);
      return Object.fromEntries(variables.map((v) => [v.name, describeVariable(v)]));
    },
  };
}
