import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { openObjects, type ObjectStore } from '../../lib/objects/objects.js';
import { HEALTH_PROBE, sweepSpoolFiles } from '../../lib/objects/local.js';
import { freezeDir } from '../kit/frozen-dir.js';
import { freePort } from '../kit/processes.js';
import { startTestApp, call } from '../kit/app.js';
import { eventually } from '../kit/eventually.js';

const MiB = 1024 * 1024;

/** `count` chunks of 64 KiB, each different, so that a misplaced chunk changes the hash. */
function* chunks(count: number): Generator<Buffer> {
  for (let i = 0; i < count; i++) {
    const chunk = Buffer.alloc(64 * 1024);
    for (let j = 0; j < chunk.length; j += 4) chunk.writeUInt32LE((i * 2654435761 + j * 40503) >>> 0, j);
    yield chunk;
  }
}

async function bytesOf(body: Readable): Promise<Buffer> {
  return Buffer.concat(await body.toArray());
}

/** Files in a directory tree, for checking that nothing was left behind. */
function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as { isFile(): boolean; name: string }[]).filter((e) => e.isFile()).map((e) => e.name);
}

/** The same contract on both object stores: a local directory and an S3-protocol server on loopback. */
describe.each(['local', 's3'] as const)('object store (%s)', (kind) => {
  let store: ObjectStore;
  let dir: string;
  let s3: S3rver | undefined;
  let endpoint = '';
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'objects-'));
    if (kind === 's3') {
      s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'neurodata', configs: [] }] });
      const { port } = (await s3.run()) as { port: number };
      endpoint = `http://127.0.0.1:${port}`;
      store = await openObjects({ kind: 's3', bucket: 'neurodata', endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
    } else {
      store = await openObjects({ kind: 'local', dir });
    }
  });
  afterAll(async () => {
    await store?.close();
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores, reads back and deletes objects with their content type', async () => {
    const swc = '# soma\n1 1 0 0 0 5.5 -1\n2 3 0 10 0 1 1\n';
    await store.put('datasets/d1/morphology/n1.swc', swc, 'text/plain');
    expect(await store.exists('datasets/d1/morphology/n1.swc')).toBe(true);
    const back = await store.get('datasets/d1/morphology/n1.swc');
    expect(back?.body.toString()).toBe(swc);
    expect(back?.contentType).toBe('text/plain');
    await store.put('datasets/d1/morphology/n1.swc', 'replaced', 'text/plain');
    expect((await store.get('datasets/d1/morphology/n1.swc'))?.body.toString()).toBe('replaced');
    await store.delete('datasets/d1/morphology/n1.swc');
    expect(await store.exists('datasets/d1/morphology/n1.swc')).toBe(false);
    expect(await store.get('datasets/d1/morphology/n1.swc')).toBeNull();
  });

  it('keeps binary bodies intact', async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31) % 256));
    await store.put('results/job.arrow', bytes, 'application/vnd.apache.arrow.stream');
    expect((await store.get('results/job.arrow'))?.body.equals(bytes)).toBe(true);
  });

  it('refuses keys that could escape the store', async () => {
    await expect(store.put('../etc/passwd', 'x')).rejects.toThrow(/invalid object key/);
    await expect(store.put('/abs', 'x')).rejects.toThrow(/invalid object key/);
  });

  it('answers a health round trip', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });

  // The probe file is the local directory's; S3's round trip writes and deletes an object of its own.
  it.skipIf(kind !== 'local')('keeps its health probe out of listings and keys, and makes it again when it was removed', async () => {
    await store.ping();
    expect(filesUnder(dir)).toContain(HEALTH_PROBE);
    expect(await store.list('')).not.toContain(HEALTH_PROBE);
    await expect(store.put(HEALTH_PROBE, 'x')).rejects.toThrow(/invalid object key/);
    rmSync(path.join(dir, HEALTH_PROBE));
    await store.ping();
    // Only the probe is left: each check's copy is removed.
    expect(filesUnder(dir).filter((f) => f.startsWith('.health'))).toEqual([HEALTH_PROBE]);
    // A directory that has gone fails the check rather than being made again.
    const gone = mkdtempSync(path.join(os.tmpdir(), 'objects-gone-'));
    const other = await openObjects({ kind: 'local', dir: gone });
    await other.ping();
    rmSync(gone, { recursive: true });
    await expect(other.ping()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', cause: expect.objectContaining({ code: 'ENOENT' }) });
    await other.close();
  });

  /** What every failing call of a store that cannot serve answers: 503 naming object storage, nothing of the cause. */
  const unavailable = { code: 'SERVICE_UNAVAILABLE', message: 'object storage is unavailable; try again later' };

  // The local directory's faults are its file system's; an S3 store's are its server's, seen through its client.
  it.runIf(kind === 'local')('answers a directory that refuses changes with 503 naming object storage, its path only in the cause', async ({ skip }) => {
    const frozenDir = mkdtempSync(path.join(os.tmpdir(), 'objects-frozen-'));
    const frozen = await openObjects({ kind: 'local', dir: frozenDir });
    await frozen.put('datasets/f1/kept.swc', 'soma', 'text/plain');
    await frozen.ping();
    const thaw = freezeDir(frozenDir);
    try {
      if (!thaw) skip('this machine can make no directory refuse changes (no chattr +i as root)');
      const calls = [
        () => frozen.put('datasets/f1/new.swc', 'x'),
        () => frozen.putStream('datasets/f2/new.bin', Readable.from(chunks(4))),
        () => frozen.delete('datasets/f1/kept.swc'),
        () => frozen.copy('datasets/f1/kept.swc', 'datasets/f3/copy.swc'),
        () => frozen.deletePrefix('datasets/f1/'),
        () => frozen.ping(),
      ];
      for (const failing of calls) {
        const e = await failing().then(() => null, (err: unknown) => err as Error & { cause?: Error });
        expect(e).toMatchObject(unavailable);
        expect(e!.message).not.toContain(frozenDir);
        expect(String(e!.cause), failing.toString()).toMatch(/EPERM|EACCES/);
      }
      // Reading is not changing: what the directory holds is still served.
      expect((await frozen.get('datasets/f1/kept.swc'))?.body.toString()).toBe('soma');
    } finally {
      thaw?.();
      await frozen.close();
      rmSync(frozenDir, { recursive: true, force: true });
    }
  });

  it.runIf(kind === 's3')('answers a server that is down, or a bucket that is missing, with 503 naming object storage', async () => {
    const port = await freePort();
    const down = await openObjects({ kind: 's3', bucket: 'neurodata', endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
    const missing = await openObjects({ kind: 's3', bucket: 'no-such-bucket', endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
    try {
      for (const store of [down, missing]) {
        const calls = [
          () => store.put('datasets/f1/new.swc', 'x'),
          () => store.putStream('datasets/f2/new.bin', Readable.from(chunks(4))),
          () => store.delete('datasets/f1/kept.swc'),
          () => store.ping(),
        ];
        for (const failing of calls) {
          const e = await failing().then(() => null, (err: unknown) => err as Error);
          expect(e).toMatchObject(unavailable);
          expect(e!.message).not.toContain(String(port));
        }
      }
    } finally {
      await down.close();
      await missing.close();
    }
  });

  it("keeps a failing body's own error, even a system call's: the store did not fail", async () => {
    const failing = new Readable({ read() {} });
    failing.push(Buffer.alloc(1024));
    const readError = Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', errno: -5, syscall: 'read' });
    setImmediate(() => failing.destroy(readError));
    await expect(store.putStream('datasets/fb/assets/body.bin', failing)).rejects.toBe(readError);
    expect(await store.list('datasets/fb/')).toEqual([]);
  });

  it.runIf(kind === 'local')('sweeps spool files left by a killed writer once they are older than any transfer, and only those', async () => {
    const spoolDir = mkdtempSync(path.join(os.tmpdir(), 'objects-spool-'));
    try {
      mkdirSync(path.join(spoolDir, 'uploads', 'd1'), { recursive: true });
      const stale = path.join(spoolDir, 'uploads', 'd1', '0196a8a0-0000-7000-8000-000000000001.3f1c2b9e-5d4a-4c3b-9a2f-1e0d9c8b7a61.tmp');
      const writing = path.join(spoolDir, 'uploads', 'd1', '0196a8a0-0000-7000-8000-000000000002.9a2f1e0d-9c8b-4a61-8f1c-2b9e5d4a4c3b.tmp');
      const object = path.join(spoolDir, 'uploads', 'd1', 'old-object');
      for (const f of [stale, writing, object]) writeFileSync(f, Buffer.alloc(1024));
      const dayAgo = new Date(Date.now() - 24 * 3600 * 1000);
      utimesSync(stale, dayAgo, dayAgo);
      utimesSync(object, dayAgo, dayAgo);
      expect(await sweepSpoolFiles(spoolDir, 3600 * 1000)).toEqual({ files: 1, bytes: 1024 });
      expect(() => statSync(stale)).toThrow(/ENOENT/);
      // A file being written by another process sharing the directory, and every object, stay.
      expect(statSync(writing).size).toBe(1024);
      expect(statSync(object).size).toBe(1024);
    } finally {
      rmSync(spoolDir, { recursive: true, force: true });
    }
  });

  it('streams a multi-megabyte body in, reporting the size and SHA-256 of exactly the bytes stored', async () => {
    const hash = createHash('sha256');
    let size = 0;
    for (const chunk of chunks(200)) {
      hash.update(chunk);
      size += chunk.length;
    }
    const result = await store.putStream('datasets/s1/assets/volume.bin', Readable.from(chunks(200)), { contentType: 'application/x-volume', maxBytes: size });
    expect(result).toEqual({ size, sha256: hash.digest('hex') });
    expect(await store.head('datasets/s1/assets/volume.bin')).toEqual({ size, contentType: 'application/x-volume' });
    const back = await store.getStream('datasets/s1/assets/volume.bin');
    expect(back?.size).toBe(size);
    expect(back?.contentType).toBe('application/x-volume');
    expect(createHash('sha256').update(await bytesOf(back!.body)).digest('hex')).toBe(result.sha256);
    await store.delete('datasets/s1/assets/volume.bin');
  });

  it('refuses a body over maxBytes, leaving nothing new and the previous object in place', async () => {
    await store.put('datasets/big/assets/kept.bin', 'previous', 'text/plain');
    const source = Readable.from(chunks(100));
    const upload = store.putStream('datasets/big/assets/kept.bin', source, { maxBytes: 5 * MiB + 1 });
    await expect(upload).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining(String(5 * MiB + 1)) });
    // The caller still owns the source: it may answer the request before closing it.
    expect(source.destroyed).toBe(false);
    source.destroy();
    expect((await store.get('datasets/big/assets/kept.bin'))?.body.toString()).toBe('previous');

    await expect(store.putStream('datasets/big/assets/new.bin', Readable.from(chunks(100)), { maxBytes: 5 * MiB + 1 })).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await store.get('datasets/big/assets/new.bin')).toBeNull();
    expect(await store.list('datasets/big/')).toEqual(['datasets/big/assets/kept.bin']);
    await store.delete('datasets/big/assets/kept.bin');
    expect(await store.list('datasets/big/')).toEqual([]);
  });

  it('leaves nothing behind when the transfer is aborted or its source fails', async () => {
    const controller = new AbortController();
    const endless = Readable.from(
      (function* () {
        for (let i = 0; ; i++) {
          if (i === 120) controller.abort(new Error('client went away'));
          yield* chunks(1);
        }
      })(),
    );
    await expect(store.putStream('datasets/ab/assets/aborted.bin', endless, { signal: controller.signal })).rejects.toMatchObject({ code: 'TIMEOUT' });
    endless.destroy();

    const failing = Readable.from(
      (function* () {
        yield* chunks(90);
        throw new Error('disk read failed');
      })(),
    );
    await expect(store.putStream('datasets/ab/assets/failed.bin', failing)).rejects.toThrow('disk read failed');

    const cut = new Readable({ read() {} });
    cut.push(Buffer.alloc(1024));
    setImmediate(() => cut.destroy());
    await expect(store.putStream('datasets/ab/assets/cut.bin', cut)).rejects.toThrow(/premature close/i);

    const already = new AbortController();
    already.abort();
    await expect(store.putStream('datasets/ab/assets/late.bin', Readable.from(chunks(1)), { signal: already.signal })).rejects.toMatchObject({ code: 'TIMEOUT' });

    for (const key of ['aborted', 'failed', 'cut', 'late']) expect(await store.get(`datasets/ab/assets/${key}.bin`)).toBeNull();
    expect(await store.list('datasets/ab/')).toEqual([]);
    if (kind === 'local') expect(filesUnder(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('serves byte ranges of an object, for resumable downloads', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    await store.put('datasets/r1/assets/ranged.bin', bytes, 'application/octet-stream');
    const middle = await store.getStream('datasets/r1/assets/ranged.bin', { start: 100, end: 199 });
    expect(middle?.size).toBe(1000);
    expect((await bytesOf(middle!.body)).equals(bytes.subarray(100, 200))).toBe(true);
    const tail = await store.getStream('datasets/r1/assets/ranged.bin', { start: 900 });
    expect((await bytesOf(tail!.body)).equals(bytes.subarray(900))).toBe(true);
    const clamped = await store.getStream('datasets/r1/assets/ranged.bin', { start: 990, end: 5000 });
    expect((await bytesOf(clamped!.body)).equals(bytes.subarray(990))).toBe(true);
    const head = await store.getStream('datasets/r1/assets/ranged.bin', { end: 9 });
    expect((await bytesOf(head!.body)).equals(bytes.subarray(0, 10))).toBe(true);
    await expect(store.getStream('datasets/r1/assets/ranged.bin', { start: 1000 })).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(store.getStream('datasets/r1/assets/ranged.bin', { start: 10, end: 5 })).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await store.getStream('datasets/r1/assets/absent.bin', { start: 0 })).toBeNull();
    expect(await store.head('datasets/r1/assets/absent.bin')).toBeNull();
    await store.delete('datasets/r1/assets/ranged.bin');
  });

  it('lists keys by prefix and deletes everything under a prefix, and only that', async () => {
    for (const key of ['datasets/d1/a.swc', 'datasets/d1/sub/b.bin', 'datasets/d10/c.swc']) await store.put(key, key, 'text/plain');
    expect(await store.list('datasets/d1/')).toEqual(['datasets/d1/a.swc', 'datasets/d1/sub/b.bin']);
    expect(await store.list('datasets/d1')).toEqual(['datasets/d1/a.swc', 'datasets/d1/sub/b.bin', 'datasets/d10/c.swc']);
    expect(await store.list('datasets/none/')).toEqual([]);
    expect(await store.exists('datasets/d1')).toBe(false);
    await expect(store.deletePrefix('datasets/d1')).rejects.toThrow(/must end with/);
    expect(await store.deletePrefix('datasets/d1/')).toBe(2);
    expect(await store.list('datasets/')).toEqual(['datasets/d10/c.swc']);
    expect(await store.deletePrefix('datasets/d1/')).toBe(0);
    expect(await store.deletePrefix('datasets/d10/')).toBe(1);
    expect(await store.list('datasets/')).toEqual([]);
  });

  it('copies an object with its content type', async () => {
    await store.put('datasets/c1/original.swc', 'soma', 'text/plain');
    expect(await store.copy('datasets/c1/original.swc', 'datasets/c2/copy.swc')).toBe(true);
    expect(await store.get('datasets/c2/copy.swc')).toEqual({ body: Buffer.from('soma'), contentType: 'text/plain' });
    expect(await store.get('datasets/c1/original.swc')).toEqual({ body: Buffer.from('soma'), contentType: 'text/plain' });
    expect(await store.copy('datasets/c1/absent.swc', 'datasets/c2/other.swc')).toBe(false);
    expect(await store.exists('datasets/c2/other.swc')).toBe(false);
    await store.deletePrefix('datasets/c1/');
    await store.deletePrefix('datasets/c2/');
  });

  it.runIf(kind === 'local')('has no pre-signed URLs: the service signs downloads itself', async () => {
    expect(await store.presignedGetUrl('datasets/p1/n1.swc', { expiresInSeconds: 60 })).toBeNull();
  });

  it.runIf(kind === 's3')('pre-signs a download URL that returns exactly the bytes, as an attachment, until it expires', async () => {
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
    await store.put('datasets/p1/neuron.swc', bytes, 'text/plain');
    // X-Amz-Date has whole seconds, so a URL's life is up to a second shorter than asked: a few seconds leave the
    // first read room on a loaded machine.
    const url = await store.presignedGetUrl('datasets/p1/neuron.swc', { expiresInSeconds: 4, filename: 'neuron 1 é.swc' });
    expect(new URL(url!).searchParams.get('X-Amz-Expires')).toBe('4');
    const r = await fetch(url!);
    expect(r.status).toBe(200);
    expect(Buffer.from(await r.arrayBuffer()).equals(bytes)).toBe(true);
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="neuron 1 _.swc"; filename*=UTF-8''neuron%201%20%C3%A9.swc`);

    const status = await eventually(
      async () => {
        const again = await fetch(url!);
        await again.arrayBuffer();
        return again.status === 200 ? undefined : again.status;
      },
      { timeoutMs: 20_000, intervalMs: 250, what: 'the pre-signed URL expiring' },
    );
    expect(status).toBe(403);
    await expect(store.presignedGetUrl('datasets/p1/neuron.swc', { expiresInSeconds: 8 * 24 * 3600 })).rejects.toThrow(/expiresInSeconds/);
    await store.delete('datasets/p1/neuron.swc');
  });

  it.runIf(kind === 's3')('backs the service: /health reports storage ok on S3', async () => {
    // The first check makes the S3 client's first connection: with both cores busy under the full suite that has
    // taken over the default 2 s, which is about the machine, not the adapter.
    const t = await startTestApp({ S3_BUCKET: 'neurodata', S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', HEALTH_TIMEOUT_MS: '15000' });
    try {
      const r = await call(t.url, 'GET', '/health');
      expect(r.body.components.storage.status, JSON.stringify(r.body)).toBe('ok');
      expect(t.app.stores.objects.kind).toBe('s3');
    } finally {
      await t.close();
    }
  });
});
