import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { startTestApp, call, gql, type TestApp } from '../kit/app.js';
import { createUser, type TestUser } from '../kit/users.js';
import { createTinyDataset } from '../kit/datasets.js';
import { expectError } from '../kit/expect.js';
import { waitForJob } from '../kit/factories.js';

type Job = { job_id: string; status: string; error: string | null };

const RESULT_URL = 'query R($id: String!) { jobResultDownload(job_id: $id) { url } }';

/**
 * Data derived from a dataset (job results, their download URLs, download URLs of the dataset's files) follows the
 * access decision as it stands when it is used, not as it stood when the job ran or the URL was signed.
 */
describe('withdrawn access reaches job results and download URLs', () => {
  let t: TestApp;
  let owner: TestUser, requester: TestUser, reader: TestUser;

  const get = (user: TestUser, url: string) => call(t.url, 'GET', url, { token: user.accessToken });
  const post = (user: TestUser, url: string, body?: unknown) => call(t.url, 'POST', url, { token: user.accessToken, body });
  /** A bearer download: no token, the URL is the credential. */
  const download = (url: string) => call(t.url, 'GET', new URL(url).pathname + new URL(url).search);

  async function finishedJob(user: TestUser, submitted: { status: number; body: Job }): Promise<Job> {
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const job = await waitForJob(t, user, submitted.body.job_id, { timeoutMs: 30_000 });
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    return job as unknown as Job;
  }

  /** Everything a user may take away from a dataset: a SyQL and a graph job's results, a result URL, a file URL. */
  async function takeAway(user: TestUser, dataset: { id: string; slug: string }) {
    const syql = await finishedJob(user, await post(user, '/v1/jobs', { query: `MATCH (a:Neuron)-[c:Synapse]->(b:Neuron) IN "${dataset.slug}" RETURN a.id AS pre, b.id AS post ORDER BY pre, post` }));
    const graph = await finishedJob(user, await post(user, '/v1/jobs/graph', { analysis: 'full-analysis', dataset_id: dataset.id, curve_max_hops: 2 }));
    const minted = await gql(t.url, RESULT_URL, { id: syql.job_id }, user.accessToken);
    expect(minted.body.errors, JSON.stringify(minted.body)).toBeUndefined();
    const files = await post(user, '/v1/neurodata/download-urls', { dataset_id: dataset.id });
    expect(files.status, JSON.stringify(files.body)).toBe(200);
    return { jobs: [syql, graph], resultUrl: minted.body.data.jobResultDownload.url as string, fileUrl: files.body.urls[0].url as string };
  }

  async function expectServed(user: TestUser, taken: Awaited<ReturnType<typeof takeAway>>) {
    for (const job of taken.jobs) {
      const res = await fetch(`${t.url}/v1/jobs/${job.job_id}/result`, { headers: { authorization: `Bearer ${user.accessToken}` } });
      expect(res.status).toBe(200);
      expect(tableFromIPC(new Uint8Array(await res.arrayBuffer())).numRows).toBeGreaterThan(0);
    }
    expect((await download(taken.resultUrl)).status).toBe(200);
    expect((await download(taken.fileUrl)).status).toBe(200);
    const fresh = await gql(t.url, RESULT_URL, { id: taken.jobs[0].job_id }, user.accessToken);
    expect(fresh.body.errors).toBeUndefined();
    const graph = taken.jobs[1].job_id;
    expect((await get(user, `/v1/jobs/${graph}`)).body.result_meta.analysis).toMatchObject({ dataset_id: expect.any(String) });
  }

  async function expectRefused(user: TestUser, taken: Awaited<ReturnType<typeof takeAway>>, dataset: { id: string }, why: RegExp) {
    for (const job of taken.jobs) {
      const res = await get(user, `/v1/jobs/${job.job_id}/result`);
      expectError(res, 403, why);
      expect(res.body.error).toContain(dataset.id);
    }
    const fresh = await gql(t.url, RESULT_URL, { id: taken.jobs[0].job_id }, user.accessToken);
    expect(fresh.body.data).toBeNull();
    expect(fresh.body.errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(fresh.body.errors[0].message).toMatch(why);
    // URLs signed while access held stop working too, whoever holds them.
    for (const url of [taken.resultUrl, taken.fileUrl]) expectError(await download(url), 403, /no longer works: the account it was issued to may no longer read/);
    // The job itself stays the user's to look at, but a graph job's analysis (data of the dataset) is withheld.
    expect((await get(user, `/v1/jobs/${taken.jobs[0].job_id}`)).status).toBe(200);
    const graph = taken.jobs[1].job_id;
    const viewed = await get(user, `/v1/jobs/${graph}`);
    expect(viewed.body.result_meta).toEqual({ withheld: expect.stringMatching(why) });
    const listed = (await get(user, '/v1/jobs?limit=100')).body.items.find((j: Job) => j.job_id === graph);
    expect(listed.result_meta).toEqual({ withheld: expect.stringMatching(why) });
  }

  beforeAll(async () => {
    // On a port: job results are Arrow streams, read as bytes the way a client reads them.
    t = await startTestApp({ JOBS_POLL_MS: '100' }, { listen: true });
    [owner, requester, reader] = await Promise.all([
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'ACADEMIC' }),
    ]);
  });
  afterAll(async () => t?.close());

  it('refuses an approved requester the results, fresh URLs and old URLs once the owner denies them', async () => {
    const restricted = await createTinyDataset(t, owner, { visibility: 'restricted' });
    const asked = await post(requester, `/v1/neurodata/datasets/${restricted.id}/access/request`, { message: 'for a replication' });
    expect(asked.status).toBe(201);
    expect((await post(owner, `/v1/neurodata/datasets/${restricted.id}/access/requests/${asked.body.id}/approve`)).status).toBe(200);

    const taken = await takeAway(requester, restricted);
    await expectServed(requester, taken);

    expect((await post(owner, `/v1/neurodata/datasets/${restricted.id}/access/requests/${asked.body.id}/deny`)).status).toBe(200);
    await expectRefused(requester, taken, restricted, /restricted and your access request was denied/);
    // The owner still reads their own data, and approving again gives everything back.
    expect((await download((await post(owner, '/v1/neurodata/download-urls', { dataset_id: restricted.id })).body.urls[0].url)).status).toBe(200);
    expect((await post(owner, `/v1/neurodata/datasets/${restricted.id}/access/requests/${asked.body.id}/approve`)).status).toBe(200);
    await expectServed(requester, taken);
  });

  it('follows a public dataset made restricted, and public again', async () => {
    const dataset = await createTinyDataset(t, owner, { visibility: 'public' });
    const taken = await takeAway(reader, dataset);
    await expectServed(reader, taken);

    expect((await call(t.url, 'PATCH', `/v1/neurodata/datasets/${dataset.id}`, { token: owner.accessToken, body: { visibility: 'restricted' } })).status).toBe(200);
    await expectRefused(reader, taken, dataset, /this dataset is restricted: request access/);

    expect((await call(t.url, 'PATCH', `/v1/neurodata/datasets/${dataset.id}`, { token: owner.accessToken, body: { visibility: 'public' } })).status).toBe(200);
    await expectServed(reader, taken);
  });

  it('answers 404 for the results of a deleted dataset, and its URLs stop working', async () => {
    const dataset = await createTinyDataset(t, owner, { visibility: 'public' });
    const taken = await takeAway(reader, dataset);
    expect((await call(t.url, 'DELETE', `/v1/neurodata/datasets/${dataset.id}`, { token: owner.accessToken })).status).toBe(200);
    for (const job of taken.jobs) expectError(await get(reader, `/v1/jobs/${job.job_id}/result`), 404, /not found/);
    expect((await download(taken.resultUrl)).status).toBe(403);
  });
});
