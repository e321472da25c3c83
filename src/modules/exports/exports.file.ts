import { Readable } from 'node:stream';
import { constants, inflateRawSync } from 'node:zlib';
import type { Executor } from '../../db/schema.js';
import type { EntryFragment, ExportEntry, FileWriter } from '../../formats/types.js';
import { nextTurn } from '../../shared/next-turn.js';
import {
  keyParts,
  type OwnerSelection,
  type StampDigest,
  type StampedSelection,
  type TextEntity,
  type TextSelection,
  type TextStamp,
} from '../texts/index.js';
import type { FragmentSet, FreshEntry, RunBounds, StoredEntry, StoredRun } from './exports.fragments.js';
import { type DeflatedBytes, gzipOf } from './exports.gzip.js';

/** A rendered export: the whole file when it is small, else a stream of it. */
export interface ExportBody {
  body: Buffer | Readable;
  contentType: string;
  /** `gzip` when the stream is the file gzipped (see `renderFile`), null when it is the file itself. */
  encoding: 'gzip' | null;
}

/** What the file's chunks are: bytes of the file, or a stored run's bytes still compressed. */
type Piece = Buffer | DeflatedBytes;

const sizeOf = (piece: Piece) => (Buffer.isBuffer(piece) ? piece.length : piece.size);
/** A piece's bytes uncompressed (kept blocks end with a sync flush, not a last block). */
const plainOf = (piece: Piece) =>
  Buffer.isBuffer(piece) ? piece : inflateRawSync(piece.deflated, { finishFlush: constants.Z_SYNC_FLUSH });

/** What the file says of a selected text, or null when it leaves it out. */
export type EntryOf = (entity: TextEntity, chosen: OwnerSelection) => ExportEntry | null;

/** Bytes per chunk of a streamed file: few chunks for the socket, small enough to render between turns. */
const CHUNK_BYTES = 64 * 1024;

/** A file no longer than this is answered whole (and compressed and cached as any small answer). */
export const WHOLE_FILE_BYTES = 64 * 1024;

/** Entries rendered between two turns of the event loop: a few milliseconds of work in any format. */
const ENTRIES_PER_TURN = 250;

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

/** Developer IDs compare by code unit, the order of the texts' pages. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Texts of the file in one stored run's range (or between runs), written together. */
interface Region {
  run: RunBounds | null;
  texts: TextStamp[];
  /** The run as read (once per region, with its body and entries), with its entries by text row id. */
  stored?: { run: StoredRun; body: string; entries: StoredEntry[]; byText: Map<number, number> } | null;
  /** Whether part of the region was already written (too many new texts in one run's range). */
  split: boolean;
}

/**
 * The file's chunks from stored runs of fragments (docs/exports.md#fragments). The texts come
 * as stamps in the file's order; the set's runs are walked alongside, and the texts within one
 * run's range (or between two runs) form a region. A region's texts whose stored entry is there
 * with the same stamp are placed from the run (consecutive ones as one span, usually the whole
 * run); the others are read whole and rendered. A region with something rendered, or whose run
 * holds texts no longer there, is stored again as new runs, which replace its old one. Stored
 * entries of texts outside a filtered export's selection are kept in the new runs. The turns of
 * the event loop are those of `fileChunks`, and one after every region.
 *
 * With `compressed`, a run placed whole and unchanged comes as its stored compressed bytes (for
 * a gzip answer), without its body ever being read as text.
 */
async function* fragmentChunks(
  stamped: StampedSelection,
  set: FragmentSet,
  snapshot: Executor,
  writer: FileWriter,
  entryOf: EntryOf,
  complete: boolean,
  compressed: boolean,
  done: () => Promise<void>,
): AsyncGenerator<Piece> {
  try {
    let out = writer.head();
    let placed = 0;
    const { runs, superseded } = await set.runs(snapshot);
    /** Runs to delete with the next write. */
    let drop = superseded;

    /** Renders these texts: their fragments by row id (null: no entry). */
    async function render(texts: readonly TextStamp[]): Promise<Map<number, EntryFragment | null>> {
      const fresh = new Map<number, EntryFragment | null>();
      const read = await stamped.load(texts.map((text) => text.id));
      let rendered = 0;
      for (const entity of read.entities) {
        const chosen = read.select(entity);
        const entry = chosen && entryOf(entity, chosen);
        fresh.set(entity.id, entry ? writer.fragment(entry) : null);
        rendered += 1;
        if (rendered % ENTRIES_PER_TURN === 0) await nextTurn();
      }
      return fresh;
    }

    /** Writes a region's texts; `last`: the region ends here (else it goes on in the same run's range). */
    async function* flush(region: Region, last: boolean): AsyncGenerator<Buffer> {
      const stored = region.stored ?? null;
      const { texts } = region;
      // Each text's stored entry, when it is the text as it is now.
      const hits = texts.map((text) => {
        const index = stored?.byText.get(text.id);
        const entry = index === undefined ? undefined : stored?.entries[index];
        return entry && entry.stamp === text.stamp && entry.id === text.developerId ? index : undefined;
      });
      const stale = texts.filter((_, i) => hits[i] === undefined);
      const fresh = stale.length > 0 ? await render(stale) : new Map<number, EntryFragment | null>();

      /** Stored entries `from` to `to` (inclusive) as one span. */
      const span = (from: number, to: number): string => {
        const { entries, body } = stored as NonNullable<typeof stored>;
        const whole = from === 0 && to === entries.length - 1;
        return writer.placeSpan(body, whole ? entries : entries.slice(from, to + 1));
      };
      let from = -1;
      let to = -1;
      for (const [i, text] of texts.entries()) {
        const hit = hits[i];
        if (hit !== undefined && from >= 0 && hit === to + 1) {
          to = hit;
          continue;
        }
        if (from >= 0) out += span(from, to);
        from = -1;
        if (hit !== undefined) {
          from = hit;
          to = hit;
          continue;
        }
        const fragment = fresh.get(text.id);
        if (fragment) out += writer.place(fragment, text.developerId);
        placed += 1;
        if (out.length >= CHUNK_BYTES) {
          yield Buffer.from(out);
          out = '';
        }
        if (placed % ENTRIES_PER_TURN === 0) await nextTurn();
      }
      if (from >= 0) out += span(from, to);
      if (out.length >= CHUNK_BYTES) {
        yield Buffer.from(out);
        out = '';
      }

      // Stored again when something was rendered, when part of it was written already, or when
      // its run holds a text that is gone (only an export of every text can tell).
      const gone = stored !== null && complete && last && !region.split && texts.length !== stored.entries.length;
      if (stale.length === 0 && !gone && !region.split && last) return;
      if (!last) region.split = true;
      const entries: FreshEntry[] = texts.map((text, i) => {
        const hit = hits[i];
        const { id: textId, stamp, developerId } = text;
        if (hit === undefined) return { textId, stamp, developerId, fragment: fresh.get(text.id) ?? null };
        const { entries, body } = stored as NonNullable<typeof stored>;
        return { textId, stamp, developerId, fragment: storedFragment(body, entries[hit] as StoredEntry) };
      });
      const kept = stored && last && !region.split && !complete ? unseen(stored.entries, stored.body, texts) : [];
      const merged = kept.length > 0 ? mergeEntries(entries, kept) : entries;
      const add: FreshEntry[][] = [];
      for (let at = 0; at < merged.length; at += set.runTexts) add.push(merged.slice(at, at + set.runTexts));
      await set.replace(last && region.run ? [region.run.id, ...drop] : drop, add);
      drop = [];
    }

    // The key space cut at the runs: the keys before the first run, the first run's range, the
    // keys between it and the next, and so on to the keys after the last run.
    const digests = await stamped.digests(runs);
    /** Runs read ahead, a batch per query. */
    const ahead = new Map<number, StoredRun>();
    async function loadRun(index: number): Promise<StoredRun | null> {
      const id = (runs[index] as RunBounds).id;
      if (!ahead.has(id)) {
        const batch = runs.slice(index, index + RUNS_PER_READ).map((next) => next.id);
        for (const [read, stored] of await set.load(snapshot, batch)) ahead.set(read, stored);
      }
      const loaded = ahead.get(id) ?? null;
      ahead.delete(id);
      return loaded;
    }
    for (const [i, range] of keyParts(runs).entries()) {
      const run = i % 2 === 1 ? (runs[(i - 1) / 2] as RunBounds) : null;
      const digest = digests[i] as StampDigest;
      if (digest.count === 0 && run === null) continue;
      const region: Region = { run, texts: [], split: false };
      if (run) {
        const loaded = await loadRun((i - 1) / 2);
        // The usual case: the run holds exactly the texts of its range, as they are now.
        if (loaded && loaded.stamps === digest.stamps) {
          const write = writer.placeRun(loaded);
          if (write === null && compressed && loaded.deflated) {
            if (out !== '') yield Buffer.from(out);
            out = '';
            yield loaded.deflated;
          } else {
            const body = await set.body(snapshot, loaded);
            out += write ? write(body) : body;
            if (out.length >= CHUNK_BYTES) {
              yield Buffer.from(out);
              out = '';
            }
          }
          await nextTurn();
          continue;
        }
        if (loaded) {
          const entries = loaded.entries();
          const byText = new Map(entries.map((entry, index) => [entry.textId, index]));
          region.stored = { run: loaded, body: await set.body(snapshot, loaded), entries, byText };
        } else region.stored = null;
      }
      // Otherwise the range's texts one by one: between runs, every `runTexts` make a new run;
      // in a run's range, many new texts are written in parts.
      for await (const page of stamped.pagesIn(range)) {
        for (const text of page) {
          if (region.texts.length >= set.runTexts * (run ? 2 : 1)) {
            yield* flush(region, run === null);
            await nextTurn();
            region.texts = [];
          }
          region.texts.push(text);
        }
      }
      yield* flush(region, true);
      await nextTurn();
    }
    out += writer.tail();
    if (out !== '') yield Buffer.from(out);
  } finally {
    await done();
  }
}

/** Stored runs read in one query: a few hundred kilobytes of entries and compressed bytes. */
const RUNS_PER_READ = 16;

/** A stored entry's fragment, taken out of its run's body. */
function storedFragment(body: string, entry: StoredEntry): EntryFragment | null {
  if (entry.length < 0) return null;
  return {
    body: body.slice(entry.at, entry.at + entry.length),
    variables: entry.variables,
    ...(entry.nameAt && { nameAt: entry.nameAt }),
  };
}

/** The run's entries of texts this export did not see (outside its filter), as entries to keep. */
function unseen(entries: readonly StoredEntry[], body: string, texts: readonly TextStamp[]): FreshEntry[] {
  const ids = new Set(texts.map((text) => text.id));
  const names = new Set(texts.map((text) => text.developerId));
  return entries
    .filter((entry) => !ids.has(entry.textId) && !names.has(entry.id))
    .map((entry) => ({
      textId: entry.textId,
      stamp: entry.stamp,
      developerId: entry.id,
      fragment: storedFragment(body, entry),
    }));
}

/** Two lists in developer-ID order as one. */
function mergeEntries(a: readonly FreshEntry[], b: readonly FreshEntry[]): FreshEntry[] {
  const out: FreshEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && compare(x.developerId, y.developerId) <= 0)) {
      out.push(x as FreshEntry);
      i += 1;
    } else {
      out.push(y);
      j += 1;
    }
  }
  return out;
}

/** Where a file's entries come from: pages of texts, or stamps and stored fragments. */
export type FileSource =
  | { pages: AsyncIterable<TextSelection> }
  | {
      stamped: StampedSelection;
      set: FragmentSet;
      snapshot: Executor;
      /** Whether the export selects every text of its kind (so a text it does not see is gone). */
      complete: boolean;
    };

/**
 * Renders the first chunks; a file that ends within `WHOLE_FILE_BYTES` is answered as bytes, a
 * larger one as a stream that pulls the rest as its reader reads (so a slow reader holds no more
 * than a chunk or two in memory). Either way `done` runs exactly once the chunks are finished,
 * failed or abandoned.
 *
 * With `gzip` (the client takes gzip), a streamed file is the file gzipped: the runs of stored
 * fragments placed unchanged go out as the compressed bytes kept with them, and only the rest
 * is compressed (docs/exports.md#fragments, "Compressed runs"). A file answered as bytes is always plain.
 */
export async function renderFile(
  source: FileSource,
  writer: FileWriter,
  entryOf: EntryOf,
  contentType: string,
  gzip: boolean,
  done: () => Promise<void>,
): Promise<ExportBody> {
  const chunks: AsyncGenerator<Piece> =
    'pages' in source
      ? fileChunks(source.pages, writer, entryOf, done)
      : fragmentChunks(source.stamped, source.set, source.snapshot, writer, entryOf, source.complete, gzip, done);
  const first: Piece[] = [];
  let size = 0;
  while (size <= WHOLE_FILE_BYTES) {
    const next = await chunks.next();
    if (next.done) return { body: Buffer.concat(first.map(plainOf), size), contentType, encoding: null };
    first.push(next.value);
    size += sizeOf(next.value);
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
  async function* plain() {
    for await (const piece of all()) yield plainOf(piece);
  }
  const body = Readable.from(gzip ? gzipOf(all()) : plain(), { objectMode: false });
  // A stream destroyed before its first read (a HEAD, a client gone at once) never started `all`,
  // so its `finally` never runs: end the chunks, and with them the snapshot, all the same.
  body.once('close', () => void chunks.return(undefined));
  return { body, contentType, encoding: gzip ? 'gzip' : null };
}
