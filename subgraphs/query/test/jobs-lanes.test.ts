import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { waitForJob } from '../../../test/kit/factories.js';

const COOK = 'celegans_cook_2019_male';
/** Tens of millions of rows, written as they come: an export that is still being written minutes later. */
const LONG = `MATCH (a)-[:Synapse*1..3]->(b)-[:Synapse*1..3]->(c) IN "${COOK}" RETURN a.id, b.id, c.id`;
const SMALL = `MATCH (a:Neuron)-[c:Chemical]->(b:Neuron) IN "${COOK}" WHERE a.name = 'AVAL' RETURN b.name, c.weight ORDER BY c.weight DESC LIMIT 10`;
const FINISHED = ['succeeded', 'failed', 'cancelled'];

describe("a job's export and other users' interactive requests", () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let exporter: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    // A request deadline well below the export's time: a request queued behind the export answers 408.
    t = await startTestApp({ SEED_DATASETS: 'true', JOBS_POLL_MS: '100', REQUEST_TIMEOUT_MS: '20000' });
    [exporter, other] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'ACADEMIC' })]);
  });
  afterAll(async () => t?.close());

  // The job plans and counts its rows first: on a busy machine that alone takes a minute.
  it("answers another user's SyQL query and analytics call while a user's job is writing its export", async () => {
    const submitted = await call(t.url, 'POST', '/v1/jobs', { token: exporter.accessToken, body: { query: LONG } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const jobId = submitted.body.job_id as string;
    const writing = await waitForJob(t, exporter, jobId, {
      done: (j) => FINISHED.includes(j.status) || / rows written$/.test(String(j.progress_message ?? '')),
      timeoutMs: 150_000,
    });
    expect(writing.status).toBe('running');

    const exec = await call(t.url, 'POST', '/v1/syql/exec', { token: other.accessToken, body: { query: SMALL } });
    expect(exec.status, JSON.stringify(exec.body)).toBe(200);
    expect(exec.body.rows.length).toBeGreaterThan(0);
    const zscores = await call(t.url, 'GET', `/v1/analytics/zscore-comparison?dataset_id=${COOK}&reference=celegans_varshney_2011,celegans_cook_2019_hermaphrodite`, {
      token: other.accessToken,
    });
    expect(zscores.status, JSON.stringify(zscores.body)).toBe(200);

    // Both answered while the export was still being written, not after it.
    const still = await call(t.url, 'GET', `/v1/jobs/${jobId}`, { token: exporter.accessToken });
    expect(still.body).toMatchObject({ status: 'running', progress_message: expect.stringMatching(/ rows written$/) });

    const cancelled = await call(t.url, 'DELETE', `/v1/jobs/${jobId}`, { token: exporter.accessToken });
    expect(cancelled.body).toMatchObject({ action: 'cancelled' });
    const done = await waitForJob(t, exporter, jobId);
    expect(done).toMatchObject({ status: 'cancelled', result_url: null });
    // The export stopped with its job: the column store answers at once again.
    const after = await call(t.url, 'POST', '/v1/syql/exec', { token: other.accessToken, body: { query: SMALL } });
    expect(after.status).toBe(200);
  }, 240_000);
});
