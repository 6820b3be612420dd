import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { openObjects, type ObjectStore } from '../../lib/objects/objects.js';
import { startTestApp, call } from '../../lib/testkit/app.js';

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

  it.runIf(kind === 's3')('backs the service: /health reports storage ok on S3', async () => {
    const t = await startTestApp({ S3_BUCKET: 'neurodata', S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
    try {
      const r = await call(t.url, 'GET', '/health');
      expect(r.body.components.storage.status).toBe('ok');
      expect(t.app.stores.objects.kind).toBe('s3');
    } finally {
      await t.close();
    }
  });
});
