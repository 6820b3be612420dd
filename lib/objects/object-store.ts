import type { Readable } from 'node:stream';

export interface StoredObject {
  body: Buffer;
  contentType: string;
}

export interface PutStreamOptions {
  contentType?: string;
  /** More bytes than this refuse the object with PayloadTooLarge. Unset: no limit. */
  maxBytes?: number;
  /** Stops the transfer; defaults to the current request's signal. */
  signal?: AbortSignal;
}

export interface PutStreamResult {
  size: number;
  /** Lowercase hex SHA-256 of the bytes stored. */
  sha256: string;
}

/** Inclusive byte offsets, as in an HTTP Range header. */
export interface ByteRange {
  start?: number;
  end?: number;
}

export interface ObjectStream {
  body: Readable;
  /** The whole object's size, whatever range was asked for. */
  size: number;
  contentType: string;
}

export interface ObjectHead {
  size: number;
  contentType: string;
}

export interface PresignOptions {
  expiresInSeconds: number;
  /** Served as an attachment under this name. */
  filename?: string;
  /** Overrides the stored content type in the response. */
  contentType?: string;
}

/** Blob storage for assets and results: a local directory or an S3 bucket, same keys on both. */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer | string, contentType?: string): Promise<void>;
  /** Returns null when the key does not exist. */
  get(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * Streams `body` into the object while counting and hashing it; memory use does not grow with the size. The
   * object appears whole or not at all: past `maxBytes` (PayloadTooLarge naming the limit), on an abort (Timeout)
   * or when the source fails (its error), nothing is left under the key and a previous object there is kept. The
   * signal is watched while bytes arrive; once the body has ended the object is committed. `body` stays the
   * caller's: it is unpiped, not destroyed, so an HTTP request can still be answered.
   */
  putStream(key: string, body: Readable, opts?: PutStreamOptions): Promise<PutStreamResult>;
  /**
   * The object as a stream, or only `range` of it; null when the key does not exist. Throws BadInput for a range
   * that is malformed or starts at or beyond the end of the object. The caller must consume or destroy `body`.
   */
  getStream(key: string, range?: ByteRange): Promise<ObjectStream | null>;
  /** Size and content type without the body; null when the key does not exist. */
  head(key: string): Promise<ObjectHead | null>;
  /** Every key starting with `prefix` (a plain string prefix, as on S3), sorted. */
  list(prefix: string): Promise<string[]>;
  /**
   * Deletes every object under `prefix`, which must end with '/' so that `datasets/d1/` never reaches
   * `datasets/d10/`. Returns how many objects were deleted.
   */
  deletePrefix(prefix: string): Promise<number>;
  /** Copies an object with its content type (server-side on S3). Returns false when `fromKey` does not exist. */
  copy(fromKey: string, toKey: string): Promise<boolean>;
  /**
   * A URL that downloads the object without credentials until it expires (at most 7 days), on S3; null on the
   * local directory, whose downloads the service signs and serves itself. Does not check that the key exists.
   */
  presignedGetUrl(key: string, opts: PresignOptions): Promise<string | null>;
  /** Writes, reads back and deletes a small object: a real round trip. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
