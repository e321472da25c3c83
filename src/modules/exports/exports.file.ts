import type { Readable } from 'node:stream';
import type { ExportEntry, FileWriter } from '../../formats/types.js';
import { bodyOf } from '../../shared/chunked-body.js';
import { nextTurn } from '../../shared/next-turn.js';
import type { OwnerSelection, TextEntity, TextSelection } from '../texts/index.js';

/** A rendered export: the whole file when it is small, else a stream of it. */
export interface ExportBody {
  body: Buffer | Readable;
  contentType: string;
}

/** What the file says of a selected text, or null when it leaves it out. */
export type EntryOf = (entity: TextEntity, chosen: OwnerSelection) => ExportEntry | null;

/** Bytes per chunk of a streamed file: few chunks for the socket, small enough to render between turns. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Milliseconds of rendering between two turns of the event loop. Checked every few entries
 * (reading the clock costs more than writing a short entry), so a turn comes after at most a
 * few milliseconds of work whatever the format and the texts' sizes.
 */
const TURN_MS = 4;
const ENTRIES_PER_CLOCK = 16;

/**
 * The file's chunks, written from one page of texts at a time. The event loop gets a turn every
 * `TURN_MS` of rendering and after every page, so an export of any size never holds up other
 * requests for long. `done` runs once the file is written, or when its reader gives up.
 */
export async function* fileChunks(
  pages: AsyncIterable<TextSelection>,
  writer: FileWriter,
  entryOf: EntryOf,
  done: () => Promise<void>,
): AsyncGenerator<Buffer> {
  try {
    let out = writer.head();
    for await (const page of pages) {
      let since = performance.now();
      let count = 0;
      for (const entity of page.entities) {
        const chosen = page.select(entity);
        const entry = chosen && entryOf(entity, chosen);
        if (entry) out += writer.entry(entry);
        if (out.length >= CHUNK_BYTES) {
          yield Buffer.from(out);
          out = '';
        }
        count += 1;
        if (count % ENTRIES_PER_CLOCK === 0 && performance.now() - since >= TURN_MS) {
          await nextTurn();
          since = performance.now();
        }
      }
      await nextTurn();
    }
    out += writer.tail();
    if (out !== '') yield Buffer.from(out);
  } finally {
    await done();
  }
}

/**
 * The file as an answer, through the shared chunked body: bytes when it ends within 64 KiB, else a
 * stream that pulls the rest as its reader reads. The chunks end their snapshot themselves
 * (`fileChunks`' `done`), whether finished, failed or abandoned.
 */
export async function renderFile(chunks: AsyncGenerator<Buffer>, contentType: string): Promise<ExportBody> {
  return { body: await bodyOf(chunks, async () => {}), contentType };
}
