import { UnsupportedMediaType } from '../../lib/errors.js';

/**
 * Compressed request bodies (`Content-Encoding`), decompressed by @fastify/compress before any body parser reads
 * them, on every route. Every size limit counts the decompressed bytes: Fastify's body limit counts what the
 * decompressing stream yields, and the upload route counts what it stores. This module only decides how a body that
 * cannot be decompressed is answered.
 */

/** The encodings a request body may have; `identity` is the same as none. */
export const REQUEST_ENCODINGS = ['gzip', 'deflate', 'br'] as const;

/** An encoding we do not decode: 415, naming the ones we do. */
export function unsupportedRequestEncoding(encoding: string): UnsupportedMediaType {
  return new UnsupportedMediaType(`unsupported Content-Encoding ${JSON.stringify(encoding)}: send the body as it is or encoded with one of ${REQUEST_ENCODINGS.join(', ')}`);
}

/**
 * A body that does not decompress (not that format, truncated, corrupt): the fields @fastify/compress copies onto
 * the decompressor's error, which then reaches the body parser or the upload's stream. The code and statuses make it
 * a 400 wherever it surfaces, and the message says which encoding failed and how.
 */
export function invalidCompressedBody(encoding: string, _request: unknown, error: Error): Error & { status: number; statusCode: number; extensions: { code: string } } {
  // A plain object, not an Error: only own enumerable fields are copied, and an Error's message is not one.
  return {
    name: 'BadInput',
    message: `the request body does not decompress as its Content-Encoding ${encoding}: ${error.message}`,
    status: 400,
    statusCode: 400,
    extensions: { code: 'BAD_USER_INPUT' },
  };
}
