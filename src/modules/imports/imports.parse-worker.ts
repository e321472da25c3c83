/**
 * The worker thread that parses one large import file (`workerData`, a `ParseJob`), posts its
 * heads and every slice of keys in one message, each serialized into a buffer of its own, and ends: the
 * parse's objects (a heap of well over 100 MB for 200,000 keys) go with the thread before the
 * import writes anything, and the request's thread holds the slices as compact bytes, turning one
 * back into objects at a time.
 */
import { serialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { MalformedFile } from '../../formats/parsers/index.js';
import { AppError } from '../../http/errors.js';
import { type ParseJob, runParseJob, sliceParse } from './imports.parse.js';
import type { ParseMessage } from './imports.parse-thread.js';

const port = parentPort!;
const post = (message: ParseMessage) => port.postMessage(message);

try {
  const { head, slices } = sliceParse(runParseJob(workerData as ParseJob));
  // Each slice's entries are let go of as it is serialized (`sliceParse`).
  const buffers: Uint8Array[] = [];
  for (const slice of slices) buffers.push(serialize(slice));
  // Moved, not copied, where a buffer has its memory to itself.
  const movable = buffers.filter((b) => b.byteOffset === 0 && b.byteLength === b.buffer.byteLength);
  port.postMessage(
    { type: 'parsed', head, slices: buffers } satisfies ParseMessage,
    movable.map((b) => b.buffer as ArrayBuffer),
  );
  port.close();
} catch (error) {
  if (error instanceof MalformedFile) post({ type: 'malformed', where: error.where, problem: error.problem });
  else if (error instanceof AppError && error.code === 'bad_request') post({ type: 'refused', message: error.message });
  else post({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
