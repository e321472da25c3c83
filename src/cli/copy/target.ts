import type { Limits } from '../../config.js';
import type { Services } from '../../services.js';
import { IdMap } from './id-set.js';
import { ListSplitter } from './json-list.js';
import { ALL_VARIANTS, type Snapshot, type TextRecord } from './snapshot.js';

/**
 * The workspace being written, read through the same services its GETs use, in the same shapes
 * as the source's snapshot, so that "unchanged" is a comparison of what both GETs answer.
 */
export async function readTarget(
  services: Services,
  workspaceId: number,
  limits: Limits,
  options: { components: boolean } = { components: true },
): Promise<Snapshot> {
  const revision = (await services.history.revisionOf(workspaceId)) ?? 0;
  const [workspace, users, statuses, variants, variables, folders, bases, projects, styleguides] = await Promise.all([
    services.workspace.get(workspaceId),
    services.accounts.listUsers(workspaceId),
    services.statuses.list(workspaceId),
    services.variants.list(workspaceId),
    services.variables.list(workspaceId),
    services.folders.list(workspaceId),
    services.projects.listBases(workspaceId),
    services.projects.listProjects(workspaceId),
    services.styleguides.list(workspaceId),
  ]);
  const blocks = new Map<string, { id: string; name: string }[]>();
  for (const project of projects) blocks.set(project.id, await services.blocks.list(workspaceId, project.id));
  const snapshot: Snapshot = {
    workspace,
    users: users.map((u) => ({ email: u.email, name: u.name, role: u.role })),
    statuses,
    variants,
    variables,
    folders,
    bases,
    projects,
    blocks,
    components: [],
    textItems: [],
    styleguides: styleguides as Snapshot['styleguides'],
  };
  if (!options.components) return snapshot;
  const filter = JSON.stringify(ALL_VARIANTS);
  const components = parse(
    await services.components.list(workspaceId, revision, { filter, richText: 'html' }, limits.filterIds),
  );
  return { ...snapshot, components };
}

const parse = (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as TextRecord[];

/** Where the copy reads this workspace's texts: the services, the workspace and the limits. */
export interface TargetReads {
  services: Services;
  workspaceId: number;
  limits: Limits;
}

/**
 * The text items of one project or base here, as `GET /v2/textItems` shows them, handed over one
 * record at a time as the list is read (page by page, never the whole project in memory).
 */
export async function eachTargetText(
  target: TargetReads,
  container: { kind: 'project' | 'base'; container: string },
  onRecord: (record: TextRecord) => void,
): Promise<void> {
  const { services, workspaceId, limits } = target;
  const revision = (await services.history.revisionOf(workspaceId)) ?? 0;
  const where = container.kind === 'base' ? 'bases' : 'projects';
  const filter = JSON.stringify({ [where]: [{ id: container.container }], ...ALL_VARIANTS });
  const query = { filter, sort: 'project_order' as const, richText: 'html' as const };
  const body = await services.textItems.listBody(workspaceId, revision, query, limits.filterIds);
  const splitter = new ListSplitter('textItems', (value) => onRecord(value as TextRecord), Number.MAX_SAFE_INTEGER);
  if (Buffer.isBuffer(body)) splitter.write(body);
  else {
    try {
      for await (const chunk of body) splitter.write(chunk as Buffer);
    } finally {
      body.destroy();
    }
  }
  splitter.end();
}

/** The items (developer IDs) of one project here, in its order, handed over one at a time. */
export async function targetOrder(target: TargetReads, projectId: string, onId: (id: string) => void): Promise<void> {
  await eachTargetText(target, { kind: 'project', container: projectId }, (r) => {
    if (r.variantId === null && r.pluralForm === null && r.projectId) onId(r.id);
  });
}

/** Where each text item of this workspace is: its project's or base's id, by developer ID. */
export interface TextHomes {
  get(id: string): string | undefined;
}

/** Where each text item of this workspace is (project or base), read a container at a time. */
export async function textHomes(
  services: Services,
  workspaceId: number,
  limits: Limits,
  target: Snapshot,
): Promise<TextHomes> {
  // Each item's container by its place in `containers`: a number an item, its id held compactly.
  const homes = new IdMap();
  const containers = [
    ...(target.bases ?? []).map((b) => ({ kind: 'base' as const, container: b.id })),
    ...target.projects.map((p) => ({ kind: 'project' as const, container: p.id })),
  ];
  for (const [index, container] of containers.entries()) {
    await eachTargetText({ services, workspaceId, limits }, container, (r) => {
      if (r.variantId === null && r.pluralForm === null) homes.set(r.id, index);
    });
  }
  return {
    get: (id) => {
      const index = homes.get(id);
      return index === undefined ? undefined : containers[index]?.container;
    },
  };
}
