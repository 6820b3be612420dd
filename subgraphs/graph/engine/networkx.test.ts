import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { triadCensus } from './census.js';
import { buildGraph, sourceFromEdges, type SynapseType } from './graph.js';
import { graphMetrics, type GraphMetrics } from './metrics.js';
import { shortestPath, type PathResult, type Weighting } from './paths.js';
import { reachabilityCurve } from './reachability.js';

/* Reference values from NetworkX on random graphs with loops and isolated nodes: fixtures/networkx-reference.py. */
interface Reference {
  cases: Array<{
    source: { n: number; chem: Array<[number, number, number]>; elec: Array<[number, number, number]> };
    graphs: Record<
      SynapseType,
      {
        census: number[];
        metrics: GraphMetrics;
        paths: Array<{ source: number; target: number; weighted: Weighting; maxHops: number | null; answer: PathResult }>;
        curve: number[];
      }
    >;
  }>;
}

const reference = JSON.parse(readFileSync(new URL('./fixtures/networkx-reference.json', import.meta.url), 'utf8')) as Reference;
const types: SynapseType[] = ['chemical', 'electrical', 'all'];

/** Equal to 1e-12 relative, recursively. */
function expectClose(actual: unknown, expected: unknown, path = ''): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    expect(Math.abs(actual - expected), `${path}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(expected)));
  } else if (expected !== null && typeof expected === 'object') {
    expect(typeof actual, path).toBe('object');
    for (const key of Object.keys(expected)) expectClose((actual as never)[key], (expected as never)[key], `${path}.${key}`);
    if (Array.isArray(expected)) expect((actual as unknown[]).length, path).toBe(expected.length);
  } else {
    expect(actual, path).toEqual(expected);
  }
}

describe('the engine against NetworkX', () => {
  reference.cases.forEach((c, i) => {
    const src = sourceFromEdges(c.source.n, c.source.chem, c.source.elec);
    for (const type of types) {
      const g = buildGraph(src, type);
      const ref = c.graphs[type];
      it(`case ${i}, ${type}: triad census`, () => {
        expect(triadCensus(g).census).toEqual(ref.census);
      });
      it(`case ${i}, ${type}: metrics`, () => {
        expectClose(graphMetrics(g), ref.metrics);
      });
      it(`case ${i}, ${type}: shortest paths, their number and the smallest`, () => {
        for (const q of ref.paths) {
          const got = shortestPath(g, q.source, q.target, { weighted: q.weighted, maxHops: q.maxHops });
          expectClose(got, q.answer, `${q.source}->${q.target} ${q.weighted} ${q.maxHops}`);
        }
      });
      it(`case ${i}, ${type}: reachability curve over every source`, () => {
        expectClose(reachabilityCurve(g, null, 4), ref.curve);
      });
    }
  });
});
