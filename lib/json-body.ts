/** From this many UTF-16 code units on, a JSON answer is handed to the socket as bytes (below: as the string). */
const AS_BYTES_FROM = 64 * 1024;

/**
 * A JSON answer as the response body. Fastify measures a string body's length in bytes by walking it (the
 * Content-Length header), and the socket then encodes it again; a large answer (10,000 validation results, ten
 * pages of 1,000 terms) is encoded once into bytes instead, which Fastify and the socket take as they are. Small
 * answers stay strings: for them the walk costs less than the buffer.
 */
export function jsonBody(text: string): string | Buffer {
  return text.length >= AS_BYTES_FROM ? Buffer.from(text, 'utf8') : text;
}
