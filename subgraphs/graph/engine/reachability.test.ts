import { describe, expect, it } from 'vitest';
import { buildGraph, sourceFromEdges, type Graph } from './graph.js';
import { reachability, reachabilityCurve } from './reachability.js';
import { randomSource } from './test/reference-implementations.js';

/** Nodes within k arcs of v, v excluded, by one plain breadth-first search. */
function reachedWithin(g: Graph, v: number, maxHops: number): number[] {
  const dist = new Map([[v, 0]]);
  let frontier = [v];
  const counts: number[] = [];
  for (let k = 1; k <= maxHops; k++) {
    const next: number[] = [];
    for (const u of frontier) {
      for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) {
        if (!dist.has(g.outNbr[e])) {
          dist.set(g.outNbr[e], k);
          next.push(g.outNbr[e]);
        }
      }
    }
    frontier = next;
    counts.push(dist.size - 1);
  }
  return counts;
}

// 0 -> 1 -> 2 -> 3, 0 -> 4, 4 -> 0, 5 alone, 6 -> 5.
const g = buildGraph(sourceFromEdges(7, [[0, 1, 1], [1, 2, 1], [2, 3, 1], [0, 4, 1], [4, 0, 1], [6, 5, 1]]), 'chemical');

describe('reachability', () => {
  it('gives the hop of first arrival and the counts per hop, sources excluded', () => {
    const r = reachability(g, [0, 0], 4);
    expect(Array.from(r.hop)).toEqual([0, 1, 2, 3, 1, -1, -1]);
    expect(r.perHop).toEqual([
      { hop: 1, new: 2, cumulative: 2 },
      { hop: 2, new: 1, cumulative: 3 },
      { hop: 3, new: 1, cumulative: 4 },
      { hop: 4, new: 0, cumulative: 4 },
    ]);
  });

  it('starts from several sources at once', () => {
    const r = reachability(g, Int32Array.from([2, 6]), 2);
    expect(Array.from(r.hop)).toEqual([-1, -1, 0, 1, -1, 1, 0]);
    expect(r.perHop.map((h) => h.cumulative)).toEqual([2, 2]);
  });

  it('follows edges either way in the electrical graph', () => {
    const e = buildGraph(sourceFromEdges(3, [], [[0, 1, 1], [1, 2, 1]]), 'electrical');
    expect(Array.from(reachability(e, [2], 2).hop)).toEqual([2, 1, 0]);
  });
});

describe('reachabilityCurve', () => {
  it('is the cumulative count for given sources', () => {
    expect(reachabilityCurve(g, [0], 3)).toEqual([2, 3, 4]);
  });

  it('is the mean over every node alone as the source, across several batches of sources', () => {
    for (const [seed, n, p] of [[1, 7, 0.2], [2, 300, 0.01], [3, 333, 0.004]] as const) {
      const r = buildGraph(randomSource(seed, n, p, 0.002, 3), 'all');
      const sums = new Array<number>(6).fill(0);
      for (let v = 0; v < n; v++) reachedWithin(r, v, 6).forEach((c, k) => (sums[k] += c));
      expect(reachabilityCurve(r, null, 6)).toEqual(sums.map((s) => s / n));
    }
    expect(reachabilityCurve(g, null, 2)).toEqual([(2 + 1 + 1 + 0 + 1 + 0 + 1) / 7, (3 + 2 + 1 + 0 + 2 + 0 + 1) / 7]);
  });

  it('reports progress', () => {
    const seen: number[] = [];
    reachabilityCurve(buildGraph(randomSource(4, 400, 0.01, 0), 'chemical'), null, 3, (f) => seen.push(f));
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((f) => f >= 0 && f <= 1)).toBe(true);
  });
});
