/*
 * Helpers for the engine's tests only: independent (slow, obvious) versions of what the engine computes fast.
 */
import { TRIAD_CODES } from '../../../../domain/triad-codes.js';
import type { Graph, GraphSource } from '../graph.js';
import { createRng, randomBelow, randomUnit } from '../rng.js';

/** The arcs of g as an n x n matrix, self-loops left out (an undirected edge is both arcs). */
export function adjacency(g: Graph): Uint8Array {
  const adj = new Uint8Array(g.n * g.n);
  for (let u = 0; u < g.n; u++) {
    for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) if (g.outNbr[e] !== u) adj[u * g.n + g.outNbr[e]] = 1;
  }
  return adj;
}

/**
 * The class of the triad on a, b, c by NetworkX's triad_type rules (counts of mutual, asymmetric and null dyads,
 * then the shape), written independently of the 64-entry table the census uses.
 */
export function classifyTriad(adj: Uint8Array, n: number, a: number, b: number, c: number): string {
  const arc = (x: number, y: number) => adj[x * n + y] === 1;
  const nodes = [a, b, c];
  const arcs: Array<[number, number]> = [];
  for (const x of nodes) for (const y of nodes) if (x !== y && arc(x, y)) arcs.push([x, y]);
  const mutualPairs: Array<[number, number]> = [];
  for (const [x, y] of arcs) if (x < y && arc(y, x)) mutualPairs.push([x, y]);
  const asym = arcs.filter(([x, y]) => !arc(y, x));
  const code = `${mutualPairs.length}${asym.length}${3 - mutualPairs.length - asym.length}`;
  const third = (x: number, y: number) => nodes.find((z) => z !== x && z !== y)!;
  switch (code) {
    case '021': {
      const [[p, q], [r, s]] = asym;
      if (p === r) return '021D';
      if (q === s) return '021U';
      return '021C';
    }
    case '111': {
      const [x, y] = mutualPairs[0];
      // The asymmetric arc leaves the mutual pair (U) or enters it (D).
      return asym[0][0] === x || asym[0][0] === y ? '111U' : '111D';
    }
    case '030': {
      const outs = new Set(asym.map(([x]) => x));
      return outs.size === 3 ? '030C' : '030T';
    }
    case '120': {
      const [x, y] = mutualPairs[0];
      const z = third(x, y);
      const out = asym.filter(([p]) => p === z).length;
      if (out === 2) return '120D';
      if (out === 0) return '120U';
      return '120C';
    }
    default:
      return code;
  }
}

/** The census by looking at every triple: O(n^3). */
export function bruteCensus(g: Graph): number[] {
  const adj = adjacency(g);
  const census = new Array<number>(16).fill(0);
  for (let a = 0; a < g.n; a++) {
    for (let b = a + 1; b < g.n; b++) {
      for (let c = b + 1; c < g.n; c++) census[TRIAD_CODES.indexOf(classifyTriad(adj, g.n, a, b, c) as never)]++;
    }
  }
  return census;
}

/** A random source: each ordered pair a chemical row with probability pChem, each pair electrical with pElec. */
export function randomSource(seed: number, n: number, pChem: number, pElec: number, loops = 0): GraphSource {
  const rng = createRng(seed);
  const chem: Array<[number, number, number]> = [];
  const elec: Array<[number, number, number]> = [];
  const weight = () => 1 + randomBelow(rng, 9);
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      if (a !== b && randomUnit(rng) < pChem) chem.push([a, b, weight()]);
      if (a < b && randomUnit(rng) < pElec) elec.push([a, b, weight()]);
    }
  }
  for (let i = 0; i < loops; i++) {
    const v = randomBelow(rng, n);
    if (!chem.some(([a, b]) => a === v && b === v)) chem.push([v, v, weight()]);
  }
  // Rows come unsorted from the column store.
  for (let i = chem.length - 1; i > 0; i--) {
    const j = randomBelow(rng, i + 1);
    [chem[i], chem[j]] = [chem[j], chem[i]];
  }
  return toSource(n, chem, elec);
}

function toSource(n: number, chem: Array<[number, number, number]>, elec: Array<[number, number, number]>): GraphSource {
  return {
    n,
    chemPre: Int32Array.from(chem, (r) => r[0]),
    chemPost: Int32Array.from(chem, (r) => r[1]),
    chemWeight: Float64Array.from(chem, (r) => r[2]),
    elecA: Int32Array.from(elec, (r) => r[0]),
    elecB: Int32Array.from(elec, (r) => r[1]),
    elecWeight: Float64Array.from(elec, (r) => r[2]),
  };
}

/** The source without node v: n - 1 nodes, those after v renumbered one down. */
export function withoutNode(src: GraphSource, v: number): GraphSource {
  const at = (x: number) => (x > v ? x - 1 : x);
  const chem: Array<[number, number, number]> = [];
  const elec: Array<[number, number, number]> = [];
  for (let i = 0; i < src.chemPre.length; i++) {
    if (src.chemPre[i] !== v && src.chemPost[i] !== v) chem.push([at(src.chemPre[i]), at(src.chemPost[i]), src.chemWeight[i]]);
  }
  for (let i = 0; i < src.elecA.length; i++) {
    if (src.elecA[i] !== v && src.elecB[i] !== v) elec.push([at(src.elecA[i]), at(src.elecB[i]), src.elecWeight[i]]);
  }
  return toSource(src.n - 1, chem, elec);
}
