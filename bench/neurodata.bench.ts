import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { openColumn, type ColumnStore } from '../lib/column/column.js';
import { neurodataBenchSettings } from './settings.js';
import { ch, ident, quoteString } from '../lib/column/sql.js';
import { CONNECTION_COLUMNS } from '../subgraphs/neurodata/store/clickhouse/columns.js';
import { migrateColumnTables } from '../subgraphs/neurodata/store/clickhouse/migrations.js';
import { DataStore } from '../subgraphs/neurodata/store/data.store.js';
import { seededRandom } from './lib.js';

/**
 * Ingest and read-back of a connectome at FlyWire scale (139,255 neurons, 15,000,000 connection rows) through the
 * neurodata DataStore, on chDB and on a ClickHouse server, against ClickHouse loading the same TabSeparated file
 * itself in the same run. BENCH_NEURODATA_CONNECTIONS and BENCH_NEURODATA_NEURONS make it smaller;
 * BENCH_CLICKHOUSE_URL (and BENCH_CLICKHOUSE_TCP_PORT for clickhouse-client, default 9000) names a server to use
 * instead of starting one with scripts/clickhouse-server.sh. Benchmarks are not the service: they read their own
 * settings from the environment.
 */
const NEURONS = neurodataBenchSettings().neurons;
const CONNECTIONS = neurodataBenchSettings().connections;
const SEED = 20260101;
/** Chunks as an ingest task would hand them over: whole lines, about 4 MB each. */
const CHUNK_BYTES = 4 * 1024 * 1024;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');


function shuffled(n: number, rnd: () => number): Uint32Array {
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

const TRANSMITTERS = ['acetylcholine', 'GABA', 'glutamate', 'dopamine', 'serotonin', 'octopamine'];

/**
 * Writes the synthetic connectome as TabSeparated files in the tables' column orders. Neuron ids look like
 * FlyWire's (18-digit root ids). Partners are drawn from heavy-tailed degree distributions (a few hubs, many cells
 * with few partners), independently, so a few pairs repeat; weights are synapse counts from 5 (FlyWire's threshold)
 * with a power-law tail (P(w > x) ~ x^-1.6, capped at 2,400). Every connection is chemical, as in FlyWire.
 */
async function writeConnectome(dir: string, datasetId: string): Promise<{ neurons: string; connections: string }> {
  const rnd = seededRandom(SEED);
  const ids = Array.from({ length: NEURONS }, (_, i) => `720575940${String(600_000_000 + i * 2749).padStart(9, '0')}`);
  const neurons = path.join(dir, 'neurons.tsv');
  const connections = path.join(dir, 'connections.tsv');
  const write = async (file: string, rows: number, row: (i: number) => string) => {
    const out = createWriteStream(file);
    let buf = '';
    for (let i = 0; i < rows; i++) {
      buf += row(i);
      if (buf.length >= CHUNK_BYTES && !out.write(buf)) await once(out, 'drain');
      if (buf.length >= CHUNK_BYTES) buf = '';
    }
    out.end(buf);
    await once(out, 'finish');
  };
  await write(neurons, NEURONS, (i) => {
    const x = (rnd() * 1_000_000).toFixed(0);
    const y = (rnd() * 400_000).toFixed(0);
    const z = (rnd() * 300_000).toFixed(0);
    return `${datasetId}\t1\t${ids[i]}\t\tcentral\tintrinsic\t${TRANSMITTERS[Math.floor(rnd() * TRANSMITTERS.length)]}\t1\tbrain\t${x}\t${y}\t${z}\n`;
  });
  const outOrder = shuffled(NEURONS, rnd);
  const inOrder = shuffled(NEURONS, rnd);
  await write(connections, CONNECTIONS, () => {
    const pre = ids[outOrder[Math.floor(NEURONS * rnd() ** 2.5)]];
    const post = ids[inOrder[Math.floor(NEURONS * rnd() ** 2)]];
    const weight = Math.min(2400, Math.floor(5 * (1 - rnd()) ** (-1 / 1.6)));
    return `${datasetId}\t1\t${pre}\t${post}\tchemical\t${weight}\n`;
  });
  return { neurons, connections };
}

/** The file as string chunks of whole lines, as DataStore.insertTsv takes them. */
async function* fileChunks(file: string): AsyncGenerator<string> {
  let rest = '';
  for await (const piece of createReadStream(file, { encoding: 'utf8', highWaterMark: CHUNK_BYTES })) {
    const text = rest + (piece as string);
    const nl = text.lastIndexOf('\n');
    rest = text.slice(nl + 1);
    if (nl >= 0) yield text.slice(0, nl + 1);
  }
  if (rest) yield rest;
}

const seconds = async (fn: () => Promise<unknown>): Promise<number> => (await timed(fn)).seconds;

/** Wall time, and how busy this process's main thread (the one that serves requests) was meanwhile. */
async function timed(fn: () => Promise<unknown>): Promise<{ seconds: number; busy: number }> {
  const elu = performance.eventLoopUtilization();
  const t = performance.now();
  await fn();
  return { seconds: (performance.now() - t) / 1000, busy: performance.eventLoopUtilization(elu).utilization };
}

interface Row {
  name: string;
  rows: number;
  seconds: number;
  /** Share of the time the main thread was busy. */
  busy?: number;
}

function print(rows: Row[], baseline: Row | null): void {
  const rate = (r: Row) => Math.round(r.rows / r.seconds).toLocaleString('en');
  for (const r of rows) {
    const ratio = !baseline ? '' : r === baseline ? '(baseline)' : `x${(baseline.seconds / r.seconds).toFixed(3)} of baseline throughput`;
    const busy = r.busy === undefined ? '' : `   main thread busy ${(r.busy * 100).toFixed(0)}%`;
    console.log(`  ${r.name.padEnd(58)} ${rate(r).padStart(11)} rows/s ${r.seconds.toFixed(2).padStart(8)} s   ${ratio}${busy}`);
  }
}

const columnsOf = (cols: readonly (readonly [string, string])[]) => cols.map(([n]) => n);
const structure = (cols: readonly (readonly [string, string])[]) => cols.map(([n, t]) => `${n} ${t}`).join(', ');

async function runEngine(label: string, column: ColumnStore, files: { neurons: string; connections: string }, datasetId: string, baseline: () => Promise<void>) {
  const store = new DataStore(column);
  await migrateColumnTables(column);
  await store.dropVersion(datasetId, 1);
  const size = statSync(files.connections).size;
  console.log(`workload: ${CONNECTIONS.toLocaleString('en')} connection rows (${(size / 1e9).toFixed(2)} GB of TabSeparated), ${NEURONS.toLocaleString('en')} neurons; ${label}`);

  const base: Row = { name: 'ClickHouse loading the file itself (baseline)', rows: CONNECTIONS, seconds: await seconds(baseline) };
  const loaded = await store.rowCounts(datasetId, 1);
  if (loaded.connections !== CONNECTIONS) throw new Error(`the baseline loaded ${loaded.connections} rows`);
  await store.dropTableVersion('connections', datasetId, 1);

  const ingest: Row = {
    name: 'DataStore.insertTsv, 4 MB chunks of whole lines',
    rows: CONNECTIONS,
    ...(await timed(() => store.insertTsv('connections', fileChunks(files.connections)))),
  };
  const neurons: Row = { name: 'DataStore.insertTsv, the neurons', rows: NEURONS, seconds: await seconds(() => store.insertTsv('neurons', fileChunks(files.neurons))) };
  print([base, ingest], base);
  print([neurons], null);

  let counts = await store.rowCounts(datasetId, 1);
  const count: Row = { name: 'count: DataStore.rowCounts', rows: CONNECTIONS, seconds: await seconds(async () => (counts = await store.rowCounts(datasetId, 1))) };
  if (counts.connections !== CONNECTIONS || counts.neurons !== NEURONS) throw new Error(`read back ${JSON.stringify(counts)}`);
  let stats = await store.connectionStats(datasetId, 1);
  const statsRow: Row = { name: 'count and weights: DataStore.connectionStats', rows: CONNECTIONS, seconds: await seconds(async () => (stats = await store.connectionStats(datasetId, 1))) };
  let bytes = 0;
  const rawRead: Row = {
    name: 'full read, TabSeparated text only (ColumnStore.queryTsv)',
    rows: CONNECTIONS,
    seconds: await seconds(async () => {
      const q = ch`SELECT pre, post, toUInt8(synapse_type), weight FROM connections WHERE dataset_id = ${datasetId} AND version = 1`;
      for await (const text of column.queryTsv(q, { name: 'bench.readText', maxExecutionTime: 600 })) bytes += text.length;
    }),
  };
  let scanned = 0;
  let weight = 0;
  const scan: Row = {
    name: 'full read into columns (DataStore.scanConnections)',
    rows: CONNECTIONS,
    ...(await timed(async () => {
      for await (const b of store.scanConnections(datasetId, 1)) {
        scanned += b.weight.length;
        for (let i = 0; i < b.weight.length; i++) weight += b.weight[i];
      }
    })),
  };
  if (scanned !== CONNECTIONS || weight !== stats.totalWeightChemical) throw new Error(`scanned ${scanned} rows of weight ${weight}`);
  console.log(`  read back (${(bytes / 1e6).toFixed(0)} MB of text for pre, post, type, weight; total weight ${weight.toLocaleString('en')}):`);
  print([count, statsRow, rawRead, scan], null);
  await store.dropVersion(datasetId, 1);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  const m = process.memoryUsage();
  console.log(`  memory after the run: rss ${mb(m.rss)}, heap used ${mb(m.heapUsed)}`);
}

function clickhouseServerAvailable(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v clickhouse-server && command -v clickhouse-client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export default async function neurodataBench(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'neurodata-bench-'));
  const datasetId = randomUUID();
  let serverDir: string | null = null;
  try {
    let files = { neurons: '', connections: '' };
    const generation = await seconds(async () => (files = await writeConnectome(dir, datasetId)));
    console.log(`generated ${CONNECTIONS.toLocaleString('en')} connection rows as TabSeparated in ${generation.toFixed(1)} s (seed ${SEED})`);

    const chdb = await openColumn({ kind: 'chdb', dataDir: path.join(dir, 'chdb'), database: 'bench' });
    try {
      const cols = columnsOf(CONNECTION_COLUMNS);
      await runEngine('chdb', chdb, files, datasetId, () =>
        chdb.command(
          {
            sql: `INSERT INTO connections (${cols.join(', ')}) SELECT * FROM file(${quoteString(files.connections)}, 'TabSeparated', ${quoteString(structure(CONNECTION_COLUMNS))})`,
            params: {},
          },
          { name: 'bench.baseline' },
        ),
      );
    } finally {
      await chdb.close();
    }

    let url = neurodataBenchSettings().clickhouseUrl;
    let tcpPort = neurodataBenchSettings().clickhouseTcpPort;
    if (!url) {
      if (!clickhouseServerAvailable()) {
        console.log('ClickHouse server part skipped: clickhouse-server (and clickhouse-client) not installed and BENCH_CLICKHOUSE_URL not set');
        return;
      }
      serverDir = path.join(dir, 'server');
      const port = 20000 + Math.floor(Math.random() * 20000);
      execFileSync(path.join(ROOT, 'scripts/clickhouse-server.sh'), ['start', serverDir, String(port)], { stdio: 'ignore' });
      url = `http://127.0.0.1:${port}`;
      tcpPort = port + 1;
    }
    const server = await openColumn({ kind: 'clickhouse', url, user: 'default', password: '', database: 'neurodata_bench' });
    try {
      const version = (await server.query<{ v: string }>(ch`SELECT version() AS v`, { name: 'bench.version' }))[0].v;
      const host = new URL(url).hostname;
      await runEngine(`clickhouse-server ${version}`, server, files, datasetId, async () => {
        // clickhouse-client parses the file itself and sends native blocks: ClickHouse's own fastest way in.
        const child = spawn(
          'clickhouse-client',
          ['--host', host, '--port', String(tcpPort), '--database', 'neurodata_bench', '--query', `INSERT INTO ${ident('connections').text} (${columnsOf(CONNECTION_COLUMNS).join(', ')}) FORMAT TabSeparated`],
          { stdio: ['pipe', 'ignore', 'inherit'] },
        );
        createReadStream(files.connections).pipe(child.stdin);
        const [code] = (await once(child, 'exit')) as [number];
        if (code !== 0) throw new Error(`clickhouse-client exited with ${code}`);
      });
      await server.command(ch`DROP DATABASE IF EXISTS ${ident('neurodata_bench')}`, { name: 'bench.drop' });
    } finally {
      await server.close();
    }
  } finally {
    if (serverDir && existsSync(serverDir)) execFileSync(path.join(ROOT, 'scripts/clickhouse-server.sh'), ['stop', serverDir], { stdio: 'ignore' });
    await rm(dir, { recursive: true, force: true });
  }
}
