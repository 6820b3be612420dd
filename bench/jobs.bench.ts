import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { configFrom } from '../lib/config.js';
import { engineEnvFromProcess } from '../test/kit/settings.js';
import { openColumn, type ColumnStore } from '../lib/column/column.js';
import { quoteString, type ChQuery } from '../lib/column/sql.js';
import { openObjects, type ObjectStore } from '../lib/objects/objects.js';
import { closeWorkerPool } from '../lib/workers/pool.js';
import { exportArrow } from '../lib/column/arrow-export.js';
import type { ResultColumn } from '../subgraphs/query/syql/plan.js';
import { goal } from './lib.js';

/**
 * A job's result export: 10 million rows of a synthetic connection list (two strings and a float per row) stored as
 * an Arrow IPC stream with exportArrow, into a local object store: time to the complete object, rows/s and MB/s;
 * then the object read back through objects.getStream. Baseline in the same run: ClickHouse itself writing the same
 * rows to a local file (chDB: `INTO OUTFILE ... FORMAT ArrowStream`, uncompressed like ours; a server without Arrow
 * formats: its Native format over HTTP into a file). Embedded chDB unless CLICKHOUSE_URL names a server. Each
 * figure is the median of RUNS runs, after one untimed run of each.
 */
const ROWS = 10_000_000;
const RUNS = 5;
const GOAL_RATIO = 0.5;

const SYNTHETIC = `SELECT toString(number) AS pre, toString(number * 7 % 1000003) AS post, toFloat64(number % 97) AS weight FROM system.numbers LIMIT ${ROWS}`;
const COLUMNS: ResultColumn[] = [
  { name: 'pre', type: 'string', nullable: false, chType: 'String' },
  { name: 'post', type: 'string', nullable: false, chType: 'String' },
  { name: 'weight', type: 'float', nullable: false, chType: 'Float64' },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timed<T>(fn: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { seconds: (performance.now() - t) / 1000, value };
}

/** ClickHouse writing the rows into `file` by itself: the baseline. Returns the file's size. */
async function engineWritesFile(column: ColumnStore, file: string, serverUrl: string | undefined): Promise<number> {
  await rm(file, { force: true });
  if (column.kind === 'chdb') {
    const settings = "output_format_arrow_compression_method = 'none', output_format_arrow_string_as_string = 1";
    const sql = `SELECT * FROM (${SYNTHETIC}) SETTINGS ${settings} INTO OUTFILE ${quoteString(file)} FORMAT ArrowStream`;
    await column.command({ sql, params: {} }, { name: 'bench.baseline', maxExecutionTime: 600 });
  } else {
    // Plain node:http, the query as the body: the least a client can do with the bytes.
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(serverUrl!, { method: 'POST' }, resolve);
      req.on('error', reject);
      req.end(`${SYNTHETIC} FORMAT Native`);
    });
    if (res.statusCode !== 200) throw new Error(`baseline query failed: ${res.statusCode}`);
    await pipeline(res, createWriteStream(file));
  }
  return (await stat(file)).size;
}

async function download(objects: ObjectStore, key: string): Promise<{ bytes: number; sha256: string }> {
  const obj = await objects.getStream(key);
  if (!obj) throw new Error('the exported object is missing');
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of obj.body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    hash.update(chunk);
  }
  return { bytes, sha256: hash.digest('hex') };
}

export default async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'jobs-bench-'));
  const serverUrl = engineEnvFromProcess().CLICKHOUSE_URL;
  const config = configFrom({ LOG_LEVEL: 'silent', ...engineEnvFromProcess(), CLICKHOUSE_CLUSTER: '', DATA_DIR: dir, CLICKHOUSE_DATABASE: `jobs_bench_${process.pid}` });
  const column = await openColumn(config.column);
  const objects = await openObjects({ kind: 'local', dir: path.join(dir, 'objects') });
  const q: ChQuery = { sql: SYNTHETIC, params: {} };
  const metadata = { job_id: randomUUID(), syql: 'bench', service_version: 'bench' };
  try {
    const engine = column.kind === 'chdb' ? 'chDB' : `ClickHouse server at ${serverUrl}`;
    console.log(`result export, ${ROWS.toLocaleString('en')} rows (pre String, post String, weight Float64) on ${engine}; median of ${RUNS} runs after one untimed run`);
    const baselineFile = path.join(dir, column.kind === 'chdb' ? 'baseline.arrows' : 'baseline.native');
    const ours: number[] = [];
    const theirs: number[] = [];
    const reads: number[] = [];
    let exported = { bytes: 0, rows: 0, sha256: '' };
    let baselineBytes = 0;
    for (let run = 0; run <= RUNS; run++) {
      const key = `results/bench-${run}.arrows`;
      const e = await timed(() => exportArrow({ column, objects }, q, COLUMNS, key, metadata, { name: 'bench.export', maxExecutionTime: 600 }));
      const b = await timed(() => engineWritesFile(column, baselineFile, serverUrl));
      const d = await timed(() => download(objects, key));
      if (d.value.sha256 !== e.value.sha256 || d.value.bytes !== e.value.bytes) throw new Error('the object read back differs from what exportArrow reported');
      if (e.value.rows !== ROWS) throw new Error(`exported ${e.value.rows} rows, expected ${ROWS}`);
      await objects.delete(key);
      exported = e.value;
      baselineBytes = b.value;
      if (run === 0) continue;
      ours.push(e.seconds);
      theirs.push(b.seconds);
      reads.push(d.seconds);
    }
    const mb = (bytes: number) => bytes / 1e6;
    const line = (label: string, seconds: number, bytes: number) => {
      const rate = `${(ROWS / seconds / 1e6).toFixed(2).padStart(6)} M rows/s   ${(mb(bytes) / seconds).toFixed(0).padStart(5)} MB/s`;
      return `  ${label.padEnd(48)} ${seconds.toFixed(3).padStart(7)} s   ${rate}   (${mb(bytes).toFixed(1)} MB)`;
    };
    const ourTime = median(ours);
    const baseTime = median(theirs);
    console.log(line(column.kind === 'chdb' ? 'baseline: ClickHouse INTO OUTFILE ArrowStream' : 'baseline: ClickHouse Native over HTTP to a file', baseTime, baselineBytes));
    console.log(line('exportArrow to the object store', ourTime, exported.bytes));
    console.log(line('download through objects.getStream (+SHA-256)', median(reads), exported.bytes));
    console.log(`  runs (s): export ${ours.map((s) => s.toFixed(3)).join(', ')}; baseline ${theirs.map((s) => s.toFixed(3)).join(', ')}`);
    goal('export speed / baseline speed', baseTime / ourTime, GOAL_RATIO, { atLeast: true, unit: 'x', digits: 2 });
  } finally {
    await closeWorkerPool();
    if (column.kind === 'clickhouse') await column.command({ sql: `DROP DATABASE IF EXISTS ${column.database}`, params: {} }, { name: 'bench.drop' }).catch(() => undefined);
    await column.close();
    await objects.close();
    await rm(dir, { recursive: true, force: true });
  }
}
