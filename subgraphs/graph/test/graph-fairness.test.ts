import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { eventually } from '../../../test/kit/eventually.js';
import { workerPoolLoad } from '../../../lib/workers/pool.js';

const DATASET = 'celegans_varshney_2011';
/** A thousand rewired graphs, each censused: seconds of worker time for each request (5 s alone on 2 cores). */
const HEAVY = { null_model: { samples: 1000, swaps_per_edge: 1 } };

/** The graph workers shared between users: one user's queue of heavy analyses does not hold another's small one. */
describe('graph analyses of two users on the worker pool', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let heavy: TestUser;
  let small: TestUser;

  beforeAll(async () => {
    // A deadline far beyond the four heavy analyses one after another on a loaded machine: this is not about deadlines.
    t = await startTestApp({ SEED_DATASETS: 'true', REQUEST_TIMEOUT_MS: '300000' });
    [heavy, small] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'ACADEMIC' })]);
    // The connectome read once, so that what follows waits on the workers only.
    expect((await call(t.url, 'GET', `/v1/graph/${DATASET}/metrics`, { token: small.accessToken })).status).toBe(200);
  }, 300_000);
  afterAll(async () => t?.close());

  it("answers another user's metrics while one user's heavy analyses are still running and queued", async () => {
    const owner = `user:${heavy.id}`;
    const answered: number[] = [];
    const heavyRequests = [0, 1, 2, 3].map((i) =>
      call(t.url, 'POST', `/v1/graph/${DATASET}/motifs`, { token: heavy.accessToken, body: { ...HEAVY, null_model: { ...HEAVY.null_model, seed: i + 1 } } }).then((res) => {
        answered.push(i);
        return res;
      }),
    );
    // All four are in the pool: one running, the others waiting behind it.
    await eventually(() => {
      const mine = workerPoolLoad().owners[owner];
      return mine && mine.running >= 1 && mine.running + mine.waiting >= 4;
    }, { what: "the heavy user's four analyses in the worker pool", timeoutMs: 30_000 });

    const metrics = await call(t.url, 'GET', `/v1/graph/${DATASET}/metrics`, { token: small.accessToken });
    const heavyLoad = workerPoolLoad().owners[owner];
    const unanswered = 4 - answered.length;

    expect(metrics.status).toBe(200);
    expect(metrics.body.nodes).toBeGreaterThan(0);
    expect(unanswered).toBeGreaterThan(0);
    expect(heavyLoad.running + heavyLoad.waiting).toBeGreaterThan(0);

    // The heavy analyses are not starved either: each is answered in the end.
    for (const res of await Promise.all(heavyRequests)) {
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      expect(res.body.null_model.samples).toBe(1000);
    }
  }, 400_000);

  it('keeps one user below the size of the pool, so a thread is left for others', () => {
    const { threads, perOwner } = workerPoolLoad();
    expect(threads).toBeGreaterThanOrEqual(2);
    expect(perOwner).toBeLessThan(threads);
  });
});
