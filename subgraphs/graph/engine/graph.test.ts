import { describe, expect, it } from 'vitest';
import { buildGraph, sourceFromEdges, type Graph } from './graph.js';

const rows = (g: Graph, start: Int32Array, nbr: Int32Array, w: Float64Array) =>
  Array.from({ length: g.n }, (_, v) => Array.from({ length: start[v + 1] - start[v] }, (_, i) => [nbr[start[v] + i], w[start[v] + i]]));

// Chemical rows unsorted, a loop on 2; electrical pairs 0-1, 1-3 and a loop on 3.
const src = sourceFromEdges(
  4,
  [[2, 0, 5], [0, 1, 2], [0, 3, 1], [2, 2, 7], [1, 0, 4], [0, 2, 3]],
  [[0, 1, 10], [1, 3, 6], [3, 3, 2]],
);

describe('buildGraph', () => {
  it('builds the chemical graph as sorted out- and in-rows', () => {
    const g = buildGraph(src, 'chemical');
    expect(g).toMatchObject({ n: 4, directed: true, m: 6 });
    expect(rows(g, g.outStart, g.outNbr, g.outW)).toEqual([[[1, 2], [2, 3], [3, 1]], [[0, 4]], [[0, 5], [2, 7]], []]);
    expect(rows(g, g.inStart, g.inNbr, g.inW)).toEqual([[[1, 4], [2, 5]], [[0, 2]], [[0, 3], [2, 7]], [[0, 1]]]);
  });

  it('builds the electrical graph undirected: a pair in both rows, a loop once', () => {
    const g = buildGraph(src, 'electrical');
    expect(g).toMatchObject({ n: 4, directed: false, m: 3 });
    expect(rows(g, g.outStart, g.outNbr, g.outW)).toEqual([[[1, 10]], [[0, 10], [3, 6]], [], [[1, 6], [3, 2]]]);
    expect(g.inNbr).toBe(g.outNbr);
    expect(g.inStart).toBe(g.outStart);
  });

  it('combines both in the all graph, summing the weights of an arc present twice', () => {
    const g = buildGraph(src, 'all');
    expect(g).toMatchObject({ directed: true, m: 9 });
    expect(rows(g, g.outStart, g.outNbr, g.outW)).toEqual([
      [[1, 12], [2, 3], [3, 1]],
      [[0, 14], [3, 6]],
      [[0, 5], [2, 7]],
      [[1, 6], [3, 2]],
    ]);
    expect(rows(g, g.inStart, g.inNbr, g.inW)).toEqual([
      [[1, 14], [2, 5]],
      [[0, 12], [3, 6]],
      [[0, 3], [2, 7]],
      [[0, 1], [1, 6], [3, 2]],
    ]);
  });

  it('applies min_weight to each row before combining', () => {
    // 0->1 (2) is dropped but the electrical 0-1 (10) is kept, so 0->1 weighs 10, not 12.
    const g = buildGraph(src, 'all', 3);
    expect(rows(g, g.outStart, g.outNbr, g.outW)).toEqual([[[1, 10], [2, 3]], [[0, 14], [3, 6]], [[0, 5], [2, 7]], [[1, 6]]]);
    expect(buildGraph(src, 'chemical', 4).m).toBe(3);
    expect(buildGraph(src, 'electrical', 6).m).toBe(2);
    expect(buildGraph(src, 'chemical', null).m).toBe(6);
  });
});
