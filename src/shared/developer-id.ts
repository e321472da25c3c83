/**
 * Generated developer IDs, for creates that omit one: a slug of a name or text, made unique with
 * `-2`, `-3`... The slug always matches the developer ID pattern.
 */
const MAX_SLUG_LENGTH = 64;

/** Lower case, accents dropped, runs of anything but a-z and 0-9 become `-`; never empty. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
  // A name of only punctuation or non-Latin script leaves nothing; the suffixes keep it unique.
  return slug || 'item';
}

/**
 * `base`, or `base-2`, `base-3`... whichever is not in `taken`. The result is added to `taken`,
 * so a batch that generates several ids in a row never hands out the same one twice.
 */
export function uniqueDeveloperId(base: string, taken: Set<string>): string {
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}-${n}`;
  taken.add(candidate);
  return candidate;
}
