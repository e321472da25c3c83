import type { Snapshot } from './snapshot.js';
import { chunks, type StructureContext } from './structure.js';

/**
 * The custom order of a project (`sort=project_order`): blocks in the source's order, then items.
 * Items created in the source's order already stand right; an order is written only where the
 * target still differs, e.g. after a second copy added items in the middle. The orders are lists
 * of developer IDs: a project's items are compared by id, never held with their records.
 */
export async function copyOrder(
  ctx: StructureContext,
  projectId: string,
  source: Pick<Snapshot, 'blocks'>,
  target: Pick<Snapshot, 'blocks'>,
  items: readonly string[],
  haveItems: readonly string[],
) {
  const blocks = source.blocks?.get(projectId)?.map((b) => b.id);
  const haveBlocks = target.blocks?.get(projectId)?.map((b) => b.id) ?? [];
  const have = new Set(haveItems);
  const present = items.filter((id) => have.has(id));
  const blocksDiffer = blocks !== undefined && JSON.stringify(blocks) !== JSON.stringify(haveBlocks);
  const itemsDiffer = !sameList(present, haveItems);
  if (!blocksDiffer && !itemsDiffer) {
    ctx.report.count('projectOrder', 'unchanged');
    return;
  }
  if (blocksDiffer) {
    const known = new Set(haveBlocks);
    await ctx.services.blocks.setOrder(ctx.scope, {
      projectId,
      blockIds: (blocks ?? []).filter((id) => known.has(id)),
      textItemIds: [],
    });
  }
  if (itemsDiffer) {
    // Each call puts its items first: the last part goes first, the first part ends in front.
    for (const part of chunks(present, ctx.batch).reverse()) {
      await ctx.services.blocks.setOrder(ctx.scope, { projectId, textItemIds: part });
    }
  }
  ctx.report.count('projectOrder', 'updated');
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}
