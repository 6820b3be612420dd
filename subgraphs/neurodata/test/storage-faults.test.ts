import { PassThrough } from 'node:stream';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { createDataset, createTinyDataset, uploadFile } from '../../../test/kit/datasets.js';
import { createJob, waitForJob } from '../../../test/kit/factories.js';
import { freezeDir } from '../../../test/kit/frozen-dir.js';
import { eventually } from '../../../test/kit/eventually.js';

const UNAVAILABLE = 'object storage is unavailable; try again later';
const NEURONS = 'neuron_id,cell_class,neurotransmitter\nA1,A,acetylcholine\nB1,B,GABA\n';

// The local object directory turned read-only under a running service, as a disk remounted read-only or a volume
// whose permissions went wrong: every change it is asked for fails, what it holds can still be read.
describe('object storage that refuses changes', () => {
  let t: TestApp;
  let owner: TestUser;
  let objectsDir: string;
  const logs: string[] = [];
  beforeAll(async () => {
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => logs.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    t = await startTestApp({ LOG_LEVEL: 'info', JOBS_POLL_MS: '100' }, { logStream });
    owner = await createUser(t, { accountType: 'ACADEMIC' });
    if (t.config.objects.kind !== 'local') throw new Error('these tests need the local object directory');
    objectsDir = t.config.objects.dir;
  });
  afterAll(async () => t?.close());

  /** Runs `fn` with the object directory frozen; skips the test where this machine cannot freeze it. */
  async function whileFrozen<T>(skip: (note: string) => void, fn: () => Promise<T>): Promise<T> {
    const thaw = freezeDir(objectsDir);
    if (!thaw) skip('this machine can make no directory refuse changes (no chattr +i as root)');
    try {
      return await fn();
    } finally {
      thaw?.();
    }
  }

  const draftFiles = async (datasetId: string) => {
    const r = await call(t.url, 'GET', `/v1/neurodata/datasets/${datasetId}/assets?version=draft`, { token: owner.accessToken });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.items as { filename: string; rows: number }[]).map((a) => [a.filename, a.rows]);
  };

  it('answers an upload with 503 naming object storage, and the draft keeps what it had', async ({ skip }) => {
    const d = await createDataset(t, owner);
    expect((await uploadFile(t, owner, d.id, 'neurons.csv', NEURONS)).status).toBe(201);
    const r = await whileFrozen(skip, () => uploadFile(t, owner, d.id, 'notes.txt', 'a note about the dataset\n', 'text/plain'));
    expect(r.status, JSON.stringify(r.body)).toBe(503);
    expect(r.body).toEqual({ error: UNAVAILABLE });
    expect(await draftFiles(d.id)).toEqual([['neurons.csv', 2]]);
  });

  it('answers the removal of a file with 503, and the file and its rows stay', async ({ skip }) => {
    const d = await createDataset(t, owner);
    const up = await uploadFile(t, owner, d.id, 'neurons.csv', NEURONS);
    expect(up.status).toBe(201);
    const asset = up.body.items[0];
    const r = await whileFrozen(skip, () => call(t.url, 'DELETE', `/v1/neurodata/datasets/${d.id}/assets/${asset.id}`, { token: owner.accessToken }));
    expect(r.status, JSON.stringify(r.body)).toBe(503);
    expect(r.body).toEqual({ error: UNAVAILABLE });
    expect(await draftFiles(d.id)).toEqual([['neurons.csv', 2]]);
    const rows = await call(t.url, 'POST', '/v1/syql/exec', { token: owner.accessToken, body: { query: `MATCH (a:Neuron) IN "${d.slug}"@draft RETURN count(*) AS n` } });
    expect(rows.status, JSON.stringify(rows.body)).toBe(200);
    expect(rows.body.rows).toEqual([[2]]);
    // Once the store takes changes again, the same removal goes through.
    expect((await call(t.url, 'DELETE', `/v1/neurodata/datasets/${d.id}/assets/${asset.id}`, { token: owner.accessToken })).status).toBe(200);
    expect(await draftFiles(d.id)).toEqual([]);
  });

  it("fails a job whose result cannot be stored with a message naming object storage, which a new submission may outlive", async ({ skip }) => {
    const d = await createTinyDataset(t, owner);
    const query = `MATCH (a:Neuron) IN "${d.slug}"@latest RETURN a.name AS name ORDER BY name`;
    const failed = await whileFrozen(skip, async () => {
      const job = await createJob(t, owner, { query });
      return waitForJob(t, owner, job.job_id);
    });
    expect(failed).toMatchObject({ status: 'failed', error: UNAVAILABLE, result_url: null });
    const again = await createJob(t, owner, { query }, { wait: true });
    expect(again.status, JSON.stringify(again)).toBe('succeeded');
  });

  it('reports storage as failing on /health without a path or the raw error, which only the log holds', async ({ skip }) => {
    const r = await whileFrozen(skip, () => call(t.url, 'GET', '/health'));
    expect(r.status).toBe(503);
    expect(r.body.status).toBe('degraded');
    expect(r.body.components.storage).toMatchObject({ status: 'error', error: 'object storage is unavailable' });
    expect(JSON.stringify(r.body)).not.toContain(objectsDir);
    expect(JSON.stringify(r.body)).not.toMatch(/EPERM|EACCES|health-probe/);
    const logged = await eventually(() => logs.find((l) => l.includes('health check failed') && l.includes(objectsDir)), { what: 'the raw failure in the log' });
    expect(logged).toMatch(/EPERM|EACCES/);
    // Back to healthy once the directory takes changes again.
    const after = await call(t.url, 'GET', '/health');
    expect(after.status).toBe(200);
    expect(after.body.components.storage.status).toBe('ok');
  });
});
