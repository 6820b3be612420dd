import type { MessagePort } from 'node:worker_threads';
import { unescapeTsv } from '../../lib/column/tsv.js';
import { progressReporter } from '../../lib/workers/progress.js';
import { buildGraph, type Graph, type GraphSource } from './engine/graph.js';
import { graphMetrics } from './engine/metrics.js';
import { triadCensus } from './engine/census.js';
import { nullModelCensus, nullModelSamples } from './engine/rewire.js';
import { shortestPath } from './engine/paths.js';
import { reachability, reachabilityCurve } from './engine/reachability.js';
import { degreeDistribution } from './engine/degrees.js';
import { egoNetwork } from './engine/ego.js';
import { layoutEgoNetwork } from './ego-layout.js';
import type { GraphCost, GraphData, GraphProgress, GraphRequest, GraphSpec } from './graph.model.js';

/*
 * The graph engine's side of the worker pool: these functions run on worker threads (lib/workers/pool.ts), never
 * on the thread that serves requests. Their input and output are structured-cloned; the graph's arrays live in
 * shared memory, so handing a graph to a task copies nothing.
 */

/** Parses a version's cells and connections (GraphSourceStore's text) into a graph in shared memory. */
export async function buildSource(input: { neurons: string[]; connections: string[] }): Promise<GraphData> {
  const ids: string[] = [];
  const names: string[] = [];
  const classes: string[] = [];
  const types: string[] = [];
  for (const text of input.neurons) {
    forEachLine(text, (line) => {
      const [id, name = '', cellClass = '', cellType = ''] = line.split('\t').map(unescapeTsv);
      ids.push(id);
      names.push(name || id);
      classes.push(cellClass);
      types.push(cellType);
    });
  }
  const index = new Map<string, number>();
  ids.forEach((id, i) => index.set(id, i));
  let rows = 0;
  for (const text of input.connections) forEachLine(text, () => rows++);
  const chem = { pre: new Int32Array(rows), post: new Int32Array(rows), weight: new Float64Array(rows), n: 0 };
  const elec = { pre: new Int32Array(rows), post: new Int32Array(rows), weight: new Float64Array(rows), n: 0 };
  const node = (id: string) => {
    const i = index.get(id);
    if (i === undefined) throw new Error(`connection names a cell that is not in the version's neurons: ${id.slice(0, 100)}`);
    return i;
  };
  for (const text of input.connections) {
    forEachLine(text, (line) => {
      const t1 = line.indexOf('\t');
      const t2 = line.indexOf('\t', t1 + 1);
      const t3 = line.indexOf('\t', t2 + 1);
      const type = line.charCodeAt(t2 + 1) - 48;
      const weight = Number(line.slice(t3 + 1));
      if (t1 < 0 || t2 < 0 || t3 !== t2 + 2 || (type !== 1 && type !== 2) || !Number.isFinite(weight)) {
        throw new Error(`unexpected line in the connections read: ${line.slice(0, 200)}`);
      }
      const into = type === 1 ? chem : elec;
      into.pre[into.n] = node(unescapeTsv(line.slice(0, t1)));
      into.post[into.n] = node(unescapeTsv(line.slice(t1 + 1, t2)));
      into.weight[into.n] = weight;
      into.n++;
    });
  }
  return {
    source: {
      n: ids.length,
      chemPre: shared(Int32Array, chem.pre, chem.n),
      chemPost: shared(Int32Array, chem.post, chem.n),
      chemWeight: shared(Float64Array, chem.weight, chem.n),
      elecA: shared(Int32Array, elec.pre, elec.n),
      elecB: shared(Int32Array, elec.post, elec.n),
      elecWeight: shared(Float64Array, elec.weight, elec.n),
    },
    ids,
    names,
    classes,
    types,
  };
}

export interface AnalyseInput {
  source: GraphSource;
  /** Names the graph for this thread's cache of built graphs: `datasetId@version`, or null for a draft. */
  key: string | null;
  request: GraphRequest;
  progressPort?: MessagePort;
}

/** Runs one computation of `GraphRequest` on the graph it names. */
export async function analyse(input: AnalyseInput): Promise<unknown> {
  const report = progressReporter(input.progressPort);
  const progress = (step: string) => (fraction: number) => report({ step, fraction } satisfies GraphProgress);
  const r = input.request;
  const g = graphOf(input.source, input.key, r.graph);
  const shape = { nodes: g.n, edges: g.m, directed: g.directed };
  switch (r.kind) {
    case 'metrics':
      return { ...shape, metrics: graphMetrics(g, { top: r.top }) };
    case 'census': {
      const perNode = r.perNode === false ? undefined : r.perNode === true ? true : Int32Array.from(r.perNode);
      const result = triadCensus(g, { perNode, onProgress: progress('census') });
      const nullModel = r.nullModel
        ? nullModelCensus(g, result.census, { ...r.nullModel, onProgress: progress('null model') })
        : null;
      const per = result.perNode
        ? { nodes: Array.from(result.perNode.nodes), counts: Array.from(result.perNode.counts) }
        : null;
      return { ...shape, census: result.census, perNode: per, nullModel };
    }
    case 'nullSamples': {
      const onProgress = progress('null model');
      const run = nullModelSamples(g, { ...r, onProgress: (f) => onProgress((r.done + f * r.samples) / r.total) });
      return { ...shape, ...run };
    }
    case 'path':
      return { ...shape, path: shortestPath(g, r.source, r.target, { weighted: r.weighted, maxHops: r.maxHops }) };
    case 'reachability': {
      const reach = reachability(g, r.sources, r.maxHops);
      const reached: Array<[number, number]> = [];
      for (let v = 0; v < g.n; v++) if (reach.hop[v] > 0) reached.push([v, reach.hop[v]]);
      reached.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
      return { ...shape, perHop: reach.perHop, reached };
    }
    case 'curve':
      return { ...shape, counts: reachabilityCurve(g, r.sources, r.maxHops, progress('reachability curve')) };
    case 'degrees':
      return { ...shape, degrees: degreeDistribution(g) };
    case 'estimate': {
      let censusSteps = 0;
      for (let v = 0; v < g.n; v++) {
        const d = g.outStart[v + 1] - g.outStart[v] + (g.directed ? g.inStart[v + 1] - g.inStart[v] : 0);
        censusSteps += d * d;
      }
      return { nodes: g.n, edges: g.m, censusSteps } satisfies GraphCost;
    }
    case 'ego': {
      const ego = egoNetwork(g, r.center, r.hops, r.direction, r.maxNodes);
      const members = Array.from(ego.nodes);
      const hop = Array.from(ego.hop);
      return { ...shape, members, hop, links: ego.edges, truncated: ego.truncated, positions: layoutEgoNetwork(members, hop, ego.edges) };
    }
  }
}

/** This thread's last built graphs: repeated requests on one connectome skip the O(m) build. */
const built = new Map<string, Graph>();
const BUILT_KEPT = 2;

function graphOf(source: GraphSource, key: string | null, spec: GraphSpec): Graph {
  const name = key === null ? null : `${key}|${spec.type}|${spec.minWeight ?? ''}`;
  const hit = name === null ? undefined : built.get(name);
  if (hit) {
    built.delete(name!);
    built.set(name!, hit);
    return hit;
  }
  const g = buildGraph(source, spec.type, spec.minWeight);
  if (name !== null) {
    built.set(name, g);
    if (built.size > BUILT_KEPT) built.delete(built.keys().next().value as string);
  }
  return g;
}

function forEachLine(text: string, fn: (line: string) => void): void {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) fn(text.slice(start, end));
    start = end + 1;
  }
}

function shared<T extends Int32Array | Float64Array>(Kind: { new (b: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number }, from: T, length: number): T {
  const out = new Kind(new SharedArrayBuffer(length * Kind.BYTES_PER_ELEMENT));
  out.set(from.subarray(0, length) as never);
  return out;
}
