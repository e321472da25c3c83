import { Readable } from 'node:stream';
import type { ExportEntry, FileWriter } from '../../formats/types.js';
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

/** A file no longer than this is answered whole (and compressed and cached as any small answer). */
export const WHOLE_FILE_BYTES = 64 * 1024;

/** Entries rendered between two turns of the event loop: a few milliseconds of work in any format. */
const ENTRIES_PER_TURN = 250;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The file's chunks, written from one page of texts at a time. The event loop gets a turn after
 * every `ENTRIES_PER_TURN` entries and every page, so an export of any size never holds up other
 * requests for long. `done` runs once the file is written, or when its reader gives up.
 */
async function* fileChunks(
  pages: AsyncIterable<TextSelection>,
  writer: FileWriter,
  entryOf: EntryOf,
  done: () => Promise<void>,
): AsyncGenerator<Buffer> {
  try {
    let out = writer.head();
    let rendered = 0;
    for await (const page of pages) {
      for (const entity of page.entities) {
        const chosen = page.select(entity);
        const entry = chosen && entryOf(entity, chosen);
        if (!entry) continue;
        out += writer.entry(entry);
        if (out.length >= CHUNK_BYTES) {
          yield Buffer.from(out);
          out = '';
        }
        rendered += 1;
        if (rendered % ENTRIES_PER_TURN === 0) await nextTurn();
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
 * Renders the first chunks; a file that ends within `WHOLE_FILE_BYTES` is answered as bytes, a
 * larger one as a stream that pulls the rest as its reader reads (so a slow reader holds no more
 * than a chunk or two in memory). Either way `done` runs exactly once the chunks are finished,
 * failed or abandoned.
 */
export async function renderFile(
  pages: AsyncIterable<TextSelection>,
  writer: FileWriter,
  entryOf: EntryOf,
  contentType: string,
  done: () => Promise<void>,
): Promise<ExportBody> {
  const chunks = fileChunks(pages, writer, entryOf, done);
  const first: Buffer[] = [];
  let size = 0;
  while (size <= WHOLE_FILE_BYTES) {
    const next = await chunks.next();
    if (next.done) return { body: Buffer.concat(first, size), contentType };
    first.push(next.value);
    size += next.value.length;
  }
  async function* all() {
    try {
      yield* first.splice(0);
      yield* chunks;
    } finally {
      // A reader that stops during the first chunks never reached `chunks`: end it too.
      await chunks.return(undefined);
    }
  }
  return { body: Readable.from(all(), { objectMode: false }), contentType };
}
