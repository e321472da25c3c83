import { IdSet } from './id-set.js';
import type { Snapshot } from './snapshot.js';
import { IdList, type Spool, type SpoolRef } from './spool.js';
import type { StructureContext } from './structure.js';

/** One project's order, as the source has it and as it is here. */
export interface ProjectOrder {
  projectId: string;
  /** The source's blocks, in their order. */
  source: Pick<Snapshot, 'blocks'>;
  /** The blocks here, in their order. */
  target: Pick<Snapshot, 'blocks'>;
  /** The source's items of the project (developer IDs), in its order. */
  items: Iterable<string>;
  /** The items here, in their order, and the spool the order is put on. */
  here: { ids: () => Iterable<string>; spool: Spool };
}

/**
 * The custom order of a project (`sort=project_order`): blocks in the source's order, then items.
 * Items created in the source's order already stand right; an order is written only where the
 * target still differs, e.g. after a second copy added items in the middle. The orders are lists
 * of developer IDs: a project's items are compared by id, never held with their records.
 */
export async function copyOrder(ctx: StructureContext, order: ProjectOrder) {
  const { projectId, source, target, items, here } = order;
  const blocks = source.blocks?.get(projectId)?.map((b) => b.id);
  const haveBlocks = target.blocks?.get(projectId)?.map((b) => b.id) ?? [];
  const have = new IdSet();
  for (const id of here.ids()) have.add(id);
  // The source's items that are here, in the source's order, compared with the order here as
  // they go, and put on disk in parts of a batch: the order written when they differ.
  const present = new IdList(here.spool, ctx.batch);
  const there = here.ids()[Symbol.iterator]();
  let same = true;
  for (const id of items) {
    if (!have.has(id)) continue;
    present.add(id);
    if (same && there.next().value !== id) same = false;
  }
  if (same && !there.next().done) same = false;
  have.clear();
  const parts = present.finish();
  const blocksDiffer = blocks !== undefined && JSON.stringify(blocks) !== JSON.stringify(haveBlocks);
  const itemsDiffer = !same;
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
    for (let part = parts.length - 1; part >= 0; part -= 1) {
      await ctx.services.blocks.setOrder(ctx.scope, {
        projectId,
        textItemIds: here.spool.get<string>(parts[part] as SpoolRef),
      });
    }
  }
  ctx.report.count('projectOrder', 'updated');
}
