/**
 * The worker thread that parses one large import file (`workerData`, a `ParseJob`) and posts the
 * columns back in slices, so that the request's thread takes in each slice between other work.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { MalformedFile } from '../../formats/parsers/index.js';
import { AppError } from '../../http/errors.js';
import { type ParseJob, runParseJob } from './imports.parse.js';
import { type ParseMessage, SLICE_ENTRIES } from './imports.parse-thread.js';

const post = (message: ParseMessage) => parentPort!.postMessage(message);

try {
  const columns = runParseJob(workerData as ParseJob);
  for (const { target, file } of columns) {
    post({ type: 'column', target, variantName: file.variantName, carriesPlurals: file.carriesPlurals });
    for (let start = 0; start < file.entries.length; start += SLICE_ENTRIES) {
      post({ type: 'entries', entries: file.entries.slice(start, start + SLICE_ENTRIES) });
    }
    for (let start = 0; start < file.skipped.length; start += SLICE_ENTRIES) {
      post({ type: 'skipped', skipped: file.skipped.slice(start, start + SLICE_ENTRIES) });
    }
  }
  post({ type: 'done' });
} catch (error) {
  if (error instanceof MalformedFile) post({ type: 'malformed', where: error.where, problem: error.problem });
  else if (error instanceof AppError && error.code === 'bad_request') post({ type: 'refused', message: error.message });
  else post({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
