import type { Limits } from '../../config.js';
import type { Services } from '../../services.js';
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

/**
 * The text items of one project or base here, as `GET /v2/textItems` shows them, handed over one
 * record at a time as the list is read (page by page, never the whole project in memory).
 */
export async function eachTargetText(
  services: Services,
  workspaceId: number,
  limits: Limits,
  container: { kind: 'project' | 'base'; container: string },
  onRecord: (record: TextRecord) => void,
): Promise<void> {
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

/** The items (developer IDs) of one project here, in its order. */
export async function targetOrder(
  services: Services,
  workspaceId: number,
  limits: Limits,
  projectId: string,
): Promise<string[]> {
  const order: string[] = [];
  await eachTargetText(services, workspaceId, limits, { kind: 'project', container: projectId }, (r) => {
    if (r.variantId === null && r.pluralForm === null && r.projectId) order.push(r.id);
  });
  return order;
}

/** Where each text item of this workspace is (project or base), a container at a time. */
export async function textHomes(
  services: Services,
  workspaceId: number,
  limits: Limits,
  target: Snapshot,
): Promise<Map<string, string>> {
  const homes = new Map<string, string>();
  const containers = [
    ...(target.bases ?? []).map((b) => ({ kind: 'base' as const, container: b.id })),
    ...target.projects.map((p) => ({ kind: 'project' as const, container: p.id })),
  ];
  for (const container of containers) {
    await eachTargetText(services, workspaceId, limits, container, (r) => {
      if (r.variantId === null && r.pluralForm === null) homes.set(r.id, container.container);
    });
  }
  return homes;
}
