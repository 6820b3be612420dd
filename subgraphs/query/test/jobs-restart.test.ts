import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { call, createTestEngines, startTestApp, type TestApp, type TestEngines } from '../../../test/kit/app.js';
import { groupAlive, startService, type ServiceProcess } from '../../../test/kit/processes.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { consistently, eventually } from '../../../test/kit/eventually.js';

const COOK = 'celegans_cook_2019_male';
/** Tens of millions of rows: still running seconds after it started, on either engine set. */
const LONG = `MATCH (a)-[:Synapse*1..3]->(b)-[:Synapse*1..3]->(c) IN "${COOK}" RETURN a.id, b.id, c.id`;
/** One row, in milliseconds. */
const SHORT = `MATCH (a:Neuron) IN "${COOK}" RETURN count(*) AS n`;

/** Short leases, so a killed worker's jobs are recovered within seconds (docs/jobs.md, "Leases, heartbeats and retries"). */
const LEASES = { JOBS_HEARTBEAT_MS: '300', JOBS_LEASE_MS: '1500', JOBS_POLL_MS: '100' };

type Job = {
  job_id: string;
  status: string;
  progress: number;
  progress_message: string | null;
  error: string | null;
  attempts: number;
  max_attempts: number;
  started_at: string | null;
  finished_at: string | null;
  result_rows: number | null;
  result_url: string | null;
};

const finished = (j: Job) => ['succeeded', 'failed', 'cancelled'].includes(j.status);

/** kill -9 of the service's whole process group (node, tsx's esbuild when it runs from source, PGlite's and the pool's threads die with node). */
async function killHard(service: ServiceProcess): Promise<void> {
  process.kill(-service.pid, 'SIGKILL');
  await eventually(() => !groupAlive(service.pid), { timeoutMs: 5000, what: 'the killed process group gone' });
}

// "A job survives kill -9 of the server": the real service (as startService starts it) runs a job, is killed with
// SIGKILL mid-job, and a service started afterwards on the same engines recovers it from its expired lease: failed
// when it had no attempts left, run again when it had, while a job queued behind it runs to its result.
describe('jobs survive kill -9 of the server that runs them', () => {
  let engines: TestEngines;
  let user: TestUser;
  const services: ServiceProcess[] = [];
  const apps: TestApp[] = [];

  /** Queries of an attempt of the job still running on the ClickHouse server (0 on chDB: they die with their process). */
  const serverQueriesOf = async (jobId: string, attempt: number): Promise<number> => {
    const url = engines.env.CLICKHOUSE_URL;
    if (!url) return 0;
    const sql = `SELECT count() FROM system.processes WHERE position(query_id, 'job-${jobId}-${attempt}-') > 0 FORMAT TabSeparated`;
    const res = await fetch(url, { method: 'POST', body: sql });
    expect(res.status).toBe(200);
    return Number((await res.text()).trim());
  };
  const get = async (base: string, id: string): Promise<Job> => {
    const r = await call(base, 'GET', `/v1/jobs/${id}`, { token: user.accessToken });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const submit = async (base: string, query: string): Promise<Job> => {
    const r = await call(base, 'POST', '/v1/jobs', { token: user.accessToken, body: { query } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body.status).toBe('queued');
    return r.body;
  };
  /** Polls the job until `done`; every state seen is pushed to `seen`. */
  const waitFor = (base: string, id: string, done: (j: Job) => boolean, timeoutMs: number, seen: Job[] = []): Promise<Job> =>
    eventually(
      async () => {
        const j = await get(base, id);
        seen.push(j);
        return done(j) ? j : undefined;
      },
      { timeoutMs, intervalMs: 50, what: `job ${id} reaching the state` },
    );

  /** The job stays in `state` for `forMs` (polled: a change is seen when it happens, not after a fixed sleep). */
  const staysAs = (base: string, id: string, state: Partial<Job>, forMs: number, what: string) =>
    consistently(
      async () => {
        expect(await get(base, id)).toMatchObject(state);
        return true;
      },
      { forMs, intervalMs: 100, what },
    );

  /** The service as an operator starts it, on this file's engines, running jobs in process. */
  const spawnService = async (maxAttempts: string): Promise<ServiceProcess> => {
    const service = await startService(engines, {
      LOG_LEVEL: 'warn',
      JOBS_IN_PROCESS: 'true',
      JOBS_CONCURRENCY: '2',
      JOBS_PER_USER: '1',
      JOBS_MAX_ATTEMPTS: maxAttempts,
      ...LEASES,
    });
    services.push(service);
    return service;
  };
  /** A test app on the same engines (same data directory: the signing keys, so the user's token still verifies). */
  const restart = async (maxAttempts: string): Promise<TestApp> => {
    const t = await startTestApp({ ...LEASES, JOBS_MAX_ATTEMPTS: maxAttempts }, { listen: true, engines });
    apps.push(t);
    return t;
  };

  beforeAll(async () => {
    engines = await createTestEngines();
    const t1 = await startTestApp({ SEED_DATASETS: 'true' }, { listen: true, engines });
    try {
      user = await createUser(t1, { accountType: 'ACADEMIC' });
    } finally {
      await t1.stop();
    }
  }, 180_000);

  afterAll(async () => {
    for (const s of services) if (groupAlive(s.pid)) process.kill(-s.pid, 'SIGKILL');
    for (const t of apps) await t.stop().catch(() => undefined);
    await engines?.drop();
  });

  it('fails a killed job out of attempts (never left running) and runs the job queued behind it', async () => {
    const service = await spawnService('1');
    // The token issued by the first app verifies in the new process: the keys live in DATA_DIR/keys.
    const a = await submit(service.url, LONG);
    const b = await submit(service.url, SHORT);
    const runningA = await waitFor(service.url, a.job_id, (j) => j.status !== 'queued', 30_000);
    expect(runningA.status, JSON.stringify(runningA)).toBe('running');
    await staysAs(service.url, a.job_id, { status: 'running', attempts: 1, max_attempts: 1 }, 1000, 'the long job running for a second');
    // JOBS_PER_USER=1: the short job waits for the long one.
    expect(await get(service.url, b.job_id)).toMatchObject({ status: 'queued', attempts: 0 });

    await killHard(service);
    const killedAt = Date.now();

    const t2 = await restart('1');
    const restartedAt = Date.now();
    const seenA: Job[] = [];
    const jobA = await waitFor(t2.url, a.job_id, finished, 30_000, seenA);
    const recoveredAfterMs = Date.now() - restartedAt;
    expect(jobA.status, JSON.stringify(jobA)).toBe('failed');
    expect(jobA.error).toBe('the worker running this job stopped (attempt 1 of 1)');
    expect(jobA).toMatchObject({ attempts: 1, max_attempts: 1, result_url: null, result_rows: null });
    expect(new Date(jobA.finished_at!).getTime()).toBeGreaterThanOrEqual(new Date(jobA.started_at!).getTime());
    // Only running (the dead worker's lease not yet expired) before failed: never queued again, never anything else.
    expect(new Set(seenA.map((j) => j.status))).toEqual(new Set(seenA.length > 1 ? ['running', 'failed'] : ['failed']));
    // The lease is 1.5 s and the sweep runs at start and every 300 ms.
    expect(recoveredAfterMs, `recovered ${recoveredAfterMs} ms after the restart (${restartedAt - killedAt} ms after the kill)`).toBeLessThan(10_000);
    // No query of the killed attempt is left running on a ClickHouse server (the sweep that failed the job stops them).
    await expect.poll(() => serverQueriesOf(a.job_id, 1), { timeout: 15_000, interval: 200 }).toBe(0);

    const jobB = await waitFor(t2.url, b.job_id, finished, 60_000);
    expect(jobB.status, JSON.stringify(jobB)).toBe('succeeded');
    expect(jobB).toMatchObject({ attempts: 1, result_rows: 1, result_url: `/v1/jobs/${b.job_id}/result`, error: null });
    const res = await fetch(`${t2.url}${jobB.result_url}`, { headers: { authorization: `Bearer ${user.accessToken}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.apache\.arrow\.stream/);
    const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    expect(table.numRows).toBe(1);
    const exec = await call(t2.url, 'POST', '/v1/syql/exec', { token: user.accessToken, body: { query: SHORT } });
    expect(exec.status).toBe(200);
    expect(Number(table.get(0)!.toJSON().n)).toBe(Number(exec.body.rows[0][0]));
    expect(Number(exec.body.rows[0][0])).toBeGreaterThan(0);
    await t2.stop();
  }, 240_000);

  it('runs a killed job again while it has attempts left, as attempt 2, and it can then be cancelled', async () => {
    const service = await spawnService('2');
    const a = await submit(service.url, LONG);
    const first = await waitFor(service.url, a.job_id, (j) => j.status !== 'queued', 30_000);
    expect(first.status, JSON.stringify(first)).toBe('running');
    await staysAs(service.url, a.job_id, { status: 'running', attempts: 1, max_attempts: 2 }, 1000, 'the long job running for a second');

    await killHard(service);

    const t3 = await restart('2');
    const seen: Job[] = [];
    const retried = await waitFor(t3.url, a.job_id, (j) => (j.status === 'running' && j.attempts === 2) || finished(j), 30_000, seen);
    expect(retried, JSON.stringify(seen.map((j) => [j.status, j.attempts, j.progress_message]))).toMatchObject({ status: 'running', attempts: 2, max_attempts: 2, error: null });
    // The sweep that requeued it stopped the first attempt's query on a ClickHouse server.
    await expect.poll(() => serverQueriesOf(a.job_id, 1), { timeout: 15_000, interval: 200 }).toBe(0);
    // The second attempt started after the first one's worker died.
    expect(new Date(retried.started_at!).getTime()).toBeGreaterThan(new Date(first.started_at!).getTime());
    // Between the two attempts it was queued with the reason, unless the retry was claimed between two polls.
    for (const j of seen.filter((s) => s.status === 'queued')) expect(j.progress_message).toBe('retried after its worker stopped (attempt 1 of 2)');
    expect(seen.every((j) => j.status === 'running' || j.status === 'queued'), JSON.stringify(seen.map((j) => j.status))).toBe(true);
    await staysAs(t3.url, a.job_id, { status: 'running', attempts: 2 }, 500, 'the second attempt running');

    const cancel = await call(t3.url, 'DELETE', `/v1/jobs/${a.job_id}`, { token: user.accessToken });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body).toMatchObject({ job_id: a.job_id, action: 'cancelled', status: 'cancelled' });
    const cancelled = await waitFor(t3.url, a.job_id, finished, 30_000);
    expect(cancelled).toMatchObject({ status: 'cancelled', attempts: 2, result_url: null });
    // Nothing of the dead worker or of the aborted attempt writes over it.
    await staysAs(t3.url, a.job_id, { status: 'cancelled', attempts: 2 }, 2000, 'the cancelled job left as it is');
    await t3.stop();
  }, 240_000);
});
