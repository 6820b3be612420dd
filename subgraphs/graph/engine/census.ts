import type { Graph } from './graph.js';
import { TRIAD_CODES } from '../../../domain/triad-codes.js';
import { flip, orientByDegree, simpleGraph, type SimpleGraph } from './simple.js';


export interface CensusResult {
  census: number[];
  /** counts: nodes.length * 16, row i = census of the triads containing nodes[i], in TRIAD_CODES order. */
  perNode?: { nodes: Int32Array; counts: Float64Array };
}

/*
 * The census is the Batagelj–Mrvar one (NetworkX's triadic_census), reorganised so that only triangles are
 * enumerated one by one. A triad of nodes {v, u, w} is coded by the bits v->u 1, u->v 2, v->w 4, w->v 8, u->w 16,
 * w->u 32; with dyad codes (OUT 1, IN 2, MUTUAL 3, see simple.ts) that is c(v,u) | c(v,w) << 2 | c(u,w) << 4.
 * Open triads (two dyads) and one-dyad triads are counted by formulas over degrees, corrected by the triangles:
 *  - open triads centred on c: all pairs of c's neighbours, by their two codes, minus the adjacent pairs;
 *  - one-dyad triads on the edge {x, u}: n - deg x - deg u + (common neighbours of x and u);
 *  - 003: what is left of C(n, 3).
 * Triangles are listed over the edges oriented from smaller to larger degree, O(m^1.5) at worst (within O(m Δ)).
 */

/** NetworkX's TRICODES: the class number (1..16) of each of the 64 codes. */
const TRICODES = [
  1, 2, 2, 3, 2, 4, 6, 8, 2, 6, 5, 7, 3, 8, 7, 11, 2, 6, 4, 8, 5, 9, 9, 13, 6, 10, 9, 14, 7, 14, 12, 15, 2, 5, 6, 7,
  6, 9, 10, 14, 4, 9, 9, 12, 8, 13, 14, 15, 3, 7, 8, 11, 7, 12, 14, 15, 8, 14, 13, 15, 11, 15, 15, 16,
];
const CLASS = Int8Array.from(TRICODES, (c) => c - 1);
const T012 = 1;
const T102 = 2;

/** Class of the open triad centred on a node whose dyads to the two ends have codes a and b. */
const openClass = (a: number, b: number) => CLASS[a | (b << 2)];
const dyadClass = (c: number) => (c === 3 ? T102 : T012);

/** A closed triad (all three codes 1..3) seen from one of its nodes, as 0..26. */
const slotOf = (t: number) => (t & 3) - 1 + 3 * (((t >> 2) & 3) - 1) + 9 * ((t >> 4) - 1);
const codeOfSlot = (s: number) => ((s % 3) + 1) | (((((s / 3) | 0) % 3) + 1) << 2) | ((((s / 9) | 0) + 1) << 4);
/** For the triangle coded t from v: the same triangle coded from v, from u and from w, as slots. */
const FROM_V = new Int8Array(64);
const FROM_U = new Int8Array(64);
const FROM_W = new Int8Array(64);
for (let t = 0; t < 64; t++) {
  const a = t & 3;
  const b = (t >> 2) & 3;
  const c = t >> 4;
  if (!a || !b || !c) continue;
  FROM_V[t] = slotOf(t);
  FROM_U[t] = slotOf(flip(a) | (c << 2) | (b << 4));
  FROM_W[t] = slotOf(flip(b) | (flip(c) << 2) | (a << 4));
}

/**
 * The triad census of g, self-loops ignored (docs/graph.md, "Triad census"). With `perNode` (true for every node,
 * or the nodes wanted, in the order wanted) also each node's census(G) - census(G - v), in the same pass.
 * `onProgress` receives fractions of the triangle listing, at most about a hundred times.
 */
export function triadCensus(
  g: Graph,
  opts: { perNode?: boolean | Int32Array; onProgress?: (fraction: number) => void } = {},
): CensusResult {
  const n = g.n;
  const s = simpleGraph(g);
  const chosen = chooseNodes(n, opts.perNode);
  const closed = new Float64Array(64);
  const perSlot = chosen ? new Float64Array(chosen.distinct * 27) : null;
  listTriangles(orientByDegree(s), closed, chosen?.slot ?? null, perSlot, opts.onProgress);

  const census = new Float64Array(16);
  for (let t = 0; t < 64; t++) if (closed[t] !== 0) addTriangles(census, t, closed[t]);
  const kinds = codeCounts(s);
  let asymmetric = 0;
  let mutual = 0;
  for (let v = 0; v < n; v++) {
    addCentredPairs(census, kinds, v);
    asymmetric += kinds[3 * v] + kinds[3 * v + 1];
    mutual += kinds[3 * v + 2];
    const dv = s.start[v + 1] - s.start[v];
    for (let e = s.start[v]; e < s.start[v + 1]; e++) {
      const u = s.nbr[e];
      if (u > v) census[dyadClass(s.code[e])] += n - dv - (s.start[u + 1] - s.start[u]);
    }
  }
  census[0] = choose(n, 3) - sumExcept(census, 0);
  const result: CensusResult = { census: Array.from(census) };
  if (chosen && perSlot) {
    const totals = { asymmetric: asymmetric / 2, mutual: mutual / 2 };
    result.perNode = { nodes: chosen.nodes, counts: perNodeCensus(s, kinds, totals, chosen, perSlot) };
  }
  return result;
}

/** Counts the triangles of the oriented graph by code, and by node for the chosen nodes (slot >= 0). */
function listTriangles(
  f: SimpleGraph,
  closed: Float64Array,
  slot: Int32Array | null,
  perSlot: Float64Array | null,
  onProgress?: (fraction: number) => void,
): void {
  const { n, start, nbr, code } = f;
  const mark = new Uint8Array(n);
  const total = start[n];
  const step = Math.max(1, Math.ceil(total / 100));
  let reportAt = step;
  for (let v = 0; v < n; v++) {
    const vs = start[v];
    const ve = start[v + 1];
    if (onProgress && vs >= reportAt) {
      onProgress(vs / total);
      reportAt = vs + step;
    }
    if (ve - vs < 2) continue;
    for (let e = vs; e < ve; e++) mark[nbr[e]] = code[e];
    const sv = slot === null ? -1 : slot[v];
    for (let e = vs; e < ve; e++) {
      const u = nbr[e];
      const cvu = code[e];
      const su = slot === null ? -1 : slot[u];
      for (let k = start[u], ke = start[u + 1]; k < ke; k++) {
        const w = nbr[k];
        const cvw = mark[w];
        if (cvw === 0) continue;
        const t = cvu | (cvw << 2) | (code[k] << 4);
        closed[t]++;
        if (slot !== null) {
          if (sv >= 0) perSlot![sv * 27 + FROM_V[t]]++;
          if (su >= 0) perSlot![su * 27 + FROM_U[t]]++;
          const sw = slot[w];
          if (sw >= 0) perSlot![sw * 27 + FROM_W[t]]++;
        }
      }
    }
    for (let e = vs; e < ve; e++) mark[nbr[e]] = 0;
  }
}

/** `count` triangles coded t from one of their nodes: their class, and their corrections to the formulas. */
function addTriangles(into: Float64Array, t: number, count: number): void {
  const a = t & 3;
  const b = (t >> 2) & 3;
  const c = t >> 4;
  into[CLASS[t]] += count;
  // Each triangle is a pair of adjacent neighbours for each of its three nodes: not an open triad.
  into[openClass(a, b)] -= count;
  into[openClass(flip(a), c)] -= count;
  into[openClass(flip(b), flip(c))] -= count;
  // ... and a common neighbour of the two ends of each of its edges.
  into[dyadClass(a)] += count;
  into[dyadClass(b)] += count;
  into[dyadClass(c)] += count;
}

/** Per node, how many neighbours it has of each dyad code (OUT, IN, MUTUAL). */
function codeCounts(s: SimpleGraph): Float64Array {
  const kinds = new Float64Array(3 * s.n);
  for (let v = 0; v < s.n; v++) {
    for (let e = s.start[v]; e < s.start[v + 1]; e++) kinds[3 * v + s.code[e] - 1]++;
  }
  return kinds;
}

/** The pairs of v's neighbours, as open triads centred on v (the triangles subtract the adjacent ones). */
function addCentredPairs(into: Float64Array, kinds: Float64Array, v: number): void {
  const k1 = kinds[3 * v];
  const k2 = kinds[3 * v + 1];
  const k3 = kinds[3 * v + 2];
  into[openClass(1, 1)] += (k1 * (k1 - 1)) / 2;
  into[openClass(2, 2)] += (k2 * (k2 - 1)) / 2;
  into[openClass(3, 3)] += (k3 * (k3 - 1)) / 2;
  into[openClass(1, 2)] += k1 * k2;
  into[openClass(1, 3)] += k1 * k3;
  into[openClass(2, 3)] += k2 * k3;
}

interface ChosenNodes {
  nodes: Int32Array;
  /** Per node, its slot among the distinct chosen nodes, or -1. */
  slot: Int32Array;
  distinct: number;
}

function chooseNodes(n: number, perNode: boolean | Int32Array | undefined): ChosenNodes | null {
  if (!perNode) return null;
  const nodes = perNode === true ? Int32Array.from({ length: n }, (_, i) => i) : Int32Array.from(perNode);
  const slot = new Int32Array(n).fill(-1);
  let distinct = 0;
  for (const v of nodes) {
    if (!(v >= 0 && v < n)) throw new RangeError(`node ${v} is not in the graph`);
    if (slot[v] < 0) slot[v] = distinct++;
  }
  return { nodes, slot, distinct };
}

/**
 * census(G) - census(G - x) for each chosen x: its triangles (with their corrections), the open triads where x is
 * the centre or an end, the one-dyad triads where x is an end or the third node, and 003 for the rest.
 */
function perNodeCensus(
  s: SimpleGraph,
  kinds: Float64Array,
  totals: { asymmetric: number; mutual: number },
  chosen: ChosenNodes,
  perSlot: Float64Array,
): Float64Array {
  const n = s.n;
  const counts = new Float64Array(chosen.nodes.length * 16);
  const done = new Int32Array(chosen.distinct).fill(-1);
  const all = choose(n - 1, 2);
  for (let i = 0; i < chosen.nodes.length; i++) {
    const x = chosen.nodes[i];
    const row = counts.subarray(16 * i, 16 * i + 16);
    const slot = chosen.slot[x];
    if (done[slot] >= 0) {
      row.set(counts.subarray(16 * done[slot], 16 * done[slot] + 16));
      continue;
    }
    done[slot] = i;
    for (let k = 0; k < 27; k++) {
      const count = perSlot[slot * 27 + k];
      if (count !== 0) addTriangles(row, codeOfSlot(k), count);
    }
    addCentredPairs(row, kinds, x);
    const dx = s.start[x + 1] - s.start[x];
    row[T012] += totals.asymmetric;
    row[T102] += totals.mutual;
    for (let e = s.start[x]; e < s.start[x + 1]; e++) {
      const y = s.nbr[e];
      const cyx = flip(s.code[e]);
      row[dyadClass(s.code[e])] += n - dx - (s.start[y + 1] - s.start[y]);
      // x as an end of the open triads centred on y (the triangles take off those whose ends are adjacent).
      for (let k = 1; k <= 3; k++) row[openClass(cyx, k)] += kinds[3 * y + k - 1] - (cyx === k ? 1 : 0);
      // The dyads x is not the third node of: those touching a neighbour of x.
      row[T012] -= kinds[3 * y] + kinds[3 * y + 1];
      row[T102] -= kinds[3 * y + 2];
    }
    row[0] = all - sumExcept(row, 0);
  }
  return counts;
}

function sumExcept(a: Float64Array, skip: number): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) if (i !== skip) sum += a[i];
  return sum;
}

/** C(n, k) for k <= 3, exact while it is below 2^53. */
function choose(n: number, k: 2 | 3): number {
  if (n < k) return 0;
  const big = BigInt(n);
  return Number(k === 2 ? (big * (big - 1n)) / 2n : (big * (big - 1n) * (big - 2n)) / 6n);
}
