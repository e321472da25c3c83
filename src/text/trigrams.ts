/**
 * Trigrams of a text as PostgreSQL's pg_trgm makes them, so that the translation memory scores
 * a match the same way whichever database found it (docs/translation-memory.md): the text's
 * words (runs of letters and digits), lower-cased, each padded with two spaces before and one
 * after, cut into every run of three characters; a set, so a trigram counts once.
 */

const WORD = /[\p{L}\p{N}]+/gu;
const NON_ASCII = /[^\x20-\x7e]/;

export function trigramsOf(text: string): Set<string> {
  const grams = new Set<string>();
  const folded = (NON_ASCII.test(text) ? text.normalize('NFC') : text).toLowerCase();
  for (const match of folded.matchAll(WORD)) {
    const chars = Array.from(`  ${match[0]} `);
    for (let i = 0; i + 3 <= chars.length; i += 1) grams.add(`${chars[i]}${chars[i + 1]}${chars[i + 2]}`);
  }
  return grams;
}

/** pg_trgm's similarity: the trigrams both share over the trigrams either has (0 to 1). */
export function trigramSimilarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const gram of small) if (large.has(gram)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/**
 * MinHash bands of a trigram set (locality-sensitive hashing): BANDS keys, each from ROWS minimum
 * hashes. Two sets share a key with a chance that rises steeply with their similarity s:
 * 1 - (1 - s^3)^32 is 0.03 at s = 0.1, 0.58 at 0.3, 0.88 at 0.4, 0.986 at 0.5, 0.9995 at 0.7, and
 * identical sets share all. The translation memory looks candidates up by these keys, on both
 * databases (docs/translation-memory.md). Each key is an integer below 2^53: the band times 2^32 plus a
 * 32-bit hash of its minimums.
 */
export const MINHASH_BANDS = 32;
const ROWS = 3;
const SEEDS = Array.from({ length: MINHASH_BANDS * ROWS }, (_, i) => fmix32(Math.imul(i + 1, 0x9e3779b1)));

function fmix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hashOf(gram: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < gram.length; i += 1) h = Math.imul(h ^ gram.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function minhashBands(grams: ReadonlySet<string>): number[] {
  if (grams.size === 0) return [];
  const minimums = new Array<number>(SEEDS.length).fill(0xffffffff);
  for (const gram of grams) {
    const base = hashOf(gram);
    for (let i = 0; i < SEEDS.length; i += 1) {
      const h = fmix32(base ^ (SEEDS[i] as number));
      if (h < (minimums[i] as number)) minimums[i] = h;
    }
  }
  const keys: number[] = [];
  for (let band = 0; band < MINHASH_BANDS; band += 1) {
    let h = band;
    for (let row = 0; row < ROWS; row += 1) h = fmix32(Math.imul(h, 31) ^ (minimums[band * ROWS + row] as number));
    keys.push(band * 2 ** 32 + h);
  }
  return keys;
}
