import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { tableFromIPC as arrowTableFromIPC, RecordBatchReader, Type, type Table as ArrowTable } from 'apache-arrow';
import { tableFromIPC as flechetteTableFromIPC } from '@uwdata/flechette';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../lib/config.js';
import { openColumn, type ColumnStore } from '../../../../lib/column/column.js';
import { ch, type ChQuery } from '../../../../lib/column/sql.js';
import { openObjects, type ObjectStore } from '../../../../lib/objects/objects.js';
import { createDownloadSigner } from '../../../../lib/objects/signed-url.js';
import { createTestEngines, type TestEngines } from '../../../../test/kit/app.js';
import { closeWorkerPool } from '../../../../lib/workers/pool.js';
import { jobResultHandler } from '../../../../rest-compat/job-results.js';
import type { RunOperation } from '../../../../rest-compat/login-redirect.js';
import type { ResultColumn } from '../../syql/plan.js';
import { ARROW_STREAM_MEDIA_TYPE, exportArrow } from '../../../../lib/column/arrow-export.js';
import { encodeTsvBatch } from '../../../../lib/column/arrow.task.js';

// chDB without CLICKHOUSE_URL, a ClickHouse server (Debian's 18.16: no Arrow formats) with it.
let engines: TestEngines;
let column: ColumnStore;
let objects: ObjectStore;

interface ProbeRow {
  id: number;
  s: string;
  ns: string | null;
  i: bigint;
  ni: bigint | null;
  f: number;
  nf: number | null;
  b: boolean;
  nb: boolean | null;
}

const STRINGS = ['plain', 'tab\there', 'line\nbreak\r\n', 'back\\slash \\N \\t', 'café ☕ 𝄞 日本語', '', "quote ' and \"", '\\N', 'nul\0byte', 'x'.repeat(5000)];
const INTEGERS = [0n, -1n, 2147483648n, -2147483649n, 9007199254740993n, 9223372036854775807n, -9223372036854775808n, 42n, 4294967296n, -7n];
const FLOATS = [0.1, -2.5e-300, 1e300, 123456.789, Infinity, -Infinity, Number.NaN, 3, -0.5, 1e-310];

const ROWS: ProbeRow[] = STRINGS.map((s, k) => ({
  id: k + 1,
  s,
  ns: k % 3 === 0 ? null : STRINGS[(k + 4) % STRINGS.length],
  i: INTEGERS[k],
  ni: k % 4 === 1 ? null : -INTEGERS[k] / 3n,
  f: FLOATS[k],
  nf: k % 2 === 0 ? null : FLOATS[(k + 3) % FLOATS.length],
  b: k % 3 !== 1,
  nb: k % 5 === 0 ? null : k % 2 === 0,
}));

const escapeTsv = (s: string) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\0/g, '\\0');
const tsvFloat = (x: number) => (Number.isNaN(x) ? 'nan' : x === Infinity ? 'inf' : x === -Infinity ? '-inf' : String(x));
const tsvField = (v: unknown) =>
  v === null ? '\\N' : typeof v === 'string' ? escapeTsv(v) : typeof v === 'boolean' ? (v ? '1' : '0') : typeof v === 'number' ? tsvFloat(v) : String(v);

/** The declared columns of the probe query, as the SyQL compiler declares them. */
const PROBE_COLUMNS: ResultColumn[] = [
  { name: 'id', type: 'integer', nullable: false, chType: 'Int64' },
  { name: 's', type: 'string', nullable: false, chType: 'String' },
  { name: 'ns', type: 'string', nullable: true, chType: 'Nullable(String)' },
  { name: 'i', type: 'integer', nullable: false, chType: 'Int64' },
  { name: 'ni', type: 'integer', nullable: true, chType: 'Nullable(Int64)' },
  { name: 'f', type: 'float', nullable: false, chType: 'Float64' },
  { name: 'nf', type: 'float', nullable: true, chType: 'Nullable(Float64)' },
  { name: 'b', type: 'boolean', nullable: false, chType: 'UInt8' },
  { name: 'nb', type: 'boolean', nullable: true, chType: 'Nullable(UInt8)' },
  { name: 'positive', type: 'boolean', nullable: false, chType: 'UInt8' },
  { name: 'label with spaces, ünïcode', type: 'string', nullable: false, chType: 'String' },
];

/** Each output column cast to its declared ClickHouse type, as the compiled SQL does. */
const probeQuery = (where: ChQuery = ch`1 = 1`): ChQuery => ch`
  SELECT CAST(id AS Int64) AS id, CAST(s AS String) AS s, CAST(ns AS Nullable(String)) AS ns, CAST(i AS Int64) AS i,
         CAST(ni AS Nullable(Int64)) AS ni, CAST(f AS Float64) AS f, CAST(nf AS Nullable(Float64)) AS nf,
         CAST(b AS UInt8) AS b, CAST(nb AS Nullable(UInt8)) AS nb, CAST(i > 0 AS UInt8) AS positive,
         concat(s, ${'|'}) AS label
  FROM arrow_probe WHERE ${where} ORDER BY id`;

const expectedRow = (r: ProbeRow) => ({ ...r, id: BigInt(r.id), positive: r.i > 0n, 'label with spaces, ünïcode': `${r.s}|` });

const METADATA = {
  job_id: '6d1f3c9e-3f0a-4c39-9d55-5b0f8f0c2a11',
  syql: 'SELECT pre, post, weight\nFROM connections OF "celegans_cook_2019_male"@v1\nWHERE weight > $w -- ☕',
  dataset_versions: JSON.stringify([{ dataset: 'celegans_cook_2019_male', version: 1 }]),
  service_version: '0.1.0',
  parameters: JSON.stringify({ w: 3 }),
};

beforeAll(async () => {
  engines = await createTestEngines();
  const config = loadConfig({ LOG_LEVEL: 'silent', ...engines.env, CLICKHOUSE_CLUSTER: undefined });
  column = await openColumn(config.column);
  objects = await openObjects(config.objects);
  await column.command(
    ch`CREATE TABLE arrow_probe (id UInt32, s String, ns Nullable(String), i Int64, ni Nullable(Int64), f Float64, nf Nullable(Float64),
                                 b UInt8, nb Nullable(UInt8)) ENGINE = MergeTree ORDER BY id`,
    { name: 'test.create' },
  );
  const lines = ROWS.map((r) => `${[r.id, r.s, r.ns, r.i, r.ni, r.f, r.nf, r.b, r.nb].map(tsvField).join('\t')}\n`);
  await column.insertTsv('arrow_probe', [lines.join('')], { name: 'test.insert' });
  await column.command(ch`CREATE TABLE arrow_many (n UInt64) ENGINE = MergeTree ORDER BY n`, { name: 'test.createMany' });
  await column.insertTsv(
    'arrow_many',
    (function* () {
      for (let i = 0; i < 1_000_000; i += 100_000) yield Array.from({ length: 100_000 }, (_, k) => `${i + k}\n`).join('');
    })(),
    { name: 'test.insertMany' },
  );
});

afterAll(async () => {
  await closeWorkerPool();
  if (column?.kind === 'clickhouse') await column.command({ sql: `DROP DATABASE IF EXISTS ${column.database}`, params: {} }, { name: 'test.drop' });
  await column?.close();
  await objects?.close();
  await engines?.drop();
});

async function stored(key: string): Promise<Buffer> {
  const obj = await objects.get(key);
  if (!obj) throw new Error(`no object under ${key}`);
  expect(obj.contentType).toBe(ARROW_STREAM_MEDIA_TYPE);
  return obj.body;
}

/** Rows of an apache-arrow table as plain objects (Int64 as bigint). */
const arrowRows = (t: ArrowTable) => t.toArray().map((r) => ({ ...r.toJSON() }));

function expectSameValues(actual: Record<string, unknown>[], expected: Record<string, unknown>[]): void {
  expect(actual).toHaveLength(expected.length);
  // toEqual tells NaN from null and 0n from 0; strings are compared exactly.
  expected.forEach((row, k) => expect(actual[k]).toEqual(row));
}

describe(`exportArrow (${process.env.CLICKHOUSE_URL ? 'ClickHouse server' : 'chDB'})`, () => {
  it('stores the result as an Arrow IPC stream that apache-arrow and flechette both read, values and metadata exact', async () => {
    const reported: number[] = [];
    const result = await exportArrow({ column, objects }, probeQuery(), PROBE_COLUMNS, 'results/probe.arrows', METADATA, { onRows: (n) => reported.push(n), name: 'test.export' });
    const body = await stored('results/probe.arrows');
    expect(result).toEqual({ bytes: body.length, rows: ROWS.length, sha256: createHash('sha256').update(body).digest('hex') });
    expect(reported.at(-1)).toBe(ROWS.length);
    const expected = ROWS.map(expectedRow);

    const a = arrowTableFromIPC(body);
    expect(a.schema.fields.map((f) => [f.name, Type[f.typeId], f.nullable])).toEqual(
      PROBE_COLUMNS.map((c) => [c.name, { string: 'Utf8', integer: 'Int', float: 'Float', boolean: 'Bool' }[c.type], c.nullable]),
    );
    expect(a.schema.fields.filter((f) => Type[f.typeId] === 'Int').map((f) => (f.type as { bitWidth: number; isSigned: boolean }).bitWidth)).toEqual([64, 64, 64]);
    expect(Object.fromEntries(a.schema.metadata)).toEqual(METADATA);
    expectSameValues(arrowRows(a), expected);

    const f = flechetteTableFromIPC(body, { useBigInt: true });
    expect(f.schema.fields.map((x) => [x.name, x.nullable])).toEqual(PROBE_COLUMNS.map((c) => [c.name, c.nullable]));
    expect(Object.fromEntries(f.schema.metadata ?? new Map())).toEqual(METADATA);
    expectSameValues(f.toArray() as Record<string, unknown>[], expected);
  });

  it('writes the schema and the end-of-stream marker for a result without rows', async () => {
    const result = await exportArrow({ column, objects }, probeQuery(ch`id > ${100}`), PROBE_COLUMNS, 'results/empty.arrows', METADATA);
    expect(result.rows).toBe(0);
    const body = await stored('results/empty.arrows');
    expect(result.bytes).toBe(body.length);
    expect([...body.subarray(body.length - 8)]).toEqual([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    const a = arrowTableFromIPC(body);
    expect(a.numRows).toBe(0);
    expect(a.schema.fields.map((x) => x.name)).toEqual(PROBE_COLUMNS.map((c) => c.name));
    expect(Object.fromEntries(a.schema.metadata)).toEqual(METADATA);
    const f = flechetteTableFromIPC(body);
    expect(f.numRows).toBe(0);
    expect(f.schema.fields.map((x) => x.name)).toEqual(PROBE_COLUMNS.map((c) => c.name));
    expect(Object.fromEntries(f.schema.metadata ?? new Map())).toEqual(METADATA);
  });

  // With a boolean column chDB's batches are re-encoded (ClickHouse writes UInt8); without one they are copied as
  // they are. The server's batches are always ours.
  it.each([
    ['with a boolean column', true],
    ['without one', false],
  ])('writes a large result in bounded record batches, in order (%s)', async (_, withBoolean) => {
    const columns: ResultColumn[] = [
      { name: 'n', type: 'integer', nullable: false, chType: 'Int64' },
      { name: 'text', type: 'string', nullable: false, chType: 'String' },
      { name: 'half', type: 'float', nullable: true, chType: 'Nullable(Float64)' },
      ...(withBoolean ? [{ name: 'even', type: 'boolean', nullable: false, chType: 'UInt8' } as const] : []),
    ];
    const even = withBoolean ? ch`, CAST(n % 2 = 0 AS UInt8) AS even` : ch``;
    const q = ch`SELECT CAST(n AS Int64) AS n, concat('row ', toString(n), '\t✓') AS text, CAST(if(n % 7 = 0, NULL, n / 2) AS Nullable(Float64)) AS half
                 ${even} FROM arrow_many WHERE n < ${300_000} ORDER BY n`;
    const reported: number[] = [];
    const result = await exportArrow({ column, objects }, q, columns, 'results/large.arrows', { job_id: 'large' }, { onRows: (n) => reported.push(n) });
    expect(result.rows).toBe(300_000);
    expect(reported.length).toBeGreaterThan(3);
    expect(reported).toEqual([...reported].sort((x, y) => x - y));
    expect(reported.at(-1)).toBe(300_000);
    const body = await stored('results/large.arrows');
    expect(createHash('sha256').update(body).digest('hex')).toBe(result.sha256);

    const reader = RecordBatchReader.from(body);
    const sizes: number[] = [];
    for (const batch of reader) sizes.push(batch.numRows);
    expect(sizes.length).toBeGreaterThan(3);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(65_536);
    expect(sizes.reduce((x, y) => x + y, 0)).toBe(300_000);

    const a = arrowTableFromIPC(body);
    const f = flechetteTableFromIPC(body, { useBigInt: true });
    expect(a.schema.fields.map((x) => x.name)).toEqual(columns.map((c) => c.name));
    expect(f.schema.fields.map((x) => x.name)).toEqual(columns.map((c) => c.name));
    const an = a.getChild('n')!.toArray() as BigInt64Array;
    const at = a.getChild('text')!;
    const ah = a.getChild('half')!;
    const ae = a.getChild('even');
    const fn = f.getChild('n').toArray() as BigInt64Array;
    const ft = f.getChild('text').toArray() as string[];
    const fh = f.getChild('half').toArray() as (number | null)[];
    const fe = withBoolean ? (f.getChild('even').toArray() as boolean[]) : null;
    for (let k = 0; k < 300_000; k++) {
      const half = k % 7 === 0 ? null : k / 2;
      if (an[k] !== BigInt(k) || fn[k] !== BigInt(k)) throw new Error(`n at row ${k}: ${an[k]} / ${fn[k]}`);
      if (at.get(k) !== `row ${k}\t✓` || ft[k] !== `row ${k}\t✓`) throw new Error(`text at row ${k}`);
      if (ah.get(k) !== half || fh[k] !== half) throw new Error(`half at row ${k}: ${ah.get(k)} / ${fh[k]}`);
      if (fe && (ae!.get(k) !== (k % 2 === 0) || fe[k] !== (k % 2 === 0))) throw new Error(`even at row ${k}`);
    }
  });

  it('stops the query on an abort and leaves nothing under the key', async () => {
    const columns: ResultColumn[] = [
      { name: 'n', type: 'integer', nullable: false, chType: 'Int64' },
      { name: 'text', type: 'string', nullable: false, chType: 'String' },
    ];
    const q = ch`SELECT CAST(n AS Int64) AS n, concat('abcdefghijklmnopqrstuvwxyz ', toString(n)) AS text FROM arrow_many ORDER BY n`;
    const controller = new AbortController();
    let seen = 0;
    const run = exportArrow({ column, objects }, q, columns, 'results/aborted.arrows', { job_id: 'aborted' }, {
      signal: controller.signal,
      onRows: (n) => {
        seen = n;
        controller.abort(new Error('job cancelled'));
      },
    });
    await expect(run).rejects.toMatchObject({ extensions: { code: 'TIMEOUT' } });
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(1_000_000);
    expect(await objects.exists('results/aborted.arrows')).toBe(false);
    expect(await objects.list('results/aborted')).toEqual([]);

    // Already aborted: nothing runs.
    await expect(exportArrow({ column, objects }, q, columns, 'results/aborted.arrows', {}, { signal: controller.signal })).rejects.toMatchObject({ extensions: { code: 'TIMEOUT' } });
    expect(await objects.exists('results/aborted.arrows')).toBe(false);

    if (column.kind === 'chdb') {
      // chDB's file beside its data goes too, once the engine has let go of it.
      const spool = path.join(engines.dataDir, 'chdb', 'arrow-export-spool');
      await expect.poll(async () => readdir(spool), { timeout: 10_000 }).toEqual([]);
    }

    // The store still answers, and a later export works.
    const after = await exportArrow({ column, objects }, probeQuery(), PROBE_COLUMNS, 'results/after-abort.arrows', METADATA);
    expect(after.rows).toBe(ROWS.length);
  });

  it('stops a long query on an abort, before it has produced anything', async () => {
    const store = column as ColumnStore & { kill?: unknown };
    if (typeof store.kill !== 'function') return; // the store cannot stop a query by its id
    const columns: ResultColumn[] = [{ name: 'c', type: 'integer', nullable: false, chType: 'Int64' }];
    // Minutes of work for one thread, one row at the end.
    const q = ch`SELECT CAST(count() + sum(cityHash64(number)) % 7 AS Int64) AS c FROM numbers(20000000000)`;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('job cancelled')), 300);
    const started = Date.now();
    await expect(exportArrow({ column, objects }, q, columns, 'results/long.arrows', {}, { signal: controller.signal, name: 'test.longExport' })).rejects.toMatchObject({
      extensions: { code: 'TIMEOUT' },
    });
    const processes = ch`SELECT count() AS n FROM system.processes WHERE position(query, 'test.longExport') > 0 AND position(query, 'system.processes') = 0`;
    const running = async () => (await column.query<{ n: number }>(processes, { name: 'test.processes' }))[0].n;
    await expect.poll(running, { timeout: 20_000, interval: 200 }).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await objects.exists('results/long.arrows')).toBe(false);
  });

  it('fails, leaving nothing, when the query fails after its first rows', async () => {
    // One string column: a server's error message, written as the last line of a result it has begun, would pass for
    // a value if the rows were not terminated.
    const columns: ResultColumn[] = [{ name: 'x', type: 'string', nullable: false, chType: 'String' }];
    const q = ch`SELECT concat('v', toString(n + throwIf(n = ${200_000}))) AS x FROM arrow_many`;
    await expect(exportArrow({ column, objects }, q, columns, 'results/failed.arrows', {})).rejects.toThrow(/throwIf/);
    expect(await objects.exists('results/failed.arrows')).toBe(false);
  });

  it('refuses a result whose columns do not match the declaration, leaving nothing', async () => {
    const wrong: ResultColumn[] = [{ name: 'x', type: 'integer', nullable: false, chType: 'Int64' }];
    await expect(exportArrow({ column, objects }, ch`SELECT concat('x', toString(n)) AS x FROM arrow_many WHERE n < ${10}`, wrong, 'results/wrong.arrows', {})).rejects.toThrow();
    expect(await objects.exists('results/wrong.arrows')).toBe(false);
    const nullInNonNullable: ResultColumn[] = [{ name: 'x', type: 'float', nullable: false, chType: 'Nullable(Float64)' }];
    await expect(
      exportArrow({ column, objects }, ch`SELECT CAST(NULL AS Nullable(Float64)) AS x FROM arrow_many WHERE n < ${10}`, nullInNonNullable, 'results/null.arrows', {}),
    ).rejects.toThrow(/non-nullable/);
    expect(await objects.exists('results/null.arrows')).toBe(false);
  });
});

describe('encodeTsvBatch', () => {
  const columns: ResultColumn[] = [{ name: 'x', type: 'string', nullable: false, chType: 'String' }];
  const error = "Code: 395, e.displayText() = DB::Exception: Value passed to 'throwIf' function is non zero, e.what() = DB::Exception\n";

  it('tells a server error that ends a result from a row when rows are terminated', () => {
    expect(encodeTsvBatch('a\t1\nb\\tc\t1\n', columns, true).rows).toBe(2);
    expect(() => encodeTsvBatch(`a\t1\n${error}`, columns, true)).toThrow(/^the query failed: Code: 395, .*throwIf/);
    expect(() => encodeTsvBatch('a\t1\nb\n', columns, true)).toThrow(/row 2 of a result batch has 1 fields, 2 were expected/);
    expect(() => encodeTsvBatch('a\t1\nb\t2\n', columns, true)).toThrow(/row 2 of a result batch does not end in its terminating field/);
  });
});

describe('GET /v1/jobs/{job_id}/result', () => {
  const signer = createDownloadSigner(new Uint8Array(32).fill(7));
  let app: FastifyInstance;
  let body: Buffer;
  let sha256: string;
  let answer: { data?: unknown; errors?: unknown[] };

  beforeAll(async () => {
    const result = await exportArrow({ column, objects }, probeQuery(), PROBE_COLUMNS, 'results/download.arrows', METADATA);
    body = await stored('results/download.arrows');
    sha256 = result.sha256;
    const grant = signer.sign({ key: 'results/download.arrows', expiresAt: new Date(Date.now() + 60_000), filename: 'ignored.arrows' });
    answer = {
      data: {
        jobResultDownload: {
          url: `/v1/neurodata/files?grant=${grant}`,
          size: result.bytes,
          sha256,
          rows: result.rows,
          media_type: ARROW_STREAM_MEDIA_TYPE,
          filename: 'job-1 résultat.arrows',
        },
      },
    };
    const run: RunOperation = async (_request, query, variables) => {
      expect(query).toContain('jobResultDownload(job_id: $id)');
      if (variables?.id === 'forbidden') return { errors: [{ message: 'not your job', extensions: { code: 'FORBIDDEN' } }] } as never;
      return answer as never;
    };
    app = Fastify();
    app.get('/v1/jobs/:job_id/result', jobResultHandler(run, objects, signer));
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('streams the whole result with its checksums', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/jobs/j1/result' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(ARROW_STREAM_MEDIA_TYPE);
    expect(res.headers['content-length']).toBe(String(body.length));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toBe(`"${sha256}"`);
    expect(res.headers['x-checksum-sha256']).toBe(sha256);
    expect(res.headers['repr-digest']).toBe(`sha-256=:${createHash('sha256').update(body).digest('base64')}:`);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="job-1 r_sultat.arrows"; filename*=UTF-8''job-1%20r%C3%A9sultat.arrows`);
    expect(res.rawPayload.equals(body)).toBe(true);
    expect(arrowTableFromIPC(res.rawPayload).numRows).toBe(ROWS.length);
  });

  it('answers byte ranges, and 416 for a range beyond the end', async () => {
    const part = await app.inject({ method: 'GET', url: '/v1/jobs/j1/result', headers: { range: 'bytes=10-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-99/${body.length}`);
    expect(part.headers['content-length']).toBe('90');
    expect(part.rawPayload.equals(body.subarray(10, 100))).toBe(true);
    const tail = await app.inject({ method: 'GET', url: '/v1/jobs/j1/result', headers: { range: 'bytes=-8' } });
    expect(tail.statusCode).toBe(206);
    expect([...tail.rawPayload]).toEqual([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    const open = await app.inject({ method: 'GET', url: '/v1/jobs/j1/result', headers: { range: `bytes=${body.length - 3}-` } });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(body.subarray(body.length - 3))).toBe(true);
    const beyond = await app.inject({ method: 'GET', url: '/v1/jobs/j1/result', headers: { range: `bytes=${body.length}-` } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${body.length}`);
    const stale = await app.inject({ method: 'GET', url: '/v1/jobs/j1/result', headers: { range: 'bytes=0-9', 'if-range': '"0000"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(body.length);
    const notModified = await app.inject({ method: 'GET', url: '/v1/jobs/j1/result', headers: { 'if-none-match': `"${sha256}"` } });
    expect(notModified.statusCode).toBe(304);
  });

  it('maps the GraphQL error of the access decision to its status', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/jobs/forbidden/result' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'not your job' });
  });

  it('says 404 when the object is gone, 500 when the grant does not verify', async () => {
    const previous = answer;
    const gone = signer.sign({ key: 'results/gone.arrows', expiresAt: new Date(Date.now() + 60_000) });
    answer = { data: { jobResultDownload: { ...(previous.data as { jobResultDownload: object }).jobResultDownload, url: `/v1/neurodata/files?grant=${gone}` } } };
    expect((await app.inject({ method: 'GET', url: '/v1/jobs/j1/result' })).statusCode).toBe(404);
    const foreign = createDownloadSigner(new Uint8Array(32).fill(9)).sign({ key: 'results/download.arrows', expiresAt: new Date(Date.now() + 60_000) });
    answer = { data: { jobResultDownload: { ...(previous.data as { jobResultDownload: object }).jobResultDownload, url: `http://example.org/v1/neurodata/files?grant=${foreign}` } } };
    expect((await app.inject({ method: 'GET', url: '/v1/jobs/j1/result' })).statusCode).toBe(500);
    answer = previous;
  });
});
