/**
 * Developer IDs held compactly, for the sets and maps a copy keeps per text of a project (which
 * texts were seen, in which slice a text is). A `Set<string>` of 100,000 ids costs about 10 MB of
 * JavaScript heap, strings and hash table, and every such megabyte that is alive when the garbage
 * collector runs lets the heap grow by several more before it runs again. Here the ids are their
 * UTF-8 bytes in one growing buffer, found through an open-addressing table of entry numbers:
 * about 35 bytes an id of 20 characters, outside the heap, and compared byte for byte (a hash
 * collision never makes two ids one).
 */
export class IdMap {
  /** The ids' bytes, one after the other; entry `i` is `starts[i]` to `starts[i + 1]`. */
  private bytes = Buffer.allocUnsafe(4096);
  private starts = new Uint32Array(1025);
  private hashes = new Int32Array(1024);
  private values = new Int32Array(1024);
  /** Entry number + 1 at each slot, 0 where the slot is free; at most half full. */
  private table = new Int32Array(2048);
  private count = 0;
  /** The hash of the bytes `stage` wrote last. */
  private stagedHash = 0;

  get size(): number {
    return this.count;
  }

  /** The value of `id`, or `undefined` when it is not here. */
  get(id: string): number | undefined {
    const entry = this.find(this.stage(id));
    return entry < 0 ? undefined : this.values[entry];
  }

  has(id: string): boolean {
    return this.find(this.stage(id)) >= 0;
  }

  /** The entry number of `id` (0 for the first id added, then 1...), or -1 when it is not here. */
  indexOf(id: string): number {
    return this.find(this.stage(id));
  }

  /** Sets the value of `id`, adding it when it is not here. */
  set(id: string, value: number): void {
    const length = this.stage(id);
    const entry = this.find(length);
    if (entry >= 0) this.values[entry] = value;
    else this.insert(length, value);
  }

  /** Adds `id` with `value` when it is not here; true when it was added. */
  add(id: string, value = 0): boolean {
    const length = this.stage(id);
    if (this.find(length) >= 0) return false;
    this.insert(length, value);
    return true;
  }

  /** The ids and their values, in the order they were first added. */
  *entries(): Generator<[string, number]> {
    for (let i = 0; i < this.count; i += 1) {
      yield [this.bytes.toString('utf8', this.starts[i], this.starts[i + 1]), this.values[i] as number];
    }
  }

  clear(): void {
    this.bytes = Buffer.allocUnsafe(4096);
    this.starts = new Uint32Array(1025);
    this.hashes = new Int32Array(1024);
    this.values = new Int32Array(1024);
    this.table = new Int32Array(2048);
    this.count = 0;
  }

  /** Writes `id`'s bytes after the last entry (not yet an entry) and answers their length. */
  private stage(id: string): number {
    const end = this.starts[this.count] as number;
    if (end + id.length * 3 > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, end + id.length * 3));
      this.bytes.copy(grown, 0, 0, end);
      this.bytes = grown;
    }
    const length = this.bytes.write(id, end, 'utf8');
    this.stagedHash = this.hashOf(end, length);
    return length;
  }

  /** FNV-1a of `length` bytes from `start`. */
  private hashOf(start: number, length: number): number {
    let hash = 0x811c9dc5 | 0;
    for (let i = start; i < start + length; i += 1) hash = Math.imul(hash ^ (this.bytes[i] as number), 0x01000193);
    return hash;
  }

  /** The entry holding the staged bytes, or -1. */
  private find(length: number): number {
    const hash = this.stagedHash;
    const mask = this.table.length - 1;
    const staged = this.starts[this.count] as number;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = (this.table[slot] as number) - 1;
      if (entry < 0) return -1;
      if (this.hashes[entry] !== hash) continue;
      const start = this.starts[entry] as number;
      if ((this.starts[entry + 1] as number) - start === length && this.same(start, staged, length)) return entry;
    }
  }

  private same(a: number, b: number, length: number): boolean {
    for (let i = 0; i < length; i += 1) if (this.bytes[a + i] !== this.bytes[b + i]) return false;
    return true;
  }

  /** Makes the staged bytes an entry. */
  private insert(length: number, value: number): void {
    const entry = this.count;
    if (entry + 1 >= this.hashes.length) this.growEntries();
    this.hashes[entry] = this.stagedHash;
    this.values[entry] = value;
    this.starts[entry + 1] = (this.starts[entry] as number) + length;
    this.count += 1;
    if (this.count * 2 > this.table.length) this.rehash();
    else this.place(entry);
  }

  private place(entry: number): void {
    const mask = this.table.length - 1;
    let slot = (this.hashes[entry] as number) & mask;
    while (this.table[slot] !== 0) slot = (slot + 1) & mask;
    this.table[slot] = entry + 1;
  }

  private growEntries(): void {
    const capacity = this.hashes.length * 2;
    const starts = new Uint32Array(capacity + 1);
    starts.set(this.starts);
    this.starts = starts;
    const hashes = new Int32Array(capacity);
    hashes.set(this.hashes);
    this.hashes = hashes;
    const values = new Int32Array(capacity);
    values.set(this.values);
    this.values = values;
  }

  private rehash(): void {
    this.table = new Int32Array(this.table.length * 2);
    for (let entry = 0; entry < this.count; entry += 1) this.place(entry);
  }
}

/** A set of ids, held like `IdMap`'s. */
export class IdSet {
  private readonly map = new IdMap();

  get size(): number {
    return this.map.size;
  }

  has(id: string): boolean {
    return this.map.has(id);
  }

  /** Adds `id`; true when it was not here yet. */
  add(id: string): boolean {
    return this.map.add(id);
  }

  *values(): Generator<string> {
    for (const [id] of this.map.entries()) yield id;
  }

  clear(): void {
    this.map.clear();
  }
}
