import { Readable } from 'node:stream';
import type { ExportEntry, FileWriter } from '../../formats/types.js';
import type { OwnerSelection, StampedSelection, TextEntity, TextSelection } from '../texts/index.js';
import type { Fragment, FragmentSet } from './exports.fragments.js';

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
 * The file's chunks from stored fragments: each page of stamps is matched with the set's
 * fragments of those texts; the texts whose fragment is missing or stamped otherwise (changed
 * since) are read whole and rendered, then the page is written in order, each fragment placed
 * by the writer (separators, renamed resources), and the fresh fragments are stored. The turns
 * of the event loop are those of `fileChunks`.
 */
async function* fragmentChunks(
  stamped: StampedSelection,
  set: FragmentSet,
  snapshot: Parameters<FragmentSet['read']>[0],
  writer: FileWriter,
  entryOf: EntryOf,
  done: () => Promise<void>,
): AsyncGenerator<Buffer> {
  try {
    let out = writer.head();
    let placed = 0;
    for await (const page of stamped.pages) {
      const stored = await set.read(
        snapshot,
        page.map((text) => text.id),
      );
      const stale = page.filter((text) => stored.get(text.id)?.stamp !== text.stamp);
      const fresh = new Map<number, Fragment>();
      if (stale.length > 0) {
        const stamps = new Map(stale.map((text) => [text.id, text.stamp]));
        const read = await stamped.load([...stamps.keys()]);
        for (const entity of read.entities) {
          const chosen = read.select(entity);
          const entry = chosen && entryOf(entity, chosen);
          fresh.set(entity.id, {
            stamp: stamps.get(entity.id) as string,
            fragment: entry ? writer.fragment(entry) : null,
          });
        }
      }
      for (const text of page) {
        const fragment = (fresh.get(text.id) ?? stored.get(text.id))?.fragment;
        if (!fragment) continue;
        out += writer.place(fragment, text.developerId);
        if (out.length >= CHUNK_BYTES) {
          yield Buffer.from(out);
          out = '';
        }
        placed += 1;
        if (placed % ENTRIES_PER_TURN === 0) await nextTurn();
      }
      if (fresh.size > 0) await set.write(fresh);
      await nextTurn();
    }
    out += writer.tail();
    if (out !== '') yield Buffer.from(out);
  } finally {
    await done();
  }
}

/** Where a file's entries come from: pages of texts, or stamps and stored fragments. */
export type FileSource =
  | { pages: AsyncIterable<TextSelection> }
  | { stamped: StampedSelection; set: FragmentSet; snapshot: Parameters<FragmentSet['read']>[0] };

/**
 * Renders the first chunks; a file that ends within `WHOLE_FILE_BYTES` is answered as bytes, a
 * larger one as a stream that pulls the rest as its reader reads (so a slow reader holds no more
 * than a chunk or two in memory). Either way `done` runs exactly once the chunks are finished,
 * failed or abandoned.
 */
export async function renderFile(
  source: FileSource,
  writer: FileWriter,
  entryOf: EntryOf,
  contentType: string,
  done: () => Promise<void>,
): Promise<ExportBody> {
  const chunks =
    'pages' in source
      ? fileChunks(source.pages, writer, entryOf, done)
      : fragmentChunks(source.stamped, source.set, source.snapshot, writer, entryOf, done);
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
  const body = Readable.from(all(), { objectMode: false });
  // A stream destroyed before its first read (a HEAD, a client gone at once) never started `all`,
  // so its `finally` never runs: end the chunks, and with them the snapshot, all the same.
  body.once('close', () => void chunks.return(undefined));
  return { body, contentType };
}
