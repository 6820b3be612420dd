import type { Graph } from './graph.js';

/** Dyad codes, from the row's node `v` towards neighbour `w`. */
export const OUT = 1; // v -> w only
export const IN = 2; // w -> v only
export const MUTUAL = 3; // both

/**
 * The underlying simple undirected graph (self-loops dropped), each entry carrying its dyad code. For an undirected
 * graph every code is MUTUAL: it is censused as the directed graph with both arcs of each edge.
 */
export interface SimpleGraph {
  n: number;
  start: Int32Array;
  nbr: Int32Array;
  code: Uint8Array;
}

export function simpleGraph(g: Graph): SimpleGraph {
  const n = g.n;
  const start = new Int32Array(n + 1);
  // Count, then fill: a merged row's length is only known once it is merged.
  for (let v = 0; v < n; v++) start[v + 1] = start[v] + mergeRow(g, v, null, null, 0);
  const nbr = new Int32Array(start[n]);
  const code = new Uint8Array(start[n]);
  for (let v = 0; v < n; v++) mergeRow(g, v, nbr, code, start[v]);
  return { n, start, nbr, code };
}

/** Merges v's sorted out- and in-rows without v itself, written from `at` when arrays are given; returns the length. */
function mergeRow(g: Graph, v: number, nbr: Int32Array | null, code: Uint8Array | null, at: number): number {
  const { outStart, outNbr, inStart, inNbr } = g;
  let i = outStart[v];
  const iEnd = outStart[v + 1];
  // An undirected row already holds every neighbour.
  let j = g.directed ? inStart[v] : 0;
  const jEnd = g.directed ? inStart[v + 1] : 0;
  let k = at;
  while (i < iEnd || j < jEnd) {
    const a = i < iEnd ? outNbr[i] : 0x7fffffff;
    const b = j < jEnd ? inNbr[j] : 0x7fffffff;
    const w = a <= b ? a : b;
    const c = !g.directed || a === b ? MUTUAL : a < b ? OUT : IN;
    if (a <= b) i++;
    if (b <= a) j++;
    if (w === v) continue;
    if (nbr !== null) {
      nbr[k] = w;
      code![k] = c;
    }
    k++;
  }
  return k - at;
}

/** Swaps the direction of a dyad code (the code seen from the other end). */
export const flip = (c: number): number => ((c & 1) << 1) | (c >> 1);

/**
 * Each edge of the simple graph kept once, in the row of the endpoint that comes first in the order "smaller
 * degree, then smaller index". Listing triangles as v -> u -> w over this orientation costs O(m^1.5) at worst,
 * since no row is longer than sqrt(2m).
 */
export function orientByDegree(s: SimpleGraph): SimpleGraph {
  const { n, start, nbr, code } = s;
  const deg = (v: number) => start[v + 1] - start[v];
  const precedes = (v: number, w: number) => {
    const dv = deg(v);
    const dw = deg(w);
    return dv < dw || (dv === dw && v < w);
  };
  const fStart = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) {
    let c = 0;
    for (let e = start[v]; e < start[v + 1]; e++) if (precedes(v, nbr[e])) c++;
    fStart[v + 1] = fStart[v] + c;
  }
  const fNbr = new Int32Array(fStart[n]);
  const fCode = new Uint8Array(fStart[n]);
  let k = 0;
  for (let v = 0; v < n; v++) {
    for (let e = start[v]; e < start[v + 1]; e++) {
      if (!precedes(v, nbr[e])) continue;
      fNbr[k] = nbr[e];
      fCode[k++] = code[e];
    }
  }
  return { n, start: fStart, nbr: fNbr, code: fCode };
}
