import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ObjectsConfig } from '../config.js';
import type { ObjectHead, ObjectStore } from './object-store.js';
import { DEFAULT_TYPE, attachmentDisposition, checkKey, checkPrefix, checkPresign, checkRange, metered, rangeBeyondEnd } from './object-rules.js';

/** S3's limit for one CopyObject; larger objects are copied in parts. */
const MAX_SINGLE_COPY = 5 * 1024 ** 3;
const COPY_PART = 512 * 1024 ** 2;
/** S3's smallest part but the last. */
const MIN_PART = 5 * 1024 ** 2;

async function pingWith(store: Omit<ObjectStore, 'ping'>): Promise<void> {
  const key = `_health/${randomUUID()}`;
  await store.put(key, 'ok', 'text/plain');
  const back = await store.get(key);
  await store.delete(key);
  if (back?.body.toString() !== 'ok') throw new Error('object store returned a different body');
}

/** Objects in an S3 bucket (or an S3-compatible server at `endpoint`). */
export async function openS3(cfg: Extract<ObjectsConfig, { kind: 's3' }>): Promise<ObjectStore> {
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
