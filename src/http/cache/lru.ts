import type { Encoding } from './encoding.js';

/** A rendered response as it was sent: the bytes and the headers that describe them. */
export interface CachedBody {
  body: string | Buffer;
  contentType: string;
  /** `br` or `gzip` when the bytes are compressed, null for identity. */
  encoding: Encoding | null;
}

/**
 * Rendered bodies, least recently used first out, bounded by the bytes they hold. One entry may
 * take at most a quarter of the budget, so a single huge export cannot flush everything else.
 * Entries never go stale: their keys hold the ETag, which changes with every write.
 */
export class ResponseCache {
  readonly #entries = new Map<string, CachedBody>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  get(key: string): CachedBody | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  /** Whether a body of this many bytes may be kept. */
  fits(size: number): boolean {
    return size <= this.maxBytes / 4;
  }

  set(key: string, entry: CachedBody): void {
    if (this.#entries.has(key)) return;
    const size = Buffer.byteLength(entry.body);
    if (!this.fits(size)) return;
    this.#entries.set(key, entry);
    this.#bytes += size;
    for (const [oldest, value] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= Buffer.byteLength(value.body);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
