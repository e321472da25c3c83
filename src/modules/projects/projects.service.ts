import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { conflict, notFound } from '../../http/errors.js';
import { appendAll } from '../../shared/arrays.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import type { Change, WritePath, WriteScope } from '../changes/index.js';
import { changeOf, changesOf } from '../changes/index.js';
import {
  baseNotFound,
  containerIdentity,
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
import { type NewProjectInput, type ProjectUpdate, planNewProjects, planProjectUpdates } from './projects.rules.js';
import type { NewBaseInput } from './projects.schemas.js';

export type { NewBaseInput, NewProjectInput, ProjectRef, ProjectUpdate };
export {
  baseNotFound,
  containerIdentity,
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

type Trx = Transaction<Database>;

export interface ProjectsDeps {
  db: Kysely<Database>;
  writes: WritePath;
  /** What deleting or re-basing a project does to its text items (the texts module does it). */
  textCascades: {
    deleteTextItemsIn(trx: Trx, workspaceId: number, containerIds: readonly number[]): Promise<Change[]>;
    dropForeignDerivations(trx: Trx, workspaceId: number, projectId: number, baseId: number | null): Promise<Change[]>;
  };
  /** Deletes the blocks of projects that are being deleted (the blocks module does it). */
  deleteBlocksOf(trx: Trx, workspaceId: number, projects: readonly ProjectRef[]): Promise<Change[]>;
}

/** A project's fields as GET /v2/projects shows them (and the change log records them). */
const projectFields = (project: ProjectRef, developerIdOf: ReadonlyMap<number, string>) => ({
  name: project.name,
  baseId: project.baseId === null ? null : (developerIdOf.get(project.baseId) ?? null),
  developerMode: project.developerMode,
});

/** A project or base in the change log: the fields of its GET record, references as developer IDs. */
const fieldsOf = (container: ProjectRef, developerIdOf: ReadonlyMap<number, string>) =>
  container.kind === 'base' ? { name: container.name } : projectFields(container, developerIdOf);

const developerIdsOf = (refs: readonly ProjectRef[]) => new Map(refs.map((c) => [c.id, c.developerId]));

export function createProjectsService(deps: ProjectsDeps) {
  const { db, writes } = deps;

  async function create(scope: WriteScope, kind: ProjectRef['kind'], inputs: readonly NewProjectInput[]) {
    const { workspaceId } = scope;
    assertDistinctIds(
      inputs.map((input) => input.developerId),
      (index) => `${kind}s[${index}].developerId`,
    );
    try {
      return await writes.write(scope, async (trx) => {
        const existing = await listProjectRefs(trx, workspaceId);
        const planned = planNewProjects(existing, kind, inputs);
        const ids = await repo.insertContainers(trx, workspaceId, planned, now());
        const developerIdOf = developerIdsOf(existing);
        const changes = changesOf(
          planned.map((p) => {
            const created: ProjectRef = { ...p, id: ids.get(p.developerId) as number };
            return { identity: containerIdentity(created), before: null, after: fieldsOf(created, developerIdOf) };
          }),
        );
        return { changes, result: planned.map((p) => p.developerId) };
      });
    } catch (error) {
      // Writers to one workspace queue on its row, so this is only a safety net for the unforeseen.
      if (isUniqueViolation(error)) throw conflict(`${kind}s: one of these developer IDs already exists in workspace`);
      throw error;
    }
  }

  /**
   * Deletes projects or bases, all or none, with their blocks and text items. Projects connected
   * to a deleted base are disconnected, and their items derived from its items lose the link.
   */
  async function remove(scope: WriteScope, kind: ProjectRef['kind'], developerIds: readonly string[]) {
    const { workspaceId } = scope;
    assertDistinctIds(developerIds, (index) => `developerIds[${index}]`);
    await writes.write(scope, async (trx) => {
      const all = await listProjectRefs(trx, workspaceId);
      const byDeveloperId = new Map(all.filter((c) => c.kind === kind).map((c) => [c.developerId, c]));
      const targets = developerIds.map((id) => {
        const target = byDeveloperId.get(id);
        if (!target) throw notFound((kind === 'project' ? projectNotFound : baseNotFound)(id));
        return target;
      });
      const ids = new Set(targets.map((c) => c.id));
      const connected = all.filter((c) => c.baseId !== null && ids.has(c.baseId));
      const developerIdOf = developerIdsOf(all);
      // Each cascade runs while the rows it names still exist, so its changes can name them.
      const changes: Change[] = [];
      for (const project of connected) {
        appendAll(changes, await deps.textCascades.dropForeignDerivations(trx, workspaceId, project.id, null));
      }
      appendAll(changes, await deps.textCascades.deleteTextItemsIn(trx, workspaceId, [...ids]));
      appendAll(changes, await deps.deleteBlocksOf(trx, workspaceId, targets));
      for (const project of connected) {
        const before = fieldsOf(project, developerIdOf);
        const change = changeOf(containerIdentity(project), before, { ...before, baseId: null });
        if (change) changes.push(change);
      }
      for (const target of targets) {
        const change = changeOf(containerIdentity(target), fieldsOf(target, developerIdOf), null);
        if (change) changes.push(change);
      }
      return { changes, apply: (trx) => repo.deleteContainers(trx, workspaceId, [...ids]), result: undefined };
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
      const developerIdOf = developerIdsOf(all);
      return all
        .filter((c) => c.kind === 'project')
        .map((c) => ({ id: c.developerId, ...projectFields(c, developerIdOf) }));
    },

    async listBases(workspaceId: number): Promise<Base[]> {
      const all = await listProjectRefs(db, workspaceId);
      return all.filter((c) => c.kind === 'base').map((c) => ({ id: c.developerId, name: c.name }));
    },

    /** Creates projects in request order, all or none; answers their developer IDs, generated ones included. */
    createProjects: (scope: WriteScope, projects: readonly NewProjectInput[]) => create(scope, 'project', projects),

    createBases: (scope: WriteScope, bases: readonly NewBaseInput[]) => create(scope, 'base', bases),

    /**
     * Renames projects, gives them new developer IDs, connects them to a base or disconnects them
     * (null), switches developer mode.
     */
    async updateProjects(scope: WriteScope, updates: readonly ProjectUpdate[]): Promise<void> {
      const { workspaceId } = scope;
      assertDistinctIds(
        updates.map((u) => u.developerId),
        (index) => `updates[${index}].developerId`,
      );
      await writes.write(scope, async (trx) => {
        const all = await listProjectRefs(trx, workspaceId);
        const plans = planProjectUpdates(all, updates);
        const developerIdOf = developerIdsOf(all);
        const changes: Change[] = [];
        for (const { project, after, newBaseId } of plans) {
          // A new developer ID is recorded as `renamed`; the history follows the project's row.
          const renamed = after.developerId !== project.developerId;
          const change = changeOf(
            containerIdentity(after),
            { ...fieldsOf(project, developerIdOf), ...(renamed && { developerId: project.developerId }) },
            { ...fieldsOf(after, developerIdOf), ...(renamed && { developerId: after.developerId }) },
          );
          if (change) changes.push(change);
          // `baseTextItemId` always names an item of the connected base.
          if (newBaseId !== undefined) {
            appendAll(changes, await deps.textCascades.dropForeignDerivations(trx, workspaceId, project.id, newBaseId));
          }
        }
        return {
          changes,
          apply: async (trx) => {
            for (const plan of plans) await repo.updateProject(trx, workspaceId, plan.project.id, plan.changes);
          },
          result: undefined,
        };
      });
    },

    removeProjects: (scope: WriteScope, developerIds: readonly string[]) => remove(scope, 'project', developerIds),

    removeBases: (scope: WriteScope, developerIds: readonly string[]) => remove(scope, 'base', developerIds),
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
