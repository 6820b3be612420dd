import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rm, rmdir, stat, rename, unlink, copyFile, writeFile, constants } from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { Readable, Transform, finished, type TransformCallback, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ObjectsConfig } from '../config.js';
import { BadInput, PayloadTooLarge } from '../errors.js';
import { abortError, currentRequestScope } from '../request-scope.js';

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

const DEFAULT_TYPE = 'application/octet-stream';
/** Bytes per read of a local object: large results stream at disk speed rather than at 64 KiB system calls. */
const READ_CHUNK = 1024 * 1024;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const KEY = /^(?!\/)(?!.*\.\.)[A-Za-z0-9._\-/]+$/;
// Names the local directory keeps beside its objects (content types, uploads in progress, health probes): as keys
// they would overwrite or hide one another there, so neither store accepts them.
const RESERVED = new RegExp(`(\\.content-type|\\.${UUID}\\.tmp|(^|/)\\.health-${UUID})$`);
const PREFIX = /^(?!\/)(?!.*\.\.)[A-Za-z0-9._\-/]*$/;
/** S3's limit for one CopyObject; larger objects are copied in parts. */
const MAX_SINGLE_COPY = 5 * 1024 ** 3;
const COPY_PART = 512 * 1024 ** 2;
/** S3's smallest part but the last. */
const MIN_PART = 5 * 1024 ** 2;
/** SigV4 query signatures live at most 7 days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

function checkKey(key: string): string {
  if (!KEY.test(key) || RESERVED.test(key)) throw new Error(`invalid object key: ${key}`);
  return key;
}

function checkPrefix(prefix: string, forDelete = false): string {
  if (!PREFIX.test(prefix)) throw new Error(`invalid object key prefix: ${prefix}`);
  if (forDelete && !prefix.endsWith('/')) throw new Error(`a prefix to delete must end with '/': ${prefix}`);
  return prefix;
}

export async function openObjects(cfg: ObjectsConfig): Promise<ObjectStore> {
  return cfg.kind === 'local' ? openLocal(cfg.dir) : openS3(cfg);
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
function resolveRange(range: ByteRange | undefined, size: number): { start: number; end: number } | undefined {
  const first = checkRange(range);
  if (first === undefined) return undefined;
  if (first >= size) throw rangeBeyondEnd(first);
  return { start: first, end: Math.min(range?.end ?? size - 1, size - 1) };
}

/** The range's first byte after checking its form; undefined when no range was asked for. */
function checkRange(range: ByteRange | undefined): number | undefined {
  const { start, end } = range ?? {};
  if (start === undefined && end === undefined) return undefined;
  for (const [name, v] of [['start', start], ['end', end]] as const) {
    if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) throw new BadInput(`range ${name} must be a non-negative integer`);
  }
  const first = start ?? 0;
  if (end !== undefined && end < first) throw new BadInput('range end is before its start');
  return first;
}

const rangeBeyondEnd = (start: number) => new BadInput(`the range starts at byte ${start}, at or beyond the end of the object`);

function checkPresign(opts: PresignOptions): void {
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
async function metered(body: Readable, opts: PutStreamOptions, sink: (data: Readable) => Promise<unknown>): Promise<PutStreamResult> {
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

async function pingWith(store: Omit<ObjectStore, 'ping'>): Promise<void> {
  const key = `_health/${randomUUID()}`;
  await store.put(key, 'ok', 'text/plain');
  const back = await store.get(key);
  await store.delete(key);
  if (back?.body.toString() !== 'ok') throw new Error('object store returned a different body');
}

const PING_BODY = Buffer.from('ok');

/**
 * The local directory's round trip: a new file created, written, read back and removed. It is what `put`, `get`
 * and `delete` do to the disk, without their temporary copy, rename and content-type file (five file system calls
 * instead of eighteen), so /health stays cheap enough to poll.
 */
async function pingDir(dir: string): Promise<void> {
  const file = path.join(dir, `.health-${randomUUID()}`);
  const handle = await open(file, 'wx+', 0o600);
  try {
    await handle.write(PING_BODY, 0, PING_BODY.length, 0);
    const back = Buffer.alloc(PING_BODY.length + 1);
    const { bytesRead } = await handle.read(back, 0, back.length, 0);
    if (!back.subarray(0, bytesRead).equals(PING_BODY)) throw new Error('object store returned a different body');
  } finally {
    await handle.close();
    await unlink(file);
  }
}

const isMissing = (e: unknown) => ['ENOENT', 'EISDIR', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '');

async function waitClosed(stream: Writable): Promise<void> {
  if (!stream.closed) await new Promise((resolve) => stream.once('close', resolve));
}

async function openLocal(dir: string): Promise<ObjectStore> {
  await mkdir(dir, { recursive: true });
  const file = (key: string) => path.join(dir, checkKey(key));
  const meta = (key: string) => `${file(key)}.content-type`;
  const tmpFor = (target: string) => `${target}.${randomUUID()}.tmp`;

  /** Makes room for `key` and returns its path. */
  async function prepare(key: string): Promise<string> {
    const target = file(key);
    await mkdir(path.dirname(target), { recursive: true });
    return target;
  }

  // Write then rename, so a reader never sees half an object or half a content type.
  async function writeMeta(key: string, contentType: string): Promise<void> {
    const tmp = tmpFor(meta(key));
    try {
      await writeFile(tmp, contentType);
      await rename(tmp, meta(key));
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }

  const readMeta = (key: string) => readFile(meta(key), 'utf8').catch(() => DEFAULT_TYPE);

  async function remove(key: string): Promise<void> {
    await rm(file(key), { force: true });
    await rm(meta(key), { force: true });
  }

  async function collect(abs: string, rel: string, prefix: string, out: string[]): Promise<void> {
    const entries = await readdir(abs, { withFileTypes: true }).catch((e: unknown) => {
      if (isMissing(e)) return [];
      throw e;
    });
    for (const entry of entries) {
      const key = rel + entry.name;
      if (entry.isDirectory()) {
        if (`${key}/`.startsWith(prefix)) await collect(path.join(abs, entry.name), `${key}/`, prefix, out);
      } else if (entry.isFile() && key.startsWith(prefix) && !RESERVED.test(key)) {
        out.push(key);
      }
    }
  }

  async function list(prefix: string): Promise<string[]> {
    const base = checkPrefix(prefix).slice(0, prefix.lastIndexOf('/') + 1);
    const keys: string[] = [];
    await collect(path.join(dir, base), base, prefix, keys);
    return keys.sort();
  }

  /** Removes the directories left empty under `abs`, and `abs` itself when empty. */
  async function prune(abs: string): Promise<void> {
    const entries = await readdir(abs, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) if (entry.isDirectory()) await prune(path.join(abs, entry.name));
    await rmdir(abs).catch(() => {});
  }

  const store: Omit<ObjectStore, 'ping'> = {
    kind: 'local',
    async put(key, body, contentType = DEFAULT_TYPE) {
      const target = await prepare(key);
      const tmp = tmpFor(target);
      try {
        await writeFile(tmp, body);
        await writeMeta(key, contentType);
        await rename(tmp, target);
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
    },
    async get(key) {
      try {
        const body = await readFile(file(key));
        return { body, contentType: await readMeta(key) };
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    },
    async exists(key) {
      return stat(file(key)).then((s) => s.isFile(), () => false);
    },
    delete: remove,
    async putStream(key, body, opts = {}) {
      const target = await prepare(key);
      const tmp = tmpFor(target);
      const out = createWriteStream(tmp, { flags: 'wx' });
      try {
        const result = await metered(body, opts, (data) => pipeline(data, out));
        await writeMeta(key, opts.contentType ?? DEFAULT_TYPE);
        await rename(tmp, target);
        return result;
      } catch (e) {
        out.destroy();
        // The file may still be opening: removed before that, it would come back.
        await waitClosed(out);
        await rm(tmp, { force: true });
        throw e;
      }
    },
    async getStream(key, range) {
      checkRange(range);
      const handle = await open(file(key), 'r').catch((e: unknown) => {
        if (isMissing(e)) return null;
        throw e;
      });
      if (!handle) return null;
      try {
        // Sized from the open file, so a concurrent replacement cannot mix two versions.
        const stats = await handle.stat();
        if (!stats.isFile()) {
          await handle.close();
          return null;
        }
        const bounds = resolveRange(range, stats.size);
        const contentType = await readMeta(key);
        if (stats.size === 0) {
          await handle.close();
          return { body: Readable.from([]), size: 0, contentType };
        }
        return { body: handle.createReadStream({ start: bounds?.start ?? 0, end: bounds?.end, highWaterMark: READ_CHUNK }), size: stats.size, contentType };
      } catch (e) {
        await handle.close();
        throw e;
      }
    },
    async head(key) {
      const stats = await stat(file(key)).catch((e: unknown) => {
        if (isMissing(e)) return null;
        throw e;
      });
      if (!stats?.isFile()) return null;
      return { size: stats.size, contentType: await readMeta(key) };
    },
    list,
    async deletePrefix(prefix) {
      const keys = await list(checkPrefix(prefix, true));
      for (let i = 0; i < keys.length; i += 32) await Promise.all(keys.slice(i, i + 32).map(remove));
      await prune(path.join(dir, prefix));
      return keys.length;
    },
    async copy(fromKey, toKey) {
      const source = file(fromKey);
      checkKey(toKey);
      if (!(await store.head(fromKey))) return false;
      const contentType = await readMeta(fromKey);
      const target = await prepare(toKey);
      const tmp = tmpFor(target);
      try {
        // A reflink where the file system has them: no bytes move.
        await copyFile(source, tmp, constants.COPYFILE_FICLONE);
        await writeMeta(toKey, contentType);
        await rename(tmp, target);
        return true;
      } catch (e) {
        await rm(tmp, { force: true });
        if (isMissing(e)) return false;
        throw e;
      }
    },
    async presignedGetUrl(key, opts) {
      checkKey(key);
      checkPresign(opts);
      return null;
    },
    async close() {},
  };
  return { ...store, ping: () => pingDir(dir) };
}

async function openS3(cfg: Extract<ObjectsConfig, { kind: 's3' }>): Promise<ObjectStore> {
  const s3 = await import('@aws-sdk/client-s3');
  const client = new s3.S3Client({
    region: cfg.region,
    endpoint: cfg.endpoint,
    forcePathStyle: cfg.forcePathStyle,
    credentials: cfg.accessKeyId && cfg.secretAccessKey ? { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey } : undefined,
  });
  const Bucket = cfg.bucket;
  const errorName = (e: unknown) => (e as { name?: string }).name;
  const copySource = (key: string) => `${encodeURIComponent(Bucket)}/${checkKey(key).split('/').map(encodeURIComponent).join('/')}`;

  async function head(key: string): Promise<(ObjectHead & { etag?: string }) | null> {
    try {
      const r = await client.send(new s3.HeadObjectCommand({ Bucket, Key: checkKey(key) }));
      return { size: r.ContentLength ?? 0, contentType: r.ContentType ?? DEFAULT_TYPE, etag: r.ETag };
    } catch (e) {
      if (errorName(e) === 'NotFound' || errorName(e) === 'NoSuchKey') return null;
      throw e;
    }
  }

  async function* pages(prefix: string) {
    for await (const page of s3.paginateListObjectsV2({ client }, { Bucket, Prefix: prefix || undefined })) {
      yield (page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []));
    }
  }

  /** CopyObject stops at 5 GiB; beyond that the parts are copied server-side, all from the version first seen. */
  async function copyInParts(fromKey: string, toKey: string, source: ObjectHead & { etag?: string }): Promise<void> {
    const { UploadId } = await client.send(new s3.CreateMultipartUploadCommand({ Bucket, Key: toKey, ContentType: source.contentType }));
    try {
      const parts: { PartNumber: number; ETag?: string }[] = [];
      for (let start = 0, PartNumber = 1; start < source.size; start += COPY_PART, PartNumber++) {
        const end = Math.min(start + COPY_PART, source.size) - 1;
        const r = await client.send(
          new s3.UploadPartCopyCommand({
            Bucket,
            Key: toKey,
            UploadId,
            PartNumber,
            CopySource: copySource(fromKey),
            CopySourceRange: `bytes=${start}-${end}`,
            CopySourceIfMatch: source.etag,
          }),
        );
        parts.push({ PartNumber, ETag: r.CopyPartResult?.ETag });
      }
      await client.send(new s3.CompleteMultipartUploadCommand({ Bucket, Key: toKey, UploadId, MultipartUpload: { Parts: parts } }));
    } catch (e) {
      await client.send(new s3.AbortMultipartUploadCommand({ Bucket, Key: toKey, UploadId })).catch(() => {});
      throw e;
    }
  }

  const store: Omit<ObjectStore, 'ping'> = {
    kind: 's3',
    async put(key, body, contentType = DEFAULT_TYPE) {
      await client.send(new s3.PutObjectCommand({ Bucket, Key: checkKey(key), Body: body, ContentType: contentType }));
    },
    async get(key) {
      try {
        const r = await client.send(new s3.GetObjectCommand({ Bucket, Key: checkKey(key) }));
        const bytes = await r.Body!.transformToByteArray();
        return { body: Buffer.from(bytes), contentType: r.ContentType ?? DEFAULT_TYPE };
      } catch (e) {
        if (errorName(e) === 'NoSuchKey') return null;
        throw e;
      }
    },
    async exists(key) {
      return (await head(key)) !== null;
    },
    async delete(key) {
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: checkKey(key) }));
    },
    async putStream(key, body, opts = {}) {
      checkKey(key);
      const { Upload } = await import('@aws-sdk/lib-storage');
      const maxBytes = opts.maxBytes ?? Infinity;
      return metered(body, opts, (data) => {
        const upload = new Upload({
          client,
          params: { Bucket, Key: key, Body: data, ContentType: opts.contentType ?? DEFAULT_TYPE },
          // Large enough that an object of maxBytes fits S3's 10,000 parts; memory stays at a few parts.
          partSize: Number.isFinite(maxBytes) ? Math.max(MIN_PART, Math.ceil(maxBytes / 10_000)) : undefined,
        });
        // A failing body fails the upload, which then aborts its multipart upload before rejecting.
        return upload.done();
      });
    },
    async getStream(key, range) {
      const first = checkRange(range);
      const Range = first === undefined ? undefined : `bytes=${first}-${range?.end ?? ''}`;
      try {
        const r = await client.send(new s3.GetObjectCommand({ Bucket, Key: checkKey(key), Range }));
        const total = /\/(\d+)$/.exec(r.ContentRange ?? '')?.[1];
        return { body: r.Body as Readable, size: total ? Number(total) : (r.ContentLength ?? 0), contentType: r.ContentType ?? DEFAULT_TYPE };
      } catch (e) {
        if (errorName(e) === 'NoSuchKey') return null;
        if (errorName(e) === 'InvalidRange') throw rangeBeyondEnd(first ?? 0);
        throw e;
      }
    },
    async head(key) {
      const h = await head(key);
      return h && { size: h.size, contentType: h.contentType };
    },
    async list(prefix) {
      checkPrefix(prefix);
      const keys: string[] = [];
      for await (const page of pages(prefix)) keys.push(...page);
      return keys;
    },
    async deletePrefix(prefix) {
      checkPrefix(prefix, true);
      let deleted = 0;
      for await (const page of pages(prefix)) {
        if (page.length === 0) continue;
        const r = await client.send(new s3.DeleteObjectsCommand({ Bucket, Delete: { Objects: page.map((Key) => ({ Key })), Quiet: true } }));
        const failed = r.Errors ?? [];
        if (failed.length > 0) throw new Error(`could not delete ${failed.length} objects under ${prefix}: ${failed[0].Code} ${failed[0].Message ?? ''}`.trim());
        deleted += page.length;
      }
      return deleted;
    },
    async copy(fromKey, toKey) {
      checkKey(toKey);
      const source = await head(fromKey);
      if (!source) return false;
      // S3 refuses to copy an object onto itself without changing it; the copy is already there.
      if (fromKey === toKey) return true;
      try {
        if (source.size > MAX_SINGLE_COPY) await copyInParts(fromKey, toKey, source);
        else await client.send(new s3.CopyObjectCommand({ Bucket, Key: toKey, CopySource: copySource(fromKey) }));
        return true;
      } catch (e) {
        if (errorName(e) === 'NoSuchKey') return false;
        throw e;
      }
    },
    async presignedGetUrl(key, opts) {
      checkPresign(opts);
      const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
      const command = new s3.GetObjectCommand({
        Bucket,
        Key: checkKey(key),
        ResponseContentDisposition: opts.filename === undefined ? undefined : attachmentDisposition(opts.filename),
        ResponseContentType: opts.contentType,
      });
      return getSignedUrl(client, command, { expiresIn: opts.expiresInSeconds });
    },
    async close() {
      client.destroy();
    },
  };
  return { ...store, ping: () => pingWith(store) };
}
