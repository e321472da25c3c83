import { LRUCache } from 'lru-cache';

/**
 * What the texts reader has read, kept between requests and keyed by the workspace's content
 * revision (src/modules/texts/texts.reader.ts): the one cache of reads of components and text items.
 *
 * Every content write advances the revision in its own transaction (src/modules/changes/write-path.ts) and
 * authentication reads it, so a read made for revision R holds data at least as new as R: a
 * request authenticated at R or earlier may use it, a request at a newer revision reads again.
 * Concurrent requests share one read while it loads. Memory is bounded by bytes (an estimate of
 * what a read holds, its JSON included; lru-cache's `maxSize`), least recently used out first,
 * and a read estimated larger than `maxEntryBytes` is never kept: it serves the requests that
 * were waiting for it and is dropped.
 */
interface Entry<T> {
  revision: number;
  value: Promise<T>;
}

export interface SelectionCacheBounds {
  /** Bytes all kept reads may hold together. */
  maxBytes: number;
  /** Bytes one read may hold and still be kept. */
  maxEntryBytes: number;
}

export class SelectionCache<T> {
  /** Reads being loaded, shared by the requests that ask meanwhile. */
  readonly #loading = new Map<string, Entry<T>>();
  readonly #kept: LRUCache<string, Entry<T>>;

  constructor(
    bounds: SelectionCacheBounds,
    private readonly bytesOf: (value: T) => number,
  ) {
    this.#kept = new LRUCache<string, Entry<T>>({
      maxSize: bounds.maxBytes,
      maxEntrySize: bounds.maxEntryBytes,
      // Set only once loaded (below), with the size measured then.
      sizeCalculation: () => 1,
    });
  }

  get(key: string, revision: number, load: () => Promise<T>): Promise<T> {
    const pending = this.#loading.get(key);
    if (pending && pending.revision >= revision) return pending.value;
    const kept = this.#kept.get(key);
    if (kept && kept.revision >= revision) return kept.value;
    const value = load();
    const fresh: Entry<T> = { revision, value };
    this.#loading.set(key, fresh);
    value.then(
      (loaded) => {
        if (this.#loading.get(key) !== fresh) return;
        this.#loading.delete(key);
        const current = this.#kept.get(key);
        if (current && current.revision > revision) return;
        // Over `maxEntryBytes`, lru-cache refuses it (and forgets an older read of the key).
        this.#kept.set(key, fresh, { size: Math.max(1, this.bytesOf(loaded)) });
      },
      () => {
        // A failed load is not remembered: the next request tries again.
        if (this.#loading.get(key) === fresh) this.#loading.delete(key);
      },
    );
    return value;
  }

  /** A read of the key loaded or loading for this revision (or a newer one), without starting one. */
  peek(key: string, revision: number): Promise<T> | undefined {
    const pending = this.#loading.get(key);
    if (pending && pending.revision >= revision) return pending.value;
    const kept = this.#kept.get(key);
    return kept && kept.revision >= revision ? kept.value : undefined;
  }

  /** Reads kept (loaded and within the bounds). */
  get size(): number {
    return this.#kept.size;
  }

  /** The estimated bytes of the reads kept. */
  get bytes(): number {
    return this.#kept.calculatedSize;
  }
}
