import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { EventEmitter } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { tableFromIPC } from 'apache-arrow';
import { openObjects, type ObjectStore } from '../../lib/objects/objects.js';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { createUser } from '../kit/users.js';
import { waitForJob } from '../kit/factories.js';
import { createTinyDataset } from '../kit/datasets.js';

// What the contract suite (objects.test.ts) cannot see from outside the adapter: how the bytes travel to an S3
// server, and the service itself keeping its objects there. s3rver checks a pre-signed URL's expiry but not its
// SigV4 signature (so it is recomputed here), and refuses to abort a multipart upload (405).

const BUCKET = 'neurodata';

/** `count` chunks of 64 KiB, each different. */
function* chunks(count: number): Generator<Buffer> {
  for (let i = 0; i < count; i++) {
    const chunk = Buffer.alloc(64 * 1024);
    for (let j = 0; j < chunk.length; j += 4) chunk.writeUInt32LE((i * 2654435761 + j * 40503) >>> 0, j);
    yield chunk;
  }
}

/** RFC 3986 encoding, as SigV4 canonical requests use it. */
const uriEncode = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** The SigV4 query signature a pre-signed GET URL must carry (AWS Signature Version 4, query-string authentication). */
function expectedSignature(url: URL, secretAccessKey: string): string {
  const params = [...url.searchParams].filter(([name]) => name !== 'X-Amz-Signature');
  const query = params
    .map(([name, value]) => [uriEncode(name), uriEncode(value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
  const canonical = ['GET', url.pathname, query, `host:${url.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const [, date, region, service, terminal] = url.searchParams.get('X-Amz-Credential')!.split('/');
  const scope = [date, region, service, terminal].join('/');
  const toSign = ['AWS4-HMAC-SHA256', url.searchParams.get('X-Amz-Date'), scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service), terminal);
  return hmac(key, toSign).toString('hex');
}

describe('objects on an S3 server', () => {
  let s3: S3rver;
  let dir: string;
  let endpoint: string;
  /** The server's events, `ObjectCreated:Put` for a single PUT and `ObjectCreated:Post` for a completed multipart upload. */
  const events: { name: string; key: string }[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
    // S3rver is a Koa application, which its type declarations leave out; its events arrive on it.
    (s3 as unknown as EventEmitter).on('event', (e: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => {
      for (const r of e.Records) events.push({ name: r.eventName, key: decodeURIComponent(r.s3.object.key) });
    });
    const { port } = await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const eventsOf = (key: string) => events.filter((e) => e.key === key).map((e) => e.name);

  describe('the adapter', () => {
    let store: ObjectStore;
    beforeAll(async () => {
      store = await openObjects({ kind: 's3', bucket: BUCKET, endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
    });
    afterAll(async () => store?.close());

    it('streams a body of several parts as one multipart upload, and a small one as one PUT', async () => {
      const hash = createHash('sha256');
      for (const chunk of chunks(200)) hash.update(chunk);
      const big = await store.putStream('datasets/m1/assets/parts.bin', Readable.from(chunks(200)), { maxBytes: 200 * 64 * 1024 });
      expect(big).toEqual({ size: 200 * 64 * 1024, sha256: hash.digest('hex') });
      expect(eventsOf('datasets/m1/assets/parts.bin')).toEqual(['ObjectCreated:Post']);
      const back = await store.getStream('datasets/m1/assets/parts.bin');
      expect(createHash('sha256').update(Buffer.concat(await back!.body.toArray())).digest('hex')).toBe(big.sha256);

      await store.putStream('datasets/m1/assets/small.bin', Readable.from(chunks(2)), { maxBytes: 200 * 64 * 1024 });
      expect(eventsOf('datasets/m1/assets/small.bin')).toEqual(['ObjectCreated:Put']);
      expect(await store.deletePrefix('datasets/m1/')).toBe(2);
    });

    it('pre-signs a URL whose SigV4 signature holds for the key, the download name and the content type', async () => {
      await store.put('datasets/p2/neuron_1.swc', 'soma', 'text/plain');
      const url = new URL((await store.presignedGetUrl('datasets/p2/neuron_1.swc', { expiresInSeconds: 60, filename: 'neuron 1 é.swc', contentType: 'text/x-swc' }))!);
      expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
      expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/);
      expect(url.searchParams.get('X-Amz-Signature')).toBe(expectedSignature(url, 'S3RVER'));
      const r = await fetch(url);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/x-swc');
      expect(await r.text()).toBe('soma');
      await store.delete('datasets/p2/neuron_1.swc');
    });
  });

  describe('the service', () => {
    let t: TestApp;
    beforeAll(async () => {
      // The result is read as bytes, whole and by range, over a real connection.
      const s3 = { S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', JOBS_POLL_MS: '100' };
      t = await startTestApp(s3, { listen: true });
    });
    afterAll(async () => t?.close());

    it("keeps a job's Arrow result in the bucket and streams it from there, whole or by range", async () => {
      const academic = await createUser(t, { accountType: 'ACADEMIC' });
      const d = await createTinyDataset(t, academic);
      const query = `MATCH (a:Neuron)-[c:Synapse]->(b:Neuron) IN "${d.slug}"@latest RETURN a.name AS pre, b.name AS post, c.weight AS weight ORDER BY pre, post`;
      const submitted = await call(t.url, 'POST', '/v1/jobs', { token: academic.accessToken, body: { query } });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
      let job = submitted.body;
      job = await waitForJob(t, academic, job.job_id);
      expect(job.status, JSON.stringify(job)).toBe('succeeded');
      expect(events.some((e) => e.name.startsWith('ObjectCreated:') && e.key.includes(job.job_id))).toBe(true);

      const auth = { authorization: `Bearer ${academic.accessToken}` };
      const whole = await fetch(`${t.url}${job.result_url}`, { headers: auth });
      expect(whole.status).toBe(200);
      const bytes = Buffer.from(await whole.arrayBuffer());
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(job.result_sha256);
      expect(bytes.length).toBe(job.result_bytes);
      const exec = await call(t.url, 'POST', '/v1/syql/exec', { token: academic.accessToken, body: { query } });
      expect(exec.status, JSON.stringify(exec.body)).toBe(200);
      expect(tableFromIPC(bytes).toArray().map((r) => Object.values(r.toJSON()))).toEqual(exec.body.rows);

      // A resumed download: the range is read from the bucket, not cut from the whole object here.
      const part = await fetch(`${t.url}${job.result_url}`, { headers: { ...auth, range: 'bytes=8-99' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 8-99/${bytes.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(8, 100))).toBe(true);
    });
  });
});
