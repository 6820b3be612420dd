import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import S3rver from 's3rver';
import jsonld, { type JsonLdDocument, type Options } from 'jsonld';
import { startTestApp, call, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { connectomeFile, createConnectome, createDataset } from '../../../test/kit/datasets.js';
import { packagePath } from '../../../lib/package-root.js';
import { expectError } from '../../../test/kit/expect.js';

type RemoteDocument = Awaited<ReturnType<NonNullable<Options.Expand['documentLoader']>>>;
const S = 'http://schema.org/';

/** Serves the shipped schema.org context and refuses anything else: expansion never reaches the network. */
async function localContextLoader(): Promise<(url: string) => Promise<RemoteDocument>> {
  const document = JSON.parse(await readFile(packagePath('seed', 'jsonld', 'schemaorg-context.jsonld'), 'utf8'));
  return async (url) => {
    if (url === 'https://schema.org/' || url === 'http://schema.org/') return { contextUrl: undefined, documentUrl: url, document };
    throw new Error(`refusing to load ${url}`);
  };
}

/**
 * UPLOAD_MAX_BYTES of the app below: above every upload the tests mean to keep (two SWC files of 60 kB in one multipart
 * body) and below the ones they mean to refuse.
 */
const UPLOAD_LIMIT = 130_000;

/** One listening app (multipart bodies are streamed from the socket) for the uploads, each test with its own datasets. */
describe('dataset files', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await startTestApp({ UPLOAD_MAX_BYTES: String(UPLOAD_LIMIT) }, { listen: true });
    owner = await createUser(t, { accountType: 'ACADEMIC' });
  });
  afterAll(async () => t?.close());

  describe('dataset files: multipart and SWC uploads, JSON-LD', () => {
    it('takes several files in one multipart upload, and SWC morphologies with their summaries', async () => {
      const d = await createDataset(t, owner, { title: 'Morphologies by multipart' });
      const form = new FormData();
      const swc = await readFile(packagePath('seed', 'morphology', 'synthetic', 'NeuroM_Neuron.swc'));
      form.append('file', new Blob([swc]), 'NeuroM_Neuron.swc');
      form.append('file', new Blob([await readFile(packagePath('seed', 'morphology', 'l22.CNG.swc'))]), 'l22.CNG.swc');
      const r = await fetch(`${t.url}/v1/neurodata/datasets/${d.id}/assets`, { method: 'POST', body: form, headers: { authorization: `Bearer ${owner.accessToken}` } });
      const body = await r.json();
      expect(r.status, JSON.stringify(body)).toBe(201);
      expect(body.items.map((a: { filename: string; kind: string; rows: number }) => [a.filename, a.kind, a.rows])).toEqual([
        ['NeuroM_Neuron.swc', 'morphology', 1],
        ['l22.CNG.swc', 'morphology', 1],
      ]);
      // A malformed SWC names the file and line, and nothing of it is kept.
      const bad = await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/assets?filename=broken.swc`, {
        token: owner.accessToken,
        body: '1 1 0 0 0 1 -1\n2 3 1 0 0 1 7\n',
        headers: { 'content-type': 'text/plain' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/broken\.swc line 2/);
      const v = await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/publish`, { token: owner.accessToken });
      expect(v.status, JSON.stringify(v.body)).toBe(201);
      expect(v.body.row_counts.morphologies).toBe(2);
    });

    it('refuses a multipart body that breaks off or has no boundary with 400, keeping nothing of it', async () => {
      const d = await createDataset(t, owner, { title: 'Broken multipart' });
      const part = '--b0undary\r\nContent-Disposition: form-data; name="file"; filename="cell.swc"\r\nContent-Type: text/plain\r\n\r\n1 1 0 0 0 1 -1\n';
      for (const [type, body] of [
        ['multipart/form-data; boundary=b0undary', part],
        ['multipart/form-data', `${part}\r\n--b0undary--\r\n`],
      ]) {
        const r = await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/assets`, { token: owner.accessToken, body, headers: { 'content-type': type } });
        expectError(r, 400, /multipart body is malformed/);
      }
      const assets = await call(t.url, 'GET', `/v1/neurodata/datasets/${d.id}/assets?version=draft`, { token: owner.accessToken });
      expect(assets.body.items).toEqual([]);
    });

    it('removes files from the draft, the connections before the neurons they name, and never from a published version', async () => {
      const d = await createConnectome(t, owner, { folder: 'celegans_witvliet_2021_8', fields: { title: 'Files come and go' } });
      const v1 = await call(t.url, 'GET', `/v1/neurodata/datasets/${d.id}/assets`, { token: owner.accessToken });
      const id = (name: string, list: { items: Array<{ id: string; filename: string }> }) => list.items.find((a) => a.filename === name)!.id;
      // Removing from v1 opens draft v2 and removes the file there; v1 keeps both.
      const neuronsFirst = await call(t.url, 'DELETE', `/v1/neurodata/datasets/${d.id}/assets/${id('neurons.csv', v1.body)}`, { token: owner.accessToken });
      expect(neuronsFirst.status).toBe(409);
      expect(neuronsFirst.body.error).toMatch(/connections file first/);
      const gone = await call(t.url, 'DELETE', `/v1/neurodata/datasets/${d.id}/assets/${id('connections.csv', v1.body)}`, { token: owner.accessToken });
      expect(gone.status, JSON.stringify(gone.body)).toBe(200);
      expect(gone.body.filename).toBe('connections.csv');
      const draft = await call(t.url, 'GET', `/v1/neurodata/datasets/${d.id}/assets?version=draft`, { token: owner.accessToken });
      expect(draft.body).toMatchObject({ version: 2, draft: true });
      expect(draft.body.items.map((a: { filename: string }) => a.filename)).toEqual(['neurons.csv']);
      expect((await call(t.url, 'GET', `/v1/neurodata/datasets/${d.id}/assets?version=v1`, { token: owner.accessToken })).body.items).toHaveLength(2);
      const incomplete = await call(t.url, 'GET', '/v1/neurodata/datasets/incomplete', { token: owner.accessToken });
      expect(incomplete.body.items.find((i: { dataset: { id: string } }) => i.dataset.id === d.id).missing).toEqual(['data: connections.csv (neurons are uploaded, connections are not)']);
      // A file of v1 that the draft no longer has: v1 never changes.
      const stale = await call(t.url, 'DELETE', `/v1/neurodata/datasets/${d.id}/assets/${id('connections.csv', v1.body)}`, { token: owner.accessToken });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toMatch(/never changes/);
    });

    it('refuses an upload without a file name, and a dataset it cannot see, with the right status', async () => {
      const d = await createDataset(t, owner, { title: 'Naming files' });
      const r = await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/assets`, { token: owner.accessToken, body: 'a,b\n', headers: { 'content-type': 'text/csv' } });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/filename/);
      const other = await createUser(t, { accountType: 'ACADEMIC' });
      const hidden = await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/assets?filename=x.csv`, { token: other.accessToken, body: 'a,b\n', headers: { 'content-type': 'text/csv' } });
      expect(hidden.status).toBe(404);
    });

    it('describes a version as schema.org JSON-LD that a JSON-LD processor expands with a local context', async () => {
      const d = await createConnectome(t, owner, { folder: 'celegans_witvliet_2021_6', fields: { title: 'Linked data worm', keywords: ['L3'] } });
      const res = await fetch(`${t.url}/v1/neurodata/datasets/${d.id}/metadata.jsonld`, { headers: { authorization: `Bearer ${owner.accessToken}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/ld\+json/);
      const doc = (await res.json()) as JsonLdDocument;
      const [node] = (await jsonld.expand(doc, { documentLoader: await localContextLoader() })) as Array<Record<string, any>>;
      expect(node['@type']).toEqual([`${S}Dataset`]);
      expect(node[`${S}name`][0]['@value']).toBe('Linked data worm');
      expect(node[`${S}license`][0]['@id']).toBe('https://spdx.org/licenses/CC-BY-4.0.html');
      const about = node[`${S}about`].map((a: Record<string, any>) => a['@id']);
      expect(about).toContain('http://purl.obolibrary.org/obo/WBbt_0006749');
      expect(about).toContain('http://purl.obolibrary.org/obo/NCBITaxon_6239');
      expect(node[`${S}measurementTechnique`][0]['@id']).toBe('http://purl.obolibrary.org/obo/FBbi_00000258');
      const files = node[`${S}distribution`].map((f: Record<string, any>) => f[`${S}name`][0]['@value']).sort();
      expect(files).toEqual(['connections.csv', 'neurons.csv']);
      expect(node[`${S}variableMeasured`].length).toBeGreaterThan(0);
    });

    it('serves JSON-LD that can be pasted into an HTML script element: <, >, & and line separators are escaped', async () => {
      const title = 'Worm </script><script>alert(1)</script> & co \u2028 line \u2029 paragraph';
      const d = await createDataset(t, owner, { title, description: '<!-- not a comment -->' });
      const res = await fetch(`${t.url}/v1/neurodata/datasets/${d.id}/metadata.jsonld`, { headers: { authorization: `Bearer ${owner.accessToken}` } });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).not.toMatch(/[<>&\u2028\u2029]/);
      expect(text).toContain('\\u003c/script\\u003e');
      const doc = JSON.parse(text) as { name: string; description: string };
      expect(doc.name).toBe(title);
      expect(doc.description).toBe('<!-- not a comment -->');
    });
  });

  describe('upload limits', () => {
    it('refuses a file over UPLOAD_MAX_BYTES with 413, whether its size is declared or not, and keeps nothing of it', async () => {
      const d = await createDataset(t, owner, { title: 'Small files only' });
      const big = await connectomeFile('celegans_cook_2019_male', 'connections.csv');
      expect(big.length).toBeGreaterThan(UPLOAD_LIMIT);
      const declared = await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/assets?filename=connections.csv`, { token: owner.accessToken, body: big.toString('utf8'), headers: { 'content-type': 'text/csv' } });
      expect(declared.status).toBe(413);
      expect(declared.body.error).toMatch(new RegExp(`${UPLOAD_LIMIT} bytes`));
      const form = new FormData();
      form.append('file', new Blob([big]), 'connections.csv');
      const streamed = await fetch(`${t.url}/v1/neurodata/datasets/${d.id}/assets`, { method: 'POST', body: form, headers: { authorization: `Bearer ${owner.accessToken}` } });
      expect(streamed.status).toBe(413);
      const files = await call(t.url, 'GET', `/v1/neurodata/datasets/${d.id}/assets?version=draft`, { token: owner.accessToken });
      expect(files.body.items).toEqual([]);
      expect(await t.app.stores.objects.list(`uploads/${d.id}/`)).toEqual([]);
    });
  });

  /** The same bytes in each Content-Encoding the service accepts. */
  const ENCODERS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;

  describe('compressed uploads', () => {
    const upload = (datasetId: string, filename: string, body: Uint8Array, encoding: string) =>
      call(t.url, 'POST', `/v1/neurodata/datasets/${datasetId}/assets?filename=${filename}`, {
        token: owner.accessToken,
        body,
        headers: { 'content-type': 'text/plain', 'content-encoding': encoding },
      });

    async function expectNothingKept(datasetId: string) {
      const files = await call(t.url, 'GET', `/v1/neurodata/datasets/${datasetId}/assets?version=draft`, { token: owner.accessToken });
      expect(files.body.items).toEqual([]);
      expect(await t.app.stores.objects.list(`uploads/${datasetId}/`)).toEqual([]);
    }

    it('stores a gzip, deflate or br upload decompressed', async () => {
      const d = await createDataset(t, owner, { title: 'Compressed notes' });
      const text = 'a note on the method\n'.repeat(100);
      for (const [encoding, encode] of Object.entries(ENCODERS)) {
        const r = await upload(d.id, `notes-${encoding}.txt`, encode(Buffer.from(text)), encoding);
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        expect(r.body.items[0].size).toBe(text.length);
      }
    });

    it('counts the decompressed bytes against UPLOAD_MAX_BYTES: a small compressed body that expands past it is 413 and nothing is kept', async () => {
      const d = await createDataset(t, owner, { title: 'No bombs' });
      const expanded = Buffer.alloc(8 << 20, 'x');
      for (const [encoding, encode] of Object.entries(ENCODERS)) {
        const compressed = encode(expanded);
        expect(compressed.length).toBeLessThan(UPLOAD_LIMIT);
        const r = await upload(d.id, 'bomb.txt', compressed, encoding);
        expect(r.status, encoding).toBe(413);
        expect(r.body.error).toMatch(new RegExp(`${UPLOAD_LIMIT} bytes`));
        expect(r.body.error).toMatch(/UPLOAD_MAX_BYTES/);
        expect(r.body.error).toMatch(/decompressed/);
      }
      const multipart = Buffer.concat([
        Buffer.from('--b0undary\r\nContent-Disposition: form-data; name="file"; filename="bomb.txt"\r\nContent-Type: text/plain\r\n\r\n'),
        expanded,
        Buffer.from('\r\n--b0undary--\r\n'),
      ]);
      const r = await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/assets`, {
        token: owner.accessToken,
        body: gzipSync(multipart),
        headers: { 'content-type': 'multipart/form-data; boundary=b0undary', 'content-encoding': 'gzip' },
      });
      // The multipart parser reads the body as it arrived: a compressed form is refused before it is read.
      expect(r.status).toBe(415);
      expect(r.body.error).toMatch(/Content-Encoding gzip is not accepted on a multipart upload/);
      await expectNothingKept(d.id);
    });

    it('refuses a body that does not decompress with 400 naming the encoding, and an unknown encoding with 415, keeping nothing', async () => {
      const d = await createDataset(t, owner, { title: 'No corrupt bodies' });
      const whole = gzipSync(Buffer.from('a note\n'.repeat(1000)));
      const corrupt: Array<[string, Uint8Array]> = [
        ['gzip', Buffer.from('this is not gzip at all')],
        ['gzip', whole.subarray(0, whole.length - 12)],
        ['deflate', Buffer.from('this is not deflate at all')],
        ['br', Buffer.alloc(64, 0xff)],
      ];
      for (const [encoding, body] of corrupt) {
        const r = await upload(d.id, 'corrupt.txt', body, encoding);
        expect(r.status, `${encoding}: ${JSON.stringify(r.body)}`).toBe(400);
        expect(r.body.error).toMatch(new RegExp(`Content-Encoding ${encoding}`));
      }
      const multipart = await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/assets`, {
        token: owner.accessToken,
        body: Buffer.from('--b0undary\r\nnot gzip'),
        headers: { 'content-type': 'multipart/form-data; boundary=b0undary', 'content-encoding': 'gzip' },
      });
      expect(multipart.status, JSON.stringify(multipart.body)).toBe(415);
      expect(multipart.body.error).toMatch(/Content-Encoding gzip is not accepted on a multipart upload/);
      const unknown = await upload(d.id, 'packed.txt', Buffer.from('abc'), 'compress');
      expect(unknown.status).toBe(415);
      expect(unknown.body.error).toMatch(/Content-Encoding "compress".*gzip, deflate, br/);
      await expectNothingKept(d.id);
    });
  });
});

describe('download URLs on S3', () => {
  let s3: S3rver;
  let dir: string;
  let t: TestApp;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 's3rver-'));
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'neurodata', configs: [] }] });
    const { port } = await s3.run();
    t = await startTestApp({ S3_BUCKET: 'neurodata', S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' }, { listen: true });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('are pre-signed by the bucket and download the very bytes', async () => {
    const owner = await createUser(t, { accountType: 'ACADEMIC' });
    const d = await createConnectome(t, owner, { folder: 'celegans_witvliet_2021_7' });
    const r = await call(t.url, 'POST', '/v1/neurodata/download-urls', { token: owner.accessToken, body: { dataset_id: d.id, expires_in: 120 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.signed_by).toBe('s3');
    for (const file of ['neurons.csv', 'connections.csv']) {
      const u = r.body.urls.find((x: { filename: string }) => x.filename === file);
      expect(u.url).toMatch(/X-Amz-Signature=/);
      const got = Buffer.from(await (await fetch(u.url)).arrayBuffer());
      expect(got.equals(await connectomeFile('celegans_witvliet_2021_7', file))).toBe(true);
    }
  });
});
