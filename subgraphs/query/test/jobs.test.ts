import { createHash } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { tableFromIPC as arrowTable } from 'apache-arrow';
import { tableFromIPC as flechetteTable } from '@uwdata/flechette';
import { startTestApp, call } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { createTinyDataset } from '../../../test/kit/datasets.js';
import { waitForJob } from '../../../test/kit/factories.js';

const COOK = 'celegans_cook_2019_male';
const CONNECTIONS = `MATCH (a:Neuron)-[c:Synapse]->(b:Neuron) IN "${COOK}"@latest WHERE c.weight >= $min RETURN a.id AS pre, b.id AS post, c.type AS type, c.weight AS weight, b.x AS x ORDER BY pre, post, type`;
/** Tens of millions of rows: a job that is still running when it is cancelled. */
const LONG = `MATCH (a)-[:Synapse*1..3]->(b)-[:Synapse*1..3]->(c) IN "${COOK}" RETURN a.id, b.id, c.id`;

type Job = { job_id: string; status: string; progress: number; progress_message: string | null; error: string | null; result_rows: number | null; result_bytes: number | null; result_sha256: string | null; result_url: string | null; input: Record<string, unknown>; result_meta: Record<string, any> | null };

describe('jobs: SyQL and graph jobs, progress, Arrow results, cancel, delete, rerun; saved queries', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let academic: TestUser;
  let other: TestUser;
  const as = (user: TestUser) => ({
    get: (path: string) => call(t.url, 'GET', path, { token: user.accessToken }),
    post: (path: string, body?: unknown) => call(t.url, 'POST', path, { token: user.accessToken, body }),
    put: (path: string, body?: unknown) => call(t.url, 'PUT', path, { token: user.accessToken, body }),
    del: (path: string) => call(t.url, 'DELETE', path, { token: user.accessToken }),
  });

  const waitFor = async (user: TestUser, id: string, done: (j: Job) => boolean): Promise<Job> =>
    (await waitForJob(t, user, id, { done: (j) => done(j as Job) })) as Job;
  const finished = (j: Job) => ['succeeded', 'failed', 'cancelled'].includes(j.status);

  beforeAll(async () => {
    t = await startTestApp({ SEED_DATASETS: 'true', JOBS_POLL_MS: '100' }, { listen: true });
    [academic, other] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'ACADEMIC' })]);
  });
  afterAll(async () => t?.close());

  it('runs a SyQL job to an Arrow stream that apache-arrow and flechette read as the exec rows, with its provenance', async () => {
    const submitted = await as(academic).post('/v1/jobs', { query: CONNECTIONS, parameters: { min: 2 } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    expect(submitted.body).toMatchObject({ status: 'queued', kind: 'syql', input: { pins: { [`"${COOK}"@latest`]: 1 } } });
    const job = await waitFor(academic, submitted.body.job_id, finished);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.progress).toBe(1);
    expect(job.result_url).toBe(`/v1/jobs/${job.job_id}/result`);

    const exec = await as(academic).post('/v1/syql/exec', { query: CONNECTIONS, parameters: { min: 2 }, max_rows: 10000 });
    expect(exec.body.truncated).toBe(false);
    expect(job.result_rows).toBe(exec.body.total);

    const res = await fetch(`${t.url}${job.result_url}`, { headers: { authorization: `Bearer ${academic.accessToken}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.apache\.arrow\.stream/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    const sha = createHash('sha256').update(bytes).digest();
    expect(res.headers.get('x-checksum-sha256')).toBe(sha.toString('hex'));
    expect(res.headers.get('repr-digest')).toBe(`sha-256=:${sha.toString('base64')}:`);
    expect(job.result_sha256).toBe(sha.toString('hex'));

    const a = arrowTable(bytes);
    const f = flechetteTable(bytes, { useBigInt: false });
    expect(a.schema.fields.map((x) => x.name)).toEqual(['pre', 'post', 'type', 'weight', 'x']);
    const rowsA = a.toArray().map((r) => Object.values(r.toJSON()));
    const rowsF = f.toArray().map((r) => Object.values(r as object));
    expect(rowsA).toEqual(exec.body.rows);
    expect(rowsF).toEqual(exec.body.rows);
    const meta = a.schema.metadata;
    expect(meta.get('job_id')).toBe(job.job_id);
    expect(meta.get('syql')).toContain('MATCH (a:Neuron)-[c:Synapse]->(b:Neuron)');
    expect(JSON.parse(meta.get('datasets')!)).toEqual([expect.objectContaining({ slug: COOK, version: 1 })]);
    expect(meta.get('service_version')).toMatch(/^\d+\.\d+\.\d+/);
    expect(f.schema.metadata?.get('job_id')).toBe(job.job_id);

    const part = await fetch(`${t.url}${job.result_url}`, { headers: { authorization: `Bearer ${academic.accessToken}`, range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(Buffer.from(bytes.subarray(0, 100)));

    // Only the owner sees the job and its result.
    expect((await as(other).get(`/v1/jobs/${job.job_id}`)).status).toBe(404);
    expect((await fetch(`${t.url}${job.result_url}`, { headers: { authorization: `Bearer ${other.accessToken}` } })).status).toBe(404);

    // Rerun: a new job with the same input; delete: the job and its result are gone.
    const again = await as(academic).post(`/v1/jobs/${job.job_id}/rerun`);
    expect(again.status).toBe(202);
    expect(again.body.input).toEqual(job.input);
    const second = await waitFor(academic, again.body.job_id, finished);
    expect(second.result_sha256).toBe(job.result_sha256 === null ? null : second.result_sha256);
    expect(second.result_rows).toBe(job.result_rows);
    const deleted = await as(academic).del(`/v1/jobs/${job.job_id}`);
    expect(deleted.body).toEqual({ job_id: job.job_id, action: 'deleted', status: 'succeeded' });
    expect((await as(academic).get(`/v1/jobs/${job.job_id}`)).status).toBe(404);
  });

  it('cancels a running job: it stops, stays listed as cancelled, and has no result', async () => {
    const submitted = await as(academic).post('/v1/jobs', { query: LONG });
    expect(submitted.status).toBe(202);
    await waitFor(academic, submitted.body.job_id, (j) => j.status === 'running' || finished(j));
    const cancel = await as(academic).del(`/v1/jobs/${submitted.body.job_id}`);
    expect(cancel.body).toMatchObject({ action: 'cancelled', status: 'cancelled' });
    const job = await waitFor(academic, submitted.body.job_id, finished);
    expect(job.status).toBe('cancelled');
    expect(job.result_url).toBeNull();
    const list = await as(academic).get('/v1/jobs?status=cancelled');
    expect(list.body.items.map((j: Job) => j.job_id)).toContain(job.job_id);
    expect((await as(academic).get('/v1/jobs?status=stuck')).status).toBe(400);
  });

  it('runs a graph job with progress, whose answer equals the full analysis of the request', async () => {
    const direct = await as(academic).post(`/v1/graph/${COOK}/full-analysis`, { curve_max_hops: 4 });
    expect(direct.status).toBe(200);
    const submitted = await as(academic).post('/v1/jobs/graph', { analysis: 'full-analysis', dataset_id: COOK, curve_max_hops: 4 });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const job = await waitFor(academic, submitted.body.job_id, finished);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const { status: _s, job: _j, ...answer } = direct.body;
    expect(job.result_meta!.analysis).toEqual({ ...answer, status: 'complete', job: null });
    expect(job.result_meta!.analysis.metrics).toEqual(answer.metrics);
    const res = await fetch(`${t.url}${job.result_url}`, { headers: { authorization: `Bearer ${academic.accessToken}` } });
    const table = arrowTable(new Uint8Array(await res.arrayBuffer()));
    expect(table.schema.fields.map((x) => x.name)).toEqual(['section', 'measure', 'value']);
    expect(table.numRows).toBe(job.result_rows);
    expect(JSON.parse(table.schema.metadata.get('graph_analysis')!).metrics).toEqual(answer.metrics);
    expect((await as(academic).post('/v1/jobs/graph', { dataset_id: 'no_such_dataset' })).status).toBe(404);
  });

  it('refuses jobs on data the caller may not read, and bad input, at submission', async () => {
    const restricted = await createTinyDataset(t, academic, { visibility: 'restricted' });
    const denied = await as(other).post('/v1/jobs', { query: `MATCH (a) IN "${restricted.slug}" RETURN a.id` });
    expect(denied.status).toBe(403);
    expect((await as(other).post('/v1/jobs/graph', { dataset_id: restricted.id })).status).toBe(403);
    expect((await as(academic).post('/v1/jobs', {})).status).toBe(400);
    expect((await as(academic).post('/v1/jobs', { query: 'MATCH (a) RETURN a' })).status).toBe(400);
  });

  it('runs a SyQL job over the caller\'s draft in either spelling, recording the draft it read; others may not', async () => {
    const d = await createTinyDataset(t, academic, {}, { publish: false });
    for (const ref of [`"${d.slug}"@draft`, `"${d.slug}@draft"`]) {
      const query = `MATCH (a:Neuron)-[c:Synapse]->(b:Neuron) IN ${ref} RETURN a.id AS pre, b.id AS post, c.weight AS weight ORDER BY pre, post, weight`;
      const exec = await as(academic).post('/v1/syql/exec', { query });
      expect(exec.status, JSON.stringify(exec.body)).toBe(200);
      const submitted = await as(academic).post('/v1/jobs', { query });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
      expect(submitted.body.input.pins).toEqual({ [`"${d.slug}"@draft`]: 1 });
      const job = await waitFor(academic, submitted.body.job_id, finished);
      expect(job.status, JSON.stringify(job)).toBe('succeeded');
      expect(job.result_rows).toBe(exec.body.total);
      expect(job.result_meta!.datasets).toEqual([expect.objectContaining({ dataset_id: d.id, version: 1, is_draft: true, label: `${d.slug}@draft` })]);
      const bytes = new Uint8Array(await (await fetch(`${t.url}${job.result_url}`, { headers: { authorization: `Bearer ${academic.accessToken}` } })).arrayBuffer());
      expect(arrowTable(bytes).toArray().map((r) => Object.values(r.toJSON()))).toEqual(exec.body.rows);
      // Someone who may not read the draft is told it is not there, as exec tells them.
      expect((await as(other).post('/v1/syql/exec', { query })).status).toBe(404);
      expect((await as(other).post('/v1/jobs', { query })).status).toBe(404);
    }

    const saved = await as(academic).post('/v1/queries', { name: `draft ${d.slug}`, query: `MATCH (a:Neuron) IN "${d.slug}"@draft RETURN count(*) AS n` });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const run = await as(academic).post(`/v1/queries/${saved.body.id}/run`);
    expect(run.status, JSON.stringify(run.body)).toBe(202);
    const job = await waitFor(academic, run.body.job_id, finished);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.result_rows).toBe(1);
    expect(job.result_meta!.datasets).toEqual([expect.objectContaining({ version: 1, is_draft: true })]);
  });

  it('a job over the open draft of a published dataset reads the draft, and once published, the version it became', async () => {
    const d = await createTinyDataset(t, academic);
    const more = 'neuron_id,cell_class,neurotransmitter\nA1,A,acetylcholine\nB1,B,GABA\nC1,C,glutamate\nD1,D,glutamate\n';
    const up = await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/assets?filename=neurons.csv`, { token: academic.accessToken, body: more, headers: { 'content-type': 'text/csv' } });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const query = `MATCH (a:Neuron) IN "${d.slug}"@draft RETURN count(*) AS n`;
    const submitted = await as(academic).post('/v1/jobs', { query });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    expect(submitted.body.input.pins).toEqual({ [`"${d.slug}"@draft`]: 2 });
    const job = await waitFor(academic, submitted.body.job_id, finished);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.result_meta!.datasets).toEqual([expect.objectContaining({ version: 2, is_draft: true })]);
    const bytes = new Uint8Array(await (await fetch(`${t.url}${job.result_url}`, { headers: { authorization: `Bearer ${academic.accessToken}` } })).arrayBuffer());
    expect(arrowTable(bytes).toArray().map((r) => Number(r.toJSON().n))).toEqual([4]);

    // Published since, the draft it read is v2: a rerun reads that version, as published.
    expect((await as(academic).post(`/v1/neurodata/datasets/${d.id}/publish`)).status).toBe(201);
    const rerun = await as(academic).post(`/v1/jobs/${job.job_id}/rerun`);
    expect(rerun.status, JSON.stringify(rerun.body)).toBe(202);
    const again = await waitFor(academic, rerun.body.job_id, finished);
    expect(again.status, JSON.stringify(again)).toBe('succeeded');
    expect(again.result_meta!.datasets).toEqual([expect.objectContaining({ version: 2, is_draft: false })]);
    expect(again.result_sha256).not.toBeNull();
  });

  it('saves queries, runs them as jobs pinned to the versions they resolve to, refreshes keeping the previous result', async () => {
    const created = await as(academic).post('/v1/queries', { name: 'AVA partners', description: 'strong partners of AVA', query: CONNECTIONS, parameters: { min: 10 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    expect((await as(academic).post('/v1/queries', { name: 'AVA partners', query: CONNECTIONS })).status).toBe(409);
    expect((await as(academic).post('/v1/queries', { name: 'broken', query: 'MATCH (a' })).status).toBe(400);
    const fromSyql = await as(academic).post('/v1/queries/from-syql', { query: `match (a:Neuron) in "${COOK}" return count(*) as n`, name: 'cells' });
    expect(fromSyql.status, JSON.stringify(fromSyql.body)).toBe(201);
    expect(fromSyql.body.saved_query.query).toBe(`MATCH (a:Neuron)\nIN "${COOK}"@latest\nRETURN count(*) AS n`);
    expect(fromSyql.body.plan.datasets[0].version).toBe(1);
    expect((await as(academic).post('/v1/queries/from-syql', { query: `MATCH (a) IN "nope" RETURN a.id`, name: 'x' })).status).toBe(404);

    const run = await as(academic).post(`/v1/queries/${id}/run`);
    expect(run.status).toBe(202);
    expect(run.body.saved_query_id).toBe(id);
    expect(run.body.input.pins).toEqual({ [`"${COOK}"@latest`]: 1 });
    const first = await waitFor(academic, run.body.job_id, finished);
    expect(first.status).toBe('succeeded');

    const refreshed = await as(academic).post(`/v1/queries/${id}/refresh`);
    expect(refreshed.status).toBe(202);
    expect(refreshed.body.previous_job.job_id).toBe(first.job_id);
    expect(refreshed.body.versions).toEqual([{ ref: `"${COOK}"@latest`, version: 1, previous_version: 1, changed: false }]);
    await waitFor(academic, refreshed.body.job.job_id, finished);
    const got = await as(academic).get(`/v1/queries/${id}`);
    expect(got.body).toMatchObject({ name: 'AVA partners', previous_job_id: first.job_id, last_job: { job_id: refreshed.body.job.job_id, status: 'succeeded' } });
    expect((await as(academic).get(first.result_url!)).status).toBe(200);

    const viaJobs = await as(academic).post('/v1/jobs', { saved_query_id: id });
    expect(viaJobs.status).toBe(202);
    await waitFor(academic, viaJobs.body.job_id, finished);

    const updated = await as(academic).put(`/v1/queries/${id}`, { description: 'changed', parameters: { min: 20 } });
    expect(updated.body).toMatchObject({ description: 'changed', parameters: { min: 20 }, name: 'AVA partners' });
    const list = await as(academic).get('/v1/queries');
    expect(list.body.items.map((q: { id: string }) => q.id)).toEqual(expect.arrayContaining([id, fromSyql.body.saved_query.id]));
    expect((await as(other).get(`/v1/queries/${id}`)).status).toBe(404);
    expect((await as(other).post(`/v1/queries/${id}/run`)).status).toBe(404);
    expect((await as(other).get('/v1/queries')).body.total).toBe(0);
    expect((await as(academic).del(`/v1/queries/${id}`)).body).toEqual({ id, deleted: true });
    expect((await as(academic).get(`/v1/queries/${id}`)).status).toBe(404);
  });
});
