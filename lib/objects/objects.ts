import { mkdir, open, readFile, writeFile, rm, stat, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { ObjectsConfig } from '../config.js';

export interface StoredObject {
  body: Buffer;
  contentType: string;
}

/** Blob storage for assets and results: a local directory or an S3 bucket, same keys on both. */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer | string, contentType?: string): Promise<void>;
  /** Returns null when the key does not exist. */
  get(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Writes, reads back and deletes a small object: a real round trip. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const KEY = /^(?!\/)(?!.*\.\.)[A-Za-z0-9._\-/]+$/;
function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`invalid object key: ${key}`);
  return key;
}

export async function openObjects(cfg: ObjectsConfig): Promise<ObjectStore> {
  return cfg.kind === 'local' ? openLocal(cfg.dir) : openS3(cfg);
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

async function openLocal(dir: string): Promise<ObjectStore> {
  await mkdir(dir, { recursive: true });
  const file = (key: string) => path.join(dir, checkKey(key));
  const meta = (key: string) => `${file(key)}.content-type`;
  const store: Omit<ObjectStore, 'ping'> = {
    kind: 'local',
    async put(key, body, contentType = 'application/octet-stream') {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      // Write then rename, so a reader never sees half an object.
      const tmp = `${target}.${randomUUID()}.tmp`;
      await writeFile(tmp, body);
      await writeFile(meta(key), contentType);
      await rename(tmp, target);
    },
    async get(key) {
      try {
        const body = await readFile(file(key));
        const contentType = await readFile(meta(key), 'utf8').catch(() => 'application/octet-stream');
        return { body, contentType };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    async exists(key) {
      return stat(file(key)).then(() => true, () => false);
    },
    async delete(key) {
      await rm(file(key), { force: true });
      await rm(meta(key), { force: true });
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
  const store: Omit<ObjectStore, 'ping'> = {
    kind: 's3',
    async put(key, body, contentType = 'application/octet-stream') {
      await client.send(new s3.PutObjectCommand({ Bucket, Key: checkKey(key), Body: body, ContentType: contentType }));
    },
    async get(key) {
      try {
        const r = await client.send(new s3.GetObjectCommand({ Bucket, Key: checkKey(key) }));
        const bytes = await r.Body!.transformToByteArray();
        return { body: Buffer.from(bytes), contentType: r.ContentType ?? 'application/octet-stream' };
      } catch (e) {
        if ((e as { name?: string }).name === 'NoSuchKey') return null;
        throw e;
      }
    },
    async exists(key) {
      try {
        await client.send(new s3.HeadObjectCommand({ Bucket, Key: checkKey(key) }));
        return true;
      } catch (e) {
        if ((e as { name?: string }).name === 'NotFound') return false;
        throw e;
      }
    },
    async delete(key) {
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: checkKey(key) }));
    },
    async close() {
      client.destroy();
    },
  };
  return { ...store, ping: () => pingWith(store) };
}
