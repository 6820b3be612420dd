import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, type TestEngines } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { eventually } from '../../../test/kit/eventually.js';
import { waitForJob } from '../../../test/kit/factories.js';
import { engineEnvFromProcess } from '../../../test/kit/settings.js';

const HERMAPHRODITE = 'celegans_cook_2019_hermaphrodite';
const MALE = 'celegans_cook_2019_male';
/** Within the planner's default estimate, yet more than 16 MiB of work. */
const HEAVY = `MATCH (a)--(b)--(c)--(d)--(e) IN "${MALE}" RETURN count(*)`;
/**
 * A count of billions of paths, allowed here by a larger estimate limit, still running whenever a test cancels it.
 * The engines differ in what such a query costs: current ClickHouse (chDB) cuts a join's output into bounded blocks,
 * so a chain of six single hops runs within 1 GiB until its time limit, and stops when cancelled. ClickHouse 18.16
 * joins a whole input block at once and checks limits and cancellation only between blocks: the same chain fills
 * 1 GiB within a second, while chained variable-length hops grow slowly enough to run for several seconds before
 * their memory limit ends them (measured: 5 s alone on 2 cores). A larger memory limit would keep that query
 * running for minutes after its cancel, whatever the test does.
 */
const SERVER = Boolean(engineEnvFromProcess().CLICKHOUSE_URL);
const LONG = SERVER
  ? `MATCH (a)-[:Synapse*1..3]->(b)-[:Synapse*1..3]->(c)-[:Synapse*1..3]->(d)-[:Synapse*1..3]->(e) IN "${MALE}" RETURN count(*)`
  : `MATCH (a)-->(b)-->(c)-->(d)-->(e)-->(f)-->(g) IN "${MALE}" RETURN count(*)`;
const SMALL = `MATCH (a:Neuron) IN "${MALE}" WHERE a.name = 'AVAL' RETURN a.name`;

type Job = { job_id: string; status: string; error: string | null };

describe('SyQL and jobs: limits, fairness and hostile values', () => {
  let engines: TestEngines;
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let academic: TestUser;
  let other: TestUser;
  let superuser: TestUser;
  const syql = (path: string, body: unknown, user = academic) => call(t.url, 'POST', `/v1/syql/${path}`, { token: user.accessToken, body });

  let prober: TestUser;
  /** Waits until a query with `queryId` runs (a cancel of it no longer answers 404). */
  async function running(queryId: string) {
    // Probing as a user without such a query: 403 once one runs, 404 before; it never cancels it.
    await eventually(async () => (await syql('cancel', { query_id: queryId }, prober)).status === 403, { timeoutMs: 30_000, what: `${queryId} running` });
  }

  beforeAll(async () => {
    // Jobs are not run here: the caps count queued jobs. The long query must still run when a test cancels it: with
    // the test runs beside this one on two cores, the steps before a cancel have taken more than the default 30 s.
    t = await startTestApp({
      SEED_DATASETS: 'true',
      JOBS_IN_PROCESS: 'false',
      JOBS_QUEUED_PER_USER: '3',
      SYQL_MAX_CONCURRENT_PER_USER: '1',
      SYQL_MAX_ESTIMATED_ROWS: '1000000000000000',
      SYQL_MAX_EXECUTION_SECONDS: '120',
      REQUEST_TIMEOUT_MS: '150000',
    });
    engines = t.engines;
    [academic, other, prober, superuser] = await Promise.all([
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'SUPERUSER' }),
    ]);
  });
  afterAll(async () => {
    await t?.stop();
    await engines?.drop();
  });

  it('answers 400 naming the parameter for numbers beyond 2^53 and for lists too long to run', async () => {
    for (const value of [1e308, -1e308, 1.23e29]) {
      const res = await syql('exec', { query: `MATCH (a)-[c]->(b) IN "${MALE}" WHERE c.weight > $w RETURN count(*)`, parameters: { w: value } });
      expect(res.status, `${value}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error).toMatch(/\$w/);
    }
    // Written in the query, such a number is a float the engine compares as such.
    const literal = await syql('exec', { query: `MATCH (a)-[c]->(b) IN "${MALE}" WHERE c.weight > 1.23e29 RETURN count(*)` });
    expect(literal.status, JSON.stringify(literal.body)).toBe(200);
    expect(literal.body.rows).toEqual([[0]]);
    for (const n of [100_000, 1_000_000]) {
      const names = Array.from({ length: n }, (_, i) => `N${i}`);
      const res = await syql('exec', { query: `MATCH (a:Neuron) IN "${MALE}" WHERE a.name IN $names RETURN count(*)`, parameters: { names } });
      expect(res.status, `${n}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(400);
      expect(res.body.error).toMatch(/\$names.*at most 10000 values/);
    }
    // The most a list may hold runs.
    const names = Array.from({ length: 10_000 }, (_, i) => (i === 0 ? 'AVAL' : `N${i}`));
    const ok = await syql('exec', { query: `MATCH (a:Neuron) IN "${MALE}" WHERE a.name IN $names RETURN count(*)`, parameters: { names } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.rows).toEqual([[1]]);
  });

  it('lets two users choose the same query_id: each cancels their own', async () => {
    const mine = syql('exec', { query: LONG, query_id: 'shared-id' });
    await running('shared-id');
    const theirs = syql('exec', { query: LONG, query_id: 'shared-id' }, other);
    // Both run: the second is not refused as a conflict with the first. Until theirs runs, their cancel meets only
    // mine, which is not theirs to stop (403).
    const cancelTheirs = await eventually(
      async () => {
        const r = await syql('cancel', { query_id: 'shared-id' }, other);
        return r.status === 403 ? undefined : r;
      },
      { timeoutMs: 30_000, what: 'their query running beside mine' },
    );
    expect(cancelTheirs.status, JSON.stringify(cancelTheirs.body)).toBe(200);
    const theirsDone = await theirs;
    expect(theirsDone.status).toBe(409);
    expect(theirsDone.body.error).toMatch(/cancelled/);
    // Mine still runs, and a SuperUser may stop it by the same id.
    const bySuperuser = await syql('cancel', { query_id: 'shared-id' }, superuser);
    expect(bySuperuser.status, JSON.stringify(bySuperuser.body)).toBe(200);
    expect((await mine).status).toBe(409);
  });

  it('runs at most SYQL_MAX_CONCURRENT_PER_USER queries of one user at once; another user is not held up', async () => {
    const heavy = syql('exec', { query: LONG, query_id: 'first' });
    await running('first');
    const second = await syql('exec', { query: SMALL });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBeTruthy();
    expect(second.body.error).toMatch(/SYQL_MAX_CONCURRENT_PER_USER/);
    const theirs = await syql('exec', { query: SMALL }, other);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expect(theirs.body.rows).toEqual([['AVAL']]);
    // /health answers while the heavy query runs.
    const health = await call(t.url, 'GET', '/health');
    expect(health.status, JSON.stringify(health.body)).toBe(200);
    const cancel = await syql('cancel', { query_id: 'first' });
    const done = await heavy;
    expect(cancel.status, `the heavy query ended before its cancel: ${done.status} ${JSON.stringify(done.body)}`).toBe(200);
    expect(done.status).toBe(409);
  }, 180_000);

  it('accepts at most JOBS_QUEUED_PER_USER queued or running jobs of one user; the rest get 429', async () => {
    const submissions = await Promise.all(
      Array.from({ length: 8 }, () => call(t.url, 'POST', '/v1/jobs', { token: other.accessToken, body: { query: SMALL } })),
    );
    const statuses = submissions.map((r) => r.status).sort();
    expect(statuses).toEqual([202, 202, 202, 429, 429, 429, 429, 429]);
    const refused = submissions.find((r) => r.status === 429)!;
    expect(refused.body.error).toMatch(/JOBS_QUEUED_PER_USER/);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    // Another user's submission is not refused.
    expect((await call(t.url, 'POST', '/v1/jobs', { token: academic.accessToken, body: { query: SMALL } })).status).toBe(202);
    // A cancelled job makes room.
    const first = submissions.find((r) => r.status === 202)!.body as Job;
    expect((await call(t.url, 'DELETE', `/v1/jobs/${first.job_id}`, { token: other.accessToken })).status).toBe(200);
    expect((await call(t.url, 'POST', '/v1/jobs', { token: other.accessToken, body: { query: SMALL } })).status).toBe(202);
  });

  describe('with small limits', () => {
    let small: Awaited<ReturnType<typeof startTestApp>>;
    beforeAll(async () => {
      await t.stop();
      small = await startTestApp(
        { SEED_DATASETS: 'true', JOBS_POLL_MS: '100', SYQL_MAX_EXECUTION_SECONDS: '1', JOBS_MAX_EXECUTION_SECONDS: '1', SYQL_MAX_MEMORY_MB: '16' },
        { engines },
      );
    });
    afterAll(async () => small?.stop());

    it('refuses before running a pattern whose estimated matches are beyond the limit, saying how to narrow it', async () => {
      const queries = [
        `MATCH (a)--(b)--(c)--(d)--(e)--(f)--(g)--(h) IN "${HERMAPHRODITE}" RETURN count(*)`,
        `MATCH (a)--(b)--(c)--(d)--(e)--(f) IN "${HERMAPHRODITE}" RETURN DISTINCT a.name, b.name, c.name, d.name, e.name, f.name ORDER BY f.name DESC`,
      ];
      for (const query of queries) {
        for (const path of ['exec', 'plan']) {
          const res = await call(small.url, 'POST', `/v1/syql/${path}`, { token: academic.accessToken, body: { query } });
          expect(res.status, JSON.stringify(res.body)).toBe(400);
          expect(res.body.error).toMatch(/SYQL_MAX_ESTIMATED_ROWS/);
          expect(res.body.error).toMatch(/give a node a name/);
          expect(res.body.error).toMatch(/LIMIT does not help/);
        }
        const job = await call(small.url, 'POST', '/v1/jobs', { token: academic.accessToken, body: { query } });
        expect(job.status).toBe(400);
        expect(job.body.error).toMatch(/SYQL_MAX_ESTIMATED_ROWS/);
      }
      // Anchored, the same shape is fine.
      const anchored = await call(small.url, 'POST', '/v1/syql/plan', { token: academic.accessToken, body: { query: `MATCH (a {name: 'AVAL'})--(b)--(c)--(d) IN "${HERMAPHRODITE}" RETURN count(*)` } });
      expect(anchored.status, JSON.stringify(anchored.body)).toBe(200);
    });

    it('stops an interactive query at its time or memory limit with a 4xx naming the limit', async () => {
      const res = await call(small.url, 'POST', '/v1/syql/exec', { token: academic.accessToken, body: { query: HEAVY } });
      expect([400, 408], JSON.stringify(res.body)).toContain(res.status);
      expect(res.body.error).toMatch(/SYQL_MAX_EXECUTION_SECONDS|SYQL_MAX_MEMORY_MB/);
      expect(res.body.error).toMatch(/narrow the query/);
    });

    it('fails a job at its limit with the reason, not an internal error', async () => {
      // Jobs are not held to the interactive memory limit's message: whichever limit stops it is named.
      const submitted = await call(small.url, 'POST', '/v1/jobs', { token: superuser.accessToken, body: { query: HEAVY } });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
      const job = (await waitForJob(small, superuser, submitted.body.job_id)) as Job;
      expect(job.status, JSON.stringify(job)).toBe('failed');
      expect(job.error).not.toMatch(/internal error/);
      expect(job.error).toMatch(/JOBS_MAX_EXECUTION_SECONDS|SYQL_MAX_MEMORY_MB/);
    });
  });
});
