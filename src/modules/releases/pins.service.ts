import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { principalOf } from '../../http/auth.js';
import { badRequest, notFound } from '../../http/errors.js';
import * as pinsRepo from './pins.repository.js';
import * as repo from './releases.repository.js';
import type { ReleaseFilterInput } from './releases.service.js';

/** The header a read answered from a pinned release carries: which release it was. */
export const PINNED_RELEASE_HEADER = 'x-copydesk-release';

/** A project's pinned release, as the API answers it. */
export interface Pin {
  projectId: string;
  release: string;
  pinnedBy: string;
  pinnedAt: string;
}

/**
 * The projects read by a v2 text items read or export with this `filter` parameter: the
 * developer IDs it names under `projects`, none when it names only bases, and undefined (every
 * project) when it names neither. A filter that is not JSON reads nothing here: the read itself
 * answers the 400 that names the problem.
 */
export function projectsOfFilter(filter: string | undefined): string[] | undefined | null {
  if (filter === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(filter);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { projects, bases } = parsed as { projects?: unknown; bases?: unknown };
  if (Array.isArray(projects)) {
    return projects.map((p) => (typeof p === 'object' && p !== null ? String((p as { id?: unknown }).id) : ''));
  }
  return Array.isArray(bases) ? [] : undefined;
}

/**
 * Pinned releases (docs/releases.md#pins): an admin pins a project to a release, and from then on
 * the v2 text items reads and exports an API key makes of that project without `release=` answer
 * the release, so that every puller of the team (which cannot name a release itself) builds from
 * it. The app's own reads (a signed-in person's) always show the current text.
 */
export function createPinsService({ db }: { db: Kysely<Database> }) {
  async function list(workspaceId: number): Promise<Pin[]> {
    return (await pinsRepo.listPins(db, workspaceId)).map((p) => ({
      projectId: p.project,
      release: p.release,
      pinnedBy: p.pinned_by,
      pinnedAt: p.pinned_at,
    }));
  }

  return {
    list,

    /** PUT /releasePins: pins a project to a release, or unpins it (`release: null`). */
    async set(
      actor: { workspaceId: number; email: string },
      input: { projectId: string; release: string | null },
    ): Promise<Pin[]> {
      const { workspaceId } = actor;
      const projectRow = await pinsRepo.projectRowId(db, workspaceId, input.projectId);
      if (projectRow === undefined) throw notFound(`projectId: project ${input.projectId} not found`);
      if (input.release === null) {
        await pinsRepo.clearPin(db, workspaceId, projectRow);
        return list(workspaceId);
      }
      const release = await repo.findRelease(db, workspaceId, input.release);
      if (!release) throw notFound(`release: release ${input.release} not found`);
      const filter = JSON.parse(release.filter) as ReleaseFilterInput;
      if (filter.projects && !filter.projects.includes(input.projectId)) {
        throw badRequest(
          `release: release ${input.release} does not hold project ${input.projectId} (it froze ${filter.projects.join(', ') || 'no project'})`,
        );
      }
      await pinsRepo.setPin(db, {
        workspaceId,
        projectId: projectRow,
        releaseId: release.id,
        by: actor.email,
        at: new Date().toISOString(),
      });
      return list(workspaceId);
    },

    /**
     * The release a key's read of text items answers when it names none: the one release every
     * project it reads is pinned to, or null when none of them is pinned. Projects pinned to
     * different releases, or pinned and not, in one read are refused: no single release holds them.
     */
    async forRead(workspaceId: number, filter: string | undefined): Promise<string | null> {
      const pins = await pinsRepo.listPins(db, workspaceId);
      if (pins.length === 0) return null;
      const projects = projectsOfFilter(filter);
      if (projects === null) return null;
      const read = projects ?? (await pinsRepo.projectIds(db, workspaceId));
      const pinOf = new Map(pins.map((p) => [p.project, p.release]));
      const releases = new Set(read.map((p) => pinOf.get(p) ?? null));
      if (releases.size <= 1) return [...releases][0] ?? null;
      // Named up to ten, the pinned ones first: enough to see why, whatever the number of projects.
      const named = [...new Set(read)].sort((a, b) => Number(pinOf.has(b)) - Number(pinOf.has(a)) || (a < b ? -1 : 1));
      const shown = named.slice(0, 10).map((p) => `${p} (${pinOf.get(p) ?? 'current text'})`);
      const describe = named.length > 10 ? `${shown.join(', ')} and ${named.length - 10} more` : shown.join(', ');
      // A 400, not a 409: it names the filter to change, and the v5 puller prints a 400's message.
      throw badRequest(
        `filter.projects: the projects read are pinned to different releases: ${describe}. Read them one at a time, or name a release with release=`,
      );
    },

    /** Developer IDs of the projects pinned to a release (it cannot be deleted while any is). */
    pinnedTo: (workspaceId: number, releaseId: number) => pinsRepo.projectsPinnedTo(db, workspaceId, releaseId),
  };
}

export type PinsService = ReturnType<typeof createPinsService>;

/**
 * A preHandler of the v2 text items reads and exports: a read by an API key that names no
 * release reads the release its projects are pinned to, if any. It runs before the HTTP cache
 * looks at the request, so the read is answered as one with `release=` (content-addressed).
 */
export function pinnedRelease(pins: Pick<PinsService, 'forRead'>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const query = request.query as { release?: string; filter?: string };
    if (query.release !== undefined || request.session !== null) return;
    const pinned = await pins.forRead(principalOf(request).workspaceId, query.filter);
    if (pinned === null) return;
    query.release = pinned;
    reply.header(PINNED_RELEASE_HEADER, pinned);
  };
}
