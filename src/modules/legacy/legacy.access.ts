import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { type ProjectRef, projectNotFound } from '../projects/projects.service.js';
import type { FetchQueryInput, LegacyFormat } from './legacy.schemas.js';

/** The id under which the v0 and v1 project lists show the component library. */
export const LIBRARY_ID = 'ditto_component_library';
export const LIBRARY_NAME = 'Component Library';

export const libraryOff = () =>
  forbidden(
    'Developer mode is off for the component library: turn on libraryDeveloperMode with PATCH /v2/workspace to reach components through the v0 and v1 APIs',
  );

const projectOff = (developerId: string) =>
  forbidden(
    `Developer mode is off for project ${developerId}: turn it on with PATCH /v2/projects to reach it through the v0 and v1 APIs`,
  );

/** What the v0 and v1 APIs may reach in a workspace. */
export interface Reach {
  /** Every project of the workspace (not bases), by developer ID. */
  projects: ReadonlyMap<string, ProjectRef>;
  library: boolean;
}

/** A source of text that a fetch names: a project, or the library under its project-list id. */
export type Source = { kind: 'project'; project: ProjectRef } | { kind: 'library' };

/**
 * The sources behind project ids, checked in order: an unknown id is a 404 naming it (the
 * clients read a 404 as a key that no longer works, so the message must say what is missing),
 * a project without developer mode or an unreachable library a 403.
 */
export function requireSources(reach: Reach, developerIds: readonly string[]): Source[] {
  return developerIds.map((developerId): Source => {
    if (developerId === LIBRARY_ID) {
      if (!reach.library) throw libraryOff();
      return { kind: 'library' };
    }
    const project = reach.projects.get(developerId);
    if (!project) throw notFound(projectNotFound(developerId));
    if (!project.developerMode) throw projectOff(developerId);
    return { kind: 'project', project };
  });
}

/** The fetch parameters, normalised: defaults applied, repeated values resolved, aliases merged. */
export interface FetchParams {
  format: LegacyFormat;
  /** Developer ID of the variant, null for base text. */
  variant: string | null;
  status: string | null;
  richText: boolean;
  excludeComponents: boolean;
  rootOnly: boolean;
  /** null when the request names none. */
  projectIds: string[] | null;
}

const list = (value: string | string[] | undefined) => (value === undefined ? [] : [value].flat());

export function fetchParams(query: FetchQueryInput): FetchParams {
  const format = query.format === 'ios-strings-dict' ? 'ios-stringsdict' : (query.format ?? 'full');
  const variant =
    query.variant === undefined || query.variant === '' || query.variant === 'base' ? null : query.variant;
  // A client sends a source's own status after the general one: the last one is the one meant.
  const status = list(query.status).at(-1) ?? null;
  const projectIds = [...list(query['projectIds[]']), ...list(query.projectIds)];
  return {
    format,
    variant,
    status: status === '' ? null : status,
    richText: query.includeRichText ?? false,
    excludeComponents: query.exclude_components ?? false,
    rootOnly: query.root_only ?? false,
    projectIds: projectIds.length > 0 ? [...new Set(projectIds)] : null,
  };
}

export function checkStatus(statuses: ReadonlySet<string>, status: string | null): void {
  if (status !== null && !statuses.has(status)) {
    throw badRequest(`status: '${status}' is not a status of the workspace`);
  }
}
