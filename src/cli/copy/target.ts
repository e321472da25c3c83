import type { Limits } from '../../config.js';
import type { Services } from '../../services.js';
import { ALL_VARIANTS, append, type Snapshot, type TextRecord } from './snapshot.js';

/**
 * The workspace being written, read through the same services its GETs use, in the same shapes
 * as the source's snapshot, so that "unchanged" is a comparison of what both GETs answer.
 */
export async function readTarget(
  services: Services,
  workspaceId: number,
  limits: Limits,
  options: { texts: boolean } = { texts: true },
): Promise<Snapshot> {
  const revision = (await services.history.revisionOf(workspaceId)) ?? 0;
  const filter = JSON.stringify(ALL_VARIANTS);
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
  // Reading every text is the costly part: skipped where only the structure is compared.
  if (!options.texts) return snapshot;
  const parse = (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as TextRecord[];
  const components = parse(
    await services.components.list(workspaceId, revision, { filter, richText: 'html' }, limits.filterIds),
  );
  const query = { filter, sort: 'project_order' as const, richText: 'html' as const };
  const textItems = parse(await services.textItems.list(workspaceId, revision, query, limits.filterIds));
  for (let i = 0; i < bases.length; i += limits.filterIds) {
    const baseFilter = JSON.stringify({
      bases: bases.slice(i, i + limits.filterIds).map((b) => ({ id: b.id })),
      ...ALL_VARIANTS,
    });
    const items = parse(
      await services.textItems.list(workspaceId, revision, { ...query, filter: baseFilter }, limits.filterIds),
    );
    append(textItems, items);
  }
  return { ...snapshot, components, textItems };
}
