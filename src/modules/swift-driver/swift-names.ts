/**
 * The accessor names of a file too large to hold (pure): the names `uniqueIdentifiers` gives, found
 * in two passes over the keys instead of over a list of all of them. See docs/swift-driver.md,
 * "Large libraries".
 *
 * A key's natural name (`naturalIdentifier`) is its name unless an earlier key has the same
 * natural name; then it takes the first number from 2 that no earlier key was given and no key
 * at all wants as its natural name. So only two things need every key: which natural names occur
 * more than once, and which natural names the numbers of those would take.
 *
 * 1. `add` each key's natural name in file order: only a 53-bit hash of it is kept, in a typed
 *    arrays (8 to 16 bytes a key, dropped after the pass); a hash seen twice is a possible clash.
 * 2. Without possible clashes every key keeps its natural name. Otherwise `observe` the keys
 *    again, in the same order: the few whose natural name hashes to a possible clash, or is one
 *    of those followed by digits (a number it might take), are kept with their names.
 *    `resolve` then gives them exactly the names `uniqueIdentifiers` would: every key that can
 *    share a name with them, or want a number they might take, is among them.
 *
 * A hash shared by two different names costs only a key kept in the second pass, never a wrong
 * name: the names are compared as strings there.
 */

/** A 53-bit hash of a string (two 32-bit multiplicative hashes, mixed). */
export function hash53(text: string): number {
  let a = 0x811c9dc5 ^ text.length;
  let b = 0x2545f491;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  a ^= a >>> 16;
  b = Math.imul(b ^ (b >>> 13), 0x27d4eb2d);
  b ^= b >>> 16;
  return (b >>> 11) * 0x1_0000_0000 + (a >>> 0);
}

/**
 * A set of hashes: open-addressing tables of doubles (0: empty; a hash is stored plus one), each
 * twice the size of the one before, the newest taking inserts until half full. A full table is
 * never copied into a larger one: at a million keys that copy rehashed half a million entries in
 * one go, about 170 ms of the event loop. A lookup probes each table (a dozen at a million).
 */
class HashTable {
  private readonly tables: Float64Array[] = [new Float64Array(1 << 12)];
  private count = 0;

  /** Adds `hash`; false when it was there already. */
  insert(hash: number): boolean {
    const stored = hash + 1;
    const tables = this.tables;
    for (let t = 0; t < tables.length - 1; t++) if (HashTable.has(tables[t] as Float64Array, stored)) return false;
    let newest = tables[tables.length - 1] as Float64Array;
    const mask = newest.length - 1;
    let i = hash % newest.length;
    for (;;) {
      const slot = newest[i] as number;
      if (slot === 0) break;
      if (slot === stored) return false;
      i = (i + 1) & mask;
    }
    newest[i] = stored;
    this.count += 1;
    if (2 * this.count >= newest.length) {
      newest = new Float64Array(newest.length * 2);
      tables.push(newest);
      this.count = 0;
    }
    return true;
  }

  private static has(table: Float64Array, stored: number): boolean {
    const mask = table.length - 1;
    let i = (stored - 1) % table.length;
    for (;;) {
      const slot = table[i] as number;
      if (slot === 0) return false;
      if (slot === stored) return true;
      i = (i + 1) & mask;
    }
  }
}

const isDigit = (code: number) => code >= 48 && code <= 57;

export class AccessorNames {
  private hashes: HashTable | null = new HashTable();
  private readonly clashing = new Set<number>();
  private readonly kept: { key: string; natural: string }[] = [];
  private readonly numbered = new Map<string, string>();

  /** First pass: a key's natural name, in file order. */
  add(natural: string): void {
    const hash = hash53(natural);
    if (!(this.hashes as HashTable).insert(hash)) this.clashing.add(hash);
  }

  /** Ends the first pass (its hashes are dropped): whether some keys may clash, and a second pass is needed. */
  endFirstPass(): boolean {
    this.hashes = null;
    return this.clashing.size > 0;
  }

  /** Second pass: each key again (`key` unique in the file), in the same order. */
  observe(key: string, natural: string): void {
    if (this.clashing.has(hash53(natural)) || this.mayBeNumberOf(natural)) this.kept.push({ key, natural });
  }

  /** Whether `natural` is a possibly clashing name followed by digits. */
  private mayBeNumberOf(natural: string): boolean {
    let end = natural.length;
    while (end > 1 && isDigit(natural.charCodeAt(end - 1))) {
      end -= 1;
      if (this.clashing.has(hash53(natural.slice(0, end)))) return true;
    }
    return false;
  }

  /** After the second pass: the numbers, as `uniqueIdentifiers` gives them. */
  resolve(): void {
    const claimed = new Set(this.kept.map((k) => k.natural));
    const given = new Set<string>();
    for (const { key, natural } of this.kept) {
      let chosen = natural;
      if (given.has(chosen)) {
        let n = 2;
        while (given.has(`${natural}${n}`) || claimed.has(`${natural}${n}`)) n++;
        chosen = `${natural}${n}`;
        this.numbered.set(key, chosen);
      }
      given.add(chosen);
    }
    this.kept.length = 0;
  }

  /** The name of a key (after `resolve`, or without clashes). */
  nameOf(key: string, natural: string): string {
    return this.numbered.get(key) ?? natural;
  }
}
