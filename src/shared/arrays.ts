/**
 * Loops in place of spreading an array into a call (`push(...rows)`, `Math.max(...values)`): a
 * spread passes every element as an argument, and past about 100,000 of them the call overflows
 * the stack ("Maximum call stack size exceeded"). See docs/scale.md.
 */

/** Appends every item to `target`, one at a time; answers `target`. */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest of `values`, or `floor` when there are none or all are smaller. */
export function maxOf(values: Iterable<number>, floor = Number.NEGATIVE_INFINITY): number {
  let max = floor;
  for (const value of values) if (value > max) max = value;
  return max;
}

/** The smallest of `values`, or `ceiling` when there are none or all are larger. */
export function minOf(values: Iterable<number>, ceiling = Number.POSITIVE_INFINITY): number {
  let min = ceiling;
  for (const value of values) if (value < min) min = value;
  return min;
}
