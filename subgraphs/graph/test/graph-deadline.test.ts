import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { workerThreadIds } from '../../../lib/workers/pool.js';
import { eventually } from '../../../test/kit/eventually.js';

/** A graph computation past the request's deadline: 408, its worker thread stopped, /health answering meanwhile. */
describe('graph work and the request deadline', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let user: TestUser;

  beforeAll(async () => {
    // Long enough that reading a connectome fits on a loaded machine, far too short for the null model below.
    t = await startTestApp({ SEED_DATASETS: 'true', REQUEST_TIMEOUT_MS: '8000' });
    user = await createUser(t, { accountType: 'ACADEMIC' });
    // Built once, so that the deadline below falls on the computation, not on reading the connectome. On a loaded
    // machine the first read may itself pass the deadline; each attempt leaves more of it cached.
    await eventually(async () => (await call(t.url, 'GET', '/v1/graph/celegans_cook_2019_male/metrics', { token: user.accessToken })).status === 200, {
      what: 'the connectome read within the deadline',
      timeoutMs: 60_000,
      intervalMs: 100,
    });
  });
  afterAll(async () => t?.close());

  it('answers 408 and stops the worker, while /health keeps answering', async () => {
    const before = workerThreadIds();
    expect(before.length).toBeGreaterThan(0);
    // Thousands of rewired graphs, each censused: far more than 8 s.
    const heavy = call(t.url, 'POST', '/v1/graph/celegans_cook_2019_male/motifs', {
      token: user.accessToken,
      body: { null_model: { samples: 1000, swaps_per_edge: 100 } },
    });
    let settled = false;
    const stop = () => {
      settled = true;
    };
    heavy.then(stop, stop);
    // /health is asked one request at a time for as long as the heavy request runs, paced to stay within the rate limit.
    const health: number[] = [];
    while (!settled) {
      health.push((await call(t.url, 'GET', '/health')).status);
      await new Promise((r) => setTimeout(r, 50));
    }
    const res = await heavy;
    expect(health.length).toBeGreaterThan(0);
    expect(res.status).toBe(408);
    expect(res.body.error).toMatch(/timeout/);
    expect(health.every((s) => s === 200 || s === 503)).toBe(true);
    // The thread that ran it was terminated: none of the threads alive before is still there.
    await expect.poll(() => workerThreadIds().filter((id) => before.includes(id)), { timeout: 5000 }).toEqual([]);
    const next = await call(t.url, 'GET', '/v1/graph/celegans_cook_2019_male/metrics', { token: user.accessToken });
    expect(next.status).toBe(200);
  });

  it('answers a full analysis that would not fit with where to run it as a job', async () => {
    const res = await call(t.url, 'POST', '/v1/graph/celegans_cook_2019_male/full-analysis', {
      token: user.accessToken,
      body: { null_model: { samples: 1000, swaps_per_edge: 100, seed: 3 } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'run_as_job', metrics: null, motifs: null });
    expect(res.body.job).toMatchObject({ method: 'POST', path: '/v1/jobs/graph' });
    expect(res.body.job.estimated_seconds).toBeGreaterThan(res.body.job.deadline_seconds * 0.7);
    expect(res.body.job.body).toMatchObject({ analysis: 'full-analysis', synapse_type: 'chemical', null_model: { samples: 1000, swaps_per_edge: 100, seed: 3 } });
  });

  it('refuses a graph job with a bad parameter when it is submitted, before any worker runs it', async () => {
    for (const [body, message] of [
      [{ null_model: { samples: 5000 } }, /null_model\.samples: must be an integer from 1 to 1000/],
      [{ curve_max_hops: 0 }, /curve_max_hops/],
      [{ synapse_type: 'gap' }, /synapse_type/],
      [{ source: 'AVAL' }, /source and target/],
    ] as const) {
      const res = await call(t.url, 'POST', '/v1/jobs/graph', { token: user.accessToken, body: { dataset_id: 'celegans_cook_2019_male', ...body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
  });
});
