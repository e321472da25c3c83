/**
 * Runs a `ParseJob` on the request's thread when the file is small, on a worker thread of its own
 * when it is large (docs/import.md, "Large files"). Either way the import reads the parse as a
 * `ParsedSource`: the heads first, then the keys a slice at a time, as it asks for them.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { deserialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { MalformedFile } from '../../formats/parsers/index.js';
import { badRequest } from '../../http/errors.js';
import { type FileKey, type ParsedHead, type ParseJob, runParseJob, sliceParse } from './imports.parse.js';

/** Files from this many characters are parsed on a worker thread; smaller ones parse in milliseconds. */
export const WORKER_FROM_CHARS = 256 * 1024;

/** The worker to the request's thread: the parse, or why there is none. */
export type ParseMessage =
  | { type: 'parsed'; head: ParsedHead; slices: Uint8Array[] }
  | { type: 'malformed'; where: string; problem: string }
  | { type: 'refused'; message: string }
  | { type: 'failed'; message: string };

/**
 * A parsed file: its heads, and its keys a slice at a time (`next`, null after the last).
 * `close` lets go of the parse; call it once the import is done or failed.
 */
export interface ParsedSource extends ParsedHead {
  next(): Promise<FileKey[] | null>;
  close(): void;
}

export async function openParse(job: ParseJob): Promise<ParsedSource> {
  const chars = job.content.length + (job.stringsdict?.length ?? 0);
  if (chars < WORKER_FROM_CHARS) {
    const { head, slices } = sliceParse(runParseJob(job));
    return {
      ...head,
      next: async () => slices.next().value ?? null,
      close: () => void slices.return(undefined),
    };
  }
  const { head, slices } = await parseOnThread(job);
  let index = 0;
  return {
    ...head,
    async next() {
      if (index >= slices.length) return null;
      const slice = deserialize(slices[index]!) as FileKey[];
      // Each slice's bytes are let go of once it is handed out.
      (slices as unknown[])[index] = undefined;
      index += 1;
      return slice;
    },
    close() {
      index = slices.length;
      slices.length = 0;
    },
  };
}

/**
 * The worker parses the whole file and answers its heads and every slice of keys, serialized
 * (`v8.serialize`: what a message between threads copies), then ends: the thread, and the parse's
 * objects with it, are gone before the import writes anything. The request's thread holds the
 * slices as bytes (about a tenth of the objects' heap) and turns one back into objects at a time,
 * well under a millisecond for a slice.
 */
function parseOnThread(job: ParseJob): Promise<{ head: ParsedHead; slices: Uint8Array[] }> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(job);
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
      void worker.terminate();
    };
    worker.on('message', (message: ParseMessage) => {
      switch (message.type) {
        case 'parsed':
          settle(() => resolve({ head: message.head, slices: message.slices }));
          break;
        case 'malformed':
          settle(() => reject(new MalformedFile(message.where, message.problem)));
          break;
        case 'refused':
          settle(() => reject(badRequest(message.message)));
          break;
        case 'failed':
          settle(() => reject(new Error(`the import's parse failed: ${message.message}`)));
          break;
      }
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the import's parse thread exited (${code})`))));
  });
}

/**
 * The built server runs the compiled worker; from the sources (tests, `tsx`) the worker first
 * registers tsx's loader, which a worker thread does not inherit.
 */
function startWorker(job: ParseJob): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./imports.parse-worker.js', import.meta.url), { workerData: job });
  }
  const require = createRequire(import.meta.url);
  const tsx = pathToFileURL(require.resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;
  const entry = new URL('./imports.parse-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { eval: true, workerData: job });
}
