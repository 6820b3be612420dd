import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { startTestApp, call } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';

/*
 * Every graph route against NetworkX and python-igraph (test/reference/make_reference.py, run on the shipped CSV
 * files) on all 11 shipped connectomes: counts exactly, floats within 1e-9 relative.
 */

type Census = number[];
interface PathRef {
  length: number | null;
  hops: number | null;
  path: string[];
  number_of_shortest_paths: number;
}
interface GraphRef {
  synapse_type: string;
  min_weight: number | null;
  directed: boolean;
  nodes: number;
  edges: number;
  metrics: Record<string, any>;
  triadic_census: Census;
  per_node_census?: Array<{ neuron_id: string; census: Census }>;
  shortest_paths?: Array<{ source: string; target: string; none: PathRef; distance: PathRef; inverse: PathRef; max_hops_2?: PathRef }>;
  reachability: Array<{ sources: string[]; max_hops: number; per_hop: Array<{ hop: number; new: number; cumulative: number; reached: string[] }> }>;
  reachability_curve: Array<{ k: number; total: number; mean: number; fraction: number }>;
  degree_distribution: Record<'in' | 'out' | 'total', { histogram: Array<[number, number]>; mean: number; median: number; max: number }>;
}
interface Reference {
  triad_codes: string[];
  datasets: Record<string, { cells: number; graphs: Record<string, GraphRef> }>;
}

const close = (actual: number | null, expected: number | null, what: string) => {
  if (expected === null) return expect(actual, what).toBeNull();
  expect(actual, what).not.toBeNull();
  const tolerance = 1e-9 * Math.max(1, Math.abs(expected));
  expect(Math.abs((actual as number) - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance);
};

const census = (codes: string[], values: Census) => Object.fromEntries(codes.map((c, i) => [c, values[i]]));

const ref = JSON.parse(readFileSync(new URL('./reference/connectomes.json', import.meta.url), 'utf8')) as Reference;

describe('graph routes against NetworkX and igraph on the 11 shipped connectomes', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let user: TestUser;

  beforeAll(async () => {
    // Some two thousand requests in a row: more than the per-client rate limit lets through.
    t = await startTestApp({ SEED_DATASETS: 'true', RATE_LIMIT_BURST: '100000' });
    user = await createUser(t, { accountType: 'ACADEMIC' });
  });
  afterAll(async () => t?.close());

  const graphs = () =>
    Object.entries(ref.datasets).flatMap(([slug, d]) => Object.entries(d.graphs).map(([name, g]) => ({ slug, name, g })));
  const query = (g: GraphRef) => `synapse_type=${g.synapse_type}${g.min_weight !== null ? `&min_weight=${g.min_weight}` : ''}`;
  const body = (g: GraphRef) => ({ synapse_type: g.synapse_type, ...(g.min_weight !== null ? { min_weight: g.min_weight } : {}) });

  it('metrics: every field', async () => {
    expect(Object.keys(ref.datasets)).toHaveLength(11);
    for (const { slug, name, g } of graphs()) {
      const what = `${slug} ${name}`;
      const res = await call(t.url, 'GET', `/v1/graph/${slug}/metrics?${query(g)}`, { token: user.accessToken });
      expect(res.status, what).toBe(200);
      const m = res.body;
      expect({ slug: m.slug, version: m.version, synapse_type: m.synapse_type, min_weight: m.min_weight, directed: m.directed, nodes: m.nodes, edges: m.edges }, what).toEqual({
        slug,
        version: 1,
        synapse_type: g.synapse_type,
        min_weight: g.min_weight,
        directed: g.directed,
        nodes: g.nodes,
        edges: g.edges,
      });
      const x = g.metrics;
      for (const k of ['self_loops', 'max_in_degree', 'max_out_degree']) expect(m[k], `${what} ${k}`).toBe(x[k]);
      for (const k of ['dyads', 'weakly_connected_components', 'strongly_connected_components']) expect(m[k], `${what} ${k}`).toEqual(x[k]);
      for (const k of ['total_weight', 'density', 'reciprocity', 'reciprocity_excluding_self_loops', 'average_clustering_undirected', 'transitivity_undirected']) {
        close(m[k], x[k], `${what} ${k}`);
      }
      for (const k of ['top_in_strength', 'top_out_strength']) {
        expect(m[k].map((e: { neuron_id: string; value: number }) => [e.neuron_id, e.value]), `${what} ${k}`).toEqual(x[k].map((e: { neuron_id: string; value: number }) => [e.neuron_id, e.value]));
      }
      expect(m.conventions.length, what).toBeGreaterThan(2);
    }
  });

  it('triad census, exact, and per cell for the sampled cells', async () => {
    for (const { slug, name, g } of graphs()) {
      const what = `${slug} ${name}`;
      const cells = g.per_node_census?.map((c) => c.neuron_id);
      const res = await call(t.url, 'POST', `/v1/graph/${slug}/motifs`, { token: user.accessToken, body: { ...body(g), ...(cells ? { per_node: cells } : {}) } });
      expect(res.status, what).toBe(200);
      expect(res.body.triadic_census, what).toEqual(census(ref.triad_codes, g.triadic_census));
      expect(res.body.triads, what).toBe((g.nodes * (g.nodes - 1) * (g.nodes - 2)) / 6);
      if (g.per_node_census) {
        const byId = new Map(res.body.per_node.map((p: { neuron_id: string; census: unknown }) => [p.neuron_id, p.census]));
        for (const c of g.per_node_census) expect(byId.get(c.neuron_id), `${what} ${c.neuron_id}`).toEqual(census(ref.triad_codes, c.census));
      } else {
        expect(res.body.per_node, what).toBeNull();
      }
    }
  });

  // One test per connectome: some four hundred path requests in all, too many for one test's time limit on a busy machine.
  it.each(Object.keys(ref.datasets))('shortest paths on %s: length, hops, the smallest path and the number of shortest paths, unweighted and weighted', async (only) => {
    for (const { slug, name, g } of graphs().filter((x) => x.slug === only)) {
      for (const p of g.shortest_paths ?? []) {
        const cases: Array<[string, PathRef, Record<string, unknown>]> = [
          ['none', p.none, {}],
          ['distance', p.distance, { weighted: 'distance' }],
          ['inverse', p.inverse, { weighted: 'inverse' }],
          ...(p.max_hops_2 ? [['max_hops 2', p.max_hops_2, { max_hops: 2 }] as [string, PathRef, Record<string, unknown>]] : []),
        ];
        for (const [label, expected, extra] of cases) {
          const what = `${slug} ${name} ${p.source}->${p.target} ${label}`;
          const res = await call(t.url, 'POST', `/v1/graph/${slug}/shortest-path`, { token: user.accessToken, body: { ...body(g), source: p.source, target: p.target, ...extra } });
          expect(res.status, what).toBe(200);
          close(res.body.length, expected.length, what);
          expect(res.body.hops, what).toBe(expected.hops);
          expect(res.body.path.map((n: { neuron_id: string }) => n.neuron_id), what).toEqual(expected.path);
          expect(res.body.number_of_shortest_paths, what).toBe(expected.number_of_shortest_paths);
        }
      }
    }
  });

  it('reachability per hop, and the reachability curve averaged over every cell', async () => {
    for (const { slug, name, g } of graphs()) {
      for (const r of g.reachability) {
        const what = `${slug} ${name} from ${r.sources.join(',')}`;
        const res = await call(t.url, 'POST', `/v1/graph/${slug}/reachability`, { token: user.accessToken, body: { ...body(g), sources: r.sources, max_hops: r.max_hops, limit: 10000 } });
        expect(res.status, what).toBe(200);
        expect(res.body.per_hop, what).toEqual(r.per_hop.map(({ hop, new: n, cumulative }) => ({ hop, new: n, cumulative })));
        const reached = r.per_hop.flatMap((h) => h.reached.map((id) => [id, h.hop]));
        expect(res.body.reached.map((x: { neuron_id: string; hop: number }) => [x.neuron_id, x.hop]).sort(), what).toEqual(reached.sort());
      }
      const what = `${slug} ${name} curve`;
      const res = await call(t.url, 'POST', `/v1/graph/${slug}/reachability-curve`, { token: user.accessToken, body: { ...body(g), max_hops: g.reachability_curve.length } });
      expect(res.status, what).toBe(200);
      expect(res.body.sources, what).toBeNull();
      g.reachability_curve.forEach((point, i) => {
        expect(res.body.curve[i].hops, what).toBe(point.k);
        close(res.body.curve[i].reachable, point.mean, `${what} k=${point.k}`);
        close(res.body.curve[i].fraction, point.fraction, `${what} k=${point.k} fraction`);
      });
    }
  });

  it('degree distributions', async () => {
    for (const { slug, name, g } of graphs()) {
      const what = `${slug} ${name}`;
      const res = await call(t.url, 'GET', `/v1/analytics/graph/${slug}/degree-distribution?${query(g)}`, { token: user.accessToken });
      expect(res.status, what).toBe(200);
      for (const h of ['in', 'out', 'total'] as const) {
        const e = g.degree_distribution[h];
        expect(res.body[h].bins.map((b: { degree: number; count: number }) => [b.degree, b.count]), `${what} ${h}`).toEqual(e.histogram);
        close(res.body[h].mean, e.mean, `${what} ${h} mean`);
        close(res.body[h].median, e.median, `${what} ${h} median`);
        expect(res.body[h].max, `${what} ${h} max`).toBe(e.max);
      }
    }
  });
});
