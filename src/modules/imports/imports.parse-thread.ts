/**
 * Runs a `ParseJob` on the request's thread when the file is small, on a worker thread of its own
 * when it is large (docs/import.md, "Large files").
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { MalformedFile, type ParsedEntry, type SkippedEntry } from '../../formats/parsers/index.js';
import { badRequest } from '../../http/errors.js';
import { type ParsedColumn, type ParseJob, runParseJob } from './imports.parse.js';

/** Files from this many characters are parsed on a worker thread; smaller ones parse in milliseconds. */
export const WORKER_FROM_CHARS = 256 * 1024;

/** Entries posted per message: taking one in is a few milliseconds of the request's thread. */
export const SLICE_ENTRIES = 2_000;

export type ParseMessage =
  | { type: 'column'; target: string | null; variantName: string | null; carriesPlurals: boolean }
  | { type: 'entries'; entries: ParsedEntry[] }
  | { type: 'skipped'; skipped: SkippedEntry[] }
  | { type: 'done' }
  | { type: 'malformed'; where: string; problem: string }
  | { type: 'refused'; message: string }
  | { type: 'failed'; message: string };

export function parseFile(job: ParseJob): Promise<ParsedColumn[]> {
  const chars = job.content.length + (job.stringsdict?.length ?? 0);
  if (chars < WORKER_FROM_CHARS) return Promise.resolve(runParseJob(job));
  return new Promise((resolve, reject) => {
    const columns: ParsedColumn[] = [];
    let settled = false;
    const worker = startWorker(job);
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    worker.on('message', (message: ParseMessage) => {
      const current = columns[columns.length - 1];
      switch (message.type) {
        case 'column':
          columns.push({
            target: message.target,
            file: {
              entries: [],
              skipped: [],
              variantName: message.variantName,
              carriesPlurals: message.carriesPlurals,
            },
          });
          break;
        case 'entries':
          for (const entry of message.entries) current!.file.entries.push(entry);
          break;
        case 'skipped':
          for (const skip of message.skipped) current!.file.skipped.push(skip);
          break;
        case 'done':
          settle(() => resolve(columns));
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
