/**
 * Runs a `ParseJob` on the request's thread when the file is small, on a worker thread of its own
 * when it is large (docs/import.md, "Large files"). Either way the import reads the parse as a
 * `ParsedSource`: the heads first, then the keys a slice at a time, as it asks for them.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { MalformedFile } from '../../formats/parsers/index.js';
import { badRequest } from '../../http/errors.js';
import { type FileKey, type ParsedHead, type ParseJob, runParseJob, sliceParse } from './imports.parse.js';

/** Files from this many characters are parsed on a worker thread; smaller ones parse in milliseconds. */
export const WORKER_FROM_CHARS = 256 * 1024;

/** The request's thread to the worker: the next slice of keys, or the end (the import is done or failed). */
export type ParseRequest = { type: 'next' } | { type: 'close' };

/** The worker to the request's thread. */
export type ParseMessage =
  | { type: 'head'; head: ParsedHead }
  | { type: 'keys'; keys: FileKey[] }
  | { type: 'end' }
  | { type: 'malformed'; where: string; problem: string }
  | { type: 'refused'; message: string }
  | { type: 'failed'; message: string };

/**
 * A parsed file: its heads, and its keys a slice at a time (`next`, null after the last).
 * `close` lets go of the parse (ends its thread); call it once the import is done or failed.
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
  return openWorker(job);
}

/**
 * The worker parses the whole file, posts the heads, then one slice of keys per `next`: the
 * request's thread holds one slice (and the one asked for meanwhile), and each message takes it
 * well under a millisecond to copy in.
 */
function openWorker(job: ParseJob): Promise<ParsedSource> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(job);
    let closed = false;
    /** The slice asked for and not answered yet. */
    let waiting: { resolve: (keys: FileKey[] | null) => void; reject: (error: Error) => void } | null = null;
    let failure: Error | null = null;
    const fail = (error: Error) => {
      failure ??= error;
      if (waiting) waiting.reject(failure);
      else reject(failure);
      waiting = null;
      close();
    };
    const close = () => {
      if (closed) return;
      closed = true;
      worker.postMessage({ type: 'close' } satisfies ParseRequest);
      void worker.terminate();
    };
    const source = (head: ParsedHead): ParsedSource => ({
      ...head,
      next() {
        if (failure) return Promise.reject(failure);
        if (closed) return Promise.resolve(null);
        return new Promise((resolveKeys, rejectKeys) => {
          waiting = { resolve: resolveKeys, reject: rejectKeys };
          worker.postMessage({ type: 'next' } satisfies ParseRequest);
        });
      },
      close,
    });
    worker.on('message', (message: ParseMessage) => {
      switch (message.type) {
        case 'head':
          resolve(source(message.head));
          break;
        case 'keys':
          waiting?.resolve(message.keys);
          waiting = null;
          break;
        case 'end':
          waiting?.resolve(null);
          waiting = null;
          close();
          break;
        case 'malformed':
          fail(new MalformedFile(message.where, message.problem));
          break;
        case 'refused':
          fail(badRequest(message.message));
          break;
        case 'failed':
          fail(new Error(`the import's parse failed: ${message.message}`));
          break;
      }
    });
    worker.on('error', (error) => fail(error));
    worker.on('exit', (code) => {
      if (!closed) fail(new Error(`the import's parse thread exited (${code})`));
    });
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
