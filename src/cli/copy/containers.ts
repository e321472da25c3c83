import type { Snapshot } from './snapshot.js';
import { chunks, type StructureContext } from './structure.js';

/**
 * Bases, projects and their blocks: the containers text items are created in. Bases cannot be
 * renamed through the API, so a base named differently here is reported, not changed.
 */

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export async function copyContainers(ctx: StructureContext, source: Snapshot, target: Snapshot) {
  const { services, scope, report } = ctx;
  if (source.bases === undefined) {
    const referenced = new Set(source.projects.flatMap((p) => p.baseId ?? []));
    if (referenced.size > 0) report.skip('bases: the source has no GET /bases; projects keep no base');
  }
  const bases = source.bases ?? [];
  const haveBases = new Map((target.bases ?? []).map((b) => [b.id, b]));
  const newBases = bases.filter((b) => !haveBases.has(b.id));
  for (const part of chunks(newBases, ctx.batch)) {
    await services.projects.createBases(
      scope,
      part.map((b) => ({ developerId: b.id, name: b.name })),
    );
  }
  report.count('bases', 'created', newBases.length);
  for (const b of bases) {
    const there = haveBases.get(b.id);
    if (!there) continue;
    if (there.name === b.name) report.count('bases', 'unchanged');
    else report.skip(`base ${b.id}: its name differs here, and bases cannot be renamed`);
  }

  const knownBases = new Set(haveBases.keys());
  for (const b of bases) knownBases.add(b.id);
  const wanted = source.projects.map((p) => ({
    developerId: p.id,
    name: p.name,
    baseId: p.baseId && knownBases.has(p.baseId) ? p.baseId : null,
    developerMode: p.developerMode ?? false,
  }));
  const haveProjects = new Map(target.projects.map((p) => [p.id, p]));
  const newProjects = wanted.filter((p) => !haveProjects.has(p.developerId));
  for (const part of chunks(newProjects, ctx.batch)) await services.projects.createProjects(scope, part);
  report.count('projects', 'created', newProjects.length);
  const changed = wanted.filter((p) => {
    const there = haveProjects.get(p.developerId);
    return (
      there &&
      !same([there.name, there.baseId ?? null, there.developerMode ?? false], [p.name, p.baseId, p.developerMode])
    );
  });
  for (const part of chunks(changed, ctx.batch)) await services.projects.updateProjects(scope, part);
  report.count('projects', 'updated', changed.length);
  report.count('projects', 'unchanged', wanted.length - newProjects.length - changed.length);
}

/**
 * Blocks of each project. A source without GET /projectBlocks still names blocks on its text
 * items (`blockName`): those are created under ids made from their names.
 */
export async function copyBlocks(
  ctx: StructureContext,
  source: Snapshot,
  target: Snapshot,
  blockNames: Map<string, string[]>,
) {
  const { services, scope, report } = ctx;
  const blocks = source.blocks ?? blocksFromNames(blockNames);
  if (!source.blocks) report.skip('block ids: the source has no GET /projectBlocks; blocks are named after blockName');
  for (const [projectId, list] of blocks) {
    const have = new Map((target.blocks?.get(projectId) ?? []).map((b) => [b.id, b]));
    const haveNames = new Set((target.blocks?.get(projectId) ?? []).map((b) => b.name));
    const missing = source.blocks ? list.filter((b) => !have.has(b.id)) : list.filter((b) => !haveNames.has(b.name));
    for (const part of chunks(missing, ctx.batch)) {
      await services.blocks.create(
        scope,
        projectId,
        part.map((b) => (source.blocks ? { developerId: b.id, name: b.name } : { name: b.name })),
      );
    }
    report.count('blocks', 'created', missing.length);
    if (!source.blocks) continue;
    const renamed = list.filter((b) => have.has(b.id) && have.get(b.id)?.name !== b.name);
    if (renamed.length > 0) {
      await services.blocks.update(
        scope,
        projectId,
        renamed.map((b) => ({ developerId: b.id, name: b.name })),
      );
    }
    report.count('blocks', 'updated', renamed.length);
    report.count('blocks', 'unchanged', list.length - missing.length - renamed.length);
  }
}

function blocksFromNames(names: Map<string, string[]>) {
  const blocks = new Map<string, { id: string; name: string }[]>();
  for (const [projectId, list] of names)
    blocks.set(
      projectId,
      list.map((name) => ({ id: '', name })),
    );
  return blocks;
}
