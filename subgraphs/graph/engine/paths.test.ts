import { describe, expect, it } from 'vitest';
import { buildGraph, sourceFromEdges } from './graph.js';
import { shortestPath } from './paths.js';

// Two routes 0-1-3-4 and 0-2-3-4 of three arcs, and a longer light route 0-5-6-7-4.
const diamond = buildGraph(
  sourceFromEdges(8, [[0, 1, 1], [1, 3, 5], [0, 2, 3], [2, 3, 3], [3, 4, 1], [0, 5, 1], [5, 6, 1], [6, 7, 1], [7, 4, 1]]),
  'chemical',
);

describe('shortestPath', () => {
  it('counts the tied unweighted paths and returns the smallest', () => {
    expect(shortestPath(diamond, 0, 4)).toEqual({ length: 3, hops: 3, path: [0, 1, 3, 4], count: 2 });
  });

  it('weighs arcs by their weight or by its inverse', () => {
    expect(shortestPath(diamond, 0, 4, { weighted: 'distance' })).toEqual({ length: 4, hops: 4, path: [0, 5, 6, 7, 4], count: 1 });
    // 1/3 + 1/3 + 1 beats 1 + 1/5 + 1 and 4.
    expect(shortestPath(diamond, 0, 4, { weighted: 'inverse' })).toEqual({ length: 1 / 3 + 1 / 3 + 1, hops: 3, path: [0, 2, 3, 4], count: 1 });
  });

  it('keeps to at most maxHops arcs', () => {
    expect(shortestPath(diamond, 0, 4, { maxHops: 2 })).toEqual({ length: null, hops: null, path: [], count: 0 });
    expect(shortestPath(diamond, 0, 4, { maxHops: 3 })).toEqual({ length: 3, hops: 3, path: [0, 1, 3, 4], count: 2 });
    // The light route has four arcs: within three, the two heavy routes tie at 7.
    expect(shortestPath(diamond, 0, 4, { weighted: 'distance', maxHops: 3 })).toEqual({ length: 7, hops: 3, path: [0, 1, 3, 4], count: 2 });
    expect(shortestPath(diamond, 0, 4, { weighted: 'distance', maxHops: 4 })).toEqual({ length: 4, hops: 4, path: [0, 5, 6, 7, 4], count: 1 });
    expect(shortestPath(diamond, 0, 4, { weighted: 'distance', maxHops: 2 })).toEqual({ length: null, hops: null, path: [], count: 0 });
  });

  it('takes the smallest first step that still leads to the target', () => {
    const g = buildGraph(sourceFromEdges(10, [[0, 1, 1], [1, 8, 1], [0, 3, 1], [3, 9, 1], [0, 2, 1], [2, 9, 1]]), 'chemical');
    expect(shortestPath(g, 0, 9)).toEqual({ length: 2, hops: 2, path: [0, 2, 9], count: 2 });
    expect(shortestPath(g, 0, 9, { weighted: 'distance', maxHops: 5 })).toEqual({ length: 2, hops: 2, path: [0, 2, 9], count: 2 });
  });

  it('ties weighted paths by exact equality of the summed lengths', () => {
    // 1/2 + 1/2 equals 1 exactly: two shortest paths, and [0, 1, 3] is the smaller; 0.1 + 0.2 is not 0.3.
    const g = buildGraph(sourceFromEdges(4, [[0, 1, 2], [1, 3, 2], [0, 3, 1]]), 'chemical');
    expect(shortestPath(g, 0, 3, { weighted: 'inverse' })).toEqual({ length: 1, hops: 2, path: [0, 1, 3], count: 2 });
    const h = buildGraph(sourceFromEdges(3, [[0, 1, 0.1], [1, 2, 0.2], [0, 2, 0.3]]), 'chemical');
    expect(shortestPath(h, 0, 2, { weighted: 'distance' })).toEqual({ length: 0.3, hops: 1, path: [0, 2], count: 1 });
  });

  it('counts many paths through layers of ties', () => {
    // Layers of 3 nodes fully connected to the next: 3^(layers - 1) paths.
    const layers = 10;
    const arcs: Array<[number, number, number]> = [];
    for (let l = 0; l < layers - 1; l++) for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) arcs.push([1 + 3 * l + a, 1 + 3 * (l + 1) + b, 1]);
    for (let a = 0; a < 3; a++) arcs.push([0, 1 + a, 1], [1 + 3 * (layers - 1) + a, 3 * layers + 1, 1]);
    const g = buildGraph(sourceFromEdges(3 * layers + 2, arcs), 'chemical');
    const expected = 3 ** layers;
    expect(shortestPath(g, 0, 3 * layers + 1).count).toBe(expected);
    expect(shortestPath(g, 0, 3 * layers + 1, { weighted: 'distance' }).count).toBe(expected);
    expect(shortestPath(g, 0, 3 * layers + 1, { weighted: 'inverse', maxHops: 20 }).count).toBe(expected);
  });

  it('follows edges either way in the electrical graph, and arcs only forwards otherwise', () => {
    const src = sourceFromEdges(3, [[1, 0, 1], [2, 1, 1]], [[0, 1, 1], [1, 2, 1]]);
    expect(shortestPath(buildGraph(src, 'electrical'), 0, 2)).toEqual({ length: 2, hops: 2, path: [0, 1, 2], count: 1 });
    expect(shortestPath(buildGraph(src, 'chemical'), 0, 2)).toEqual({ length: null, hops: null, path: [], count: 0 });
    expect(shortestPath(buildGraph(src, 'chemical'), 2, 0)).toEqual({ length: 2, hops: 2, path: [2, 1, 0], count: 1 });
  });

  it('answers a path from a node to itself with no arcs', () => {
    for (const weighted of ['none', 'distance', 'inverse'] as const) {
      expect(shortestPath(diamond, 3, 3, { weighted })).toEqual({ length: 0, hops: 0, path: [3], count: 1 });
      expect(shortestPath(diamond, 3, 3, { weighted, maxHops: 0 })).toEqual({ length: 0, hops: 0, path: [3], count: 1 });
    }
    expect(shortestPath(diamond, 4, 0)).toEqual({ length: null, hops: null, path: [], count: 0 });
    expect(() => shortestPath(diamond, 0, 8)).toThrow(RangeError);
  });
});
