import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IdMap } from './id-set.js';

/**
 * Pages of the source kept on disk between the check and the writes: every page is checked before
 * the first write, and written one at a time afterwards, so memory holds one page, not the source.
 * The file lives in the system's temporary directory and is removed when the copy ends.
 */
export interface SpoolRef {
  offset: number;
  length: number;
}

export class Spool {
  private size = 0;

  private constructor(
    private readonly dir: string,
    private readonly fd: number,
  ) {}

  static open(): Spool {
    const dir = mkdtempSync(join(tmpdir(), 'copydesk-copy-'));
    return new Spool(dir, openSync(join(dir, 'pages.json'), 'w+', 0o600));
  }

  put(list: readonly unknown[]): SpoolRef {
    return this.append(Buffer.from(JSON.stringify(list), 'utf8'));
  }

  append(bytes: Buffer): SpoolRef {
    const ref = { offset: this.size, length: bytes.length };
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(this.fd, bytes, written, bytes.length - written, this.size + written);
    }
    this.size += bytes.length;
    return ref;
  }

  private bytes(ref: SpoolRef): Buffer {
    const bytes = Buffer.alloc(ref.length);
    let read = 0;
    while (read < ref.length) {
      const n = readSync(this.fd, bytes, read, ref.length - read, ref.offset + read);
      if (n === 0) throw new Error('copy: the spooled source ended early');
      read += n;
    }
    return bytes;
  }

  get<T>(ref: SpoolRef): T[] {
    return JSON.parse(this.bytes(ref).toString('utf8')) as T[];
  }

  /** The ids of a list put with `IdList`, a part at a time in memory. */
  *ids(parts: readonly SpoolRef[]): Generator<string> {
    for (const ref of parts) yield* this.get<string>(ref);
  }

  /** The records of a slice: its segments, a JSON line a record, in the order they were added. */
  lines<T>(segments: readonly SpoolRef[]): T[] {
    const records: T[] = [];
    for (const ref of segments) {
      const text = this.bytes(ref).toString('utf8');
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        if (nl > start) records.push(JSON.parse(text.slice(start, nl)) as T);
        start = nl + 1;
      }
    }
    return records;
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A long list of ids (a project's order) put on disk as it grows, in parts of `partSize` ids:
 * memory holds one part.
 */
export class IdList {
  private part: string[] = [];
  private readonly parts: SpoolRef[] = [];

  constructor(
    private readonly spool: Spool,
    private readonly partSize = 1_000,
  ) {}

  add(id: string): void {
    this.part.push(id);
    if (this.part.length >= this.partSize) this.flush();
  }

  /** The parts on disk, in order; read them back with `Spool.ids` or one by one with `Spool.get`. */
  finish(): SpoolRef[] {
    this.flush();
    return this.parts;
  }

  private flush() {
    if (this.part.length === 0) return;
    this.parts.push(this.spool.put(this.part));
    this.part = [];
  }
}

/** Bytes a slice keeps in memory before they go to the file. */
const FLUSH_BYTES = 32 * 1024;

/** The slices of a `SliceWriter` set beforehand: each text's slice, and how many there are. */
export interface FixedSlices {
  /** The slice of each text, by id: the records of any other text are dropped. */
  sliceOf: IdMap;
  /** How many slices there are, each one there even if no record goes to it. */
  slices: number;
}

/**
 * The records of one answer, put on disk in slices of whole texts: a text's records all go to the
 * slice of its first record, whatever their order in the answer, so that a slice can be compared
 * and written on its own. Slices follow the order in which texts first appear.
 */
export class SliceWriter {
  private readonly buffers: string[][] = [];
  private readonly buffered: number[] = [];
  private readonly segments: SpoolRef[][] = [];
  private readonly sliceOf: IdMap;
  private readonly fixed: boolean;

  /**
   * `fixed` given: the records of texts its `sliceOf` knows go to their slices, the others are
   * dropped (the target's records, sliced like the source's). Otherwise each new text takes the
   * next place.
   */
  constructor(
    private readonly spool: Spool,
    private readonly textsPerSlice: number,
    fixed?: FixedSlices,
  ) {
    this.sliceOf = fixed?.sliceOf ?? new IdMap();
    this.fixed = fixed !== undefined;
    for (let i = 0; i < (fixed?.slices ?? 0); i += 1) this.open();
  }

  /** Adds a record of the text `textId`; false when it belongs to no slice (`fixed`). */
  add(textId: string, record: unknown): boolean {
    let slice = this.sliceOf.get(textId);
    if (slice === undefined) {
      if (this.fixed) return false;
      slice = Math.floor(this.sliceOf.size / this.textsPerSlice);
      this.sliceOf.set(textId, slice);
      if (slice === this.segments.length) this.open();
    }
    const line = `${JSON.stringify(record)}\n`;
    (this.buffers[slice] as string[]).push(line);
    this.buffered[slice] = (this.buffered[slice] as number) + line.length;
    if ((this.buffered[slice] as number) >= FLUSH_BYTES) this.flush(slice);
    return true;
  }

  /** The slices, each as its segments on disk, and the texts of each slice. */
  finish(): { slices: SpoolRef[][]; ids: SpoolRef[] } {
    for (let i = 0; i < this.segments.length; i += 1) this.flush(i);
    if (this.fixed) return { slices: this.segments, ids: [] };
    // Texts took their slices in the order they came: a slice's ids follow each other.
    const ids: SpoolRef[] = [];
    let list: string[] = [];
    for (const [id, slice] of this.sliceOf.entries()) {
      if (slice !== ids.length) {
        ids.push(this.spool.put(list));
        list = [];
      }
      list.push(id);
    }
    if (this.sliceOf.size > 0) ids.push(this.spool.put(list));
    return { slices: this.segments, ids };
  }

  private open() {
    this.buffers.push([]);
    this.buffered.push(0);
    this.segments.push([]);
  }

  private flush(slice: number) {
    const lines = this.buffers[slice] as string[];
    if (lines.length === 0) return;
    (this.segments[slice] as SpoolRef[]).push(this.spool.append(Buffer.from(lines.join(''), 'utf8')));
    this.buffers[slice] = [];
    this.buffered[slice] = 0;
  }
}
