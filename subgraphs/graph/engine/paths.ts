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

/**
 * Unweighted: breadth-first from both ends, a whole level at a time, always growing the side whose frontier has
 * fewer arcs to follow. The first time a level reaches a node the other side has reached, the distance is
 * a + b (the two depths) and every shortest path crosses depth a of the forward search exactly once, at a node
 * of the meeting layer M (forward distance a, backward distance b): the number of shortest paths is the sum over M
 * of the paths counted into it from s times those counted from it to t. Far fewer nodes are visited than by a
 * search from s alone, which matters on a connectome of 100,000 cells.
 */
function breadthFirst(g: Graph, s: number, t: number, maxHops: number | null): PathResult {
  const { n, outStart, outNbr, inStart, inNbr } = g;
  const distS = new Int32Array(n).fill(-1);
  const distT = new Int32Array(n).fill(-1);
  const sigS = new Float64Array(n);
  const sigT = new Float64Array(n);
  distS[s] = 0;
  sigS[s] = 1;
  distT[t] = 0;
  sigT[t] = 1;
  let front = Int32Array.of(s);
  let back = Int32Array.of(t);
  let a = 0;
  let b = 0;
  const limit = maxHops ?? n;
  const work = (level: Int32Array, start: Int32Array) => {
    let arcs = 0;
    for (const v of level) arcs += start[v + 1] - start[v];
    return arcs;
  };
  /** Expands one level; returns the next level and whether it met the other side. */
  const expand = (level: Int32Array, depth: number, start: Int32Array, nbr: Int32Array, dist: Int32Array, sig: Float64Array, other: Int32Array) => {
    const next: number[] = [];
    let met = false;
    for (const v of level) {
      for (let e = start[v]; e < start[v + 1]; e++) {
        const w = nbr[e];
        if (dist[w] < 0) {
          dist[w] = depth + 1;
          next.push(w);
          if (other[w] >= 0) met = true;
        }
        if (dist[w] === depth + 1) sig[w] += sig[v];
      }
    }
    return { next: Int32Array.from(next), met };
  };
  let met = false;
  while (!met && a + b < limit && front.length > 0 && back.length > 0) {
    if (work(front, outStart) <= work(back, inStart)) {
      const r = expand(front, a, outStart, outNbr, distS, sigS, distT);
      front = r.next;
      a++;
      met = r.met;
    } else {
      const r = expand(back, b, inStart, inNbr, distT, sigT, distS);
      back = r.next;
      b++;
      met = r.met;
    }
  }
  if (!met) return NO_PATH;
  const length = a + b;
  // The meeting layer: every node reached by both sides lies at depth a forwards and b backwards.
  const meeting: number[] = [];
  let count = 0;
  // Those are in the forward search's last level (depth a) whichever side met the other.
  for (const x of front) {
    if (distS[x] === a && distT[x] === b) {
      meeting.push(x);
      count += sigS[x] * sigT[x];
    }
  }
  const path = smallestMeetingPath(g, s, t, meeting, distS, distT, a);
  return { length, hops: length, path, count };
}

/**
 * The lexicographically smallest shortest path of the two-sided search: the nodes on shortest paths are marked
 * from the meeting layer back to s (along the forward search's levels) and on to t (along the backward one's),
 * then the walk from s takes the smallest marked successor one level further each time.
 */
function smallestMeetingPath(g: Graph, s: number, t: number, meeting: number[], distS: Int32Array, distT: Int32Array, a: number): number[] {
  const { n, outStart, outNbr, inStart, inNbr } = g;
  const onPath = new Uint8Array(n);
  let level = meeting;
  for (const x of meeting) onPath[x] = 1;
  for (let k = a; k > 0; k--) {
    const prev: number[] = [];
    for (const x of level) {
      for (let e = inStart[x]; e < inStart[x + 1]; e++) {
        const y = inNbr[e];
        if (distS[y] === k - 1 && !onPath[y]) {
          onPath[y] = 1;
          prev.push(y);
        }
      }
    }
    level = prev;
  }
  level = meeting;
  while (level.length > 0) {
    const next: number[] = [];
    for (const x of level) {
      if (distT[x] === 0) continue;
      for (let e = outStart[x]; e < outStart[x + 1]; e++) {
        const y = outNbr[e];
        if (distT[y] === distT[x] - 1 && !onPath[y]) {
          onPath[y] = 1;
          next.push(y);
        }
      }
    }
    level = next;
  }
  // Up to the meeting layer a step adds one to the distance from s; after it, takes one off the distance to t.
  return walkSmallest(g, s, t, onPath, (x, y) => (distS[x] >= 0 && distS[x] < a ? distS[y] === distS[x] + 1 : distT[x] > 0 && distT[y] === distT[x] - 1));
}

/** From s to t, each time to the smallest marked successor along an arc that `tight` accepts. */
function walkSmallest(g: Graph, s: number, t: number, onPath: Uint8Array, tight: (from: number, to: number, weight: number) => boolean): number[] {
  const { outStart, outNbr, outW } = g;
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
  const { n, inStart, inNbr, inW } = g;
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
  return walkSmallest(g, s, t, onPath, tight);
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
