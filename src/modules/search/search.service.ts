import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { searchTexts } from '../texts/index.js';

export interface SearchResult {
  kind: 'textItem' | 'component';
  developerId: string;
  /** Components only. */
  name: string | null;
  /** The base text. */
  text: string;
  /** Text items: the developer ID of the project (or base) that holds it. */
  projectId: string | null;
  /** Components: the developer ID of the folder, null at the root. */
  folderId: string | null;
}

export interface SearchDeps {
  db: Kysely<Database>;
  folderDeveloperIds: (executor: Executor, workspaceId: number) => Promise<Map<number, string>>;
  projectDeveloperIds: (executor: Executor, workspaceId: number) => Promise<Map<number, string>>;
  /** Brings the index up to date with every committed write. */
  indexUpToDate: () => Promise<void>;
}

/** Search across the text items and components of a workspace, in every variant. */
export function createSearchService(deps: SearchDeps) {
  return {
    async search(workspaceId: number, q: string, limit: number): Promise<{ results: SearchResult[] }> {
      await deps.indexUpToDate();
      const found = await searchTexts(deps.db, workspaceId, q, limit);
      if (found.length === 0) return { results: [] };
      const [folders, projects] = await Promise.all([
        deps.folderDeveloperIds(deps.db, workspaceId),
        deps.projectDeveloperIds(deps.db, workspaceId),
      ]);
      return {
        results: found.map((t) => ({
          kind: t.kind === 'component' ? 'component' : 'textItem',
          developerId: t.developerId,
          name: t.kind === 'component' ? t.name : null,
          text: t.text,
          projectId: t.projectId === null ? null : (projects.get(t.projectId) ?? null),
          folderId: t.folderId === null ? null : (folders.get(t.folderId) ?? null),
        })),
      };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
