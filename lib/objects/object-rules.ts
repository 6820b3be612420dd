import { createHash } from 'node:crypto';
import { Transform, finished, type Readable, type TransformCallback } from 'node:stream';
import { AppError, BadInput, PayloadTooLarge, ServiceUnavailable, mapRejections } from '../errors.js';
import { abortError, currentRequestScope } from '../request-scope.js';
import type { ByteRange, ObjectStore, PresignOptions, PutStreamOptions, PutStreamResult } from './object-store.js';

// What both object stores hold to alike: the keys they accept, ranges, pre-signing limits and metered uploads.

export const DEFAULT_TYPE = 'application/octet-stream';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const KEY = /^(?!\/)(?!.*\.\.)[A-Za-z0-9._\-/]+$/;
// Names the local directory keeps beside its objects (content types, uploads in progress, health probes): as keys
// they would overwrite or hide one another there, so neither store accepts them.
export const RESERVED = new RegExp(`(\\.content-type|\\.${UUID}\\.tmp|(^|/)\\.health-(${UUID}|probe))$`);
/** The local directory's spool files: an object (or content type) being written, renamed into place when whole. */
export const SPOOL_FILE = new RegExp(`\\.${UUID}\\.tmp$`);
const PREFIX = /^(?!\/)(?!.*\.\.)[A-Za-z0-9._\-/]*$/;
/** SigV4 query signatures live at most 7 days. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

export function checkKey(key: string): string {
  if (!KEY.test(key) || RESERVED.test(key)) throw new Error(`invalid object key: ${key}`);
  return key;
}

export function checkPrefix(prefix: string, forDelete = false): string {
  if (!PREFIX.test(prefix)) throw new Error(`invalid object key prefix: ${prefix}`);
  if (forDelete && !prefix.endsWith('/')) throw new Error(`a prefix to delete must end with '/': ${prefix}`);
  return prefix;
}

/**
 * A Content-Disposition that makes a browser save the download as `filename`: a quoted ASCII fallback for old
 * clients and the exact name in RFC 5987 form.
 */
export function attachmentDisposition(filename: string): string {
  const safe = filename
    .replace(/[\u0000-\u001f\u007f/\\]/g, '_')
    // A lone surrogate cannot be percent-encoded.
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '_');
  const clean = Array.from(safe).slice(0, 255).join('') || 'download';
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, "'");
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Validates a range against the object's size; undefined means the whole object. */
export function resolveRange(range: ByteRange | undefined, size: number): { start: number; end: number } | undefined {
  const first = checkRange(range);
  if (first === undefined) return undefined;
  if (first >= size) throw rangeBeyondEnd(first);
  return { start: first, end: Math.min(range?.end ?? size - 1, size - 1) };
}

/** The range's first byte after checking its form; undefined when no range was asked for. */
export function checkRange(range: ByteRange | undefined): number | undefined {
  const { start, end } = range ?? {};
  if (start === undefined && end === undefined) return undefined;
  for (const [name, v] of [['start', start], ['end', end]] as const) {
    if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) throw new BadInput(`range ${name} must be a non-negative integer`);
  }
  const first = start ?? 0;
  if (end !== undefined && end < first) throw new BadInput('range end is before its start');
  return first;
}

export const rangeBeyondEnd = (start: number) => new BadInput(`the range starts at byte ${start}, at or beyond the end of the object`);

export function checkPresign(opts: PresignOptions): void {
  const s = opts.expiresInSeconds;
  if (!Number.isInteger(s) || s < 1 || s > MAX_PRESIGN_SECONDS) {
    throw new RangeError(`expiresInSeconds must be an integer from 1 to ${MAX_PRESIGN_SECONDS}`);
  }
}

/** Counts and hashes what passes through; fails once more than `maxBytes` have arrived. */
class Meter extends Transform {
  // Not `size`: lib-storage would take that for a Blob's length and expect that many bytes.
  received = 0;
  private readonly hash = createHash('sha256');
  constructor(private readonly maxBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.maxBytes) {
      callback(new PayloadTooLarge(`the object is larger than the limit of ${this.maxBytes} bytes`));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }
  sha256(): string {
    return this.hash.digest('hex');
  }
}

/**
 * Runs `sink` over `body` seen through a Meter. The meter fails (and so the sink) when the limit is passed, the
 * signal aborts, or the source errors or closes before its end; `body` itself is only unpiped.
 */
export async function metered(body: Readable, opts: PutStreamOptions, sink: (data: Readable) => Promise<unknown>): Promise<PutStreamResult> {
  const signal = opts.signal ?? currentRequestScope()?.signal;
  if (signal?.aborted) throw abortError(signal);
  const maxBytes = opts.maxBytes ?? Infinity;
  if (!(maxBytes >= 0)) throw new RangeError('maxBytes must be a non-negative number');
  const meter = new Meter(maxBytes);
  // The sink learns of the failure from the stream's state; this keeps a late 'error' from being unhandled.
  meter.on('error', () => {});
  const onAbort = () => meter.destroy(abortError(signal!));
  signal?.addEventListener('abort', onAbort, { once: true });
  // Also catches a source destroyed without an error, which would otherwise leave the sink waiting forever.
  const stopWatching = finished(body, { writable: false }, (err) => {
    if (err) meter.destroy(err);
  });
  body.pipe(meter);
  try {
    try {
      await sink(meter);
    } catch (e) {
      // The reason the transfer stopped is what the caller answers with, not a failure of the sink's cleanup
      // afterwards (an S3 server refusing to abort the multipart upload, say).
      throw meter.errored ?? e;
    }
    if (meter.errored) throw meter.errored;
    return { size: meter.received, sha256: meter.sha256() };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    stopWatching();
    body.unpipe(meter);
  }
}

export const OBJECT_STORE_UNAVAILABLE = 'object storage is unavailable; try again later';

/**
 * Whether an error is the store failing rather than a mistake of the caller's: a system call the file system
 * refused (EACCES, EPERM, EROFS, ENOSPC, EIO, a directory replaced by a file, ...), a connection that failed, or an
 * answer of the S3 server that the adapter does not turn into a result itself (AccessDenied, NoSuchBucket,
 * InternalError, SlowDown). Errors of our own making (an invalid key, a range) and AppErrors are not.
 */
export function isStoreFault(e: unknown): boolean {
  if (e instanceof AppError || !(e instanceof Error)) return false;
  // A system call's error names it (`syscall`); an error of the body being stored does not (a zlib error has an
  // errno too, but is the client's: a body that does not decompress).
  const err = e as Error & { syscall?: unknown; $metadata?: unknown; $fault?: unknown };
  return typeof err.syscall === 'string' || err.$metadata !== undefined || err.$fault !== undefined || err.name === 'TimeoutError';
}

/**
 * The one answer to a failing object store: 503 naming it. The raw error (file paths, errno, the server's reply)
 * goes into `cause` for the operators' log and never into the message.
 */
export function objectStoreUnavailable(cause: unknown): ServiceUnavailable {
  return new ServiceUnavailable(OBJECT_STORE_UNAVAILABLE, cause);
}

/**
 * `store` with every call's store faults (isStoreFault) answered as objectStoreUnavailable, whichever adapter it
 * is. Streams already handed out (getStream's body) fail with their own errors: by then an answer has started.
 */
export function guardObjectStore(store: ObjectStore): ObjectStore {
  const guard = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => mapRejections(fn, (e) => (isStoreFault(e) ? objectStoreUnavailable(e) : e));
  return {
    kind: store.kind,
    put: guard(store.put),
    get: guard(store.get),
    exists: guard(store.exists),
    delete: guard(store.delete),
    // The body's own failure (a client's stream, a file being read) is the caller's to answer, whatever it is.
    putStream: async (key, body, opts) => {
      // The body may fail while the adapter still prepares its target, before anything of its own listens: an 'error'
      // nobody hears would end the process. The adapter learns of it from the stream's state (body.errored).
      const heard = () => {};
      body.on('error', heard);
      try {
        return await store.putStream(key, body, opts);
      } catch (e) {
        throw isStoreFault(e) && body.errored !== e ? objectStoreUnavailable(e) : e;
      } finally {
        body.off('error', heard);
      }
    },
    getStream: guard(store.getStream),
    head: guard(store.head),
    list: guard(store.list),
    deletePrefix: guard(store.deletePrefix),
    copy: guard(store.copy),
    presignedGetUrl: guard(store.presignedGetUrl),
    ping: guard(store.ping),
    close: () => store.close(),
  };
}
