import type { Transform } from 'node:stream';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';

/** The content codings we send, best first. */
export type Encoding = 'br' | 'gzip';

/** Bodies smaller than this go uncompressed: the saving does not pay for the work. */
export const COMPRESSION_THRESHOLD = 1024;

const ENCODINGS: Encoding[] = ['br', 'gzip'];

/** The best coding the client accepts (`br` over `gzip`), or null for identity. */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const chosen = negotiate(acceptEncoding.toLowerCase().replace(/x-gzip/g, 'gzip'), ENCODINGS);
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

/**
 * Compresses a body in one go, or answers null when it is under the threshold. A cacheable body is
 * compressed once per content revision and kept, so a synchronous call is affordable; brotli at
 * quality 4 is the usual setting for dynamic content.
 */
export function compress(payload: string | Buffer, encoding: Encoding): Buffer | null {
  const size = Buffer.byteLength(payload);
  if (size < COMPRESSION_THRESHOLD) return null;
  if (encoding === 'br') {
    return brotliCompressSync(payload, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: size },
    });
  }
  return gzipSync(payload);
}

/** The same compression as a stream, run on the thread pool: for bodies streamed by their handler. */
export function compressStream(encoding: Encoding): Transform {
  if (encoding === 'br') return createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  return createGzip();
}
