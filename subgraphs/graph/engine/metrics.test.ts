import { describe, expect, it } from 'vitest';
import { buildGraph, sourceFromEdges } from './graph.js';
import { graphMetrics } from './metrics.js';

describe('graphMetrics', () => {
  it('computes every metric of a small directed graph with a self-loop and an isolated node', () => {
    // 0 <-> 1, the cycle 0 -> 1 -> 2 -> 0, a loop on 2, 3 -> 1, and 4 alone.
    const g = buildGraph(
      sourceFromEdges(5, [[0, 1, 2], [1, 0, 3], [1, 2, 1], [2, 2, 4], [3, 1, 5], [2, 0, 1]]),
      'chemical',
    );
    expect(graphMetrics(g)).toEqual({
      self_loops: 1,
      total_weight: 16,
      density: 6 / 20,
      // The mutual pair gives two reciprocated arcs; the loop counts as an arc that is not.
      reciprocity: 2 / 6,
      reciprocity_excluding_self_loops: 2 / 5,
      dyads: { mutual: 1, asymmetric: 3, null: 6 },
      weakly_connected_components: { count: 2, largest: 4 },
      strongly_connected_components: { count: 3, largest: 3 },
      // Undirected: the triangle 0-1-2 and the pendant 3; clustering 1, 1/3, 1, 0, 0.
      average_clustering_undirected: (1 + 1 / 3 + 1 + 0 + 0) / 5,
      transitivity_undirected: 6 / 10,
      max_in_degree: 2,
      max_out_degree: 2,
      top_in_strength: [{ node: 1, value: 7 }, { node: 2, value: 5 }, { node: 0, value: 4 }, { node: 3, value: 0 }, { node: 4, value: 0 }],
      top_out_strength: [{ node: 2, value: 5 }, { node: 3, value: 5 }, { node: 1, value: 4 }, { node: 0, value: 2 }, { node: 4, value: 0 }],
    });
    expect(graphMetrics(g, { top: 2 }).top_out_strength).toEqual([{ node: 2, value: 5 }, { node: 3, value: 5 }]);
  });

  it('follows NetworkX for the undirected graph: no reciprocity, a self-loop counting twice in degree and strength', () => {
    const g = buildGraph(sourceFromEdges(4, [], [[0, 1, 2], [1, 2, 3], [2, 2, 4]]), 'electrical');
    expect(graphMetrics(g)).toEqual({
      self_loops: 1,
      total_weight: 9,
      density: (2 * 3) / 12,
      reciprocity: null,
      reciprocity_excluding_self_loops: null,
      dyads: { mutual: 2, asymmetric: 0, null: 4 },
      weakly_connected_components: { count: 2, largest: 3 },
      strongly_connected_components: { count: 2, largest: 3 },
      average_clustering_undirected: 0,
      transitivity_undirected: 0,
      max_in_degree: 3,
      max_out_degree: 3,
      top_in_strength: [{ node: 2, value: 11 }, { node: 1, value: 5 }, { node: 0, value: 2 }, { node: 3, value: 0 }],
      top_out_strength: [{ node: 2, value: 11 }, { node: 1, value: 5 }, { node: 0, value: 2 }, { node: 3, value: 0 }],
    });
  });

  it('gives null reciprocities without arcs, and null without non-loop arcs', () => {
    const empty = graphMetrics(buildGraph(sourceFromEdges(1, []), 'chemical'));
    expect(empty).toMatchObject({ density: 0, reciprocity: null, reciprocity_excluding_self_loops: null });
    expect(empty.dyads).toEqual({ mutual: 0, asymmetric: 0, null: 0 });
    expect(empty.weakly_connected_components).toEqual({ count: 1, largest: 1 });
    const loopOnly = graphMetrics(buildGraph(sourceFromEdges(2, [[1, 1, 3]]), 'chemical'));
    expect(loopOnly).toMatchObject({ reciprocity: 0, reciprocity_excluding_self_loops: null, self_loops: 1, density: 0.5 });
  });

  it('finds strongly connected components on a long cycle without recursion', () => {
    const n = 200_000;
    const arcs = Array.from({ length: n }, (_, i): [number, number, number] => [i, (i + 1) % n, 1]);
    const m = graphMetrics(buildGraph(sourceFromEdges(n, arcs), 'chemical'));
    expect(m.strongly_connected_components).toEqual({ count: 1, largest: n });
    expect(m.weakly_connected_components).toEqual({ count: 1, largest: n });
  });
});
