import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { tableFromIPC } from 'apache-arrow';
import { openColumn, type ColumnStore } from '../lib/column/column.js';
import { ch, quoteString } from '../lib/column/sql.js';
import { synapseBenchSettings } from './settings.js';
import { SYNAPSE_COLUMNS } from '../subgraphs/neurodata/store/clickhouse/columns.js';
import { migrateColumnTables } from '../subgraphs/neurodata/store/clickhouse/migrations.js';
import { percentile } from './lib.js';
import { generateSyntheticFlyWire, type Box } from './synthetic-flywire.js';

/**
 * A synapse-level connectome at FlyWire v783's size (54.5 million synapses, 139,255 neurons, the release's Feather
 * layout; bench/synthetic-flywire.ts makes it from the real ids, annotations and neuropils) published through the
 * service and read back, against the column engine doing the same work itself in the same run:
 *
 * - load: chDB reading the Feather part files itself (`INSERT INTO synapses ... SELECT ... FROM file(..., 'Arrow')`,
 *   its native Arrow reader, into the same MergeTree table of the SYNAPSE_COLUMNS shape), then the copy ordered by
 *   the postsynaptic side (`synapses_by_post`) the store keeps; bytes on disk per synapse from system.parts. A
 *   ClickHouse 18.16 server has no Arrow input format, so this baseline is chDB's only: the service on a server
 *   must parse the Feather files itself, and its ratio there is against chDB's figure;
 * - reads, raw SQL on those tables: one neuron's synapses (the neuron of median and of largest synapse count, both
 *   sides), the synapses in a box holding about a million, and the connections per pair within the largest neuropil.
 *
 * The service half (upload through `POST /v1/neurodata/datasets/{id}/assets`, publish, the same reads through REST
 * as Arrow) runs with `--service`. `--synapses N` (or BENCH_SYNAPSES) makes a smaller release; BENCH_SYNAPSES_DIR reuses a generated one.
 */
const SEED = 783;
const DATASET = randomUUID();
const VERSION = 1;
/** The transmitter a synapse row carries when only the six probabilities are given: the largest one's name. */
const ARGMAX_TRANSMITTER =
  "multiIf(ach >= greatest(gaba, glut, oct, ser, da), 'ach', gaba >= greatest(glut, oct, ser, da), 'gaba', glut >= greatest(oct, ser, da), 'glut', " +
  "oct >= greatest(ser, da), 'oct', ser >= da, 'ser', 'da')";

interface Release {
  dir: string;
  synapses: number;
  connections: number;
  parts: string[];
  perNeuropil: Record<string, number>;
  boxes: Record<string, Box>;
}

function options(): { synapses: number; service: boolean; dir?: string } {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { synapses: { type: 'string' }, service: { type: 'boolean' } }, strict: false, allowPositionals: true });
  const settings = synapseBenchSettings();
  const synapses = typeof values.synapses === 'string' ? Number(values.synapses) : settings.synapses;
  if (!Number.isSafeInteger(synapses) || synapses < 1) throw new Error(`--synapses must be a positive integer, got ${values.synapses}`);
  return { synapses, service: values.service === true, dir: settings.dir };
}

/** The release named by BENCH_SYNAPSES_DIR when it was made with this size and seed, otherwise a new one in `tmp`. */
async function release(want: number, given: string | undefined, tmp: string): Promise<Release> {
  const meta = given && existsSync(path.join(given, 'generator.json')) ? JSON.parse(readFileSync(path.join(given, 'generator.json'), 'utf8')) : null;
  if (given && meta?.synapses === want && meta?.seed === SEED) {
    console.log(`release: ${given} (generated earlier, seed ${SEED})`);
    return { dir: given, synapses: meta.synapses, connections: meta.connections, parts: meta.parts.map((p: string) => path.join(given, p)), perNeuropil: meta.perNeuropil, boxes: meta.boxes };
  }
  const dir = path.join(tmp, 'release');
  const t = performance.now();
  const r = await generateSyntheticFlyWire({ synapses: want, out: dir, seed: SEED });
  console.log(`release: generated ${r.synapses.toLocaleString('en')} synapses in ${r.parts.length} Feather part(s) in ${((performance.now() - t) / 1000).toFixed(1)} s (seed ${SEED})`);
  return { dir, synapses: r.synapses, connections: r.connections, parts: r.parts, perNeuropil: r.perNeuropil, boxes: Object.fromEntries(r.neuropils.map((p) => [p.name, p.box])) };
}

const seconds = async (fn: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
};

/** Latencies (ms) of `fn` run one at a time: `n` times after one warm-up run, or until `maxMs` has passed. */
async function latencies(fn: () => Promise<unknown>, n = 20, maxMs = 20_000): Promise<{ p50: number; p99: number; runs: number; result: unknown }> {
  let result = await fn();
  const samples: number[] = [];
  const end = performance.now() + maxMs;
  while (samples.length < n && (samples.length < 3 || performance.now() < end)) {
    const t = performance.now();
    result = await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), runs: samples.length, result };
}

/** The SELECT list that maps a FlyWire synapse file's columns to SYNAPSE_COLUMNS, in their order. */
function flywireToSynapseColumns(): string {
  const map: Record<string, string> = {
    dataset_id: quoteString(DATASET),
    version: String(VERSION),
    pre: 'toString(pre_pt_root_id)',
    post: 'toString(post_pt_root_id)',
    synapse_id: 'toString(id)',
    // The postsynaptic point is the synapse's position (docs: FlyWire layout).
    x: 'toFloat64(post_x)',
    y: 'toFloat64(post_y)',
    z: 'toFloat64(post_z)',
    roi: "if(toString(neuropil) = 'UNASGD', '', toString(neuropil))",
    confidence: 'CAST(NULL AS Nullable(Float32))',
    cleft_score: 'toFloat32(cleft_score)',
    connection_score: 'toFloat32(connection_score)',
    size: 'CAST(NULL AS Nullable(Float32))',
    transmitter: ARGMAX_TRANSMITTER,
  };
  return SYNAPSE_COLUMNS.map(([name]) => map[name] ?? `toFloat32(${name})`).join(', ');
}

interface Targets {
  median: { id: string; synapses: number };
  largest: { id: string; synapses: number };
  box: Box & { synapses: number };
  neuropil: { name: string; synapses: number };
}

const where = ch`dataset_id = ${DATASET} AND version = ${VERSION}`;

/** Reads what the timed reads need: the neurons of median and largest synapse count, a box of ~1 M synapses. */
async function targets(column: ColumnStore, r: Release): Promise<Targets> {
  const q = <T>(query: ReturnType<typeof ch>, name: string) => column.query<T>(query, { name: `bench.synapses.${name}`, maxExecutionTime: 600 });
  // Per neuron over both sides, as "a neuron's synapses" counts them.
  const counts = await q<{ n: string; c: string }>(
    ch`SELECT n, sum(c) AS c FROM (SELECT pre AS n, count() AS c FROM synapses WHERE ${where} GROUP BY pre UNION ALL SELECT post AS n, count() AS c FROM synapses_by_post WHERE ${where} GROUP BY post) GROUP BY n ORDER BY c, n`,
    'counts',
  );
  const median = counts[counts.length >> 1];
  const largest = counts[counts.length - 1];
  const [name, synapses] = Object.entries(r.perNeuropil).filter(([n]) => n !== 'UNASGD').sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  // A box inside the largest neuropil's, cut along x at the quantile that leaves about a million synapses in it.
  const b = r.boxes[name];
  const want = Math.min(1_000_000, Math.floor(synapses / 2));
  const inBox = (box: Box) => ch`x >= ${box.min[0]} AND x <= ${box.max[0]} AND y >= ${box.min[1]} AND y <= ${box.max[1]} AND z >= ${box.min[2]} AND z <= ${box.max[2]}`;
  const [{ all }] = await q<{ all: string }>(ch`SELECT count() AS all FROM synapses WHERE ${where} AND ${inBox(b)}`, 'neuropilBox');
  const [{ cut }] = await q<{ cut: number }>(ch`SELECT toFloat64(quantileExact(${Math.min(1, want / Number(all))})(x)) AS cut FROM synapses WHERE ${where} AND ${inBox(b)}`, 'cut');
  const box: Box = { min: b.min, max: [Math.round(cut), b.max[1], b.max[2]] };
  const [{ n }] = await q<{ n: string }>(ch`SELECT count() AS n FROM synapses WHERE ${where} AND ${inBox(box)}`, 'box');
  return {
    median: { id: median.n, synapses: Number(median.c) },
    largest: { id: largest.n, synapses: Number(largest.c) },
    box: { ...box, synapses: Number(n) },
    neuropil: { name, synapses },
  };
}

/** Drains a TabSeparated result, returning its bytes and lines: the engine's answer without a client's parsing. */
async function drain(column: ColumnStore, query: ReturnType<typeof ch>, name: string): Promise<{ bytes: number; rows: number }> {
  let bytes = 0;
  let rows = 0;
  for await (const text of column.queryTsv(query, { name: `bench.synapses.${name}`, maxExecutionTime: 600 })) {
    bytes += text.length;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) rows++;
  }
  return { bytes, rows };
}

const SYNAPSE_READ = ch`pre, post, synapse_id, x, y, z, roi, confidence, cleft_score, connection_score, size, transmitter, gaba, ach, glut, oct, ser, da`;

/** The reads as raw SQL: the baseline of the service's REST reads. */
function rawReads(column: ColumnStore, t: Targets): { name: string; run: () => Promise<{ bytes: number; rows: number }> }[] {
  const neuron = (id: string) =>
    drain(
      column,
      ch`SELECT ${SYNAPSE_READ} FROM synapses WHERE ${where} AND pre = ${id} UNION ALL SELECT ${SYNAPSE_READ} FROM synapses_by_post WHERE ${where} AND post = ${id} AND pre != ${id}`,
      'neuron',
    );
  const b = t.box;
  return [
    { name: `one neuron's synapses, median (${t.median.synapses.toLocaleString('en')})`, run: () => neuron(t.median.id) },
    { name: `one neuron's synapses, largest (${t.largest.synapses.toLocaleString('en')})`, run: () => neuron(t.largest.id) },
    {
      name: `synapses in a box (${b.synapses.toLocaleString('en')})`,
      run: () =>
        drain(
          column,
          ch`SELECT ${SYNAPSE_READ} FROM synapses WHERE ${where} AND x >= ${b.min[0]} AND x <= ${b.max[0]} AND y >= ${b.min[1]} AND y <= ${b.max[1]} AND z >= ${b.min[2]} AND z <= ${b.max[2]} ORDER BY pre, post, synapse_id`,
          'box',
        ),
    },
    {
      name: `connections per pair in ${t.neuropil.name} (${t.neuropil.synapses.toLocaleString('en')} synapses)`,
      run: () => drain(column, ch`SELECT pre, post, count() AS weight FROM synapses WHERE ${where} AND roi = ${t.neuropil.name} GROUP BY pre, post ORDER BY pre, post`, 'roi'),
    },
  ];
}

interface Baseline {
  load: number;
  byPost: number;
  compact: number;
  targets: Targets;
  reads: { name: string; p50: number; p99: number; rows: number; bytes: number }[];
  bytesPerSynapse: number;
  peakMemory: number;
}

async function baseline(column: ColumnStore, r: Release): Promise<Omit<Baseline, 'peakMemory'>> {
  await migrateColumnTables(column);
  const select = flywireToSynapseColumns();
  const cols = SYNAPSE_COLUMNS.map(([n]) => n).join(', ');
  const load = await seconds(async () => {
    for (const part of r.parts) {
      await column.command({ sql: `INSERT INTO synapses (${cols}) SELECT ${select} FROM file(${quoteString(part)}, 'Arrow')`, params: {} }, { name: 'bench.synapses.load', maxExecutionTime: 3600 });
    }
  });
  const byPost = await seconds(() => column.command(ch`INSERT INTO synapses_by_post SELECT * FROM synapses WHERE ${where}`, { name: 'bench.synapses.byPost', maxExecutionTime: 3600 }));
  // Each table's rows in one part, as the service leaves a published version (DataStore.compactVersion).
  const compact = await seconds(async () => {
    for (const table of ['synapses', 'synapses_by_post']) {
      await column.command({ sql: `OPTIMIZE TABLE ${table} PARTITION (${quoteString(DATASET)}, ${VERSION}) FINAL`, params: {} }, { name: 'bench.synapses.compact', maxExecutionTime: 3600 });
    }
  });
  const [{ n }] = await column.query<{ n: string }>(ch`SELECT count() AS n FROM synapses WHERE ${where}`, { name: 'bench.synapses.count' });
  if (Number(n) !== r.synapses) throw new Error(`the baseline loaded ${n} synapses of ${r.synapses}`);
  // Only this run's partitions: the table may hold others'.
  const partition = `('${DATASET}',${VERSION})`;
  const [{ bytes, rows }] = await column.query<{ bytes: string; rows: string }>(
    ch`SELECT sum(bytes_on_disk) AS bytes, sum(rows) AS rows FROM system.parts WHERE database = currentDatabase() AND table = 'synapses' AND active AND replaceAll(partition, ' ', '') = ${partition}`,
    { name: 'bench.synapses.parts' },
  );
  if (Number(rows) !== r.synapses) throw new Error(`system.parts counts ${rows} rows for the partition ${partition}`);
  const t = await targets(column, r);
  const reads = [];
  for (const read of rawReads(column, t)) {
    const m = await latencies(read.run);
    const out = m.result as { rows: number; bytes: number };
    reads.push({ name: read.name, p50: m.p50, p99: m.p99, rows: out.rows, bytes: out.bytes });
  }
  return { load, byPost, compact, targets: t, reads, bytesPerSynapse: Number(bytes) / Number(rows) };
}

/** The argument that makes this module, forked, the baseline's process; the release comes as its first message. */
const CHILD = '--synapses-baseline';

/**
 * The baseline in a process of its own (this module, forked), so that each side's peak memory is its own: a chDB
 * session's memory stays counted in its process's peak resident size after the session is closed.
 */
function baselineApart(r: Release, tmp: string): Promise<Baseline> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [CHILD]);
    child.send({ r, dataDir: path.join(tmp, 'chdb') });
    let answer: Baseline | undefined;
    child.on('message', (m) => (answer = m as Baseline));
    child.on('error', reject);
    child.on('exit', (code) => (answer && code === 0 ? resolve(answer) : reject(new Error(`the baseline process exited with ${code}`))));
  });
}

async function baselineChild(): Promise<void> {
  const { r, dataDir } = await new Promise<{ r: Release; dataDir: string }>((resolve) => process.once('message', (m) => resolve(m as { r: Release; dataDir: string })));
  const column = await openColumn({ kind: 'chdb', dataDir, database: 'bench' });
  try {
    const base = await baseline(column, r);
    process.send!({ ...base, peakMemory: process.resourceUsage().maxRSS * 1024 });
  } finally {
    await column.close();
  }
}

if (process.argv.includes(CHILD) && process.send) {
  baselineChild().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

// The service's half drives the real HTTP API of a service started in this process (test/kit/app.ts, listening on
// loopback), as a lab would.

interface ServiceHandle {
  url: string;
  token: string;
  close(): Promise<void>;
}

/** The whole service on chDB and PGlite with an academic account's token. */
async function startService(): Promise<ServiceHandle> {
  const { startTestApp } = await import('../test/kit/app.js');
  const { createApiToken, createUser } = await import('../test/kit/users.js');
  const t = await startTestApp(
    // Part files are hundreds of MB: above the default upload limit at the largest sizes.
    { RATE_LIMIT_BURST: '100000', RATE_LIMIT_REFILL_PER_SEC: '100000', UPLOAD_MAX_BYTES: String(8 * 1024 ** 3), LOG_LEVEL: 'warn' },
    { listen: true },
  );
  const user = await createUser(t, { accountType: 'ACADEMIC' });
  // A personal API token, as a lab's upload script would use: an access token expires within the upload's minutes.
  const { token } = await createApiToken(t, user, 'write', { name: 'synapse benchmark' });
  return { url: t.url, token, close: () => t.close() };
}

async function api(s: ServiceHandle, method: string, route: string, body?: unknown): Promise<any> {
  const res = await fetch(`${s.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${s.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/** Uploads one file as a raw streamed body (`?filename=`), as the docs' upload flow does. */
async function uploadFile(s: ServiceHandle, datasetId: string, file: string): Promise<void> {
  const name = path.basename(file);
  const res = await fetch(`${s.url}/v1/neurodata/datasets/${datasetId}/assets?filename=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/octet-stream', 'content-length': String(statSync(file).size) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${text.slice(0, 500)}`);
}

/**
 * The service's half: creates a dataset declaring nm coordinates, uploads the release as a lab would (the neuropils
 * and the two annotation tables first, then the synapse part files) and publishes it; returns its id and the seconds
 * from the first byte to published. The per-neuropil connections file is not uploaded: the synapses have both
 * partners, so the service derives the per-ROI connections from them (docs/neurodata.md). A draft this large has
 * its derived tables built once, by the publication.
 */
async function servicePublish(s: ServiceHandle, r: Release): Promise<{ datasetId: string; seconds: number; uploads: number; publish: number }> {
  const created = await api(s, 'POST', '/v1/neurodata/datasets', {
    title: `Synthetic FlyWire-shaped release, ${r.synapses.toLocaleString('en')} synapses`,
    description: 'Synthetic synapses on the real FlyWire v783 neuron ids and neuropils, for the synapse benchmark.',
    species: ['Drosophila melanogaster'],
    brain_regions: ['adult brain'],
    microscopy: ['transmission electron microscopy (TEM)'],
    license: 'CC-BY-NC-4.0',
    creators: [{ name: 'FlyWire Consortium', kind: 'organization' }],
    visibility: 'public',
    coordinate_unit: 'nm',
  });
  const datasetId = created.id as string;
  const files = ['rois.csv', 'classification.csv.gz', 'neurons.csv.gz'].map((f) => path.join(r.dir, f));
  let uploads = 0;
  const took = await seconds(async () => {
    uploads = await seconds(async () => {
      for (const f of [...files, ...r.parts]) {
        const one = await seconds(() => uploadFile(s, datasetId, f));
        console.log(`    uploaded ${path.basename(f)} in ${one.toFixed(1)} s`);
      }
    });
    await publishWhenDerived(s, datasetId);
  });
  return { datasetId, seconds: took, uploads, publish: took - uploads };
}

/**
 * Publishes as a client would: a draft this large has its derived tables built by the publication, which may outlast
 * the request (409, the build going on); the draft's `ingest` shows it until done, and the next publish is at once.
 */
async function publishWhenDerived(s: ServiceHandle, datasetId: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${s.url}/v1/neurodata/datasets/${datasetId}/publish`, { method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, body: '{}' });
    const text = await res.text();
    if (res.status === 201) return;
    if (res.status !== 409) throw new Error(`publish: ${res.status} ${text.slice(0, 500)}`);
    console.log(`    publish: ${JSON.parse(text).error}`);
    for (;;) {
      const draft = await api(s, 'GET', `/v1/neurodata/datasets/${datasetId}/draft`).catch((err: Error) => {
        // A client polling goes on after a failed poll; the failure is shown.
        console.log(`    draft: ${err.message}`);
        return { ingest: true };
      });
      if (!draft.ingest) break;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

/** The same reads through REST, each answer streamed whole as Arrow (every row: no page, no cap). */
function serviceReads(s: ServiceHandle, datasetId: string, t: Targets): { name: string; run: () => Promise<{ bytes: number; rows: number }> }[] {
  const ds = `/v1/neurodata/datasets/${datasetId}`;
  const arrow = async (route: string) => {
    const res = await fetch(`${s.url}${ds}${route}`, { headers: { authorization: `Bearer ${s.token}` } });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`GET ${route}: ${res.status} ${new TextDecoder().decode(bytes.slice(0, 500))}`);
    return { bytes: bytes.length, rows: tableFromIPC(bytes).numRows };
  };
  const b = t.box;
  return [
    { name: 'one neuron, median', run: () => arrow(`/synapses.arrow?neuron=${t.median.id}`) },
    { name: 'one neuron, largest', run: () => arrow(`/synapses.arrow?neuron=${t.largest.id}`) },
    { name: 'box', run: () => arrow(`/synapses.arrow?bbox=${[...b.min, ...b.max].join(',')}&unit=nm`) },
    { name: 'connections per pair in the neuropil', run: () => arrow(`/connections.arrow?roi=${encodeURIComponent(t.neuropil.name)}`) },
  ];
}

// ---------------------------------------------------------------------------------------------------------------

export default async function synapsesBench(): Promise<void> {
  const opts = options();
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'synapses-bench-'));
  try {
    const r = await release(opts.synapses, opts.dir, tmp);
    const feather = [...r.parts, path.join(r.dir, 'proofread_connections_783.feather')].reduce((s, f) => s + statSync(f).size, 0);
    console.log(
      `workload: ${r.synapses.toLocaleString('en')} synapses in ${r.parts.length} Feather part(s) and ${r.connections.toLocaleString('en')} per-neuropil connections ` +
        `(${(feather / 1e9).toFixed(2)} GB), 139,255 neurons; chdb`,
    );
    const base = await baselineApart(r, tmp);
    const rate = (s: number) => `${Math.round(r.synapses / s).toLocaleString('en')} synapses/s`;
    console.log(`  ${'load: chDB reading the Feather files itself (baseline)'.padEnd(64)} ${base.load.toFixed(1).padStart(7)} s   ${rate(base.load)}`);
    console.log(`  ${'  + the copy ordered by post (synapses_by_post)'.padEnd(64)} ${base.byPost.toFixed(1).padStart(7)} s   ${rate(base.byPost)}`);
    console.log(`  ${'  + both tables merged into one part each (OPTIMIZE ... FINAL)'.padEnd(64)} ${base.compact.toFixed(1).padStart(7)} s`);
    console.log(`  peak memory of the baseline's process: ${(base.peakMemory / 1024 ** 3).toFixed(2)} GB`);
    console.log(`  on disk: ${base.bytesPerSynapse.toFixed(1)} bytes per synapse in synapses (system.parts), Feather ${(feather / r.synapses).toFixed(1)}`);
    console.log('  reads, raw SQL on chDB (baseline), one at a time:');
    for (const read of base.reads) {
      console.log(`    ${read.name.padEnd(62)} p50 ${read.p50.toFixed(1).padStart(8)} ms   p99 ${read.p99.toFixed(1).padStart(8)} ms   ${read.rows.toLocaleString('en')} rows, ${(read.bytes / 1e6).toFixed(1)} MB of text`);
    }
    if (!opts.service) {
      console.log('  the service side: run with --service (upload and publish through the API, the reads through REST as Arrow)');
      return;
    }
    // The baseline's chDB data directory is its own; the service opens its own engines in this process.
    const s = await startService();
    try {
      const published = await servicePublish(s, r);
      const ratio = (base.load + base.byPost + base.compact) / published.seconds;
      console.log(`  ${'load: upload and publish through the service'.padEnd(64)} ${published.seconds.toFixed(1).padStart(7)} s   x${ratio.toFixed(3)} of baseline throughput`);
      console.log(`  ${'  of which the uploads (streamed, read, checked, written)'.padEnd(64)} ${published.uploads.toFixed(1).padStart(7)} s`);
      console.log(`  ${'  and the publication (derived tables built once)'.padEnd(64)} ${published.publish.toFixed(1).padStart(7)} s`);
      // This process ran the service only (the baseline had a process of its own).
      console.log(`  peak memory of the service's process: ${(process.resourceUsage().maxRSS / 1024 ** 2).toFixed(2)} GB`);
      const rest = serviceReads(s, published.datasetId, base.targets);
      for (const [i, read] of rest.entries()) {
        const m = await latencies(read.run);
        const out = m.result as { rows: number };
        if (out.rows !== base.reads[i].rows) throw new Error(`${read.name}: the service answered ${out.rows} rows, raw SQL ${base.reads[i].rows}`);
        console.log(`    ${`REST ${read.name}`.padEnd(62)} p50 ${m.p50.toFixed(1).padStart(8)} ms   p99 ${m.p99.toFixed(1).padStart(8)} ms   x${(base.reads[i].p50 / m.p50).toFixed(3)} of baseline (p50)`);
      }
    } catch (err) {
      // The failure is what to see: closing a service whose derive still runs can fail too, and would hide it.
      console.error(err);
      throw err;
    } finally {
      await s.close().catch((err) => console.error('closing the service:', err));
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
