/**
 * The answer of an import, written as the import goes: each list's elements as JSON text, kept in
 * memory up to `MEMORY_BYTES` a list and appended to a file in the system's temporary directory
 * beyond, then read back a piece at a time when the answer is sent. An import of 200,000 keys
 * answers tens of megabytes (`keys[]`); memory holds a piece of it, never the whole answer. The
 * file is removed when the answer is sent, failed or abandoned (`close`).
 */
import { closeSync, mkdtempSync, openSync, readSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** The answer's lists, in the answer's order; `keys` is `keysFirst` then `keysRest`. */
const LISTS = ['created', 'updated', 'unchanged', 'skipped', 'warnings', 'keysFirst', 'keysRest'] as const;
export type ReportList = (typeof LISTS)[number];

/** What a list keeps in memory before it goes to the file (and the size of a piece read back). */
const MEMORY_BYTES = 64 * 1024;

interface Spooled {
  count: number;
  /** JSON elements not yet in the file, comma separated. */
  pending: string;
  /** Where the list's earlier elements are in the file, in order. */
  pieces: Array<{ offset: number; length: number }>;
}

export class ImportReportWriter {
  private readonly lists = new Map<ReportList, Spooled>(
    LISTS.map((name) => [name, { count: 0, pending: '', pieces: [] }]),
  );
  private file: { dir: string; fd: number; size: number } | null = null;
  private closed = false;

  constructor(readonly dryRun: boolean) {}

  /** Adds one element to a list, as its JSON text. */
  add(name: ReportList, json: string): void {
    const list = this.lists.get(name)!;
    list.pending += list.count === 0 ? json : `,${json}`;
    list.count += 1;
    if (list.pending.length >= MEMORY_BYTES) this.spill(list);
  }

  count(name: ReportList): number {
    return this.lists.get(name)!.count;
  }

  private spill(list: Spooled): void {
    if (this.closed) throw new Error('the import report is closed');
    if (this.file === null) {
      const dir = mkdtempSync(join(tmpdir(), 'copydesk-import-'));
      this.file = { dir, fd: openSync(join(dir, 'report.json'), 'w+', 0o600), size: 0 };
    }
    const bytes = Buffer.from(list.pending, 'utf8');
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(this.file.fd, bytes, written, bytes.length - written, this.file.size + written);
    }
    list.pieces.push({ offset: this.file.size, length: bytes.length });
    this.file.size += bytes.length;
    list.pending = '';
  }

  private read(piece: { offset: number; length: number }): Buffer {
    const bytes = Buffer.alloc(piece.length);
    let read = 0;
    while (read < piece.length) {
      const n = readSync(this.file!.fd, bytes, read, piece.length - read, piece.offset + read);
      if (n === 0) throw new Error('the import report ended early');
      read += n;
    }
    return bytes;
  }

  /** A list's JSON elements (comma separated), a piece at a time. */
  private async *elements(list: Spooled): AsyncGenerator<Buffer> {
    for (const piece of list.pieces) {
      yield this.read(piece);
      await nextTurn();
    }
    if (list.pending !== '') yield Buffer.from(list.pending, 'utf8');
  }

  /** The answer as JSON: exactly the route's `ImportReport` schema (`imports.types.ts`), a piece at a time. */
  async *json(): AsyncGenerator<Buffer> {
    let head = `{"dryRun":${this.dryRun}`;
    for (const name of ['created', 'updated', 'unchanged', 'skipped', 'warnings'] as const) {
      yield Buffer.from(`${head},"${name}":[`);
      yield* this.elements(this.lists.get(name)!);
      head = ']';
    }
    yield Buffer.from('],"keys":[');
    const first = this.lists.get('keysFirst')!;
    const rest = this.lists.get('keysRest')!;
    yield* this.elements(first);
    if (first.count > 0 && rest.count > 0) yield Buffer.from(',');
    yield* this.elements(rest);
    yield Buffer.from(']}');
  }

  /** Lets go of the report and removes its file. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const list of this.lists.values()) {
      list.pending = '';
      list.pieces = [];
    }
    if (this.file) {
      closeSync(this.file.fd);
      // On the thread pool: unlinking a file of tens of megabytes held the event loop 60 to 80 ms.
      void rm(this.file.dir, { recursive: true, force: true }).catch(() => undefined);
      this.file = null;
    }
  }
}
