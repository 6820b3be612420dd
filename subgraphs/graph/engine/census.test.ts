import { describe, expect, it } from 'vitest';
import { TRIAD_CODES } from '../../../domain/triad-codes.js';
import { triadCensus } from './census.js';
import { buildGraph, sourceFromEdges, type SynapseType } from './graph.js';
import { bruteCensus, randomSource, withoutNode } from './test/reference-implementations.js';

/** One 3-node graph per class, after the drawings of Holland and Leinhardt (as NetworkX's triad_type reads them). */
const TRIADS: Record<(typeof TRIAD_CODES)[number], Array<[number, number]>> = {
  '003': [],
  '012': [[0, 1]],
  '102': [[0, 1], [1, 0]],
  '021D': [[1, 0], [1, 2]],
  '021U': [[0, 1], [2, 1]],
  '021C': [[0, 1], [1, 2]],
  '111D': [[0, 1], [1, 0], [2, 1]],
  '111U': [[0, 1], [1, 0], [1, 2]],
  '030T': [[0, 1], [0, 2], [1, 2]],
  '030C': [[0, 1], [1, 2], [2, 0]],
  '201': [[0, 1], [1, 0], [1, 2], [2, 1]],
  '120D': [[1, 0], [1, 2], [0, 2], [2, 0]],
  '120U': [[0, 1], [2, 1], [0, 2], [2, 0]],
  '120C': [[0, 1], [1, 2], [0, 2], [2, 0]],
  '210': [[0, 1], [1, 0], [1, 2], [2, 1], [0, 2]],
  '300': [[0, 1], [1, 0], [1, 2], [2, 1], [0, 2], [2, 0]],
};

const unit = (code: string) => TRIAD_CODES.map((c) => (c === code ? 1 : 0));

describe('triadCensus', () => {
  for (const code of TRIAD_CODES) {
    it(`recognises a lone ${code} triad, in every labelling of its three nodes`, () => {
      for (const perm of [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]) {
        const arcs = TRIADS[code].map(([a, b]): [number, number, number] => [perm[a], perm[b], 1]);
        const g = buildGraph(sourceFromEdges(3, arcs), 'chemical');
        const result = triadCensus(g, { perNode: true });
        expect(result.census).toEqual(unit(code));
        for (let i = 0; i < 3; i++) expect(Array.from(result.perNode!.counts.subarray(16 * i, 16 * i + 16))).toEqual(unit(code));
      }
    });
  }

  it('ignores self-loops', () => {
    const g = buildGraph(sourceFromEdges(3, [[0, 0, 1], [0, 1, 1], [2, 2, 4]]), 'chemical');
    expect(triadCensus(g).census).toEqual(unit('012'));
  });

  it('counts an undirected graph as the directed graph with both arcs of each edge', () => {
    // A triangle 0-1-2, a pendant 3 on 2, an isolated 4 and a loop on 4.
    const g = buildGraph(sourceFromEdges(5, [], [[0, 1, 1], [1, 2, 1], [0, 2, 1], [2, 3, 1], [4, 4, 1]]), 'electrical');
    const census = triadCensus(g).census;
    const expected = Object.fromEntries(TRIAD_CODES.map((c) => [c, 0])) as Record<string, number>;
    // {0,1,2} is 300; {0,2,3} and {1,2,3} are 201; {0,1,3} and each of the 4 edges with node 4 are 102; the rest 003.
    expected['300'] = 1;
    expected['201'] = 2;
    expected['102'] = 1 + 4;
    expected['003'] = 10 - 1 - 2 - 5;
    expect(census).toEqual(TRIAD_CODES.map((c) => expected[c]));
  });

  it('agrees with a brute-force census on random graphs of every synapse type', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const n = 5 + seed * 3;
      const src = randomSource(seed, n, 0.05 + 0.02 * (seed % 5), 0.04, 3);
      for (const type of ['chemical', 'electrical', 'all'] as SynapseType[]) {
        const g = buildGraph(src, type);
        const census = triadCensus(g).census;
        expect(census).toEqual(bruteCensus(g));
        expect(census.reduce((a, b) => a + b, 0)).toBe((n * (n - 1) * (n - 2)) / 6);
      }
    }
  });

  it('gives per node census(G) - census(G - v), for all nodes or the chosen ones', () => {
    for (const [seed, n, p] of [[3, 14, 0.2], [7, 20, 0.12], [11, 9, 0.5]] as const) {
      const src = randomSource(seed, n, p, 0.1, 2);
      for (const type of ['chemical', 'electrical', 'all'] as SynapseType[]) {
        const g = buildGraph(src, type);
        const full = triadCensus(g, { perNode: true });
        const chosen = triadCensus(g, { perNode: Int32Array.from([n - 1, 0, n - 1]) });
        expect(chosen.census).toEqual(full.census);
        for (let v = 0; v < n; v++) {
          const without = triadCensus(buildGraph(withoutNode(src, v), type)).census;
          const expected = full.census.map((c, i) => c - without[i]);
          expect(Array.from(full.perNode!.counts.subarray(16 * v, 16 * v + 16))).toEqual(expected);
        }
        const row = (i: number) => Array.from(chosen.perNode!.counts.subarray(16 * i, 16 * i + 16));
        expect(Array.from(chosen.perNode!.nodes)).toEqual([n - 1, 0, n - 1]);
        expect(row(0)).toEqual(Array.from(full.perNode!.counts.subarray(16 * (n - 1), 16 * n)));
        expect(row(1)).toEqual(Array.from(full.perNode!.counts.subarray(0, 16)));
        expect(row(2)).toEqual(row(0));
        // Each node's triads number C(n - 1, 2), and each triad has three nodes.
        for (let v = 0; v < n; v++) {
          expect(full.perNode!.counts.subarray(16 * v, 16 * v + 16).reduce((a, b) => a + b, 0)).toBe(((n - 1) * (n - 2)) / 2);
        }
        for (let c = 0; c < 16; c++) {
          let sum = 0;
          for (let v = 0; v < n; v++) sum += full.perNode!.counts[16 * v + c];
          expect(sum).toBe(3 * full.census[c]);
        }
      }
    }
  });

  it('reports progress as fractions, at most about a hundred times', () => {
    const g = buildGraph(randomSource(5, 300, 0.05, 0), 'chemical');
    const seen: number[] = [];
    triadCensus(g, { onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThanOrEqual(101);
    expect(seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= seen[i - 1]))).toBe(true);
  });

  it('handles graphs with fewer than three nodes', () => {
    expect(triadCensus(buildGraph(sourceFromEdges(0, []), 'chemical')).census).toEqual(new Array(16).fill(0));
    const two = triadCensus(buildGraph(sourceFromEdges(2, [[0, 1, 1]]), 'chemical'), { perNode: true });
    expect(two.census).toEqual(new Array(16).fill(0));
    expect(Array.from(two.perNode!.counts)).toEqual(new Array(32).fill(0));
  });
});
