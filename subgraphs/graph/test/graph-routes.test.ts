import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fxp from 'fast-xml-parser';
import { startTestApp, call, gql } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { createConnectome, createTinyDataset } from '../../../test/kit/datasets.js';
import { TRIAD_CODES } from '../../../domain/triad-codes.js';
import { graph } from '../index.js';

const WITVLIET = Array.from({ length: 8 }, (_, i) => `celegans_witvliet_2021_${i + 1}`);

describe('graph routes: access, parameters, plots, ego networks, comparison', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let academic: TestUser;
  let other: TestUser;
  let regular: TestUser;
  let restricted: { id: string; slug: string };

  beforeAll(async () => {
    t = await startTestApp({ SEED_DATASETS: 'true' }, { listen: true });
    [academic, other, regular] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'REGULAR' })]);
    restricted = await createTinyDataset(t, academic, { visibility: 'restricted' });
  });
  afterAll(async () => t?.close());

  const metrics = (path: string, token?: string) => call(t.url, 'GET', path, { token });

  it('need an Academic account; a restricted dataset shows nothing to others; an unknown dataset is a 404', async () => {
    expect((await metrics('/v1/graph/celegans_cook_2019_male/metrics')).status).toBe(401);
    const reg = await metrics('/v1/graph/celegans_cook_2019_male/metrics', regular.accessToken);
    expect(reg.status).toBe(403);
    expect(reg.body.error).toMatch(/academic/i);
    expect((await metrics(`/v1/graph/${restricted.id}/metrics`, academic.accessToken)).body).toMatchObject({ nodes: 3, edges: 2, slug: restricted.slug });
    const denied = await metrics(`/v1/graph/${restricted.id}/metrics`, other.accessToken);
    expect(denied.status).toBe(403);
    expect(JSON.stringify(denied.body)).not.toMatch(/"nodes"|A1|B1/);
    const path = await call(t.url, 'POST', `/v1/graph/${restricted.id}/shortest-path`, { token: other.accessToken, body: { source: 'A1', target: 'C1' } });
    expect(path.status).toBe(403);
    expect((await metrics('/v1/graph/no_such_dataset/metrics', academic.accessToken)).status).toBe(404);
    expect((await metrics('/v1/graph/celegans_cook_2019_male@v9/metrics', academic.accessToken)).status).toBe(404);
  });

  it('refuse bad parameters with a 400 naming them', async () => {
    const token = academic.accessToken;
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['GET', '/v1/graph/celegans_cook_2019_male/metrics?synapse_type=gap', undefined, /synapse_type/],
      ['GET', '/v1/graph/celegans_cook_2019_male/metrics?min_weight=-1', undefined, /min_weight/],
      ['GET', '/v1/graph/celegans_cook_2019_male/metrics?top=0', undefined, /top/],
      ['POST', '/v1/graph/celegans_cook_2019_male/shortest-path', { source: 'AVAL', target: 'NOPE1' }, /target: no cell "NOPE1"/],
      ['POST', '/v1/graph/celegans_cook_2019_male/shortest-path', { source: 'AVAL' }, /target/],
      ['POST', '/v1/graph/celegans_cook_2019_male/shortest-path', { source: 'AVAL', target: 'AVAR', weighted: 'log' }, /weighted/],
      ['POST', '/v1/graph/celegans_cook_2019_male/reachability', { max_hops: 2 }, /sources/],
      ['POST', '/v1/graph/celegans_cook_2019_male/reachability', { sources: ['AVAL'], max_hops: 0 }, /max_hops/],
      ['POST', '/v1/graph/celegans_cook_2019_male/motifs', { null_model: { samples: 0 } }, /null_model.samples/],
      ['POST', '/v1/graph/celegans_cook_2019_male/motifs', { per_node: 'yes' }, /per_node/],
      ['POST', '/v1/graph/celegans_cook_2019_male/motifs', { per_node: ['AVAL', 'XYZQ'] }, /per_node: no cell "XYZQ"/],
      ['GET', '/v1/graph/compare?datasets=celegans_cook_2019_male', undefined, /datasets/],
      ['GET', '/v1/graph/celegans_cook_2019_male/neighbourhood?neuron=AVAL&hops=4', undefined, /hops/],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await call(t.url, method, path, { token, body });
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toMatch(message);
    }
  });

  it('find no path as a 200 with length null, and a cell by name or by id', async () => {
    // AVAL has no arcs into the sensory cell ADEL's... a muscle has no outgoing chemical arcs at all.
    const none = await call(t.url, 'POST', '/v1/graph/celegans_cook_2019_male/shortest-path', { token: academic.accessToken, body: { source: 'hyp', target: 'AVAL' } });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ length: null, hops: null, path: [], number_of_shortest_paths: 0, length_unit: 'arcs' });
    const tiny = await call(t.url, 'POST', `/v1/graph/${restricted.id}/shortest-path`, { token: academic.accessToken, body: { source: 'A1', target: 'C1', weighted: 'distance' } });
    expect(tiny.body).toMatchObject({ length: 5, hops: 2, number_of_shortest_paths: 1, length_unit: 'weight' });
    expect(tiny.body.path.map((n: { neuron_id: string }) => n.neuron_id)).toEqual(['A1', 'B1', 'C1']);
    const electrical = await call(t.url, 'POST', `/v1/graph/${restricted.id}/shortest-path`, { token: academic.accessToken, body: { source: 'C1', target: 'A1', synapse_type: 'electrical' } });
    expect(electrical.body).toMatchObject({ length: 1, directed: false });
  });

  it('draw plots as SVG at their .svg routes, and by ?format=svg or by Accept', async () => {
    const svgOf = async (res: Response) => {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      const text = await res.text();
      expect(fxp.validate(text)).toBe(true);
      expect(text).not.toMatch(/NaN|undefined|Infinity/);
      return text;
    };
    const auth = { authorization: `Bearer ${academic.accessToken}` };
    const degrees = await svgOf(await fetch(`${t.url}/v1/analytics/graph/celegans_cook_2019_male/degree-distribution?format=svg`, { headers: auth }));
    expect(degrees).toContain('in-degree');
    await svgOf(await fetch(`${t.url}/v1/analytics/celegans_cook_2019_male/degree-distribution`, { headers: { ...auth, accept: 'image/svg+xml' } }));
    const curve = await svgOf(
      await fetch(`${t.url}/v1/graph/celegans_cook_2019_male/reachability-curve?format=svg`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ sources: ['AVAL'], max_hops: 5 }),
      }),
    );
    expect(curve).toContain('AVAL');
    const ego = await svgOf(await fetch(`${t.url}/v1/graph/celegans_cook_2019_male/neighbourhood?neuron=AVAL&format=svg`, { headers: auth }));
    expect(ego).toContain('AVAL');
    // Each plot has its own route, answering the same picture as the alias.
    const text = async (res: Awaited<ReturnType<typeof call>>) => {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      return svgOf(new Response(String(res.body), { headers: { 'content-type': res.headers.get('content-type')! } }));
    };
    expect(await text(await call(t.url, 'GET', '/v1/analytics/graph/celegans_cook_2019_male/degree-distribution.svg', { token: academic.accessToken }))).toBe(degrees);
    expect(await text(await call(t.url, 'POST', '/v1/graph/celegans_cook_2019_male/reachability-curve.svg', { token: academic.accessToken, body: { sources: ['AVAL'], max_hops: 5 } }))).toBe(curve);
    expect(await text(await call(t.url, 'GET', '/v1/graph/celegans_cook_2019_male/neighbourhood.svg?neuron=AVAL', { token: academic.accessToken }))).toBe(ego);
    const json = await call(t.url, 'GET', '/v1/analytics/graph/celegans_cook_2019_male/degree-distribution', { token: academic.accessToken });
    expect(json.body.svg).toBeNull();
    expect(json.body.in.bins.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(json.body.nodes);
  });

  it('give an ego network as Cytoscape.js JSON with positions: the centre and exactly its neighbours', async () => {
    const res = await call(t.url, 'GET', '/v1/graph/celegans_cook_2019_male/neighbourhood?neuron=AVAL&hops=1&direction=both', { token: academic.accessToken });
    expect(res.status).toBe(200);
    const { nodes, edges } = res.body.cytoscape.elements;
    expect(nodes[0].data).toMatchObject({ id: 'AVAL', center: true, hop: 0 });
    for (const n of nodes) expect(Number.isFinite(n.position.x) && Number.isFinite(n.position.y)).toBe(true);
    const ids = new Set(nodes.map((n: { data: { id: string } }) => n.data.id));
    for (const e of edges) expect(ids.has(e.data.source) && ids.has(e.data.target)).toBe(true);
    const reach = await call(t.url, 'POST', '/v1/graph/celegans_cook_2019_male/reachability', { token: academic.accessToken, body: { source: 'AVAL', max_hops: 1 } });
    const outs = reach.body.reached.map((r: { neuron_id: string }) => r.neuron_id);
    for (const id of outs) expect(ids.has(id)).toBe(true);
    expect(res.body).toMatchObject({ network_nodes: nodes.length, network_edges: edges.length, truncated: false });
    const capped = await call(t.url, 'GET', '/v1/graph/celegans_cook_2019_male/neighbourhood?neuron=AVAL&hops=2&max_nodes=10', { token: academic.accessToken });
    expect(capped.body).toMatchObject({ network_nodes: 10, truncated: true });
  });

  it('z-scores of a null model are reproducible with the same seed', async () => {
    const run = (seed: number) =>
      call(t.url, 'POST', '/v1/graph/celegans_witvliet_2021_8/motifs', { token: academic.accessToken, body: { null_model: { samples: 5, seed, swaps_per_edge: 3 } } });
    const [a, b, c] = await Promise.all([run(7), run(7), run(8)]);
    expect(a.body.null_model).toEqual(b.body.null_model);
    expect(a.body.null_model).not.toEqual(c.body.null_model);
    expect(a.body.null_model).toMatchObject({ samples: 5, seed: 7, swaps_per_edge: 3 });
    // Degree-preserving: the 012 + 102 + ... means keep the number of connected dyads' ends, and 003 stays the largest class.
    expect(Object.keys(a.body.null_model.z)).toEqual(Object.keys(a.body.triadic_census));
    expect(a.body.conventions.some((s: string) => s.startsWith('null model'))).toBe(true);
    const sides = await call(t.url, 'POST', '/v1/graph/celegans_witvliet_2021_8/motifs/compare-synapse-types', { token: academic.accessToken, body: { null_model: { samples: 3 } } });
    expect(sides.status).toBe(200);
    expect(sides.body.chemical.directed).toBe(true);
    expect(sides.body.electrical.directed).toBe(false);
    for (const code of ['012', '021D', '030T', '111U']) expect(sides.body.electrical.triadic_census[code]).toBe(0);
    expect(sides.body.electrical.null_model.samples).toBe(3);
  });

  it('write each census in the standard order of the triad classes', async () => {
    const res = await fetch(`${t.url}/v1/graph/celegans_witvliet_2021_8/motifs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${academic.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ per_node: ['AVAL'] }),
    });
    const text = await res.text();
    expect([...text.matchAll(/"(\d{3}[CDTU]?)":/g)].map((m) => m[1])).toEqual([...TRIAD_CODES, ...TRIAD_CODES]);
  });

  it('compare the eight Witvliet stages side by side, by query and by body', async () => {
    const get = await call(t.url, 'GET', `/v1/graph/compare?datasets=${WITVLIET.join(',')}`, { token: academic.accessToken });
    expect(get.status).toBe(200);
    expect(get.body.items.map((i: { metrics: { slug: string } }) => i.metrics.slug)).toEqual(WITVLIET);
    expect(get.body.reference).toBe(WITVLIET[0]);
    expect(get.body.items[0].difference.edges).toBe(0);
    const last = get.body.items[7];
    expect(last.difference.edges).toBe(last.metrics.edges - get.body.items[0].metrics.edges);
    // The adult has more chemical connections than the first larval stage (Witvliet et al. 2021, Fig. 2).
    expect(last.difference.edges).toBeGreaterThan(0);
    const post = await call(t.url, 'POST', '/v1/graph/compare', { token: academic.accessToken, body: { datasets: WITVLIET.slice(0, 2), synapse_type: 'electrical' } });
    expect(post.body.items).toHaveLength(2);
    expect(post.body.synapse_type).toBe('electrical');
  });

  it('answers the full analysis in one response, and the analytics summaries', async () => {
    const full = await call(t.url, 'POST', '/v1/graph/celegans_witvliet_2021_1/full-analysis', {
      token: academic.accessToken,
      body: { source: 'AVAL', target: 'AVAR', sources: ['AVAL'], null_model: { samples: 2 } },
    });
    expect(full.status).toBe(200);
    expect(full.body.status).toBe('complete');
    expect(full.body.job).toBeNull();
    const m = await call(t.url, 'GET', '/v1/graph/celegans_witvliet_2021_1/metrics', { token: academic.accessToken });
    expect(full.body.metrics.density).toBe(m.body.density);
    expect(full.body.motifs.null_model.samples).toBe(2);
    expect(full.body.shortest_path.source.neuron_id).toBe('AVAL');
    expect(full.body.reachability.sources[0].neuron_id).toBe('AVAL');
    expect(full.body.reachability_curve.curve).toHaveLength(10);
    const summary = await call(t.url, 'GET', '/v1/analytics/graph/celegans_witvliet_2021_1/summary', { token: academic.accessToken });
    expect(summary.body).toMatchObject({ nodes: m.body.nodes, edges: m.body.edges, density: m.body.density });
    expect(summary.body.mean_degree).toBeCloseTo(m.body.edges / m.body.nodes, 12);
    const older = await call(t.url, 'GET', '/v1/analytics/celegans_witvliet_2021_1/graph-summary', { token: academic.accessToken });
    expect(older.body).toEqual(summary.body);
    const rec = await call(t.url, 'GET', '/v1/analytics/celegans_witvliet_2021_1/reciprocity', { token: academic.accessToken });
    expect(rec.body).toMatchObject({ reciprocity: m.body.reciprocity, dyads: m.body.dyads, reciprocated_arcs: 2 * m.body.dyads.mutual });
  });

  it('run the full analysis for a job with progress, whatever its size, with the same answer', async () => {
    const ctx = { viewer: { id: academic.id, accountType: 'ACADEMIC' as const, verified: true, tokenId: 'job' }, log: t.app.deps.log };
    const steps: Array<{ step: string; fraction: number }> = [];
    const { graph: service } = await graph.services(t.app.deps);
    const job = await service.fullAnalysis(ctx, { dataset_id: 'celegans_witvliet_2021_3', null_model: { samples: 3 } }, { asJob: true, onProgress: (p) => steps.push(p) });
    expect(job.status).toBe('complete');
    expect(steps.at(-1)).toEqual({ step: 'done', fraction: 1 });
    expect(steps.map((s) => s.step)).toEqual(expect.arrayContaining(['metrics', 'degree distribution']));
    for (let i = 1; i < steps.length; i++) expect(steps[i].fraction).toBeGreaterThanOrEqual(steps[i - 1].fraction);
    const viaRest = await call(t.url, 'POST', '/v1/graph/celegans_witvliet_2021_3/full-analysis', { token: academic.accessToken, body: { null_model: { samples: 3 } } });
    expect(viaRest.body.motifs.null_model.z).toEqual(job.motifs!.null_model!.z);
    expect(viaRest.body.metrics.density).toBe(job.metrics!.density);
  });

  it('answer the same through GraphQL', async () => {
    const res = await gql(
      t.url,
      `{ graphMotifs(dataset_id: "celegans_cook_2019_male", per_node: ["AVAL"]) { nodes triadic_census per_node { neuron_id census } }
         graphMetrics(dataset_id: "celegans_cook_2019_male", synapse_type: electrical) { directed reciprocity dyads { mutual asymmetric } } }`,
      {},
      academic.accessToken,
    );
    expect(res.body.errors).toBeUndefined();
    const census = res.body.data.graphMotifs.per_node[0].census as Record<string, number>;
    expect(Object.values(census).reduce((a, b) => a + b, 0)).toBe(((res.body.data.graphMotifs.nodes - 1) * (res.body.data.graphMotifs.nodes - 2)) / 2);
    expect(res.body.data.graphMetrics).toMatchObject({ directed: false, reciprocity: null, dyads: { asymmetric: 0 } });
  });

  it('reads a draft afresh for its owner, and keeps published graphs in object storage', async () => {
    const draft = await createConnectome(t, academic, { folder: 'celegans_witvliet_2021_2', publish: false });
    const res = await call(t.url, 'GET', `/v1/graph/${draft.id}/metrics?version=draft`, { token: academic.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.nodes).toBeGreaterThan(100);
    expect((await call(t.url, 'GET', `/v1/graph/${draft.id}/metrics?version=draft`, { token: other.accessToken })).status).toBe(404);
    const kept = await t.app.deps.stores.objects.list('graph-cache/');
    expect(kept.some((k) => k.includes('/v1.ndgraph'))).toBe(true);
    expect(kept.some((k) => k.startsWith(`graph-cache/${draft.id}/`))).toBe(false);
  });
});
