import type { Graph } from './graph.js';

export interface Reachability {
  /** -1 unreached, 0 a source, k first reached after k arcs. */
  hop: Int32Array;
  /** One entry per k = 1..maxHops (new may be 0); cumulative counts the non-source nodes reached within k. */
  perHop: Array<{ hop: number; new: number; cumulative: number }>;
}

/** Breadth-first search forwards from all the sources at once, at most `maxHops` arcs deep. */
export function reachability(g: Graph, sources: Int32Array | number[], maxHops: number): Reachability {
  const { n, outStart, outNbr } = g;
  const hop = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (const s of sources) {
    if (!(Number.isInteger(s) && s >= 0 && s < n)) throw new RangeError(`node ${s} is not in the graph`);
    if (hop[s] < 0) {
      hop[s] = 0;
      queue[tail++] = s;
    }
  }
  const perHop: Reachability['perHop'] = [];
  let cumulative = 0;
  for (let k = 1; k <= maxHops; k++) {
    const levelEnd = tail;
    while (head < levelEnd) {
      const v = queue[head++];
      for (let e = outStart[v]; e < outStart[v + 1]; e++) {
        const w = outNbr[e];
        if (hop[w] < 0) {
          hop[w] = k;
          queue[tail++] = w;
        }
      }
    }
    cumulative += tail - levelEnd;
    perHop.push({ hop: k, new: tail - levelEnd, cumulative });
  }
  return { hop, perHop };
}

/**
 * Cumulative counts of the non-source nodes within k = 1..maxHops arcs of the sources; with `sources` null, the
 * mean of that count over every node taken alone as the source.
 */
export function reachabilityCurve(
  g: Graph,
  sources: Int32Array | number[] | null,
  maxHops: number,
  onProgress?: (f: number) => void,
): number[] {
  if (sources !== null) return reachability(g, sources, maxHops).perHop.map((h) => h.cumulative);
  const totals = everySourceReach(g, maxHops, onProgress);
  return Array.from(totals, (t) => (g.n === 0 ? 0 : t / g.n));
}

/** Sources per batch: one bit each in two 32-bit words per node (wider batches measured no faster). */
const BATCH = 64;

/**
 * Sum over every source of the nodes it reaches within k arcs, for k = 1..maxHops. A breadth-first search per
 * source is O(n m); running BATCH of them at once, as bit sets per node, divides that by the word width. Each level
 * pushes the frontier's bits along the out-arcs of every node whose frontier is not empty, then one sweep keeps the
 * bits not seen before. Sources without out-arcs reach nothing and are left out of the batches.
 */
function everySourceReach(g: Graph, maxHops: number, onProgress?: (f: number) => void): Float64Array {
  const { n, outStart, outNbr } = g;
  const totals = new Float64Array(Math.max(0, maxHops));
  const sources: number[] = [];
  for (let v = 0; v < n; v++) if (outStart[v + 1] > outStart[v]) sources.push(v);
  const seen = new Uint32Array(2 * n);
  let frontier = new Uint32Array(2 * n);
  let next = new Uint32Array(2 * n);
  const batches = Math.ceil(sources.length / BATCH);
  const reportEvery = Math.max(1, Math.ceil(batches / 100));
  for (let b = 0; b < batches; b++) {
    if (onProgress && b % reportEvery === 0) onProgress(b / batches);
    seen.fill(0);
    frontier.fill(0);
    for (let i = 0; i < BATCH && b * BATCH + i < sources.length; i++) {
      const at = 2 * sources[b * BATCH + i] + (i >> 5);
      seen[at] = frontier[at] = 1 << (i & 31);
    }
    for (let k = 0; k < maxHops; k++) {
      next.fill(0);
      for (let u = 0; u < n; u++) {
        const f0 = frontier[2 * u];
        const f1 = frontier[2 * u + 1];
        if ((f0 | f1) === 0) continue;
        for (let e = outStart[u], end = outStart[u + 1]; e < end; e++) {
          const v = 2 * outNbr[e];
          next[v] |= f0;
          next[v + 1] |= f1;
        }
      }
      let reached = 0;
      for (let i = 0; i < 2 * n; i++) {
        const fresh = next[i] & ~seen[i];
        next[i] = fresh;
        if (fresh !== 0) {
          seen[i] |= fresh;
          reached += popcount(fresh);
        }
      }
      for (let j = k; j < maxHops; j++) totals[j] += reached;
      const swap = frontier;
      frontier = next;
      next = swap;
      if (reached === 0) break;
    }
  }
  return totals;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}
