import { badRequest, conflict, notFound } from '../../http/errors.js';
import { slugify, uniqueDeveloperId } from '../../shared/developer-id.js';
import { baseNotFound, type ProjectRef, projectNotFound } from './projects.refs.js';
import type { NewContainer, ProjectChanges } from './projects.repository.js';
import type { NewProjectInput, ProjectUpdate } from './projects.schemas.js';

export type { NewProjectInput, ProjectUpdate };

/** Pure checks of a whole batch against the workspace's projects and bases, before anything is written. */

const label = { project: 'Project', base: 'Base' } as const;

function findBase(existing: readonly ProjectRef[], developerId: string, path: string): ProjectRef {
  const base = existing.find((c) => c.kind === 'base' && c.developerId === developerId);
  if (!base) throw badRequest(`${path}: ${baseNotFound(developerId)}`);
  return base;
}

/**
 * New projects (`kind` project) or bases, in request order. One namespace for both kinds: an
 * explicit id that either kind already holds is a 409 naming which; generated ids avoid every id
 * of the workspace and every explicit id of the request (which are distinct: the service checked).
 */
export function planNewProjects(
  existing: readonly ProjectRef[],
  kind: NewContainer['kind'],
  inputs: readonly NewProjectInput[],
): NewContainer[] {
  const field = kind === 'project' ? 'projects' : 'bases';
  const byDeveloperId = new Map(existing.map((c) => [c.developerId, c]));
  const taken = new Set([...byDeveloperId.keys(), ...inputs.flatMap((i) => i.developerId ?? [])]);
  return inputs.map((input, index) => {
    const at = `${field}[${index}]`;
    let developerId = input.developerId;
    if (developerId === undefined) {
      developerId = uniqueDeveloperId(slugify(input.name), taken);
    } else {
      const holder = byDeveloperId.get(developerId);
      if (holder) {
        throw conflict(
          `${at}.developerId: ${label[holder.kind]} with developer ID ${developerId} already exists in workspace`,
        );
      }
    }
    const baseId =
      kind === 'project' && input.baseId != null ? findBase(existing, input.baseId, `${at}.baseId`).id : null;
    return { kind, developerId, name: input.name, baseId, developerMode: input.developerMode ?? false };
  });
}

export interface PlannedUpdate {
  project: ProjectRef;
  /** The project as the update leaves it. */
  after: ProjectRef;
  changes: ProjectChanges;
  /** Set when the project's base changes: its derivations from other bases are dropped. */
  newBaseId?: number | null;
}

/**
 * Project updates in request order (developer IDs already distinct); an unknown project is a 404,
 * an unknown base a 400.
 */
export function planProjectUpdates(
  existing: readonly ProjectRef[],
  updates: readonly ProjectUpdate[],
): PlannedUpdate[] {
  const projects = new Map(existing.filter((c) => c.kind === 'project').map((c) => [c.developerId, c]));
  const held = new Map(existing.map((c) => [c.developerId, c]));
  const newIds = new Map<string, number>();
  return updates.map((update, index) => {
    const at = `updates[${index}]`;
    const project = projects.get(update.developerId);
    if (!project) throw notFound(projectNotFound(update.developerId));
    const changes: ProjectChanges = {};
    const wanted = update.newDeveloperId;
    if (wanted !== undefined && wanted !== project.developerId) {
      // One namespace for projects and bases; a swap of two IDs takes two requests.
      const holder = held.get(wanted);
      if (holder) {
        throw conflict(
          `${at}.newDeveloperId: ${label[holder.kind]} with developer ID ${wanted} already exists in workspace`,
        );
      }
      const other = newIds.get(wanted);
      if (other !== undefined) {
        throw badRequest(`${at}.newDeveloperId: developer ID '${wanted}' is also given to updates[${other}]`);
      }
      newIds.set(wanted, index);
      changes.developer_id = wanted;
    }
    if (update.name !== undefined) changes.name = update.name;
    if (update.developerMode !== undefined) changes.developer_mode = update.developerMode ? 1 : 0;
    const after: ProjectRef = {
      ...project,
      developerId: changes.developer_id ?? project.developerId,
      name: update.name ?? project.name,
      developerMode: update.developerMode ?? project.developerMode,
    };
    let newBaseId: number | null | undefined;
    if (update.baseId !== undefined) {
      const baseId = update.baseId === null ? null : findBase(existing, update.baseId, `${at}.baseId`).id;
      changes.base_id = baseId;
      after.baseId = baseId;
      if (baseId !== project.baseId) newBaseId = baseId;
    }
    return newBaseId === undefined ? { project, after, changes } : { project, after, changes, newBaseId };
  });
}
