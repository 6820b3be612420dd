import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, gql } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { connectomeFile, createDataset, createTinyDataset, uploadFile } from '../../../test/kit/datasets.js';

const COOK = 'celegans_cook_2019_male';
const WITVLIET = Array.from({ length: 8 }, (_, i) => `celegans_witvliet_2021_${i + 1}`);

/** The shipped CSV read independently of the service: what a user would count with a spreadsheet. */
async function csvRows(folder: string, file: string): Promise<Record<string, string>[]> {
  const [header, ...lines] = (await connectomeFile(folder, file)).toString('utf8').trim().split(/\r?\n/);
  const keys = header.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i], v])));
}

const countBy = (rows: Record<string, string>[], key: (r: Record<string, string>) => string) => {
  const m = new Map<string, number>();
  for (const r of rows) m.set(key(r), (m.get(key(r)) ?? 0) + 1);
  return m;
};

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Two small mouse-like datasets whose cells sit in Allen Mouse Brain Atlas regions, for the atlas comparison. */
const ATLAS_A = {
  neurons: 'neuron_id,cell_class,region\na1,P,MBA:382\na2,P,MBA:985\na3,T,MBA:549\na4,S,MBA:672\na5,X,\na6,X,XYZ:1\n',
  connections: 'pre,post,synapse_type,weight\na1,a2,chemical,2\na2,a3,chemical,1\na3,a1,chemical,4\na4,a1,chemical,1\na5,a1,chemical,3\na1,a3,electrical,1\n',
};
const ATLAS_B = {
  neurons: 'neuron_id,cell_class,region\nb1,P,MBA:315\nb2,P,MBA:993\nb3,C,MBA:512\nb4,T,MBA:1097\n',
  connections: 'pre,post,synapse_type,weight\nb1,b2,chemical,1\nb2,b1,chemical,1\nb3,b4,chemical,5\n',
};

describe('analytics: summaries, comparison, z-scores, atlas comparison', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let academic: TestUser;
  let other: TestUser;
  let regular: TestUser;
  let restricted: { id: string; slug: string };
  let atlasA: { id: string; slug: string };
  let atlasB: { id: string; slug: string };

  beforeAll(async () => {
    t = await startTestApp({ SEED_DATASETS: 'true' });
    [academic, other, regular] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'REGULAR' })]);
    restricted = await createTinyDataset(t, academic, { visibility: 'restricted', title: 'Secret tiny connectome' });
    const mouse = { species: ['Mus musculus'], brain_regions: ['Isocortex'] };
    const publishWith = async (files: { neurons: string; connections: string }) => {
      const d = await createDataset(t, academic, mouse);
      expect((await uploadFile(t, academic, d.id, 'neurons.csv', files.neurons)).status).toBe(201);
      expect((await uploadFile(t, academic, d.id, 'connections.csv', files.connections)).status).toBe(201);
      expect((await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/publish`, { token: academic.accessToken })).status).toBe(201);
      return d;
    };
    atlasA = await publishWith(ATLAS_A);
    atlasB = await publishWith(ATLAS_B);
  });
  afterAll(async () => t?.close());

  const get = (path: string, token = academic.accessToken) => call(t.url, 'GET', path, { token });

  it('need an Academic account, and show nothing of a restricted dataset to others', async () => {
    for (const path of ['/v1/analytics/summary', `/v1/analytics/summary?dataset_id=${COOK}`, `/v1/analytics/comparison?datasets=${COOK},${WITVLIET[0]}`, `/v1/meta-analysis/atlas/compare?dataset_id=${atlasA.id}&reference_id=${atlasB.id}`]) {
      expect((await call(t.url, 'GET', path)).status, path).toBe(401);
      expect((await get(path, regular.accessToken)).status, path).toBe(403);
    }
    const denied = await get(`/v1/analytics/summary?dataset_id=${restricted.id}`, other.accessToken);
    expect(denied.status).toBe(403);
    expect(JSON.stringify(denied.body)).not.toMatch(/A1|B1|acetylcholine/);
    expect((await get(`/v1/analytics/comparison?datasets=${COOK},${restricted.id}`, other.accessToken)).status).toBe(403);
    expect((await get(`/v1/analytics/zscore-comparison?dataset_id=${restricted.id}&reference=${WITVLIET.slice(0, 2).join(',')}`, other.accessToken)).status).toBe(403);
    expect((await get(`/v1/meta-analysis/atlas/compare?dataset_id=${atlasA.id}&reference_id=${restricted.id}`, other.accessToken)).status).toBe(403);

    // The catalogue counts a restricted dataset the caller cannot read, but none of its rows.
    const mine = (await get('/v1/analytics/summary')).body.catalogue;
    const theirs = (await get('/v1/analytics/summary', other.accessToken)).body.catalogue;
    expect(mine.datasets).toBe(theirs.datasets);
    expect(theirs.datasets_without_data_access).toBe(mine.datasets_without_data_access + 1);
    expect(mine.neurons - theirs.neurons).toBe(3);
    expect(mine.connections - theirs.connections).toBe(3);
  });

  it('summarise one dataset with the counts of its source files', async () => {
    const res = await get(`/v1/analytics/summary?dataset_id=${COOK}&limit=500`);
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('dataset');
    expect(res.body.catalogue).toBeNull();
    const s = res.body.dataset;
    const neurons = await csvRows(COOK, 'neurons.csv');
    const connections = await csvRows(COOK, 'connections.csv');
    expect(s.slug).toBe(COOK);
    expect(s.cells).toBe(neurons.length);
    expect(s.neurons).toBe(neurons.filter((n) => n.is_neuron === 'true').length);
    const classes = countBy(neurons.filter((n) => n.cell_class), (n) => n.cell_class);
    expect(s.by_class.distinct).toBe(classes.size);
    for (const v of s.by_class.values) expect(v.n, v.value).toBe(classes.get(v.value));
    const types = countBy(neurons.filter((n) => n.cell_type), (n) => n.cell_type);
    expect(Object.fromEntries(s.by_type.values.map((v: { value: string; n: number }) => [v.value, v.n]))).toEqual(Object.fromEntries(types));
    const transmitters = countBy(neurons.flatMap((n) => (n.neurotransmitter ? n.neurotransmitter.split('|') : [])).map((x) => ({ x })), (r) => r.x);
    for (const v of s.by_neurotransmitter.values) expect(v.n, v.value).toBe(transmitters.get(v.value));
    for (const type of ['chemical', 'electrical'] as const) {
      const rows = connections.filter((c) => c.synapse_type === type);
      const weights = rows.map((c) => Number(c.weight));
      const totals = s.connections.find((c: { synapse_type: string }) => c.synapse_type === type);
      expect(totals.rows).toBe(rows.length);
      expect(totals.weight).toBeCloseTo(weights.reduce((a, b) => a + b, 0), 6);
      expect(totals.median).toBe(median(weights));
      expect(totals.max_weight).toBe(Math.max(...weights));
      const binned = s.weight_histogram.filter((b: { synapse_type: string }) => b.synapse_type === type);
      expect(binned.reduce((a: number, b: { n: number }) => a + b.n, 0)).toBe(rows.length);
      for (const b of binned) expect(weights.filter((w) => w >= b.lower && w < b.upper).length).toBe(b.n);
    }
    expect(s.morphologies).toMatchObject({ files: 0, mean_total_length: null });
    // The older form answers the same.
    const older = await get(`/v1/analytics/${COOK}/summary?limit=500`);
    expect(older.body).toEqual(res.body);
  });

  it('summarise the morphology collection and the catalogue by species, region and technique', async () => {
    const m = (await get('/v1/analytics/summary?dataset_id=neuron_morphologies')).body.dataset.morphologies;
    expect(m.files).toBeGreaterThanOrEqual(10);
    expect(m.mean_total_length).toBeGreaterThan(0);
    const c = (await get('/v1/analytics/summary')).body.catalogue;
    expect(c.datasets).toBeGreaterThanOrEqual(14);
    const worm = c.by_species.find((g: { code: string }) => g.code === 'NCBITaxon:6239');
    expect(worm.label).toBe('Caenorhabditis elegans');
    expect(worm.datasets).toBeGreaterThanOrEqual(11);
    const cook = (await get(`/v1/analytics/summary?dataset_id=${COOK}`)).body.dataset;
    expect(worm.neurons).toBeGreaterThan(cook.cells);
    expect(c.by_technique.length).toBeGreaterThan(0);
    expect(c.by_brain_region.length).toBeGreaterThan(0);
  });

  it('compare datasets side by side, and the reciprocity agrees with the graph analysis', async () => {
    const res = await get(`/v1/analytics/comparison?datasets=${COOK},${WITVLIET[0]}&metrics=cells,chemical_connections,reciprocity,chemical_density`);
    expect(res.status).toBe(200);
    expect(res.body.reference).toBe(`${COOK}@v1`);
    expect(res.body.datasets.map((d: { slug: string }) => d.slug)).toEqual([COOK, WITVLIET[0]]);
    const row = (m: string) => res.body.rows.find((r: { metric: string }) => r.metric === m);
    const cells = row('cells');
    expect(cells.differences[0]).toBe(0);
    expect(cells.differences[1]).toBe(cells.values[1] - cells.values[0]);
    expect(cells.relative_differences[1]).toBeCloseTo((cells.values[1] - cells.values[0]) / cells.values[0], 12);
    for (const [i, slug] of [COOK, WITVLIET[0]].entries()) {
      const g = (await get(`/v1/analytics/graph/${slug}/reciprocity`)).body;
      expect(row('reciprocity').values[i]).toBeCloseTo(g.reciprocity_excluding_self_loops, 12);
    }
    const bad = await get(`/v1/analytics/comparison?datasets=${COOK},${WITVLIET[0]}&metrics=cells,wiring`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/metrics: unknown "wiring"/);
    expect((await get(`/v1/analytics/comparison?datasets=${COOK}`)).status).toBe(400);
  });

  it('score a dataset against a reference set with the sample standard deviation, flagging |z| > 2', async () => {
    const reference = WITVLIET.slice(0, 7);
    const res = await get(`/v1/analytics/zscore-comparison?dataset_id=${COOK}&reference=${reference.join(',')}&metrics=cells,chemical_synapses,reciprocity`);
    expect(res.status).toBe(200);
    expect(res.body.threshold).toBe(2);
    const values = (await get(`/v1/analytics/comparison?datasets=${[COOK, ...reference].join(',')}&metrics=cells,chemical_synapses,reciprocity`)).body.rows;
    for (const row of res.body.rows) {
      const all = values.find((r: { metric: string }) => r.metric === row.metric).values as number[];
      const ref = all.slice(1);
      const mean = ref.reduce((a, b) => a + b, 0) / ref.length;
      const sd = Math.sqrt(ref.reduce((a, b) => a + (b - mean) ** 2, 0) / (ref.length - 1));
      expect(row.reference_n).toBe(7);
      expect(row.reference_mean).toBeCloseTo(mean, 9);
      expect(row.reference_sd).toBeCloseTo(sd, 9);
      expect(row.z).toBeCloseTo((all[0] - mean) / sd, 9);
      expect(row.flagged).toBe(Math.abs(row.z) > 2);
    }
    // The whole adult hermaphrodite-free male worm has far more cells than the larval brains.
    expect(res.body.rows.find((r: { metric: string }) => r.metric === 'cells').flagged).toBe(true);
    const one = await get(`/v1/analytics/zscore-comparison?dataset_id=${COOK}&reference=${WITVLIET[0]}`);
    expect(one.status).toBe(400);
    expect(one.body.error).toMatch(/reference/);
  });

  it('compare two datasets region by region at a level of the brain-region hierarchy', async () => {
    const res = await get(`/v1/meta-analysis/atlas/compare?dataset_id=${atlasA.slug}&reference_id=${atlasB.slug}&level=3`);
    expect(res.status).toBe(200);
    const r = res.body;
    expect(r.level).toBe(3);
    const region = (code: string) => r.regions.find((x: { code: string }) => x.code === code);
    expect(region('MBA:688')).toMatchObject({ label: 'Cerebral cortex', depth: 3, dataset_neurons: 2, reference_neurons: 2, dataset_neuron_fraction: 0.5, reference_neuron_fraction: 0.5, neuron_std_difference: 0 });
    expect(region('MBA:688')).toMatchObject({ dataset_outgoing_connections: 2, dataset_internal_connections: 1, reference_outgoing_connections: 2, reference_internal_connections: 2 });
    expect(region('MBA:1129')).toMatchObject({ label: 'Interbrain', dataset_neurons: 1, reference_neurons: 1 });
    // Cerebellum sits above level 3 (depth 2): it counts as itself.
    expect(region('MBA:512')).toMatchObject({ depth: 2, dataset_neurons: 0, reference_neurons: 1, in_dataset: false, in_reference: true });
    expect(region('MBA:623').neuron_std_difference).toBeCloseTo(0.25 / Math.sqrt((0.25 * 0.75) / 2), 12);
    expect(r.only_in_dataset).toEqual(['MBA:623']);
    expect(r.only_in_reference).toEqual(['MBA:512']);
    expect(r.dataset_totals).toEqual({ neurons_mapped: 4, neurons_unassigned: 2, unknown_region_codes: ['XYZ:1'], chemical_connections: 5, chemical_connections_mapped: 4 });
    // One level up everything cortical and subcortical of the cerebrum merges.
    const up = (await get(`/v1/meta-analysis/atlas/compare?dataset_id=${atlasA.slug}&reference_id=${atlasB.slug}&level=2`)).body;
    expect(up.regions.find((x: { code: string }) => x.code === 'MBA:567')).toMatchObject({ label: 'Cerebrum', dataset_neurons: 3, reference_neurons: 2 });
    // The older form takes the same parameters in a body.
    const older = await call(t.url, 'POST', '/v1/meta-analysis/atlas-compare', { token: academic.accessToken, body: { dataset_id: atlasA.slug, reference_id: atlasB.slug, level: 3 } });
    expect(older.status).toBe(200);
    expect(older.body).toEqual(r);
    const bad = await get(`/v1/meta-analysis/atlas/compare?dataset_id=${atlasA.slug}&reference_id=${atlasB.slug}&level=40`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/level/);
  });

  it('answer the same through GraphQL', async () => {
    const { body: res } = await gql(t.url, `query($d: String!, $r: String!) { atlasComparison(dataset_id: $d, reference_id: $r, level: 3) { only_in_dataset only_in_reference } analyticsSummary(dataset_id: $d) { scope dataset { cells by_region { values { value label n } } } } }`, { d: atlasA.slug, r: atlasB.slug }, academic.accessToken);
    expect(res.errors).toBeUndefined();
    expect(res.data.atlasComparison).toEqual({ only_in_dataset: ['MBA:623'], only_in_reference: ['MBA:512'] });
    expect(res.data.analyticsSummary.dataset.cells).toBe(6);
    expect(res.data.analyticsSummary.dataset.by_region.values).toContainEqual({ value: 'MBA:382', label: 'Field CA1', n: 1 });
  });
});
