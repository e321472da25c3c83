/**
 * The text of an uploaded file. A byte order mark says the encoding: UTF-16 (little or big endian,
 * what Xcode often writes for `.strings` files) or UTF-8; without one the file is UTF-8. Bytes that
 * are not valid in the encoding are an error rather than silently replaced, so a file in some
 * other encoding is refused instead of imported as mojibake.
 */
export function decodeUpload(bytes: Uint8Array): string {
  const [a, b, c] = bytes;
  const encoding = a === 0xff && b === 0xfe ? 'utf-16le' : a === 0xfe && b === 0xff ? 'utf-16be' : 'utf-8';
  const skip = encoding === 'utf-8' ? (a === 0xef && b === 0xbb && c === 0xbf ? 3 : 0) : 2;
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(skip));
  } catch {
    throw new UploadEncodingError(
      encoding === 'utf-8'
        ? 'the file is not valid UTF-8 (save it as UTF-8, or as UTF-16 with a byte order mark)'
        : `the file starts with a UTF-16 byte order mark but is not valid ${encoding.toUpperCase()}`,
    );
  }
}

export class UploadEncodingError extends Error {}
