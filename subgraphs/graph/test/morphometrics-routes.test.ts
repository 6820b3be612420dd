import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { startTestApp, call, gql } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { createDataset, uploadFile } from '../../../test/kit/datasets.js';
import { expectAgrees } from '../morphometrics/test/agreement.js';

/** fixtures/morphometrics_reference.py's values for every shipped SWC file, keyed by path under seed/morphology/. */
const REFERENCE = JSON.parse(readFileSync(new URL('../morphometrics/fixtures/morphometrics_reference.json', import.meta.url), 'utf8')) as {
  files: Record<string, Record<string, unknown> & { sholl_fixed: { radii: number[]; crossings: number[] } }>;
  distributions: Record<string, { values: number[] } & Record<string, number>>;
};
const byFileName = new Map(Object.entries(REFERENCE.files).map(([path, ref]) => [path.split('/').pop()!, ref]));
const COLLECTION = 'neuron_morphologies';

type FileMeasures = { neuron: string; file: string; morphometrics: Record<string, unknown> | null; error: string | null };

describe('GET /v1/analytics/morphometrics', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let academic: TestUser;
  let other: TestUser;
  let regular: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ SEED_DATASETS: 'true' });
    [academic, other, regular] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'REGULAR' })]);
  });
  afterAll(async () => t?.close());

  const get = (path: string, token = academic.accessToken) => call(t.url, 'GET', path, { token });

  it('measures every shipped SWC file as the independent numpy script does, and gives the distribution over them', async () => {
    const res = await get(`/v1/analytics/morphometrics?dataset_id=${COLLECTION}`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({ neuron: null, total_files: 10, measured_files: 10, failed_files: 0, sholl_step: 10 });
    expect(body.files).toHaveLength(10);
    for (const f of body.files as FileMeasures[]) {
      const ref = byFileName.get(f.file);
      expect(ref, f.file).toBeDefined();
      const { sholl_fixed, neurom_published, ...expected } = ref!;
      void sholl_fixed;
      void neurom_published;
      expect(f.error).toBeNull();
      expectAgrees(f.morphometrics, expected, f.file);
    }
    for (const [measure, d] of Object.entries(REFERENCE.distributions)) {
      const got = body.distribution.find((x: { measure: string }) => x.measure === measure);
      const { values, ...summary } = d;
      void values;
      expectAgrees(got, { measure, ...summary }, `distribution.${measure}`);
    }
  });

  it("measures one neuron, with the caller's Sholl radii, also in the older form", async () => {
    const all = (await get(`/v1/analytics/morphometrics?dataset_id=${COLLECTION}&limit=1`)).body;
    const neuron = all.files[0].neuron as string;
    const ref = byFileName.get(all.files[0].file)!;
    const radii = ref.sholl_fixed.radii;
    const one = await get(`/v1/analytics/morphometrics?dataset_id=${COLLECTION}&neuron=${encodeURIComponent(neuron)}&${radii.map((r) => `sholl_radii=${r}`).join('&')}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ neuron, total_files: 1, sholl_step: null });
    expect(one.body.files[0].morphometrics.sholl.radii).toEqual(radii);
    expect(one.body.files[0].morphometrics.sholl.crossings).toEqual(ref.sholl_fixed.crossings);
    const older = await get(`/v1/analytics/${COLLECTION}/neuron-morphometrics?neuron=${encodeURIComponent(neuron)}&${radii.map((r) => `sholl_radii=${r}`).join('&')}`);
    expect(older.body).toEqual(one.body);
    const { body: g } = await gql(t.url, 'query($d: String!, $n: String) { analyticsMorphometrics(dataset_id: $d, neuron: $n) { files { morphometrics { n_tips total_length } } } }', { d: COLLECTION, n: neuron }, academic.accessToken);
    expect(g.data.analyticsMorphometrics.files[0].morphometrics).toEqual({ n_tips: ref.n_tips, total_length: expect.closeTo(ref.total_length as number, 9) });
  });

  it('never fails a dataset for one file: an SWC with out-of-range coordinates is refused at upload, and one stored before is reported as failed', async () => {
    const d = await createDataset(t, academic, { visibility: 'public' });
    const huge = await uploadFile(t, academic, d.id, 'huge.swc', '1 1 0 0 0 1 -1\n2 3 1e308 0 0 1 1\n3 3 -1e308 0 0 1 2\n', 'text/plain');
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatch(/huge\.swc line 2: x 1e308 \(field 3\) is out of range: coordinates must lie within -1e\+7 and 1e\+7/);
    expect(huge.body.error).toMatch(/line 3: x -1e308/);
    const wide = await uploadFile(t, academic, d.id, 'wide.swc', '1 1 0 0 0 -2 -1\n', 'text/plain');
    expect(wide.status).toBe(400);
    expect(wide.body.error).toMatch(/wide\.swc line 1: radius -2 \(field 6\) is out of range: a radius must lie within 0 and 1e\+5/);

    // A file stored before the ranges were checked: its stored bytes now hold coordinates whose measures overflow.
    expect((await uploadFile(t, academic, d.id, 'good.swc', '1 1 0 0 0 1 -1\n2 3 0 5 0 0.5 1\n', 'text/plain')).status).toBe(201);
    const old = await uploadFile(t, academic, d.id, 'old.swc', '1 1 0 0 0 1 -1\n2 3 0 7 0 0.5 1\n', 'text/plain');
    expect(old.status).toBe(201);
    const [oldKey] = await t.app.stores.objects.list(`datasets/${d.id}/assets/${old.body.items[0].sha256}`);
    await t.app.stores.objects.put(oldKey, '1 1 0 0 0 1 -1\n2 3 1e308 0 0 1 1\n3 3 -1e308 0 0 1 2\n', 'text/plain');
    expect((await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/publish`, { token: academic.accessToken })).status).toBe(201);

    const res = await get(`/v1/analytics/morphometrics?dataset_id=${d.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ total_files: 2, measured_files: 2, failed_files: 1 });
    const byFile = Object.fromEntries((res.body.files as FileMeasures[]).map((f) => [f.file, f]));
    expect(byFile['good.swc'].morphometrics).toMatchObject({ n_points: 2, total_length: 0 });
    expect(byFile['old.swc'].morphometrics).toBeNull();
    expect(byFile['old.swc'].error).toMatch(/old\.swc line 2: x 1e308 \(field 3\) is out of range/);
    expect(res.body.distribution.find((x: { measure: string }) => x.measure === 'n_points')).toMatchObject({ measure: 'n_points' });
  });

  it('refuses bad parameters, unknown cells and callers without access', async () => {
    const cases: Array<[string, number, RegExp]> = [
      [`/v1/analytics/morphometrics?dataset_id=${COLLECTION}&sholl_step=0`, 400, /sholl_step/],
      [`/v1/analytics/morphometrics?dataset_id=${COLLECTION}&sholl_step=5&sholl_radii=10`, 400, /sholl_radii, sholl_step/],
      [`/v1/analytics/morphometrics?dataset_id=${COLLECTION}&sholl_radii=-1`, 400, /sholl_radii/],
      [`/v1/analytics/morphometrics?dataset_id=${COLLECTION}&limit=0`, 400, /limit/],
      [`/v1/analytics/morphometrics?dataset_id=${COLLECTION}&neuron=nobody`, 404, /no cell "nobody"/],
      ['/v1/analytics/morphometrics?dataset_id=no_such_dataset', 404, /not found/],
    ];
    for (const [path, status, message] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      expect(res.body.error, path).toMatch(message);
    }
    expect((await call(t.url, 'GET', `/v1/analytics/morphometrics?dataset_id=${COLLECTION}`)).status).toBe(401);
    expect((await get(`/v1/analytics/morphometrics?dataset_id=${COLLECTION}`, regular.accessToken)).status).toBe(403);

    // A restricted dataset's morphologies show nothing to an outsider.
    const d = await createDataset(t, academic, { visibility: 'restricted' });
    expect((await uploadFile(t, academic, d.id, 'cell.swc', '1 1 0 0 0 1 -1\n2 3 0 5 0 0.5 1\n3 3 0 9 0 0.5 2\n', 'text/plain')).status).toBe(201);
    expect((await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/publish`, { token: academic.accessToken })).status).toBe(201);
    const mine = await get(`/v1/analytics/morphometrics?dataset_id=${d.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.files[0].morphometrics).toMatchObject({ n_points: 3, n_tips: 1, total_length: 4 });
    const theirs = await get(`/v1/analytics/morphometrics?dataset_id=${d.id}`, other.accessToken);
    expect(theirs.status).toBe(403);
    expect(JSON.stringify(theirs.body)).not.toMatch(/cell\.swc|n_points/);
  });
});
