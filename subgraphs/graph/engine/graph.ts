import { csrFromArcs, mergeDuplicates, transpose, type Csr } from './csr.js';

export type SynapseType = 'chemical' | 'electrical' | 'all';

/** The whole data of one dataset version. Arrays may be backed by SharedArrayBuffer; never mutate them. */
export interface GraphSource {
  n: number;
  /** One directed row each (loops possible). */
  chemPre: Int32Array;
  chemPost: Int32Array;
  chemWeight: Float64Array;
  /** One undirected pair each, a <= b (a == b possible). */
  elecA: Int32Array;
  elecB: Int32Array;
  elecWeight: Float64Array;
}

export interface Graph {
  n: number;
  directed: boolean;
  /** Arcs (directed) or undirected edges, self-loops included. */
  m: number;
  /**
   * CSR of out-neighbours, each row sorted ascending, with weights. Undirected: every neighbour (a non-loop edge
   * appears in both rows; a loop appears once in its row).
   */
  outStart: Int32Array;
  outNbr: Int32Array;
  outW: Float64Array;
  /** CSR of in-neighbours sorted ascending. Undirected: the very same arrays as out. */
  inStart: Int32Array;
  inNbr: Int32Array;
  inW: Float64Array;
}

/**
 * The graph of one synapse type (docs/graph.md, "The graph of a dataset version"). `minWeight` drops rows lighter
 * than it before chemical and electrical arcs are combined.
 */
export function buildGraph(src: GraphSource, type: SynapseType, minWeight?: number | null): Graph {
  const n = src.n;
  const keep = (w: number) => minWeight === null || minWeight === undefined || w >= minWeight;
  const chem = type === 'electrical' ? 0 : src.chemPre.length;
  const elec = type === 'chemical' ? 0 : src.elecA.length;
  // Room for the chemical arcs and both arcs of every electrical pair.
  const from = new Int32Array(chem + 2 * elec);
  const to = new Int32Array(chem + 2 * elec);
  const w = new Float64Array(chem + 2 * elec);
  let count = 0;
  for (let i = 0; i < chem; i++) {
    if (!keep(src.chemWeight[i])) continue;
    from[count] = src.chemPre[i];
    to[count] = src.chemPost[i];
    w[count++] = src.chemWeight[i];
  }
  let pairs = 0;
  for (let i = 0; i < elec; i++) {
    const weight = src.elecWeight[i];
    if (!keep(weight)) continue;
    const a = src.elecA[i];
    const b = src.elecB[i];
    pairs++;
    from[count] = a;
    to[count] = b;
    w[count++] = weight;
    if (a !== b) {
      from[count] = b;
      to[count] = a;
      w[count++] = weight;
    }
  }
  let out = csrFromArcs(n, from, to, w, count);
  if (type === 'electrical') return undirected(n, pairs, out);
  // A chemical arc and an electrical one between the same cells are one arc of the summed weight.
  if (type === 'all' && pairs > 0) out = mergeDuplicates(n, out);
  return directed(n, out);
}

/** An undirected graph over a CSR that already holds every edge in both rows (loops once). */
export function undirected(n: number, edges: number, csr: Csr): Graph {
  return {
    n,
    directed: false,
    m: edges,
    outStart: csr.start,
    outNbr: csr.nbr,
    outW: csr.w,
    inStart: csr.start,
    inNbr: csr.nbr,
    inW: csr.w,
  };
}

/** A directed graph over its out-CSR. */
export function directed(n: number, out: Csr): Graph {
  const inn = transpose(n, out);
  return {
    n,
    directed: true,
    m: out.nbr.length,
    outStart: out.start,
    outNbr: out.nbr,
    outW: out.w,
    inStart: inn.start,
    inNbr: inn.nbr,
    inW: inn.w,
  };
}

/** Convenience for tests and benchmarks: rows as `[pre, post, weight]` and `[a, b, weight]`. */
export function sourceFromEdges(
  n: number,
  chem: Array<[number, number, number]>,
  elec: Array<[number, number, number]> = [],
): GraphSource {
  return {
    n,
    chemPre: Int32Array.from(chem, (r) => r[0]),
    chemPost: Int32Array.from(chem, (r) => r[1]),
    chemWeight: Float64Array.from(chem, (r) => r[2]),
    elecA: Int32Array.from(elec, (r) => Math.min(r[0], r[1])),
    elecB: Int32Array.from(elec, (r) => Math.max(r[0], r[1])),
    elecWeight: Float64Array.from(elec, (r) => r[2]),
  };
}
