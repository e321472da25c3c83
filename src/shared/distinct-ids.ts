import { badRequest } from '../http/errors.js';

/**
 * A batch names each record at most once: the first repeat is a 400 that names its element
 * (`updates[3].developerId: duplicate developer ID 'cart'`). Checked before anything is read.
 */
export function assertDistinctIds(
  ids: readonly string[],
  path: (index: number) => string,
  noun = 'developer ID',
): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) throw badRequest(`${path(index)}: duplicate ${noun} '${id}'`);
    seen.add(id);
  });
}

/** The index of the first repeated id, or -1. */
export function firstRepeat(ids: readonly string[]): number {
  const seen = new Set<string>();
  return ids.findIndex((id) => seen.size === seen.add(id).size);
}
