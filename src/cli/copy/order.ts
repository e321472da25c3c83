import type { Snapshot } from './snapshot.js';
import { chunks, type StructureContext } from './structure.js';

/**
 * The custom order of each project (`sort=project_order`): blocks in the source's order, then
 * items. Items created in the source's order already stand right; an order is written only where
 * the target still differs, e.g. after a second copy added items in the middle.
 */
function itemOrder(snapshot: Snapshot): Map<string, string[]> {
  const order = new Map<string, string[]>();
  for (const r of snapshot.textItems) {
    if (r.variantId !== null || r.pluralForm !== null || !r.projectId) continue;
    const list = order.get(r.projectId) ?? [];
    list.push(r.id);
    order.set(r.projectId, list);
  }
  return order;
}

export async function copyOrder(ctx: StructureContext, source: Snapshot, target: Snapshot) {
  const wantedItems = itemOrder(source);
  const haveItems = itemOrder(target);
  for (const project of source.projects) {
    const blocks = source.blocks?.get(project.id)?.map((b) => b.id);
    const haveBlocks = target.blocks?.get(project.id)?.map((b) => b.id) ?? [];
    const items = wantedItems.get(project.id) ?? [];
    const have = new Set(haveItems.get(project.id) ?? []);
    const present = items.filter((id) => have.has(id));
    const blocksDiffer = blocks !== undefined && JSON.stringify(blocks) !== JSON.stringify(haveBlocks);
    const itemsDiffer = JSON.stringify(present) !== JSON.stringify(haveItems.get(project.id) ?? []);
    if (!blocksDiffer && !itemsDiffer) {
      ctx.report.count('projectOrder', 'unchanged');
      continue;
    }
    if (blocksDiffer) {
      const known = new Set(haveBlocks);
      await ctx.services.blocks.setOrder(ctx.scope, {
        projectId: project.id,
        blockIds: (blocks ?? []).filter((id) => known.has(id)),
        textItemIds: [],
      });
    }
    if (itemsDiffer) {
      // Each call puts its items first: the last part goes first, the first part ends in front.
      for (const part of chunks(present, ctx.batch).reverse()) {
        await ctx.services.blocks.setOrder(ctx.scope, { projectId: project.id, textItemIds: part });
      }
    }
    ctx.report.count('projectOrder', 'updated');
  }
}
