/**
 * The formatting marks of the rich-text subset, as bits so a run's formatting is one number and
 * nested duplicates (`<b><b>x</b></b>`) collapse by construction.
 */
export const STRONG = 1;
export const EM = 2;
export const UNDERLINE = 4;
export const STRIKE = 8;
export const SUP = 16;
export const SUB = 32;

/** Canonical nesting order of the stored markup: outermost first. */
export const MARK_ORDER: ReadonlyArray<readonly [mark: number, tag: string]> = [
  [STRONG, 'strong'],
  [EM, 'em'],
  [UNDERLINE, 'u'],
  [STRIKE, 's'],
  [SUP, 'sup'],
  [SUB, 'sub'],
];

const MARK_BY_TAG: Readonly<Record<string, number>> = {
  strong: STRONG,
  b: STRONG,
  em: EM,
  i: EM,
  u: UNDERLINE,
  s: STRIKE,
  sup: SUP,
  sub: SUB,
};

/** The mark an element contributes, or 0 when it is not part of the subset (its text is kept). */
export function markOf(tagName: string, supSub: boolean): number {
  const mark = MARK_BY_TAG[tagName] ?? 0;
  if (!supSub && (mark === SUP || mark === SUB)) return 0;
  return mark;
}

const words = (list: string): ReadonlySet<string> => new Set(list.split(' '));

/**
 * Elements dropped together with their content: executable, styling, embedded or form content
 * whose text is not part of the visible copy (script text must never leak into `text`).
 */
export const DROPPED_WITH_CONTENT: ReadonlySet<string> = words(
  'script style template iframe frame frameset noscript noembed noframes object embed applet svg math canvas audio video textarea select datalist title head xmp plaintext',
);

/** Elements whose start and end are line boundaries: their text becomes its own line. */
export const BLOCK_ELEMENTS: ReadonlySet<string> = words(
  'address article aside blockquote caption center dd details dialog dir div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr legend li listing main menu nav ol p pre section summary table tbody td tfoot th thead tr ul',
);
