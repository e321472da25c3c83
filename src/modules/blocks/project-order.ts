import { badRequest } from '../../http/errors.js';

/**
 * The custom order of a project's text items, used by `sort=project_order`: blocks in block order, the items of each block in item order, then the items outside blocks.
 * Items are ordered by `texts.position` (ties by creation, i.e. row id); blocks by
 * `blocks.position` (ties by row id). Positions only ever compare within one project.
 */

export interface BlockRef {
  /** Row id. */
  id: number;
  /** Row id of the project. */
  projectId: number;
  developerId: string;
  name: string;
  /** 0-based place of the block in its project's block order. */
  rank: number;
}

/** What of a text item its place in the project order depends on (a `texts` row has these columns). */
export interface OrderedTextItem {
  id: number;
  block_id: number | null;
  position: number;
}

/** Ranks after every real block: items outside blocks come last. */
const OUTSIDE_BLOCKS = Number.MAX_SAFE_INTEGER;

/**
 * The sort key of a text item within its project: `[block rank, item position, row id]`, compared
 * element by element. `blocks` is the map from `loadBlocks` (row id -> block); a block id missing
 * from it counts as outside blocks. Group by project (developer ID, alphabetically) before this.
 */
export function projectOrderKey(
  item: OrderedTextItem,
  blocks: ReadonlyMap<number, BlockRef>,
): [number, number, number] {
  const rank = item.block_id === null ? OUTSIDE_BLOCKS : (blocks.get(item.block_id)?.rank ?? OUTSIDE_BLOCKS);
  return [rank, item.position, item.id];
}

/** A comparator over text items of one project by `projectOrderKey`. */
export function compareProjectOrder(blocks: ReadonlyMap<number, BlockRef>) {
  return (a: OrderedTextItem, b: OrderedTextItem): number => {
    const ka = projectOrderKey(a, blocks);
    const kb = projectOrderKey(b, blocks);
    return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2];
  };
}

/**
 * The order after `PUT /projectOrder`: the listed entries first, in request order, then the rest
 * in their current order. `current` is in current order; `listed` are developer IDs already
 * checked to exist and to be distinct.
 */
export function reordered<T extends { developerId: string }>(current: readonly T[], listed: readonly string[]): T[] {
  const byDeveloperId = new Map(current.map((row) => [row.developerId, row]));
  const first = listed.map((id) => byDeveloperId.get(id) as T);
  const chosen = new Set(first);
  return [...first, ...current.filter((row) => !chosen.has(row))];
}

/** Positions 0..n-1 for rows in `order`: only the rows whose position changes. */
export function newPositions(order: readonly { id: number; position: number }[]): Map<number, number> {
  const changed = new Map<number, number>();
  order.forEach((row, position) => {
    if (row.position !== position) changed.set(row.id, position);
  });
  return changed;
}

/** Checks `ids` (a body array at `field`, already distinct) against what the project holds, naming the first unknown. */
export function checkListed(
  ids: readonly string[],
  known: ReadonlySet<string>,
  field: string,
  unknown: (developerId: string) => string,
): void {
  const index = ids.findIndex((id) => !known.has(id));
  if (index !== -1) throw badRequest(`${field}[${index}]: ${unknown(ids[index] as string)}`);
}
