import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';

/** Responses smaller than this go uncompressed: the saving does not pay for the work. */
export const COMPRESSION_THRESHOLD = 1024;

const ENCODINGS = ['br', 'gzip'];

/** The best coding the client accepts (`br` over `gzip`), or null for identity. */
export function negotiateEncoding(acceptEncoding: string | undefined): string | null {
  if (!acceptEncoding) return null;
  const chosen = negotiate(acceptEncoding.toLowerCase().replace(/x-gzip/g, 'gzip'), ENCODINGS);
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

/**
 * Compresses a rendered body in one go. Used only for cacheable GETs, whose result is kept, so the
 * work is done once per content revision. Brotli at quality 4 is the usual dynamic-content setting.
 */
export function compress(payload: string | Buffer, encoding: string): Buffer | null {
  if (Buffer.byteLength(payload) < COMPRESSION_THRESHOLD) return null;
  if (encoding === 'br') {
    return brotliCompressSync(payload, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(payload) },
    });
  }
  if (encoding === 'gzip') return gzipSync(payload);
  return null;
}

/**
 * Compresses every other response over the threshold (creates, errors, the OpenAPI document) as it
 * is sent. Cacheable GETs arrive here already encoded by the response cache and are left alone.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      request.etag !== null ||
      reply.hasHeader('content-encoding') ||
      !(typeof payload === 'string' || Buffer.isBuffer(payload)) ||
      Buffer.byteLength(payload) < COMPRESSION_THRESHOLD
    ) {
      return done(null, payload);
    }
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    const compressed = encoding ? compress(payload, encoding) : null;
    if (!compressed || !encoding) return done(null, payload);
    reply.header('content-encoding', encoding).header('vary', 'Accept-Encoding').removeHeader('content-length');
    done(null, compressed);
  });
}
