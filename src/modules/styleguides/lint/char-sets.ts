/**
 * Which characters a regex atom can match, precisely enough to tell whether two atoms can match
 * the same character. Classes are measured by testing every BMP code unit; beyond the BMP a class
 * is assumed to match something whenever it might (negations, `\p{...}`, `.`, `\S`...), which errs
 * towards "they overlap" and so towards rejecting a pattern.
 */
export interface CharSet {
  bmp: Uint32Array;
  astral: boolean;
}

const ASTRAL_SAMPLES = ['\u{10000}', '\u{1D400}', '\u{1F600}', '\u{20000}', '\u{E0041}', '\u{10FFFD}'];
const BROAD_ATOM = /^(?:\.|\\[SDWP]|\[\^)|\\[pPu]\{?/;
const cache = new Map<string, CharSet>();
const MAX_CACHED = 500;

function emptySet(): CharSet {
  return { bmp: new Uint32Array(2048), astral: false };
}

function add(set: CharSet, point: number): void {
  if (point > 0xffff) set.astral = true;
  else (set.bmp[point >>> 5] as number) |= 1 << (point & 31);
}

function singleCodePoint(text: string): number | null {
  const point = text.codePointAt(0);
  return point !== undefined && String.fromCodePoint(point) === text ? point : null;
}

/** The set of one atom: `char` for a literal code point, else its regex source. */
export function charSetOf(source: string, char: number | null, flags: string): CharSet {
  const key = `${flags}\u0000${source}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const set = emptySet();
  if (char !== null) {
    add(set, char);
    if (flags.includes('i')) {
      const text = String.fromCodePoint(char);
      for (const variant of [text.toLowerCase(), text.toUpperCase()]) {
        const point = singleCodePoint(variant);
        if (point !== null) add(set, point);
      }
    }
  } else {
    const matcher = new RegExp(`^(?:${source})$`, flags.replace(/[gmy]/g, ''));
    for (let point = 0; point <= 0xffff; point += 1) {
      if (matcher.test(String.fromCharCode(point))) add(set, point);
    }
    if (flags.includes('u')) {
      set.astral = BROAD_ATOM.test(source) || ASTRAL_SAMPLES.some((sample) => matcher.test(sample));
    }
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(key, set);
  return set;
}

export function union(sets: readonly CharSet[]): CharSet {
  const result = emptySet();
  for (const set of sets) {
    for (let k = 0; k < result.bmp.length; k += 1) (result.bmp[k] as number) |= set.bmp[k] as number;
    result.astral ||= set.astral;
  }
  return result;
}

export function overlaps(a: CharSet, b: CharSet): boolean {
  if (a.astral && b.astral) return true;
  for (let k = 0; k < a.bmp.length; k += 1) {
    if (((a.bmp[k] as number) & (b.bmp[k] as number)) !== 0) return true;
  }
  return false;
}
