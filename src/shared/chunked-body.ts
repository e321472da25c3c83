import { Readable } from 'node:stream';

/** An answer that ends within this many bytes is sent as bytes, with its length. */
const WHOLE_BYTES = 64 * 1024;

/**
 * An answer written in chunks as it is read (the v2 lists, the Swift driver, the v0/v1 component
 * fetches): bytes when it ends within `WHOLE_BYTES` (with its length, compressed and cached as any
 * small answer), else a stream that takes the next chunk as the client reads (the chunks are
 * generated, page by page, only as the socket drains). `done` runs exactly once, when the chunks are finished, failed or abandoned (a
 * client gone mid-answer).
 */
export async function bodyOf(chunks: AsyncGenerator<Buffer>, done: () => Promise<void>): Promise<Buffer | Readable> {
  let finished = false;
  const finish = async () => {
    if (finished) return;
    finished = true;
    await done();
  };
  const first: Buffer[] = [];
  let size = 0;
  try {
    while (size <= WHOLE_BYTES) {
      const next = await chunks.next();
      if (next.done) {
        await finish();
        return Buffer.concat(first, size);
      }
      first.push(next.value);
      size += next.value.length;
    }
  } catch (error) {
    await finish();
    throw error;
  }
  async function* all() {
    try {
      yield* first.splice(0);
      yield* chunks;
    } finally {
      await chunks.return(undefined);
      await finish();
    }
  }
  const body = Readable.from(all(), { objectMode: false });
  // A stream destroyed before its first read never started `all`.
  body.once('close', () => {
    void chunks.return(undefined).finally(finish);
  });
  return body;
}
