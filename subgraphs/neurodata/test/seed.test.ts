import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readdir } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { startTestApp, call } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { CONNECTOMES_DIR, connectomeCounts, createDataset } from '../../../test/kit/datasets.js';
import { neurodata } from '../index.js';

describe('the shipped datasets', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let user: TestUser;
  let folders: string[];

  beforeAll(async () => {
    t = await startTestApp({ SEED_DATASETS: 'true' });
    user = await createUser(t, { accountType: 'ACADEMIC' });
    folders = (await readdir(CONNECTOMES_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  });
  afterAll(async () => t?.close());

  it('are published on first start: the 11 connectomes and the morphologies, public, with their papers', async () => {
    const list = await call(t.url, 'GET', '/v1/neurodata/datasets?limit=50', { token: user.accessToken });
    expect(folders).toHaveLength(11);
    const slugs = list.body.items.map((d: { slug: string }) => d.slug).sort();
    expect(slugs).toEqual([...folders, 'neuron_morphologies'].sort());
    for (const d of list.body.items) expect(d).toMatchObject({ status: 'published', latest_version: 1, visibility: 'public' });
    const cook = list.body.items.find((d: { slug: string }) => d.slug === 'celegans_cook_2019_male');
    expect(cook.related_publication.doi).toBe('10.1038/s41586-019-1352-7');
    expect(cook.species.map((s: { code: string }) => s.code)).toEqual(['NCBITaxon:6239']);
    expect(cook.brain_regions.length).toBeGreaterThan(0);
    const morph = await call(t.url, 'GET', '/v1/neurodata/datasets/neuron_morphologies/versions/1', { token: user.accessToken });
    expect(morph.body.row_counts.morphologies).toBe(morph.body.assets.filter((a: { kind: string }) => a.kind === 'morphology').length);
    expect(morph.body.row_counts.morphologies).toBeGreaterThanOrEqual(10);
  });

  it('read back from the column store with exactly the counts of their dataset.json', async () => {
    const s = await neurodata.services(t.app.deps);
    for (const folder of folders) {
      const counts = await connectomeCounts(folder);
      const v = await call(t.url, 'GET', `/v1/neurodata/datasets/${folder}/versions/1`, { token: user.accessToken });
      expect(v.body.row_counts, folder).toEqual({
        neurons: counts.cells,
        connections: counts.connections,
        chemical_connections: counts.chemical_connections,
        electrical_connections: counts.electrical_connections,
        morphologies: 0,
        synapses: 0,
        roi_connections: 0,
        neuron_annotations: 0,
        rois: 0,
        neuron_rois: 0,
      });
      const stats = await s.data.connectionStats(v.body.dataset_id, 1);
      expect(stats, folder).toEqual({
        chemicalConnections: counts.chemical_connections,
        electricalConnections: counts.electrical_connections,
        totalWeightChemical: counts.total_weight_chemical,
        totalWeightElectrical: counts.total_weight_electrical,
        chemicalSelfLoops: counts.chemical_self_loops,
        electricalSelfLoops: counts.electrical_self_loops,
      });
    }
  });

  it('are not published twice when the service starts again', async () => {
    const engines = t.engines;
    await t.stop();
    t = await startTestApp({ SEED_DATASETS: 'true' }, { engines });
    user = await createUser(t, { accountType: 'ACADEMIC' });
    const list = await call(t.url, 'GET', '/v1/neurodata/datasets?limit=50', { token: user.accessToken });
    expect(list.body.total).toBe(12);
  });

  it('rename, on the next start, a shipped dataset an earlier release published under a former slug, whose old slug still resolves', async () => {
    // The state an earlier release left: the seeded dataset under its old slug, and a user's dataset holding another
    // old slug, which is theirs and stays so.
    const before = await call(t.url, 'GET', '/v1/neurodata/datasets/celegans_witvliet_2021_2', { token: user.accessToken });
    await t.app.deps.stores.relational.db.execute(sql`UPDATE neurodata.datasets SET slug = 'celegans_witvliet_2020_2' WHERE id = ${before.body.id}`);
    const theirs = await createDataset(t, user, { slug: 'celegans_witvliet_2020_5' });
    const engines = t.engines;
    await t.stop();
    t = await startTestApp({ SEED_DATASETS: 'true' }, { engines });
    const login = await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: user.email, password: user.password } });
    user = { ...user, accessToken: login.body.access_token };

    const renamed = await call(t.url, 'GET', '/v1/neurodata/datasets/celegans_witvliet_2021_2', { token: user.accessToken });
    expect(renamed.body).toMatchObject({ id: before.body.id, slug: 'celegans_witvliet_2021_2', latest_version: 1 });
    const byOld = await call(t.url, 'GET', '/v1/neurodata/datasets/celegans_witvliet_2020_2/assets?version=v1', { token: user.accessToken });
    expect(byOld.status).toBe(200);
    expect(byOld.body.items.map((a: { filename: string }) => a.filename).sort()).toEqual(['connections.csv', 'dataset.json', 'neurons.csv']);
    const page = await t.app.http.inject({ method: 'GET', url: '/datasets/celegans_witvliet_2020_2' });
    expect(page.statusCode).toBe(301);
    expect(page.headers.location).toBe('/datasets/celegans_witvliet_2021_2');

    expect((await call(t.url, 'GET', '/v1/neurodata/datasets/celegans_witvliet_2020_5', { token: user.accessToken })).body.id).toBe(theirs.id);
    const shipped = await call(t.url, 'GET', '/v1/search/datasets/celegans_witvliet_2021_5');
    expect(shipped.status).toBe(200);
    expect(shipped.body.dataset_id).not.toBe(theirs.id);
    const published = await call(t.url, 'GET', '/v1/search/fulltext?limit=50');
    expect(published.body.total).toBe(12);
  });
});
