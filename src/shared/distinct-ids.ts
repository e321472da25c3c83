import { badRequest } from '../http/errors.js';

/**
 * A batch names each record at most once: the first repeat is a 400 that names its element
 * (`updates[3].developerId: duplicate developer ID 'cart'`). Checked before anything is read.
 * In a create, elements without an id (`undefined`) get a generated one and are skipped here.
 */
export function assertDistinctIds(
  ids: readonly (string | undefined)[],
  path: (index: number) => string,
  noun = 'developer ID',
): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (id === undefined) return;
    if (seen.has(id)) throw badRequest(`${path(index)}: duplicate ${noun} '${id}'`);
    seen.add(id);
  });
}
