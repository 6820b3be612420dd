import { describe, expect, it } from 'vitest';
import { degreeDistribution } from './degrees.js';
import { buildGraph, sourceFromEdges } from './graph.js';

describe('degreeDistribution', () => {
  it('histograms in, out and total arcs of a directed graph, a loop once in each', () => {
    // 0 -> 1, 0 -> 2, 1 -> 2, 2 -> 2; 3 alone.
    const g = buildGraph(sourceFromEdges(4, [[0, 1, 5], [0, 2, 1], [1, 2, 1], [2, 2, 9]]), 'chemical');
    const d = degreeDistribution(g);
    expect(d.in).toEqual([{ degree: 0, count: 2 }, { degree: 1, count: 1 }, { degree: 3, count: 1 }]);
    expect(d.out).toEqual([{ degree: 0, count: 1 }, { degree: 1, count: 2 }, { degree: 2, count: 1 }]);
    expect(d.total).toEqual([{ degree: 0, count: 1 }, { degree: 2, count: 2 }, { degree: 4, count: 1 }]);
    expect(d.stats.in).toEqual({ mean: 1, median: 0.5, max: 3 });
    expect(d.stats.out).toEqual({ mean: 1, median: 1, max: 2 });
    expect(d.stats.total).toEqual({ mean: 2, median: 2, max: 4 });
  });

  it('uses the degree of the undirected graph for all three, a loop counting twice', () => {
    const g = buildGraph(sourceFromEdges(3, [], [[0, 1, 1], [1, 1, 1]]), 'electrical');
    const d = degreeDistribution(g);
    const expected = [{ degree: 0, count: 1 }, { degree: 1, count: 1 }, { degree: 3, count: 1 }];
    expect(d.in).toEqual(expected);
    expect(d.out).toEqual(expected);
    expect(d.total).toEqual(expected);
    expect(d.stats.total).toEqual({ mean: 4 / 3, median: 1, max: 3 });
  });

  it('handles the empty graph', () => {
    const d = degreeDistribution(buildGraph(sourceFromEdges(0, []), 'chemical'));
    expect(d.in).toEqual([]);
    expect(d.stats.in).toEqual({ mean: 0, median: 0, max: 0 });
  });
});
