import { promisify } from 'node:util';
import { constants, crc32, deflateRaw } from 'node:zlib';

/**
 * A gzip file (RFC 1952) assembled from pieces, some of them compressed long before: an export
 * sends the stored runs it places unchanged as the deflate blocks kept with them, and compresses
 * only the rest (docs/exports.md#fragments, "Compressed runs"). This works because deflate blocks that end
 * with a sync flush (an empty stored block, so the next block starts on a byte boundary, and no
 * "last block" bit) can follow each other as they are: each one's back-references reach only
 * into its own bytes, which a decompressor has just written. The CRC-32 of the whole is built
 * from each piece's CRC and length.
 */

/** Bytes kept compressed: raw deflate blocks that end with a sync flush, and what they hold. */
export interface DeflatedBytes {
  deflated: Buffer;
  /** CRC-32 of the uncompressed bytes (unsigned). */
  crc: number;
  /** Their length in bytes. */
  size: number;
}

const deflateRawPooled = promisify(deflateRaw);

/** Compresses bytes into blocks that end with a sync flush, on the thread pool. */
export async function deflateBlocks(bytes: Buffer): Promise<DeflatedBytes> {
  const deflated = await deflateRawPooled(bytes, { finishFlush: constants.Z_SYNC_FLUSH });
  return { deflated, crc: crc32(bytes), size: bytes.length };
}

/** Member header: magic, deflate, no flags, no time, no extra flags, unknown OS. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);

/** An empty fixed-Huffman block with the "last block" bit: the end of the deflate stream. */
const LAST_BLOCK = Buffer.from([3, 0]);

/** Plain bytes gathered before they are compressed as one piece. */
const PLAIN_BYTES = 64 * 1024;

/**
 * The gzip file of `pieces` in order: plain bytes are compressed (on the thread pool) in pieces
 * of up to `PLAIN_BYTES`, kept blocks are copied.
 */
export async function* gzipOf(pieces: AsyncIterable<Buffer | DeflatedBytes>): AsyncGenerator<Buffer> {
  yield HEADER;
  let crc = 0;
  let size = 0;
  let plain: Buffer[] = [];
  let plainBytes = 0;
  async function* compressPlain(): AsyncGenerator<Buffer> {
    if (plainBytes === 0) return;
    const piece = await deflateBlocks(plain.length === 1 ? (plain[0] as Buffer) : Buffer.concat(plain, plainBytes));
    plain = [];
    plainBytes = 0;
    crc = crc32Combine(crc, piece.crc, piece.size);
    size += piece.size;
    yield piece.deflated;
  }
  for await (const piece of pieces) {
    if (Buffer.isBuffer(piece)) {
      if (piece.length === 0) continue;
      plain.push(piece);
      plainBytes += piece.length;
      if (plainBytes >= PLAIN_BYTES) yield* compressPlain();
      continue;
    }
    yield* compressPlain();
    if (piece.size === 0) continue;
    crc = crc32Combine(crc, piece.crc, piece.size);
    size += piece.size;
    yield piece.deflated;
  }
  yield* compressPlain();
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  yield Buffer.concat([LAST_BLOCK, trailer]);
}

/*
 * CRC-32 of two byte strings end to end from their CRCs and the second one's length, as zlib's
 * crc32_combine computes it: the first CRC is multiplied by x^(8 * length) modulo the CRC
 * polynomial (in zlib's reflected bit order), then the second is added. Node's zlib binding does
 * not expose zlib's own function, and no maintained package does it without a native build.
 */

/** The reflected CRC-32 polynomial. */
const POLY = 0xedb88320;

/** a(x) * b(x) modulo the polynomial (reflected; a must not be 0). */
function multiplyModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  let x = b >>> 0;
  for (;;) {
    if ((a & m) !== 0) {
      p ^= x;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    x = x & 1 ? (x >>> 1) ^ POLY : x >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, for k = 0..31. */
const X_POWERS: number[] = (() => {
  const table: number[] = [];
  let p = 1 << 30; // x^1
  table.push(p);
  for (let k = 1; k < 32; k += 1) {
    p = multiplyModP(p, p);
    table.push(p);
  }
  return table;
})();

/** x^(n * 2^k) modulo the polynomial. */
function xPowerModP(n: number, k: number): number {
  let p = 0x80000000; // x^0
  let rest = n;
  let bit = k;
  while (rest > 0) {
    if (rest % 2 === 1) p = multiplyModP(X_POWERS[bit & 31] as number, p);
    rest = Math.floor(rest / 2);
    bit += 1;
  }
  return p;
}

/** CRC-32 of A then B, from CRC(A), CRC(B) and B's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB === 0) return crcA >>> 0;
  return (multiplyModP(xPowerModP(lengthB, 3), crcA >>> 0) ^ crcB) >>> 0;
}
