import type { Graph } from './graph.js';
import { NodeHeap } from './heap.js';

export type Weighting = 'none' | 'distance' | 'inverse';

export interface PathResult {
  length: number | null;
  hops: number | null;
  /** The lexicographically smallest node sequence among the shortest paths. */
  path: number[];
  /** Number of shortest paths, as a double (exact up to 2^53). */
  count: number;
}

const NO_PATH: PathResult = { length: null, hops: null, path: [], count: 0 };

/**
 * A shortest path from source to target following arcs forwards (either way in an undirected graph). Weighted
 * lengths are the arc's weight (`distance`) or its inverse; two paths tie when their lengths, summed from the
 * source, are equal as doubles, as in NetworkX's Dijkstra. With `maxHops`, only paths of at most that many arcs
 * count.
 */
export function shortestPath(
  g: Graph,
  source: number,
  target: number,
  opts: { weighted?: Weighting; maxHops?: number | null } = {},
): PathResult {
  const weighted = opts.weighted ?? 'none';
  const maxHops = opts.maxHops ?? null;
  for (const v of [source, target]) if (!(Number.isInteger(v) && v >= 0 && v < g.n)) throw new RangeError(`node ${v} is not in the graph`);
  if (source === target) return { length: 0, hops: 0, path: [source], count: 1 };
  if (maxHops !== null && maxHops < 1) return NO_PATH;
  if (weighted === 'none') return breadthFirst(g, source, target, maxHops);
  const inverse = weighted === 'inverse';
  // No simple path has more than n - 1 arcs, so a larger bound bounds nothing.
  if (maxHops === null || maxHops >= g.n - 1) return dijkstra(g, source, target, inverse);
  return hopBounded(g, source, target, inverse, maxHops);
}

function breadthFirst(g: Graph, s: number, t: number, maxHops: number | null): PathResult {
  const { n, outStart, outNbr } = g;
  const dist = new Int32Array(n).fill(-1);
  const paths = new Float64Array(n);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  dist[s] = 0;
  paths[s] = 1;
  queue[tail++] = s;
  const limit = maxHops ?? n;
  while (head < tail) {
    const v = queue[head++];
    const dv = dist[v];
    // Every path into t is counted once the level before t's is done.
    if ((dist[t] >= 0 && dv >= dist[t]) || dv >= limit) break;
    for (let e = outStart[v]; e < outStart[v + 1]; e++) {
      const w = outNbr[e];
      if (dist[w] < 0) {
        dist[w] = dv + 1;
        queue[tail++] = w;
      }
      if (dist[w] === dv + 1) paths[w] += paths[v];
    }
  }
  if (dist[t] < 0) return NO_PATH;
  const path = smallestPath(g, s, t, (x, y) => dist[x] >= 0 && dist[x] + 1 === dist[y]);
  return { length: dist[t], hops: dist[t], path, count: paths[t] };
}

function dijkstra(g: Graph, s: number, t: number, inverse: boolean): PathResult {
  const { n, outStart, outNbr, outW } = g;
  const dist = new Float64Array(n).fill(Infinity);
  const paths = new Float64Array(n);
  const settled = new Uint8Array(n);
  const heap = new NodeHeap(n, dist);
  dist[s] = 0;
  paths[s] = 1;
  heap.push(s);
  while (heap.length > 0) {
    const v = heap.pop();
    settled[v] = 1;
    if (v === t) break;
    const dv = dist[v];
    for (let e = outStart[v]; e < outStart[v + 1]; e++) {
      const w = outNbr[e];
      if (settled[w]) continue;
      const d = dv + (inverse ? 1 / outW[e] : outW[e]);
      if (d < dist[w]) {
        dist[w] = d;
        paths[w] = paths[v];
        heap.push(w);
      } else if (d === dist[w]) {
        paths[w] += paths[v];
      }
    }
  }
  if (!settled[t]) return NO_PATH;
  const path = smallestPath(g, s, t, (x, y, w) => settled[x] === 1 && dist[x] + (inverse ? 1 / w : w) === dist[y]);
  return { length: dist[t], hops: path.length - 1, path, count: paths[t] };
}

/**
 * Shortest paths of at most `maxHops` arcs, by layers: best[k][v] is the shortest length of a path of at most k
 * arcs, count[k][v] how many reach it (a shortest path's prefixes are shortest for their own bound, and with
 * positive lengths a shortest walk is a path). The layers stop changing once k passes the most arcs on any
 * shortest path, so the loop usually ends well before `maxHops`.
 */
function hopBounded(g: Graph, s: number, t: number, inverse: boolean, maxHops: number): PathResult {
  const { n, inStart, inNbr, inW } = g;
  const first = new Float64Array(n).fill(Infinity);
  first[s] = 0;
  const best: Float64Array[] = [first];
  let count = new Float64Array(n);
  count[s] = 1;
  for (let k = 1; k <= maxHops; k++) {
    const prev = best[k - 1];
    const d = new Float64Array(n);
    const c = new Float64Array(n);
    let changed = false;
    for (let v = 0; v < n; v++) {
      let dv = v === s ? 0 : Infinity;
      let cv = v === s ? 1 : 0;
      for (let e = inStart[v]; e < inStart[v + 1]; e++) {
        const du = prev[inNbr[e]];
        if (du === Infinity) continue;
        const via = du + (inverse ? 1 / inW[e] : inW[e]);
        if (via < dv) {
          dv = via;
          cv = count[inNbr[e]];
        } else if (via === dv) {
          cv += count[inNbr[e]];
        }
      }
      d[v] = dv;
      c[v] = cv;
      if (dv !== prev[v] || cv !== count[v]) changed = true;
    }
    if (!changed) break;
    best.push(d);
    count = c;
  }
  const last = best.length - 1;
  const length = best[last][t];
  if (length === Infinity) return NO_PATH;
  const path = smallestLayeredPath(g, s, t, best, inverse);
  return { length, hops: path.length - 1, path, count: count[t] };
}

/**
 * The lexicographically smallest path from s to t along "tight" arcs (those on a shortest path): the nodes that
 * reach t by tight arcs are marked backwards from t, then the walk from s takes the smallest marked successor.
 */
function smallestPath(g: Graph, s: number, t: number, tight: (from: number, to: number, weight: number) => boolean): number[] {
  const { n, inStart, inNbr, inW, outStart, outNbr, outW } = g;
  const onPath = new Uint8Array(n);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  onPath[t] = 1;
  queue[tail++] = t;
  while (head < tail) {
    const z = queue[head++];
    for (let e = inStart[z]; e < inStart[z + 1]; e++) {
      const y = inNbr[e];
      if (!onPath[y] && tight(y, z, inW[e])) {
        onPath[y] = 1;
        queue[tail++] = y;
      }
    }
  }
  const path = [s];
  for (let x = s; x !== t; ) {
    let next = -1;
    for (let e = outStart[x]; e < outStart[x + 1]; e++) {
      const y = outNbr[e];
      if (onPath[y] && tight(x, y, outW[e])) {
        next = y;
        break;
      }
    }
    if (next < 0) throw new Error('no tight arc out of a node on a shortest path');
    path.push(next);
    x = next;
  }
  return path;
}

/** smallestPath over the layers of hopBounded: a path's k-th node must be tight between layers k and k + 1. */
function smallestLayeredPath(g: Graph, s: number, t: number, best: Float64Array[], inverse: boolean): number[] {
  const { n, inStart, inNbr, inW, outStart, outNbr, outW } = g;
  const last = best.length - 1;
  const length = best[last][t];
  const len = (w: number) => (inverse ? 1 / w : w);
  // good[k][x]: some shortest path has x as its node after k arcs.
  const good: Uint8Array[] = new Array(last + 1);
  good[last] = new Uint8Array(n);
  good[last][t] = 1;
  for (let k = last - 1; k >= 0; k--) {
    const here = new Uint8Array(n);
    const after = good[k + 1];
    if (best[k][t] === length) here[t] = 1;
    for (let y = 0; y < n; y++) {
      if (!after[y]) continue;
      for (let e = inStart[y]; e < inStart[y + 1]; e++) {
        const x = inNbr[e];
        if (best[k][x] + len(inW[e]) === best[k + 1][y]) here[x] = 1;
      }
    }
    good[k] = here;
  }
  const path = [s];
  for (let k = 0, x = s; !(x === t && best[k][t] === length); k++) {
    let next = -1;
    for (let e = outStart[x]; e < outStart[x + 1] && k < last; e++) {
      const y = outNbr[e];
      if (good[k + 1][y] && best[k][x] + len(outW[e]) === best[k + 1][y]) {
        next = y;
        break;
      }
    }
    if (next < 0) throw new Error('no tight arc out of a node on a shortest path');
    path.push(next);
    x = next;
  }
  return path;
}
