import { connectedComponents, stronglyConnectedComponents } from './components.js';
import type { Graph } from './graph.js';
import { MUTUAL, orientByDegree, simpleGraph, type SimpleGraph } from './simple.js';

export interface GraphMetrics {
  self_loops: number;
  total_weight: number;
  density: number;
  reciprocity: number | null;
  reciprocity_excluding_self_loops: number | null;
  dyads: { mutual: number; asymmetric: number; null: number };
  weakly_connected_components: { count: number; largest: number };
  strongly_connected_components: { count: number; largest: number };
  average_clustering_undirected: number;
  transitivity_undirected: number;
  max_in_degree: number;
  max_out_degree: number;
  top_in_strength: Array<{ node: number; value: number }>;
  top_out_strength: Array<{ node: number; value: number }>;
}

/**
 * The metrics of docs/graph.md, computed as NetworkX computes them (igraph for the reciprocity without self-loops
 * and the dyad census), so that the floating results agree to the last bits where the order of the sums allows.
 */
export function graphMetrics(g: Graph, opts: { top?: number } = {}): GraphMetrics {
  const { n, m } = g;
  const top = opts.top ?? 10;
  const s = simpleGraph(g);
  const loops = countLoops(g);
  const dyads = dyadCensus(s, g.directed);
  const weak = connectedComponents(s);
  const clustering = clusteringOf(s);
  const inStrength = strengths(g, g.inStart, g.inW);
  const outStrength = g.directed ? strengths(g, g.outStart, g.outW) : inStrength;
  // NetworkX's G.size(weight): the sum of the weighted degrees, halved.
  let degreeSum = 0;
  for (let v = 0; v < n; v++) degreeSum += g.directed ? outStrength[v] + inStrength[v] : inStrength[v];
  const nonLoops = m - loops;
  return {
    self_loops: loops,
    total_weight: degreeSum / 2,
    density: m === 0 || n <= 1 ? 0 : (m / (n * (n - 1))) * (g.directed ? 1 : 2),
    // NetworkX: (m - edges of G.to_undirected()) * 2 / m, where a self-loop is an arc without a reverse.
    reciprocity: g.directed && m > 0 ? (2 * dyads.mutual) / m : null,
    reciprocity_excluding_self_loops: g.directed && nonLoops > 0 ? (2 * dyads.mutual) / nonLoops : null,
    dyads,
    weakly_connected_components: weak,
    strongly_connected_components: g.directed ? stronglyConnectedComponents(g) : weak,
    average_clustering_undirected: clustering.average,
    transitivity_undirected: clustering.transitivity,
    max_in_degree: maxDegree(g, g.inStart),
    max_out_degree: maxDegree(g, g.outStart),
    top_in_strength: topValues(inStrength, top),
    top_out_strength: topValues(outStrength, top),
  };
}

function countLoops(g: Graph): number {
  let loops = 0;
  for (let v = 0; v < g.n; v++) if (hasLoop(g, v)) loops++;
  return loops;
}

/** Whether v -> v is an arc: a binary search of v's sorted out-row. */
export function hasLoop(g: Graph, v: number): boolean {
  let lo = g.outStart[v];
  let hi = g.outStart[v + 1];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const w = g.outNbr[mid];
    if (w === v) return true;
    if (w < v) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

/** igraph's dyad census; an undirected edge between two nodes is a mutual dyad. */
function dyadCensus(s: SimpleGraph, isDirected: boolean): { mutual: number; asymmetric: number; null: number } {
  let mutual = 0;
  let asymmetric = 0;
  for (let v = 0; v < s.n; v++) {
    for (let e = s.start[v]; e < s.start[v + 1]; e++) {
      if (s.nbr[e] < v) continue;
      if (!isDirected || s.code[e] === MUTUAL) mutual++;
      else asymmetric++;
    }
  }
  return { mutual, asymmetric, null: (s.n * (s.n - 1)) / 2 - mutual - asymmetric };
}

/**
 * nx.average_clustering and nx.transitivity of G.to_undirected(): per node 2T / (d (d - 1)), summed left to right
 * in node order and divided by n (as Python's sum does), and sum(2T) / sum(d (d - 1)) over integers.
 */
function clusteringOf(s: SimpleGraph): { average: number; transitivity: number } {
  const n = s.n;
  const triangles = trianglesPerNode(s);
  let sum = 0;
  let twiceTriangles = 0;
  let triples = 0;
  for (let v = 0; v < n; v++) {
    const d = s.start[v + 1] - s.start[v];
    const t = 2 * triangles[v];
    if (t !== 0) sum += t / (d * (d - 1));
    twiceTriangles += t;
    triples += d * (d - 1);
  }
  return { average: n === 0 ? 0 : sum / n, transitivity: twiceTriangles === 0 ? 0 : twiceTriangles / triples };
}

/** Triangles through each node of the simple graph. */
export function trianglesPerNode(s: SimpleGraph): Float64Array {
  const f = orientByDegree(s);
  const { start, nbr } = f;
  const triangles = new Float64Array(s.n);
  const mark = new Uint8Array(s.n);
  for (let v = 0; v < s.n; v++) {
    const vs = start[v];
    const ve = start[v + 1];
    if (ve - vs < 2) continue;
    for (let e = vs; e < ve; e++) mark[nbr[e]] = 1;
    for (let e = vs; e < ve; e++) {
      const u = nbr[e];
      for (let k = start[u], ke = start[u + 1]; k < ke; k++) {
        const w = nbr[k];
        if (mark[w] === 0) continue;
        triangles[v]++;
        triangles[u]++;
        triangles[w]++;
      }
    }
    for (let e = vs; e < ve; e++) mark[nbr[e]] = 0;
  }
  return triangles;
}

/** Weighted degree over one CSR; undirected, a loop counts twice (NetworkX's Graph.degree). */
function strengths(g: Graph, start: Int32Array, w: Float64Array): Float64Array {
  const out = new Float64Array(g.n);
  for (let v = 0; v < g.n; v++) {
    let sum = 0;
    for (let e = start[v]; e < start[v + 1]; e++) {
      sum += w[e];
      if (!g.directed && g.outNbr[e] === v) sum += w[e];
    }
    out[v] = sum;
  }
  return out;
}

function maxDegree(g: Graph, start: Int32Array): number {
  let max = 0;
  for (let v = 0; v < g.n; v++) {
    let d = start[v + 1] - start[v];
    if (!g.directed && hasLoop(g, v)) d++;
    if (d > max) max = d;
  }
  return max;
}

/** The `k` largest values, ties by the smaller node; a sorted insertion into a short list. */
export function topValues(values: Float64Array, k: number): Array<{ node: number; value: number }> {
  const best: Array<{ node: number; value: number }> = [];
  if (k <= 0) return best;
  for (let v = 0; v < values.length; v++) {
    const value = values[v];
    // Nodes come in increasing order, so an equal value never displaces one already kept.
    if (best.length === k && value <= best[k - 1].value) continue;
    let i = Math.min(best.length, k - 1);
    while (i > 0 && best[i - 1].value < value) i--;
    best.splice(i, 0, { node: v, value });
    if (best.length > k) best.pop();
  }
  return best;
}
