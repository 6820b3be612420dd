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
  const { n, outStart, outNbr, inStart, inNbr } = g;
  const start = new Int32Array(n + 1);
  // Two passes over the merge of each node's sorted out- and in-row: count, then fill.
  for (let pass = 0; pass < 2; pass++) {
    const nbr = pass === 0 ? null : new Int32Array(start[n]);
    const code = pass === 0 ? null : new Uint8Array(start[n]);
    let k = 0;
    for (let v = 0; v < n; v++) {
      let i = outStart[v];
      const iEnd = outStart[v + 1];
      let j = g.directed ? inStart[v] : iEnd;
      const jEnd = g.directed ? inStart[v + 1] : iEnd;
      while (i < iEnd || j < jEnd) {
        const a = i < iEnd ? outNbr[i] : 0x7fffffff;
        const b = j < jEnd ? inNbr[j] : 0x7fffffff;
        let w: number;
        let c: number;
        if (a === b) {
          w = a;
          c = MUTUAL;
          i++;
          j++;
        } else if (a < b) {
          w = a;
          c = g.directed ? OUT : MUTUAL;
          i++;
        } else {
          w = b;
          c = IN;
          j++;
        }
        if (w === v) continue;
        if (nbr !== null) {
          nbr[k] = w;
          code![k] = c;
        }
        k++;
      }
      if (pass === 0) start[v + 1] = k;
    }
    if (nbr !== null) return { n, start, nbr, code: code! };
  }
  throw new Error('unreachable');
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
