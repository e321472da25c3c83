import { LRUCache } from 'lru-cache';
import type { Encoding } from './encoding.js';

/** A rendered response as it was sent: the bytes and the headers that describe them. */
export interface CachedBody {
  body: string | Buffer;
  contentType: string;
  /** `br` or `gzip` when the bytes are compressed, null for identity. */
  encoding: Encoding | null;
}

/** No body larger than this is kept, whatever the budget: a huge answer is rendered (streamed) again. */
export const MAX_CACHED_BODY_BYTES = 8 * 1024 * 1024;

/** What an entry costs beyond its bytes: the key, the headers, the cache's own bookkeeping. */
const ENTRY_OVERHEAD = 256;

/**
 * Rendered bodies, least recently used first out, bounded by the bytes they hold (lru-cache's
 * `maxSize`). One entry may take at most a quarter of the budget and never more than
 * `MAX_CACHED_BODY_BYTES`, so a single huge export cannot flush everything else nor pin tens of
 * megabytes. Entries never go stale: their keys hold the ETag, which changes with every write.
 */
export class ResponseCache {
  readonly #entries: LRUCache<string, CachedBody>;
  readonly #maxEntryBytes: number;

  constructor(readonly maxBytes: number) {
    this.#maxEntryBytes = Math.min(Math.floor(maxBytes / 4), MAX_CACHED_BODY_BYTES);
    this.#entries = new LRUCache<string, CachedBody>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (entry, key) => Buffer.byteLength(entry.body) + key.length + ENTRY_OVERHEAD,
    });
  }

  get(key: string): CachedBody | undefined {
    return this.#entries.get(key);
  }

  /** Whether a body of this many bytes may be kept. */
  fits(size: number): boolean {
    return size <= this.#maxEntryBytes;
  }

  set(key: string, entry: CachedBody): void {
    if (this.#entries.has(key) || !this.fits(Buffer.byteLength(entry.body))) return;
    this.#entries.set(key, entry);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The bytes held, as counted against the budget. */
  get bytes(): number {
    return this.#entries.calculatedSize;
  }
}
