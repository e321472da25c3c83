/**
 * The worker thread that parses one large import file (`workerData`, a `ParseJob`), posts its
 * heads, then one slice of keys each time the request's thread asks (`ParseRequest`), so that
 * the request's thread holds a slice at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { MalformedFile } from '../../formats/parsers/index.js';
import { AppError } from '../../http/errors.js';
import { type ParseJob, runParseJob, sliceParse } from './imports.parse.js';
import type { ParseMessage, ParseRequest } from './imports.parse-thread.js';

const port = parentPort!;
const post = (message: ParseMessage) => port.postMessage(message);

try {
  const { head, slices } = sliceParse(runParseJob(workerData as ParseJob));
  port.on('message', (request: ParseRequest) => {
    if (request.type === 'close') {
      port.close();
      return;
    }
    const next = slices.next();
    post(next.done ? { type: 'end' } : { type: 'keys', keys: next.value });
  });
  post({ type: 'head', head });
} catch (error) {
  if (error instanceof MalformedFile) post({ type: 'malformed', where: error.where, problem: error.problem });
  else if (error instanceof AppError && error.code === 'bad_request') post({ type: 'refused', message: error.message });
  else post({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
