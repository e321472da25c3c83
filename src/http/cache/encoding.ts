import type { Transform } from 'node:stream';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  gzipSync,
} from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';

/** The content codings we send, best first. */
export type Encoding = 'br' | 'gzip';

/** Bodies smaller than this go uncompressed: the saving does not pay for the work. */
export const COMPRESSION_THRESHOLD = 1024;

const ENCODINGS: Encoding[] = ['br', 'gzip'];
const brotliPooled = promisify(brotliCompress);
const gzipPooled = promisify(gzip);

/** The best coding the client accepts (`br` over `gzip`), or null for identity. */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const chosen = negotiate(acceptEncoding.toLowerCase().replace(/x-gzip/g, 'gzip'), ENCODINGS);
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

/**
 * Bodies from this size on are compressed on the thread pool rather than the event loop: brotli
 * at quality 4 takes about a millisecond per 100 KiB, so a list of a few megabytes would hold up
 * every other request for tens of milliseconds. Smaller ones are done at once, which costs less
 * than the hop to the thread pool.
 */
export const POOLED_COMPRESSION_BYTES = 64 * 1024;

const brotliOptions = (size: number) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: size },
});

/**
 * Compresses a body in one go, or answers null when it is under the threshold; a large body's
 * bytes come as a promise (see `POOLED_COMPRESSION_BYTES`). A cacheable body is compressed once
 * per content revision and kept; brotli at quality 4 is the usual setting for dynamic content.
 */
export function compress(payload: string | Buffer, encoding: Encoding): Buffer | Promise<Buffer> | null {
  const size = Buffer.byteLength(payload);
  if (size < COMPRESSION_THRESHOLD) return null;
  if (size >= POOLED_COMPRESSION_BYTES) {
    return encoding === 'br' ? brotliPooled(payload, brotliOptions(size)) : gzipPooled(payload);
  }
  return encoding === 'br' ? brotliCompressSync(payload, brotliOptions(size)) : gzipSync(payload);
}

/** The same compression as a stream, run on the thread pool: for bodies streamed by their handler. */
export function compressStream(encoding: Encoding): Transform {
  if (encoding === 'br') return createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  return createGzip();
}
