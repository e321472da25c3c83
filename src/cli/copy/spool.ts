import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
    const bytes = Buffer.from(JSON.stringify(list), 'utf8');
    const ref = { offset: this.size, length: bytes.length };
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(this.fd, bytes, written, bytes.length - written, this.size + written);
    }
    this.size += bytes.length;
    return ref;
  }

  get<T>(ref: SpoolRef): T[] {
    const bytes = Buffer.alloc(ref.length);
    let read = 0;
    while (read < ref.length) {
      const n = readSync(this.fd, bytes, read, ref.length - read, ref.offset + read);
      if (n === 0) throw new Error('copy: the spooled source ended early');
      read += n;
    }
    return JSON.parse(bytes.toString('utf8')) as T[];
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
