import { ArcSet } from './arc-set.js';
import { triadCensus } from './census.js';
import { csrFromArcs } from './csr.js';
import { directed, undirected, type Graph } from './graph.js';
import { createRng, randomBelow, resumableRng, seedState, type RngState } from './rng.js';

export { createRng, seedState, type RngState };

/**
 * A degree-preserving random graph (docs/graph.md, "null_model"): `swapsPerEdge` x (non-loop arcs) attempted
 * double-edge swaps a->b, c->d => a->d, c->b, refused when one would be a self-loop or an arc already present, so
 * every node keeps its in- and out-degree. An undirected graph swaps a-b, c-d => a-d, c-b, each edge taken in a
 * random direction (as NetworkX's double_edge_swap, which picks uniform oriented edges), keeping every degree.
 * Self-loops stay where they are; an arc keeps its weight and its tail.
 */
export function rewire(g: Graph, rng: () => number, swapsPerEdge: number, onProgress?: (f: number) => void): Graph {
  const { n, outStart, outNbr, outW } = g;
  let loops = 0;
  let arcs = 0;
  for (let v = 0; v < n; v++) {
    for (let e = outStart[v]; e < outStart[v + 1]; e++) {
      const w = outNbr[e];
      if (w === v) loops++;
      else if (g.directed || v < w) arcs++;
    }
  }
  const from = new Int32Array(arcs);
  const to = new Int32Array(arcs);
  const weight = new Float64Array(arcs);
  const set = new ArcSet(arcs);
  let k = 0;
  for (let v = 0; v < n; v++) {
    for (let e = outStart[v]; e < outStart[v + 1]; e++) {
      const w = outNbr[e];
      if (w === v || (!g.directed && w < v)) continue;
      from[k] = v;
      to[k] = w;
      weight[k++] = outW[e];
      set.add(v, w);
    }
  }
  const attempts = Math.floor(swapsPerEdge * arcs);
  if (arcs >= 2) {
    if (g.directed) swapDirected(from, to, set, rng, attempts, onProgress);
    else swapUndirected(from, to, set, rng, attempts, onProgress);
  }
  return assemble(g, from, to, weight, loops);
}

/**
 * Swap attempts are drawn in batches: the arcs and hash slots a batch will read are first touched in loops whose
 * iterations do not depend on each other, so the processor overlaps those cache misses; the attempts then run one
 * after another as before (the random draws come in the same order, so batching does not change the result).
 * Rewiring a large graph is bound by memory latency, and this saves about a quarter of the time.
 */
const BATCH = 16;
/** Batches between progress reports (a power of two, for a mask test). */
const REPORT_EVERY = 1 << 16;

function swapDirected(
  from: Int32Array,
  to: Int32Array,
  set: ArcSet,
  rng: () => number,
  attempts: number,
  onProgress?: (f: number) => void,
): void {
  const arcs = from.length;
  const first = new Int32Array(BATCH);
  const second = new Int32Array(BATCH);
  let sink = 0;
  for (let t = 0, batch = 0; t < attempts; t += BATCH, batch++) {
    if (onProgress && (batch & (REPORT_EVERY - 1)) === 0) onProgress(t / attempts);
    const count = Math.min(BATCH, attempts - t);
    for (let q = 0; q < count; q++) {
      first[q] = randomBelow(rng, arcs);
      second[q] = randomBelow(rng, arcs);
    }
    for (let q = 0; q < count; q++) sink += from[first[q]] + to[first[q]] + from[second[q]] + to[second[q]];
    for (let q = 0; q < count; q++) {
      const a = from[first[q]];
      const b = to[first[q]];
      const c = from[second[q]];
      const d = to[second[q]];
      sink += set.touch(a, d) + set.touch(c, b) + set.touch(a, b) + set.touch(c, d);
    }
    for (let q = 0; q < count; q++) {
      const i = first[q];
      const j = second[q];
      if (i === j) continue;
      const a = from[i];
      const b = to[i];
      const c = from[j];
      const d = to[j];
      if (a === d || c === b || set.has(a, d) || set.has(c, b)) continue;
      set.delete(a, b);
      set.delete(c, d);
      set.add(a, d);
      set.add(c, b);
      to[i] = d;
      to[j] = b;
    }
  }
  touched += sink;
}

/** Edges are kept as (smaller, larger) both in the arrays and in the set. */
function swapUndirected(
  lo: Int32Array,
  hi: Int32Array,
  set: ArcSet,
  rng: () => number,
  attempts: number,
  onProgress?: (f: number) => void,
): void {
  const edges = lo.length;
  const first = new Int32Array(BATCH);
  const second = new Int32Array(BATCH);
  const sides = new Int32Array(BATCH);
  let sink = 0;
  for (let t = 0, batch = 0; t < attempts; t += BATCH, batch++) {
    if (onProgress && (batch & (REPORT_EVERY - 1)) === 0) onProgress(t / attempts);
    const count = Math.min(BATCH, attempts - t);
    for (let q = 0; q < count; q++) {
      first[q] = randomBelow(rng, edges);
      second[q] = randomBelow(rng, edges);
      sides[q] = rng() & 3;
    }
    for (let q = 0; q < count; q++) sink += lo[first[q]] + hi[first[q]] + lo[second[q]] + hi[second[q]];
    for (let q = 0; q < count; q++) {
      const i = first[q];
      const j = second[q];
      const a = sides[q] & 1 ? hi[i] : lo[i];
      const b = sides[q] & 1 ? lo[i] : hi[i];
      const c = sides[q] & 2 ? hi[j] : lo[j];
      const d = sides[q] & 2 ? lo[j] : hi[j];
      sink += set.touch(lo[i], hi[i]) + set.touch(lo[j], hi[j]);
      sink += set.touch(Math.min(a, d), Math.max(a, d)) + set.touch(Math.min(c, b), Math.max(c, b));
    }
    for (let q = 0; q < count; q++) {
      const i = first[q];
      const j = second[q];
      if (i === j) continue;
      const a = sides[q] & 1 ? hi[i] : lo[i];
      const b = sides[q] & 1 ? lo[i] : hi[i];
      const c = sides[q] & 2 ? hi[j] : lo[j];
      const d = sides[q] & 2 ? lo[j] : hi[j];
      if (a === d || c === b) continue;
      const ad0 = Math.min(a, d);
      const ad1 = Math.max(a, d);
      const cb0 = Math.min(c, b);
      const cb1 = Math.max(c, b);
      if (set.has(ad0, ad1) || set.has(cb0, cb1)) continue;
      set.delete(lo[i], hi[i]);
      set.delete(lo[j], hi[j]);
      set.add(ad0, ad1);
      set.add(cb0, cb1);
      lo[i] = ad0;
      hi[i] = ad1;
      lo[j] = cb0;
      hi[j] = cb1;
    }
  }
  touched += sink;
}

/** Where the touched values go, so that the compiler cannot drop the reads that only warm the cache. */
let touched = 0;

/** The rewired arcs plus g's self-loops, as a graph of g's kind. */
function assemble(g: Graph, from: Int32Array, to: Int32Array, weight: Float64Array, loops: number): Graph {
  const { n } = g;
  const arcs = from.length;
  const total = g.directed ? arcs + loops : 2 * arcs + loops;
  const f = new Int32Array(total);
  const t = new Int32Array(total);
  const w = new Float64Array(total);
  let k = 0;
  for (let i = 0; i < arcs; i++) {
    f[k] = from[i];
    t[k] = to[i];
    w[k++] = weight[i];
    if (!g.directed) {
      f[k] = to[i];
      t[k] = from[i];
      w[k++] = weight[i];
    }
  }
  for (let v = 0; v < n; v++) {
    for (let e = g.outStart[v]; e < g.outStart[v + 1]; e++) {
      if (g.outNbr[e] !== v) continue;
      f[k] = v;
      t[k] = v;
      w[k++] = g.outW[e];
    }
  }
  const csr = csrFromArcs(n, f, t, w, total);
  return g.directed ? directed(n, csr) : undirected(n, arcs + loops, csr);
}

export interface NullModelResult {
  samples: number;
  seed: number;
  swaps_per_edge: number;
  mean: number[];
  sd: number[];
  z: Array<number | null>;
}

/**
 * The census of `samples` rewired graphs, each rewired from g itself, one generator for the whole run: the same
 * seed gives the same numbers. sd is the sample standard deviation (n - 1); z is null where sd is 0 (or undefined,
 * with fewer than two samples).
 */
export function nullModelCensus(
  g: Graph,
  observed: number[],
  opts: { samples: number; seed: number; swapsPerEdge?: number; onProgress?: (f: number) => void },
): NullModelResult {
  const swaps = opts.swapsPerEdge ?? 10;
  const run = nullModelSamples(g, { state: seedState(opts.seed), samples: opts.samples, swapsPerEdge: swaps, onProgress: opts.onProgress });
  return summariseNullModel(observed, run.censuses, { seed: opts.seed, swapsPerEdge: swaps });
}

/**
 * The next rewired graphs' censuses of a null-model run, from the generator's `state`: up to `samples` of them,
 * fewer when `budgetMs` has passed (always at least one). Returns them with the state to go on from, so a run cut
 * into such pieces gives exactly the numbers of one run in a single piece.
 */
export function nullModelSamples(
  g: Graph,
  opts: { state: RngState; samples: number; swapsPerEdge: number; budgetMs?: number; onProgress?: (f: number) => void },
): { censuses: number[][]; state: RngState } {
  const { samples, swapsPerEdge } = opts;
  const rng = resumableRng(opts.state);
  const report = throttle(opts.onProgress);
  const until = opts.budgetMs === undefined ? Number.POSITIVE_INFINITY : performance.now() + opts.budgetMs;
  const censuses: number[][] = [];
  for (let s = 0; s < samples; s++) {
    if (s > 0 && performance.now() >= until) break;
    const r = rewire(g, rng.next, swapsPerEdge, report && ((f) => report((s + 0.5 * f) / samples)));
    censuses.push(triadCensus(r, { onProgress: report && ((f) => report((s + 0.5 + 0.5 * f) / samples)) }).census);
  }
  return { censuses, state: rng.state() };
}

/** The null model's mean, sd and z of each triad type from the samples' censuses. */
export function summariseNullModel(observed: number[], all: number[][], opts: { seed: number; swapsPerEdge: number }): NullModelResult {
  const samples = all.length;
  const mean: number[] = [];
  const sd: number[] = [];
  const z: Array<number | null> = [];
  for (let c = 0; c < observed.length; c++) {
    let sum = 0;
    for (const row of all) sum += row[c];
    const m = samples > 0 ? sum / samples : 0;
    let squares = 0;
    for (const row of all) squares += (row[c] - m) * (row[c] - m);
    const deviation = samples > 1 ? Math.sqrt(squares / (samples - 1)) : 0;
    mean.push(m);
    sd.push(deviation);
    z.push(deviation === 0 ? null : (observed[c] - m) / deviation);
  }
  return { samples, seed: opts.seed, swaps_per_edge: opts.swapsPerEdge, mean, sd, z };
}

/** Passes on a fraction only when it has moved by a percent since the last one passed on. */
function throttle(onProgress?: (f: number) => void): ((f: number) => void) | undefined {
  if (!onProgress) return undefined;
  let last = -1;
  return (f) => {
    if (f - last < 0.01) return;
    last = f;
    onProgress(f);
  };
}
