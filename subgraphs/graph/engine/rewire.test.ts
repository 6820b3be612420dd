import { describe, expect, it } from 'vitest';
import { triadCensus } from './census.js';
import { buildGraph, sourceFromEdges, type Graph } from './graph.js';
import { createRng, nullModelCensus, nullModelSamples, rewire, seedState, summariseNullModel } from './rewire.js';
import { randomSource } from './test/reference-implementations.js';

const degrees = (g: Graph, start: Int32Array) => Array.from({ length: g.n }, (_, v) => start[v + 1] - start[v]);
const arcList = (g: Graph) => {
  const out: string[] = [];
  for (let u = 0; u < g.n; u++) for (let e = g.outStart[u]; e < g.outStart[u + 1]; e++) out.push(`${u}>${g.outNbr[e]}`);
  return out;
};
const loops = (g: Graph) => arcList(g).filter((a) => a.split('>')[0] === a.split('>')[1]);

describe('createRng', () => {
  it('gives the same uint32 stream for the same seed, and another for another seed', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const xs = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(xs);
    expect(Array.from({ length: 5 }, c)).not.toEqual(xs);
    expect(xs.every((x) => Number.isInteger(x) && x >= 0 && x < 2 ** 32)).toBe(true);
  });
});

describe('rewire', () => {
  const src = randomSource(9, 60, 0.08, 0.05, 4);

  it('keeps every in- and out-degree and the self-loops, and creates no loop or parallel arc', () => {
    for (const type of ['chemical', 'all'] as const) {
      const g = buildGraph(src, type);
      const r = rewire(g, createRng(1), 10);
      expect(r.m).toBe(g.m);
      expect(degrees(r, r.outStart)).toEqual(degrees(g, g.outStart));
      expect(degrees(r, r.inStart)).toEqual(degrees(g, g.inStart));
      expect(loops(r)).toEqual(loops(g));
      expect(new Set(arcList(r)).size).toBe(r.m);
      // Something moved.
      expect(arcList(r)).not.toEqual(arcList(g));
    }
  });

  it('keeps every degree of the undirected graph', () => {
    const g = buildGraph(src, 'electrical');
    const r = rewire(g, createRng(2), 10);
    expect(r.directed).toBe(false);
    expect(r.m).toBe(g.m);
    expect(degrees(r, r.outStart)).toEqual(degrees(g, g.outStart));
    expect(loops(r)).toEqual(loops(g));
    const arcs = arcList(r);
    expect(new Set(arcs).size).toBe(arcs.length);
    // Both rows hold each edge.
    for (const a of arcs) expect(arcs).toContain(a.split('>').reverse().join('>'));
    expect(arcs).not.toEqual(arcList(g));
  });

  it('is reproducible by seed', () => {
    const g = buildGraph(src, 'chemical');
    expect(arcList(rewire(g, createRng(5), 3))).toEqual(arcList(rewire(g, createRng(5), 3)));
    expect(arcList(rewire(g, createRng(5), 3))).not.toEqual(arcList(rewire(g, createRng(6), 3)));
  });
});

describe('nullModelCensus', () => {
  it('gives mean, sample sd and z, the same for the same seed', () => {
    const g = buildGraph(randomSource(3, 40, 0.1, 0), 'chemical');
    const observed = triadCensus(g).census;
    const a = nullModelCensus(g, observed, { samples: 5, seed: 7 });
    const b = nullModelCensus(g, observed, { samples: 5, seed: 7 });
    expect(a).toEqual(b);
    expect(a).toMatchObject({ samples: 5, seed: 7, swaps_per_edge: 10 });
    // Rewiring keeps the number of arcs, so each sample's census has the same total and 012+102 dyad structure varies.
    expect(a.mean.reduce((x, y) => x + y, 0)).toBeCloseTo((40 * 39 * 38) / 6, 6);
    for (let c = 0; c < 16; c++) {
      if (a.sd[c] === 0) expect(a.z[c]).toBeNull();
      else expect(a.z[c]).toBeCloseTo((observed[c] - a.mean[c]) / a.sd[c], 12);
    }
    expect(nullModelCensus(g, observed, { samples: 5, seed: 8 })).not.toEqual(a);
  });

  it('gives z null where every sample agrees', () => {
    // A complete digraph admits no swap: every sample is the graph itself.
    const arcs: Array<[number, number, number]> = [];
    for (let a = 0; a < 4; a++) for (let b = 0; b < 4; b++) if (a !== b) arcs.push([a, b, 1]);
    const g = buildGraph(sourceFromEdges(4, arcs), 'chemical');
    const result = nullModelCensus(g, triadCensus(g).census, { samples: 3, seed: 1, swapsPerEdge: 2 });
    expect(result.sd).toEqual(new Array(16).fill(0));
    expect(result.z).toEqual(new Array(16).fill(null));
    expect(result.mean[15]).toBe(4);
  });
});

describe('nullModelSamples', () => {
  it('gives in pieces exactly the numbers of one run, so a long null model can yield its thread between pieces', () => {
    const g = buildGraph(randomSource(4, 40, 0.1, 0), 'chemical');
    const observed = triadCensus(g).census;
    const whole = nullModelCensus(g, observed, { samples: 7, seed: 11, swapsPerEdge: 3 });
    let state = seedState(11);
    const all: number[][] = [];
    for (const piece of [3, 1, 3]) {
      const r = nullModelSamples(g, { state, samples: piece, swapsPerEdge: 3 });
      expect(r.censuses).toHaveLength(piece);
      all.push(...r.censuses);
      state = r.state;
    }
    expect(summariseNullModel(observed, all, { seed: 11, swapsPerEdge: 3 })).toEqual(whole);
  });

  it('stops at its time budget after at least one sample', () => {
    const g = buildGraph(randomSource(4, 40, 0.1, 0), 'chemical');
    expect(nullModelSamples(g, { state: seedState(1), samples: 50, swapsPerEdge: 3, budgetMs: 0 }).censuses).toHaveLength(1);
  });
});
