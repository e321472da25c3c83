import type { Executor } from '../../db/schema.js';
import type { ProjectRow } from './projects.repository.js';
import * as repo from './projects.repository.js';

/**
 * Projects and bases as other modules see them. They share one table and one developer-ID
 * namespace; `kind` tells them apart. Row ids are for joins inside the server only.
 */
export interface ProjectRef {
  id: number;
  kind: 'project' | 'base';
  developerId: string;
  name: string;
  /** Row id of the connected base (projects only). */
  baseId: number | null;
  developerMode: boolean;
}

export const toProjectRef = (row: ProjectRow): ProjectRef => ({
  id: row.id,
  kind: row.kind,
  developerId: row.developer_id,
  name: row.name,
  baseId: row.base_id,
  developerMode: row.developer_mode === 1,
});

/**
 * A project or base in the change log: kind `project` or `base`, a ref on the row id (stable
 * after deletion), named by its developer ID.
 */
export const containerIdentity = (ref: Pick<ProjectRef, 'id' | 'kind' | 'developerId'>) => ({
  kind: ref.kind,
  ref: `${ref.kind}:${ref.id}`,
  developerId: ref.developerId,
});

export { baseNotFound, projectNotFound } from '../../shared/not-found.js';

/** Every project and base of the workspace, in creation order. */
export async function listProjectRefs(executor: Executor, workspaceId: number): Promise<ProjectRef[]> {
  return (await repo.listContainers(executor, workspaceId)).map(toProjectRef);
}

async function resolveKind(
  executor: Executor,
  workspaceId: number,
  developerIds: readonly string[],
  kind: ProjectRef['kind'] | null,
): Promise<Map<string, ProjectRef>> {
  const rows = await repo.findContainers(executor, workspaceId, [...new Set(developerIds)]);
  return new Map(
    rows.filter((row) => kind === null || row.kind === kind).map((r) => [r.developer_id, toProjectRef(r)]),
  );
}

/**
 * The projects among `developerIds` that exist, by developer ID (for a `projects: [{ id }]`
 * filter or a `projectId`). A base's id is not a project: it is left out like an unknown one,
 * and callers report what is missing.
 */
export const resolveProjects = (executor: Executor, workspaceId: number, developerIds: readonly string[]) =>
  resolveKind(executor, workspaceId, developerIds, 'project');

/** The bases among `developerIds` that exist, by developer ID (for a `bases: [{ id }]` filter or a `baseId`). */
export const resolveBases = (executor: Executor, workspaceId: number, developerIds: readonly string[]) =>
  resolveKind(executor, workspaceId, developerIds, 'base');

/** Projects and bases alike, by developer ID. */
export const resolveContainers = (executor: Executor, workspaceId: number, developerIds: readonly string[]) =>
  resolveKind(executor, workspaceId, developerIds, null);

/** One project by developer ID, or null (also when the id names a base). */
export async function resolveProject(
  executor: Executor,
  workspaceId: number,
  developerId: string,
): Promise<ProjectRef | null> {
  return (await resolveProjects(executor, workspaceId, [developerId])).get(developerId) ?? null;
}

/** Row id -> developer ID of every project and base, for rendering `projectId` and `baseId`. */
export async function projectDeveloperIds(executor: Executor, workspaceId: number): Promise<Map<number, string>> {
  return new Map((await repo.listContainers(executor, workspaceId)).map((row) => [row.id, row.developer_id]));
}
