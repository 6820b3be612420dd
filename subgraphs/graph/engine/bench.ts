/*
 * Timings of the engine on a synthetic connectome of FlyWire's size. Not a test (no timing assertions in tests):
 * run it by hand with `npx tsx subgraphs/graph/engine/bench.ts [what...]`.
 */
import { triadCensus } from './census.js';
import { buildGraph, type Graph } from './graph.js';
import { graphMetrics } from './metrics.js';
import { shortestPath } from './paths.js';
import { reachabilityCurve } from './reachability.js';
import { createRng, rewire } from './rewire.js';
import { syntheticConnectome } from './synthetic.js';

const what = new Set(process.argv.slice(2));
const wants = (name: string) => what.size === 0 || what.has(name);

function time<T>(label: string, fn: () => T): T {
  const t0 = performance.now();
  const result = fn();
  console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  return result;
}

const src = time('syntheticConnectome(139255, 3_000_000, 1)', () => syntheticConnectome(139255, 3_000_000, 1));
const g: Graph = time('buildGraph chemical', () => buildGraph(src, 'chemical'));
console.log(`n=${g.n} m=${g.m} electrical pairs=${src.elecA.length}`);
if (wants('census')) {
  const c = time('triadCensus chemical', () => triadCensus(g));
  console.log(c.census.join(' '));
  const all = time('buildGraph all', () => buildGraph(src, 'all'));
  time('triadCensus all', () => triadCensus(all));
  time('triadCensus chemical, per node for 1000 nodes', () => triadCensus(g, { perNode: Int32Array.from({ length: 1000 }, (_, i) => i * 139) }));
  time('triadCensus chemical, per node for every node', () => triadCensus(g, { perNode: true }));
}
if (wants('metrics')) time('graphMetrics chemical', () => graphMetrics(g));
if (wants('paths')) {
  time('shortestPath unweighted', () => shortestPath(g, 0, 100000));
  time('shortestPath inverse', () => shortestPath(g, 0, 100000, { weighted: 'inverse' }));
  time('shortestPath inverse, maxHops 6', () => shortestPath(g, 0, 100000, { weighted: 'inverse', maxHops: 6 }));
}
if (wants('rewire')) time('rewire chemical, 10 swaps per arc', () => rewire(g, createRng(1), 10));
if (wants('curve')) time('reachabilityCurve every source, 4 hops', () => reachabilityCurve(g, null, 4));
