/**
 * What the texts reader has read, kept between requests and keyed by the workspace's content
 * revision (src/modules/texts/texts.reader.ts): the one cache of reads of components and text items.
 *
 * Every content write advances the revision in its own transaction (src/modules/changes/write-path.ts) and
 * authentication reads it, so a read made for revision R holds data at least as new as R: a
 * request authenticated at R or earlier may use it, a request at a newer revision reads again.
 * Concurrent requests share one read. Memory is bounded by a weight budget (the number of texts
 * and variant values held), least recently used out first; the newest entry is always kept.
 */
interface Entry<T> {
  revision: number;
  value: Promise<T>;
  weight: number;
}

export class SelectionCache<T> {
  readonly #entries = new Map<string, Entry<T>>();

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: T) => number,
  ) {}

  get(key: string, revision: number, load: () => Promise<T>): Promise<T> {
    const entry = this.#entries.get(key);
    if (entry && entry.revision >= revision) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      return entry.value;
    }
    const value = load();
    const fresh: Entry<T> = { revision, value, weight: 0 };
    this.#entries.delete(key);
    this.#entries.set(key, fresh);
    value.then(
      (loaded) => {
        fresh.weight = this.weigh(loaded);
        this.#evict();
      },
      () => {
        // A failed load is not remembered: the next request tries again.
        if (this.#entries.get(key) === fresh) this.#entries.delete(key);
      },
    );
    return value;
  }

  #evict(): void {
    let total = 0;
    for (const entry of this.#entries.values()) total += entry.weight;
    for (const [key, entry] of this.#entries) {
      if (total <= this.maxWeight || this.#entries.size <= 1) break;
      this.#entries.delete(key);
      total -= entry.weight;
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
