import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { configFrom, type Config, type JobsConfig } from '../../config.js';
import { openRelational, type RelationalStore } from '../../db/relational.js';
import { createTestEngines, type TestEngines } from '../../../test/kit/app.js';
import { eventually } from '../../../test/kit/eventually.js';
import { BadInput, ServiceUnavailable } from '../../errors.js';
import { newId } from '../../ids.js';
import { JobStore, type HeldJob } from '../job.store.js';
import { JobRunner, type JobChange } from '../job-runner.js';
import { JobQueue } from '../job-queue.js';
import type { JobExecutor, JobOutcome, JobRecord, JobRun } from '../job.model.js';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

/** Waits until `check` holds: the runners work on their own timers. */
const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) => eventually(check, { what, timeoutMs, intervalMs: 10 });

/**
 * The job store, counting the runners' calls: "several polls later" is a number of claims or heartbeats, whatever
 * the machine's speed.
 */
class CountingJobStore extends JobStore {
  claims = 0;
  heartbeats = 0;
  override claim(...args: Parameters<JobStore['claim']>) {
    this.claims++;
    return super.claim(...args);
  }
  override heartbeat(...args: Parameters<JobStore['heartbeat']>) {
    this.heartbeats++;
    return super.heartbeat(...args);
  }
}

const outcome = (key: string | null = null, rows = 0): JobOutcome => ({ resultKey: key, resultBytes: rows * 10, resultRows: rows, resultSha256: key ? 'ab'.repeat(32) : null, resultMeta: { rows } });

/** An executor whose jobs wait until the test finishes, fails or lets them abort. */
function heldExecutor() {
  const calls = new Map<string, { job: JobRecord; run: JobRun; finish(o: JobOutcome): void; fail(e: unknown): void; aborted: Promise<void> }>();
  const order: string[] = [];
  let concurrent = 0;
  let maxConcurrent = 0;
  const perOwner = new Map<string, number>();
  let maxPerOwner = 0;
  const executor: JobExecutor = (job, run) => {
    order.push(job.id);
    concurrent++;
    maxConcurrent = Math.max(maxConcurrent, concurrent);
    perOwner.set(job.ownerId, (perOwner.get(job.ownerId) ?? 0) + 1);
    maxPerOwner = Math.max(maxPerOwner, perOwner.get(job.ownerId)!);
    return new Promise<JobOutcome>((resolve, reject) => {
      let settled = false;
      const done = () => {
        if (settled) return false;
        settled = true;
        concurrent--;
        perOwner.set(job.ownerId, perOwner.get(job.ownerId)! - 1);
        return true;
      };
      const aborted = new Promise<void>((r) => run.signal.addEventListener('abort', () => r(), { once: true }));
      calls.set(job.id, {
        job,
        run,
        aborted,
        finish: (o) => {
          if (done()) resolve(o);
        },
        fail: (e) => {
          if (done()) reject(e);
        },
      });
    });
  };
  return {
    executor,
    calls,
    order,
    get concurrent() {
      return concurrent;
    },
    get maxConcurrent() {
      return maxConcurrent;
    },
    get maxPerOwner() {
      return maxPerOwner;
    },
    finishAll() {
      for (const c of calls.values()) c.finish(outcome());
    },
  };
}

describe('jobs settings', () => {
  it('default to an in-process worker, two jobs per process and one per user, a 30 s lease and two attempts', () => {
    expect(configFrom({}).jobs).toEqual({ inProcess: true, concurrency: 2, perUser: 1, heartbeatMs: 5000, leaseMs: 30_000, pollMs: 500, maxAttempts: 2, stopWaitMs: 10_000, queuedPerUser: 20, maxExecutionSeconds: 600, maxThreads: 1 });
    expect(configFrom({ JOBS_IN_PROCESS: 'false' }).jobs.inProcess).toBe(false);
  });

  it('refuse a per-user limit that lets one user take every slot of a worker', () => {
    expect(() => configFrom({ JOBS_CONCURRENCY: '2', JOBS_PER_USER: '2' })).toThrow(/JOBS_PER_USER: must be below JOBS_CONCURRENCY \(2\)/);
    expect(() => configFrom({ JOBS_CONCURRENCY: '4', JOBS_PER_USER: '5' })).toThrow(/JOBS_PER_USER: must be below JOBS_CONCURRENCY \(4\)/);
    expect(configFrom({ JOBS_CONCURRENCY: '4', JOBS_PER_USER: '3' }).jobs).toMatchObject({ concurrency: 4, perUser: 3 });
    // One slot cannot be shared: its worker takes jobs in turns between users.
    expect(configFrom({ JOBS_CONCURRENCY: '1', JOBS_PER_USER: '1' }).jobs).toMatchObject({ concurrency: 1, perUser: 1 });
  });

  it('refuse a lease shorter than two heartbeats, and limits below one', () => {
    expect(() => configFrom({ JOBS_HEARTBEAT_MS: '5000', JOBS_LEASE_MS: '8000' })).toThrow(/JOBS_LEASE_MS: must be at least twice JOBS_HEARTBEAT_MS/);
    expect(() => configFrom({ JOBS_CONCURRENCY: '0', JOBS_PER_USER: '0', JOBS_MAX_ATTEMPTS: '0' })).toThrow(/JOBS_CONCURRENCY[\s\S]*JOBS_PER_USER[\s\S]*JOBS_MAX_ATTEMPTS/);
  });
});

describe(JobRunner.name, () => {
  let engines: TestEngines;
  let config: Config;
  let relational: RelationalStore;
  let store: CountingJobStore;
  const runners: JobRunner[] = [];
  const cleanups: (() => unknown)[] = [];
  const deletedResults: string[] = [];

  /** Short leases and polls, so recovery happens within the test. */
  const jobsConfig = (over: Partial<JobsConfig> = {}): JobsConfig => ({ ...config.jobs, ...over });

  function runner(executors: ConstructorParameters<typeof JobRunner>[0]['executors'], over: Partial<JobsConfig> = {}, opts: { store?: JobStore; onChange?: (c: JobChange) => void } = {}) {
    const r = new JobRunner({
      store: opts.store ?? store,
      executors,
      config: jobsConfig(over),
      log,
      onDeleteResult: async (key) => void deletedResults.push(key),
      onChange: opts.onChange,
    });
    runners.push(r);
    return r;
  }

  function queue(maxAttempts = config.jobs.maxAttempts, on: JobStore = store) {
    return new JobQueue({ store: on, maxAttempts, log, onDeleteResult: async (key) => void deletedResults.push(key) });
  }

  const statusOf = async (id: string) => (await store.get(id))!.status;
  const countRunning = async () => {
    const r = (await relational.db.execute(sql`select count(*)::int as n from query.jobs where status = 'running'`)) as unknown as { rows: { n: number }[] };
    return r.rows[0].n;
  };

  beforeAll(async () => {
    engines = await createTestEngines();
    config = configFrom({
      ...engines.env,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      JOBS_HEARTBEAT_MS: '50',
      JOBS_LEASE_MS: '400',
      JOBS_POLL_MS: '25',
      JOBS_STOP_WAIT_MS: '5000',
    });
    relational = await openRelational(config.relational);
    await relational.migrate();
    store = new CountingJobStore(relational.db);
  });

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop({ waitMs: 0 })));
    for (const c of cleanups.splice(0)) await c();
    // Each test starts with an empty queue: a runner claims whatever is queued, whoever queued it.
    await relational.db.execute(sql`update query.jobs set status = 'cancelled', finished_at = now() where status in ('queued', 'running')`);
    deletedResults.length = 0;
  });

  afterAll(async () => {
    await relational?.close();
    await engines?.drop();
  });

  it('runs queued jobs oldest first and stores their results', async () => {
    const seen: string[] = [];
    const q = queue();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await q.enqueue(newId(), 'syql', { n: i })).id);
    const r = runner(
      {
        syql: async (job) => {
          seen.push(job.id);
          return outcome(`jobs/${job.id}.arrow`, Number(job.input.n) + 1);
        },
      },
      { concurrency: 1 },
    );
    await r.start();
    await until(async () => (await Promise.all(ids.map(statusOf))).every((s) => s === 'succeeded'), 'every job succeeded');
    expect(seen).toEqual(ids);
    const done = (await store.get(ids[2]))!;
    expect(done).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      progress: 1,
      workerId: r.workerId,
      resultKey: `jobs/${ids[2]}.arrow`,
      resultRows: 3,
      resultBytes: 30,
      resultSha256: 'ab'.repeat(32),
      resultMeta: { rows: 3 },
      error: null,
    });
    expect(done.startedAt).toBeInstanceOf(Date);
    expect(done.finishedAt!.getTime()).toBeGreaterThanOrEqual(done.startedAt!.getTime());
  });

  it('runs at most JOBS_CONCURRENCY jobs at once in one process', async () => {
    const held = heldExecutor();
    const q = queue();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await q.enqueue(newId(), 'graph', {})).id);
    const r = runner({ graph: held.executor }, { concurrency: 2 });
    await r.start();
    await until(() => held.calls.size === 2, 'two jobs started');
    // Several heartbeats (and polls, twice as often) later, still two: the others wait queued.
    const heartbeats = store.heartbeats;
    await until(() => store.heartbeats >= heartbeats + 3, 'three more heartbeats');
    expect(held.calls.size).toBe(2);
    expect(await countRunning()).toBe(2);
    expect(await statusOf(ids[4])).toBe('queued');
    // A freed slot is taken at once.
    held.calls.get(ids[0])!.finish(outcome());
    await until(() => held.calls.size === 3, 'a third job started');
    held.finishAll();
    await until(() => held.calls.size === 5, 'every job started');
    held.finishAll();
    await until(async () => (await Promise.all(ids.map(statusOf))).every((s) => s === 'succeeded'), 'every job succeeded');
    expect(held.maxConcurrent).toBe(2);
  });

  it('runs at most JOBS_PER_USER jobs of one user at once across workers, and other users pass them', async () => {
    const held = heldExecutor();
    const q = queue();
    const busy = newId();
    const other = newId();
    const busyJobs: string[] = [];
    for (let i = 0; i < 5; i++) busyJobs.push((await q.enqueue(busy, 'syql', { i })).id);
    const otherJob = (await q.enqueue(other, 'syql', {})).id;
    // Leases far longer than the file's 400 ms: on a loaded machine a starved heartbeat would let a lease lapse, and
    // the other runner would take that job again, which is recovery (tested above), not the limit tested here.
    const limits = { concurrency: 4, perUser: 2, heartbeatMs: 500, leaseMs: 10_000 };
    const a = runner({ syql: held.executor }, limits);
    const b = runner({ syql: held.executor }, limits);
    await Promise.all([a.start(), b.start()]);
    await until(() => held.calls.has(otherJob) && held.calls.size === 3, "the other user's job and two of the busy user's started");
    // Both runners claim again, and again nothing of the busy user's starts.
    const claims = store.claims;
    await until(() => store.claims >= claims + 4, 'four more claims');
    expect([...held.calls.keys()].sort()).toEqual([busyJobs[0], busyJobs[1], otherJob].sort());
    // Each finished job of the busy user lets exactly one more of theirs start.
    const finished = new Set<string>();
    for (let next = 2; next < 5; next++) {
      const oldest = busyJobs.find((id) => held.calls.has(id) && !finished.has(id))!;
      finished.add(oldest);
      held.calls.get(oldest)!.finish(outcome());
      await until(() => held.calls.has(busyJobs[next]), `job ${next} of the busy user started`);
      expect(busyJobs.filter((id) => held.calls.has(id) && !finished.has(id))).toHaveLength(2);
    }
    held.finishAll();
    await until(async () => (await Promise.all([...busyJobs, otherJob].map(statusOf))).every((s) => s === 'succeeded'), 'every job succeeded');
    expect(held.maxPerOwner).toBe(2);
  });
  it("with the default settings, one user's queued jobs never take every slot: another user's job starts while theirs run", async () => {
    const held = heldExecutor();
    const q = queue();
    const busy = newId();
    const busyJobs: string[] = [];
    for (let i = 0; i < 6; i++) busyJobs.push((await q.enqueue(busy, 'syql', { i })).id);
    const defaults = configFrom({}).jobs;
    const r = runner({ syql: held.executor }, { concurrency: defaults.concurrency, perUser: defaults.perUser });
    await r.start();
    await until(() => held.calls.has(busyJobs[0]), "the busy user's first job started");
    const other = (await q.enqueue(newId(), 'syql', {})).id;
    await until(() => held.calls.has(other), "the other user's job started");
    // The busy user's first job is still running: the other job did not have to wait for it.
    expect(await statusOf(busyJobs[0])).toBe('running');
    expect(await statusOf(busyJobs[5])).toBe('queued');
    held.finishAll();
  });

  it("takes queued jobs in turns between users: another user's job starts before the busy users' later jobs", async () => {
    const held = heldExecutor();
    const q = queue();
    const [first, second, late] = [newId(), newId(), newId()];
    const firstJobs: string[] = [];
    const secondJobs: string[] = [];
    for (let i = 0; i < 5; i++) firstJobs.push((await q.enqueue(first, 'syql', { i })).id);
    for (let i = 0; i < 5; i++) secondJobs.push((await q.enqueue(second, 'syql', { i })).id);
    const r = runner({ syql: held.executor }, { concurrency: 3, perUser: 2 });
    await r.start();
    await until(() => held.calls.size === 3, 'three jobs started');
    // Each user's first job before anyone's second; then the older user's second.
    expect(held.order).toEqual([firstJobs[0], secondJobs[0], firstJobs[1]]);
    const lateJob = (await q.enqueue(late, 'syql', {})).id;
    // Every slot is taken: the late user's job waits for the first slot to free, and then takes it, ahead of the
    // queued jobs of both busy users, which were enqueued before it.
    held.calls.get(firstJobs[0])!.finish(outcome());
    await until(() => held.calls.size === 4, 'a fourth job started');
    expect(held.order[3]).toBe(lateJob);
    held.calls.get(secondJobs[0])!.finish(outcome());
    await until(() => held.calls.size === 5, 'a fifth job started');
    expect(held.order[4]).toBe(secondJobs[1]);
    const started = await Promise.all([lateJob, firstJobs[2], secondJobs[2]].map(async (id) => (await store.get(id))!));
    expect(started.map((j) => j.status)).toEqual(['running', 'queued', 'queued']);
    held.finishAll();
  });

  it('writes progress at most about every 500 ms, and always the last report', async () => {
    const writes: { fraction: number; message: string }[] = [];
    class CountingStore extends JobStore {
      override progress(workerId: string, held: HeldJob, fraction: number, message: string) {
        writes.push({ fraction, message });
        return super.progress(workerId, held, fraction, message);
      }
    }
    const counting = new CountingStore(relational.db);
    let halfway!: () => void;
    const atHalf = new Promise<void>((r) => (halfway = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const r = runner(
      {
        syql: async (_job, run) => {
          for (let i = 1; i <= 1000; i++) run.progress(i / 2000, `row ${i}`);
          halfway();
          await released;
          // A burst right before finishing: only the last is written, before the job succeeds.
          for (let i = 1001; i <= 2000; i++) run.progress(i / 2000, `row ${i}`);
          run.progress(7, 'beyond the end is clamped');
          return outcome();
        },
      },
      {},
      { store: counting },
    );
    const job = await queue().enqueue(newId(), 'syql', {});
    await r.start();
    await atHalf;
    await until(async () => (await store.get(job.id))!.progressMessage === 'row 1000', 'the last report of the first burst is written');
    expect((await store.get(job.id))!.progress).toBe(0.5);
    expect(writes.length).toBeLessThanOrEqual(3);
    release();
    await until(async () => (await statusOf(job.id)) === 'succeeded', 'the job succeeded');
    expect(writes.length).toBeLessThanOrEqual(5);
    expect(writes.at(-1)).toEqual({ fraction: 1, message: 'beyond the end is clamped' });
    expect(await store.get(job.id)).toMatchObject({ progress: 1, progressMessage: 'beyond the end is clamped' });
  });

  it('cancels a queued job at once: it never starts', async () => {
    const q = queue();
    const job = await q.enqueue(newId(), 'syql', {});
    const cancelled = await q.cancel(job.id);
    expect(cancelled).toMatchObject({ id: job.id, status: 'cancelled', attempts: 0 });
    expect(cancelled!.finishedAt).toBeInstanceOf(Date);
    const started: string[] = [];
    const r = runner({ syql: async (j) => (started.push(j.id), outcome()) });
    await r.start();
    const later = await q.enqueue(newId(), 'syql', {});
    await until(async () => (await statusOf(later.id)) === 'succeeded', 'a later job ran');
    expect(started).toEqual([later.id]);
    expect(await statusOf(job.id)).toBe('cancelled');
    // Cancelling again changes nothing; a finished job stays as it finished.
    expect((await q.cancel(job.id))!.status).toBe('cancelled');
    expect((await q.cancel(later.id))!.status).toBe('succeeded');
    expect(await q.cancel(newId())).toBeUndefined();
  });

  it('cancels a running job in the same process at once: the executor sees its signal abort and a late result is discarded', async () => {
    const held = heldExecutor();
    const changes: JobChange[] = [];
    const r = runner({ graph: held.executor }, {}, { onChange: (c) => changes.push(c) });
    await r.start();
    const q = queue();
    const job = await q.enqueue(newId(), 'graph', {});
    await until(() => held.calls.has(job.id), 'the job started');
    const call = held.calls.get(job.id)!;
    expect((await q.cancel(job.id))!.status).toBe('cancelled');
    await call.aborted;
    expect(call.run.signal.reason).toBeInstanceOf(Error);
    // The executor ignores the abort and returns a result anyway: the job stays cancelled, the object goes.
    call.finish(outcome('jobs/late.arrow', 5));
    await until(() => deletedResults.includes('jobs/late.arrow'), 'the late result was deleted');
    expect(await store.get(job.id)).toMatchObject({ status: 'cancelled', resultKey: null, error: null });
    expect(changes.map((c) => `${c.from}->${c.to}`)).toEqual(['queued->running', 'running->cancelled']);
    await until(() => r.runningJobIds.length === 0, 'the runner let the job go');
  });

  it('notices at its next heartbeat a running job cancelled by another process', async () => {
    const held = heldExecutor();
    const r = runner({ syql: held.executor });
    await r.start();
    const job = await queue().enqueue(newId(), 'syql', {});
    await until(() => held.calls.has(job.id), 'the job started');
    // Straight through the store, as another process's queue would: no local cancellation.
    expect((await store.cancel(job.id))!.previous).toBe('running');
    await held.calls.get(job.id)!.aborted;
    held.calls.get(job.id)!.fail(new Error('aborted'));
    await until(() => r.runningJobIds.length === 0, 'the runner let the job go');
    expect(await store.get(job.id)).toMatchObject({ status: 'cancelled', error: null });
  });

  it("keeps an AppError's message and hides any other error as internal error", async () => {
    const r = runner({
      syql: async (job) => {
        if (job.input.bad) throw new BadInput('unknown region "XYZ"');
        throw new TypeError('cannot read properties of undefined');
      },
    });
    await r.start();
    const q = queue();
    const bad = await q.enqueue(newId(), 'syql', { bad: true });
    const broken = await q.enqueue(newId(), 'syql', { bad: false });
    await until(async () => (await statusOf(bad.id)) === 'failed' && (await statusOf(broken.id)) === 'failed', 'both failed');
    expect(await store.get(bad.id)).toMatchObject({ status: 'failed', error: 'unknown region "XYZ"', attempts: 1 });
    expect(await store.get(broken.id)).toMatchObject({ status: 'failed', error: 'internal error' });
    expect((await store.get(broken.id))!.finishedAt).toBeInstanceOf(Date);
  });

  it('deletes only finished jobs, and their result objects with them', async () => {
    const r = runner({ syql: async (job) => outcome(`jobs/${job.id}.arrow`, 1) });
    const q = queue();
    const waiting = await q.enqueue(newId(), 'graph', {});
    await expect(q.delete(waiting.id)).rejects.toMatchObject({ extensions: { code: 'CONFLICT' } });
    await r.start();
    const done = await q.enqueue(newId(), 'syql', {});
    await until(async () => (await statusOf(done.id)) === 'succeeded', 'the job succeeded');
    expect((await q.delete(done.id))!.id).toBe(done.id);
    expect(deletedResults).toEqual([`jobs/${done.id}.arrow`]);
    expect(await store.get(done.id)).toBeUndefined();
    expect(await q.delete(done.id)).toBeUndefined();
  });

  it("lists an owner's jobs newest first, filtered by status, a page at a time", async () => {
    const q = queue();
    const owner = newId();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await q.enqueue(owner, 'syql', { i })).id);
    await q.enqueue(newId(), 'syql', {});
    await q.cancel(ids[1]);
    const page = await q.list(owner, { limit: 2, offset: 1 });
    expect(page.total).toBe(5);
    expect(page.items.map((j) => j.id)).toEqual([ids[3], ids[2]]);
    const cancelled = await q.list(owner, { statuses: ['cancelled'], limit: 10, offset: 0 });
    expect(cancelled).toMatchObject({ total: 1, items: [{ id: ids[1], status: 'cancelled' }] });
    expect((await q.list(owner, { limit: 10, offset: 10 })).total).toBe(5);
  });

  it('retries a job whose worker stopped without heartbeats, and refuses the stopped worker a late finish', async () => {
    const dead = heldExecutor();
    const changes: JobChange[] = [];
    const first = runner({ syql: dead.executor });
    await first.start();
    const job = await queue(2).enqueue(newId(), 'syql', {});
    await until(() => dead.calls.has(job.id), 'the first worker started the job');
    dead.calls.get(job.id)!.run.progress(0.4, 'reading');
    // The first worker dies: no stop, no heartbeats, its executor never returns (as after kill -9).
    await first.stop({ waitMs: 0 });

    const retried: JobRecord[] = [];
    const second = runner(
      {
        syql: async (j) => {
          retried.push(j);
          return outcome(`jobs/${j.id}-second.arrow`, 2);
        },
      },
      {},
      { onChange: (c) => changes.push(c) },
    );
    await second.start();
    await until(async () => (await statusOf(job.id)) === 'succeeded', 'the job succeeded on the second worker');
    expect(retried).toHaveLength(1);
    expect(retried[0]).toMatchObject({ attempts: 2, progress: 0, progressMessage: 'retried after its worker stopped (attempt 1 of 2)' });
    expect(changes.map((c) => `${c.from}->${c.to}`)).toEqual(['running->queued', 'queued->running', 'running->succeeded']);
    expect(changes[0].detail).toBe('retried after its worker stopped (attempt 1 of 2)');

    // The first worker's executor finally returns: nothing it writes lands, and its result object goes.
    dead.calls.get(job.id)!.finish(outcome('jobs/first.arrow', 1));
    await until(() => deletedResults.includes('jobs/first.arrow'), "the stopped worker's result was deleted");
    expect(await store.get(job.id)).toMatchObject({ status: 'succeeded', workerId: second.workerId, attempts: 2, resultKey: `jobs/${job.id}-second.arrow` });
  });

  it('fails a job whose worker stopped on its last attempt, naming the attempt', async () => {
    const dead = heldExecutor();
    const first = runner({ graph: dead.executor });
    await first.start();
    const job = await queue(1).enqueue(newId(), 'graph', {});
    await until(() => dead.calls.has(job.id), 'the first worker started the job');
    await first.stop({ waitMs: 0 });
    cleanups.push(() => dead.finishAll());

    const started: string[] = [];
    const second = runner({ graph: async (j) => (started.push(j.id), outcome()) });
    await second.start();
    await until(async () => (await statusOf(job.id)) === 'failed', 'the job failed');
    expect(await store.get(job.id)).toMatchObject({ status: 'failed', attempts: 1, maxAttempts: 1, error: 'the worker running this job stopped (attempt 1 of 1)' });
    expect(started).toEqual([]);
  });

  it("retries a job whose outcome its own worker could not write, as when the database's sessions end with the job", async () => {
    // The session that would record the outcome is ended (a failover, pg_terminate_backend): the write fails once.
    class LosingStore extends JobStore {
      lost = 0;
      override succeed(...args: Parameters<JobStore['succeed']>) {
        if (this.lost++ === 0) return Promise.reject(new ServiceUnavailable('the relational database connection was lost; retry'));
        return super.succeed(...args);
      }
    }
    const losing = new LosingStore(relational.db);
    const changes: JobChange[] = [];
    const attempts: number[] = [];
    const r = runner({ syql: async (j) => (attempts.push(j.attempts), outcome()) }, {}, { store: losing, onChange: (c) => changes.push(c) });
    await r.start();
    const job = await queue(2).enqueue(newId(), 'syql', {});
    // One worker only: nobody else sweeps, so the runner must see that the job it no longer runs is not running.
    await until(async () => (await statusOf(job.id)) === 'succeeded', 'the job succeeded on its second attempt');
    expect(attempts).toEqual([1, 2]);
    expect(changes.map((c) => `${c.from}->${c.to}`)).toEqual(['queued->running', 'running->queued', 'queued->running', 'running->succeeded']);
    // Its worker did not stop: the job says what happened instead.
    expect(changes[1].detail).toBe('retried after its outcome could not be recorded (attempt 1 of 2)');
  });

  it('recovers at start the jobs left running by a worker that is gone', async () => {
    const q = queue(2);
    const job = await q.enqueue(newId(), 'syql', {});
    const [claimed] = await store.claim({ workerId: 'gone/1/aaaaaa', limit: 1, perUser: 2, kinds: ['syql'] });
    expect(claimed).toMatchObject({ id: job.id, status: 'running', attempts: 1, workerId: 'gone/1/aaaaaa' });
    // Its heartbeat is long past, as after a restart.
    await relational.db.execute(sql`update query.jobs set heartbeat_at = now() - interval '1 hour' where id = ${job.id}`);
    const ran: string[] = [];
    const r = runner({ syql: async (j) => (ran.push(j.id), outcome()) });
    await r.start();
    await until(async () => (await statusOf(job.id)) === 'succeeded', 'the job succeeded');
    expect(ran).toEqual([job.id]);
  });

  describe('two workers on one PostgreSQL', () => {
    it("claim at the same moment without passing a user's limit together", async (ctx) => {
      if (config.relational.kind !== 'postgres') return ctx.skip();
      const other = await openRelational(config.relational);
      cleanups.push(() => other.close());
      const stores = [store, new JobStore(other.db)];
      const q = queue();
      for (let round = 0; round < 5; round++) {
        const owner = newId();
        for (let i = 0; i < 10; i++) await q.enqueue(owner, 'syql', { i });
        const claims = await Promise.all(stores.map((s, n) => s.claim({ workerId: `worker-${n}`, limit: 5, perUser: 2, kinds: ['syql'] })));
        expect(claims.flat().length).toBe(2);
        expect(new Set(claims.flat().map((j) => j.id)).size).toBe(2);
        await relational.db.execute(sql`update query.jobs set status = 'cancelled' where owner_id = ${owner} and status in ('queued', 'running')`);
      }
    });

    it('never run one job twice, and share the queue', async (ctx) => {
      if (config.relational.kind !== 'postgres') return ctx.skip();
      // A second pool, as a second worker process would have.
      const other = await openRelational(config.relational);
      cleanups.push(() => other.close());
      const runs = new Map<string, string[]>();
      let concurrentPerOwner = new Map<string, number>();
      let maxPerOwner = 0;
      const executorFor = (worker: () => string): JobExecutor => async (job) => {
        runs.set(job.id, [...(runs.get(job.id) ?? []), worker()]);
        concurrentPerOwner.set(job.ownerId, (concurrentPerOwner.get(job.ownerId) ?? 0) + 1);
        maxPerOwner = Math.max(maxPerOwner, concurrentPerOwner.get(job.ownerId)!);
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
        concurrentPerOwner.set(job.ownerId, concurrentPerOwner.get(job.ownerId)! - 1);
        return outcome();
      };
      const a: JobRunner = runner({ syql: executorFor(() => a.workerId), graph: executorFor(() => a.workerId) }, { concurrency: 3, perUser: 2 });
      const b: JobRunner = runner({ syql: executorFor(() => b.workerId), graph: executorFor(() => b.workerId) }, { concurrency: 3, perUser: 2 }, { store: new JobStore(other.db) });
      await Promise.all([a.start(), b.start()]);
      const owners = Array.from({ length: 6 }, () => newId());
      const q = queue();
      const ids: string[] = [];
      for (let i = 0; i < 48; i++) ids.push((await q.enqueue(owners[i % owners.length], i % 2 ? 'graph' : 'syql', { i })).id);
      await until(async () => (await Promise.all(ids.map(statusOf))).every((s) => s === 'succeeded'), 'every job succeeded', 60_000);
      expect([...runs.keys()].sort()).toEqual([...ids].sort());
      expect([...runs.values()].filter((workers) => workers.length !== 1)).toEqual([]);
      const byWorker = [...runs.values()].flat();
      expect(byWorker.filter((w) => w === a.workerId).length).toBeGreaterThan(0);
      expect(byWorker.filter((w) => w === b.workerId).length).toBeGreaterThan(0);
      expect(maxPerOwner).toBeLessThanOrEqual(2);
      concurrentPerOwner = new Map();
    });
  });
});
