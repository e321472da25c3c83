import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { now, writeTransaction } from '../../db/transaction.js';
import { conflict, notFound } from '../../http/errors.js';
import {
  baseNotFound,
  listProjectRefs,
  type ProjectRef,
  projectDeveloperIds,
  projectNotFound,
  resolveBases,
  resolveContainers,
  resolveProject,
  resolveProjects,
} from './projects.refs.js';
import * as repo from './projects.repository.js';
import { assertDistinct, type NewProjectInput, type ProjectUpdate, planCreate, planUpdates } from './projects.rules.js';

export type { NewProjectInput, ProjectRef, ProjectUpdate };
export {
  baseNotFound,
  listProjectRefs,
  projectDeveloperIds,
  projectNotFound,
  resolveBases,
  resolveContainers,
  resolveProject,
  resolveProjects,
};

export interface Project {
  id: string;
  name: string;
  baseId: string | null;
  developerMode: boolean;
}

export interface Base {
  id: string;
  name: string;
}

export interface NewBaseInput {
  name: string;
  developerId?: string;
}

export function createProjectsService(deps: { db: Kysely<Database> }) {
  const { db } = deps;

  async function create(workspaceId: number, kind: ProjectRef['kind'], inputs: readonly NewProjectInput[]) {
    try {
      return await writeTransaction(db, workspaceId, async (trx) => {
        const planned = planCreate(await listProjectRefs(trx, workspaceId), kind, inputs);
        await repo.insertContainers(trx, workspaceId, planned, now());
        return planned.map((p) => p.developerId);
      });
    } catch (error) {
      // Writers to one workspace queue on its row, so this is only a safety net for the unforeseen.
      if (isUniqueViolation(error)) throw conflict(`${kind}s: one of these developer IDs already exists in workspace`);
      throw error;
    }
  }

  /** Deletes projects or bases, all or none, with their blocks and text items. */
  async function remove(workspaceId: number, kind: ProjectRef['kind'], developerIds: readonly string[]) {
    assertDistinct(developerIds, (index) => `developerIds[${index}]`);
    await writeTransaction(db, workspaceId, async (trx) => {
      const found = await (kind === 'project' ? resolveProjects : resolveBases)(trx, workspaceId, developerIds);
      const missing = developerIds.find((id) => !found.has(id));
      if (missing !== undefined) throw notFound((kind === 'project' ? projectNotFound : baseNotFound)(missing));
      await repo.deleteContainers(
        trx,
        workspaceId,
        [...found.values()].map((c) => c.id),
      );
    });
  }

  return {
    listProjectRefs,
    resolveProject,
    resolveProjects,
    resolveBases,
    resolveContainers,
    projectDeveloperIds,

    async listProjects(workspaceId: number): Promise<Project[]> {
      const all = await listProjectRefs(db, workspaceId);
      const developerIdOf = new Map(all.map((c) => [c.id, c.developerId]));
      return all
        .filter((c) => c.kind === 'project')
        .map((c) => ({
          id: c.developerId,
          name: c.name,
          baseId: c.baseId === null ? null : (developerIdOf.get(c.baseId) ?? null),
          developerMode: c.developerMode,
        }));
    },

    async listBases(workspaceId: number): Promise<Base[]> {
      const all = await listProjectRefs(db, workspaceId);
      return all.filter((c) => c.kind === 'base').map((c) => ({ id: c.developerId, name: c.name }));
    },

    /** Creates projects in request order, all or none; answers their developer IDs, generated ones included. */
    createProjects: (workspaceId: number, projects: readonly NewProjectInput[]) =>
      create(workspaceId, 'project', projects),

    createBases: (workspaceId: number, bases: readonly NewBaseInput[]) => create(workspaceId, 'base', bases),

    /** Renames projects, connects them to a base or disconnects them (null), switches developer mode. */
    async updateProjects(workspaceId: number, updates: readonly ProjectUpdate[]): Promise<void> {
      await writeTransaction(db, workspaceId, async (trx) => {
        const plans = planUpdates(await listProjectRefs(trx, workspaceId), updates);
        for (const { project, changes, newBaseId } of plans) {
          await repo.updateProject(trx, workspaceId, project.id, changes);
          if (newBaseId !== undefined) await repo.dropForeignDerivations(trx, workspaceId, project.id, newBaseId);
        }
      });
    },

    removeProjects: (workspaceId: number, developerIds: readonly string[]) =>
      remove(workspaceId, 'project', developerIds),

    /** Projects connected to a deleted base are disconnected; items derived from its items lose the link. */
    removeBases: (workspaceId: number, developerIds: readonly string[]) => remove(workspaceId, 'base', developerIds),
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
