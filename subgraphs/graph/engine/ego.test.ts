import { describe, expect, it } from 'vitest';
import { egoNetwork } from './ego.js';
import { buildGraph, sourceFromEdges } from './graph.js';

// 5 -> 3, 5 -> 1, 3 -> 0, 1 -> 4, 2 -> 5, 3 -> 1, 5 -> 5.
const g = buildGraph(sourceFromEdges(6, [[5, 3, 1], [5, 1, 2], [3, 0, 3], [1, 4, 4], [2, 5, 5], [3, 1, 6], [5, 5, 7]]), 'chemical');

describe('egoNetwork', () => {
  it('lists the center, then nodes by hop and index, with every arc among them', () => {
    const ego = egoNetwork(g, 5, 2, 'out', 100);
    expect(Array.from(ego.nodes)).toEqual([5, 1, 3, 0, 4]);
    expect(Array.from(ego.hop)).toEqual([0, 1, 1, 2, 2]);
    expect(ego.truncated).toBe(false);
    expect(ego.edges).toEqual([
      { source: 1, target: 4, weight: 4 },
      { source: 3, target: 0, weight: 3 },
      { source: 3, target: 1, weight: 6 },
      { source: 5, target: 1, weight: 2 },
      { source: 5, target: 3, weight: 1 },
      { source: 5, target: 5, weight: 7 },
    ]);
  });

  it('follows arcs backwards or both ways', () => {
    expect(Array.from(egoNetwork(g, 1, 2, 'in', 100).nodes)).toEqual([1, 3, 5, 2]);
    expect(Array.from(egoNetwork(g, 1, 1, 'both', 100).nodes)).toEqual([1, 3, 4, 5]);
  });

  it('cuts at maxNodes, keeping the nearest and then the smallest', () => {
    const ego = egoNetwork(g, 5, 2, 'out', 4);
    expect(Array.from(ego.nodes)).toEqual([5, 1, 3, 0]);
    expect(ego.truncated).toBe(true);
    expect(ego.edges.map((e) => [e.source, e.target])).toEqual([[3, 0], [3, 1], [5, 1], [5, 3], [5, 5]]);
    // Exactly as many nodes as allowed is not a cut.
    expect(egoNetwork(g, 5, 2, 'out', 5).truncated).toBe(false);
  });

  it('lists each undirected edge once, source <= target', () => {
    const e = buildGraph(sourceFromEdges(4, [], [[2, 0, 1], [0, 1, 2], [1, 1, 3], [2, 3, 4]]), 'electrical');
    const ego = egoNetwork(e, 0, 1, 'out', 10);
    expect(Array.from(ego.nodes)).toEqual([0, 1, 2]);
    expect(ego.edges).toEqual([
      { source: 0, target: 1, weight: 2 },
      { source: 0, target: 2, weight: 1 },
      { source: 1, target: 1, weight: 3 },
    ]);
  });
});
