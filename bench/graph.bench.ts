import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { buildGraph, sourceFromEdges, type Graph, type GraphSource } from '../subgraphs/graph/engine/graph.js';
import { triadCensus } from '../subgraphs/graph/engine/census.js';
import { graphMetrics } from '../subgraphs/graph/engine/metrics.js';
import { shortestPath } from '../subgraphs/graph/engine/paths.js';
import { syntheticConnectome } from '../subgraphs/graph/engine/synthetic.js';
import { seededRandom } from './lib.js';
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pino from 'pino';
import { openColumn } from '../lib/column/column.js';
import { openObjects } from '../lib/objects/objects.js';
import { runTask, closeWorkerPool } from '../lib/workers/pool.js';
import { DataStore } from '../subgraphs/neurodata/store/data.store.js';
import { migrateColumnTables } from '../subgraphs/neurodata/store/clickhouse/migrations.js';
import { GraphSourceStore } from '../subgraphs/graph/store/graph-source.store.js';
import { GraphCache } from '../subgraphs/graph/graph-cache.js';
import { GRAPH_TASK, GraphLoader } from '../subgraphs/graph/graph-loader.js';
import type { DatasetVersionRef } from '../subgraphs/neurodata/index.js';

/**
 * The graph engine against python-igraph (C core) and NetworkX, on the same graphs in the same run: the chemical
 * graph of Cook et al. 2019 (male, 593 cells) and a synthetic graph of FlyWire's size (139,255 cells, 3 million
 * arcs; heavy-tailed degrees, clustered, 10 % reciprocated). Operations: the triad census, the metrics of
 * GET /v1/graph/{id}/metrics, and 100 shortest paths between seeded random pairs. The engine's figures are the
 * median of RUNS runs in this process; the Python ones one run each in a subprocess (graph loading excluded), with
 * NetworkX stopped after NETWORKX_TIMEOUT_S on the large graph (the ratio is then a lower bound).
 */
const RUNS = 5;
const PAIRS = 100;
const NETWORKX_TIMEOUT_S = 300;
const IGRAPH_TIMEOUT_S = 600;
const PYTHON = '/usr/bin/python3';
const BASELINE = fileURLToPath(new URL('./graph_baseline.py', import.meta.url));
const run = promisify(execFile);

type Op = 'census' | 'metrics' | 'paths';
const OPS: Op[] = ['census', 'metrics', 'paths'];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return (performance.now() - t) / 1000;
}

async function cookMale(): Promise<GraphSource> {
  const dir = fileURLToPath(new URL('../seed/connectomes/celegans_cook_2019_male/', import.meta.url));
  const ids = (await readFile(path.join(dir, 'neurons.csv'), 'utf8')).trim().split('\n').slice(1).map((l) => l.split(',')[0]);
  ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const index = new Map(ids.map((id, i) => [id, i]));
  const chem: Array<[number, number, number]> = [];
  const elec: Array<[number, number, number]> = [];
  for (const line of (await readFile(path.join(dir, 'connections.csv'), 'utf8')).trim().split('\n').slice(1)) {
    const [pre, post, type, weight] = line.split(',');
    (type === 'chemical' ? chem : elec).push([index.get(pre)!, index.get(post)!, Number(weight)]);
  }
  return sourceFromEdges(ids.length, chem, elec);
}

function pairsOf(n: number): Array<[number, number]> {
  const random = seededRandom(20261124);
  return Array.from({ length: PAIRS }, () => [Math.floor(random() * n), Math.floor(random() * n)] as [number, number]);
}

async function baseline(library: 'igraph' | 'networkx', dir: string, timeout: number): Promise<Record<Op, number | null>> {
  try {
    const { stdout } = await run(PYTHON, [BASELINE, path.join(dir, 'edges.txt'), path.join(dir, 'pairs.txt'), library, String(timeout)], {
      maxBuffer: 1 << 20,
      timeout: (timeout * OPS.length + 600) * 1000,
    });
    return JSON.parse(stdout.trim().split('\n').pop()!) as Record<Op, number | null>;
  } catch (e) {
    console.log(`  ${library}: unavailable (${(e as Error).message.split('\n')[0]}); install python3-igraph python3-networkx`);
    return { census: null, metrics: null, paths: null };
  }
}

async function bench(name: string, src: GraphSource, networkxTimeout: number): Promise<void> {
  const started = performance.now();
  const g: Graph = buildGraph(src, 'chemical');
  const build = (performance.now() - started) / 1000;
  const pairs = pairsOf(g.n);
  // One untimed round first, so that the timed ones run compiled code.
  triadCensus(g);
  graphMetrics(g);
  pairs.forEach(([s, t]) => shortestPath(g, s, t));
  const ours: Record<Op, number> = {
    census: median(Array.from({ length: RUNS }, () => time(() => triadCensus(g)))),
    metrics: median(Array.from({ length: RUNS }, () => time(() => graphMetrics(g)))),
    paths: median(Array.from({ length: RUNS }, () => time(() => pairs.forEach(([s, t]) => shortestPath(g, s, t))))),
  };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'graph-bench-'));
  try {
    const lines: string[] = [String(g.n)];
    for (let u = 0; u < g.n; u++) for (let k = g.outStart[u]; k < g.outStart[u + 1]; k++) lines.push(`${u} ${g.outNbr[k]} ${g.outW[k]}`);
    await writeFile(path.join(dir, 'edges.txt'), `${lines.join('\n')}\n`);
    await writeFile(path.join(dir, 'pairs.txt'), `${pairs.map(([s, t]) => `${s} ${t}`).join('\n')}\n`);
    const igraph = await baseline('igraph', dir, IGRAPH_TIMEOUT_S);
    const networkx = await baseline('networkx', dir, networkxTimeout);
    const sourceBytes = [src.chemPre, src.chemPost, src.chemWeight, src.elecA, src.elecB, src.elecWeight].reduce((n, a) => n + a.byteLength, 0);
    const adjacencyBytes = [g.outStart, g.outNbr, g.outW, g.inStart, g.inNbr, g.inW].reduce((n, a) => n + a.byteLength, 0);
    console.log(`\n${name}: ${g.n} cells, ${g.m} chemical arcs; adjacency built in ${build.toFixed(3)} s`);
    console.log(`  memory: ${(sourceBytes / (src.chemPre.length + src.elecA.length)).toFixed(1)} bytes per connection row kept, ${(adjacencyBytes / g.m).toFixed(1)} bytes per arc of adjacency (out and in, with weights)`);
    const fmt = (s: number | null) => (s === null ? '     n/a' : `${s.toFixed(4).padStart(8)} s`);
    const ratio = (theirs: number | null, timeout: number, ours: number) =>
      theirs === null ? `>= ${(timeout / ours).toFixed(0)}x (stopped after ${timeout} s)` : `${(theirs / ours).toFixed(1)}x`;
    console.log(`  ${'operation'.padEnd(22)} ${'engine'.padStart(10)} ${'igraph'.padStart(10)} ${'networkx'.padStart(10)}   igraph/engine   networkx/engine`);
    for (const op of OPS) {
      const label = op === 'paths' ? `${PAIRS} shortest paths` : op === 'census' ? 'triad census' : 'metrics';
      console.log(
        `  ${label.padEnd(22)} ${fmt(ours[op])} ${fmt(igraph[op])} ${fmt(networkx[op])}   ${ratio(igraph[op], IGRAPH_TIMEOUT_S, ours[op]).padEnd(15)} ${ratio(networkx[op], networkxTimeout, ours[op])}`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The service's side at FlyWire's size, on the embedded column store (chDB): the synthetic graph written into the
 * neurodata tables, then read by the graph loader (column store, parsed on a worker), read again (this process's
 * cache), and read by a fresh loader as after a restart (the binary object in object storage). Then the census and
 * the metrics run on the worker pool while the request thread's event-loop delay is sampled, against the delay of
 * the same thread idle: the figure /health depends on.
 */
async function service(src: GraphSource): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'graph-bench-service-'));
  const column = await openColumn({ kind: 'chdb', dataDir: path.join(dir, 'chdb'), database: 'bench' });
  const objects = await openObjects({ kind: 'local', dir: path.join(dir, 'objects') });
  const log = pino({ level: 'silent' });
  try {
    await migrateColumnTables(column);
    const datasetId = randomUUID();
    const ids = Array.from({ length: src.n }, (_, i) => `720575940${String(600_000_000 + i * 2749).padStart(9, '0')}`);
    const data = new DataStore(column);
    await data.insertTsv('neurons', (function* () {
      for (let i = 0; i < src.n; i += 10_000) {
        let chunk = '';
        for (let j = i; j < Math.min(src.n, i + 10_000); j++) chunk += `${datasetId}\t1\t${ids[j]}\t\tcentral\tintrinsic\t\t1\t\t\\N\t\\N\t\\N\n`;
        yield chunk;
      }
    })());
    await data.insertTsv('connections', (function* () {
      const rows = (pre: Int32Array, post: Int32Array, w: Float64Array, type: string) =>
        function* () {
          for (let i = 0; i < pre.length; i += 100_000) {
            let chunk = '';
            for (let j = i; j < Math.min(pre.length, i + 100_000); j++) chunk += `${datasetId}\t1\t${ids[pre[j]]}\t${ids[post[j]]}\t${type}\t${w[j]}\n`;
            yield chunk;
          }
        };
      yield* rows(src.chemPre, src.chemPost, src.chemWeight, 'chemical')();
      yield* rows(src.elecA, src.elecB, src.elecWeight, 'electrical')();
    })());
    const ref: DatasetVersionRef = {
      datasetId,
      slug: 'flywire_scale_synthetic',
      title: 'synthetic',
      version: 1,
      isDraft: false,
      visibility: 'public',
      rowCounts: await data.rowCounts(datasetId, 1),
    };
    const loader = () => new GraphLoader(new GraphSourceStore(column), objects, new GraphCache(4 * 1024 ** 3), log);
    const first = loader();
    const timed = async (fn: () => Promise<unknown>) => {
      const t = performance.now();
      await fn();
      return (performance.now() - t) / 1000;
    };
    const cold = await timed(() => first.load(ref));
    const warm = await timed(() => first.load(ref));
    await new Promise((r) => setTimeout(r, 2000)); // the object is written in the background
    const restarted = await timed(() => loader().load(ref));
    const g = await first.load(ref);
    console.log(`\nthe service at FlyWire's size (${ref.rowCounts.neurons} cells, ${ref.rowCounts.connections} connection rows, chDB):`);
    console.log(`  graph from the column store (read, parsed on a worker): ${cold.toFixed(2)} s; from this process's cache: ${(warm * 1000).toFixed(2)} ms; after a restart, from object storage: ${restarted.toFixed(2)} s (x${(cold / restarted).toFixed(1)} faster than the column store)`);
    const idle = monitorEventLoopDelay({ resolution: 5 });
    idle.enable();
    await new Promise((r) => setTimeout(r, 3000));
    idle.disable();
    const busy = monitorEventLoopDelay({ resolution: 5 });
    busy.enable();
    const request = (kind: 'census' | 'metrics') =>
      runTask(GRAPH_TASK, 'analyse', {
        source: g.source,
        key: 'bench',
        request: kind === 'census' ? { kind, graph: { type: 'chemical', minWeight: null }, perNode: false, nullModel: null } : { kind, graph: { type: 'chemical', minWeight: null }, top: 10 },
      });
    const work = await timed(async () => {
      for (let i = 0; i < 5; i++) {
        await request('census');
        await request('metrics');
      }
    });
    busy.disable();
    const ms = (h: ReturnType<typeof monitorEventLoopDelay>, p: number) => (h.percentile(p) / 1e6).toFixed(1);
    console.log(`  request thread's event-loop delay while 5 censuses and 5 metrics ran on the worker pool (${work.toFixed(1)} s): p50 ${ms(busy, 50)} ms, p99 ${ms(busy, 99)} ms, max ${ms(busy, 100)} ms; idle: p50 ${ms(idle, 50)} ms, p99 ${ms(idle, 99)} ms`);
  } finally {
    await closeWorkerPool();
    await column.close();
    await objects.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export default async function main(): Promise<void> {
  console.log('engine: median of 5 runs in this process after one untimed run; igraph and NetworkX: one run each, graph loading excluded');
  console.log('the engine\'s shortest paths also count the shortest paths and pick the smallest by neuron id; the baselines return one path');
  await bench('Cook et al. 2019, male, chemical', await cookMale(), NETWORKX_TIMEOUT_S);
  const flywire = syntheticConnectome(139_255, 3_000_000, 1);
  await service(flywire);
  await bench('synthetic FlyWire-scale graph (seed 1)', flywire, NETWORKX_TIMEOUT_S);
}
