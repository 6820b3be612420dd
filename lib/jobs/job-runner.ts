import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { JobsConfig } from '../config.js';
import type { Db } from '../db/relational.js';
import type { SubgraphDeps } from '../subgraph.js';
import { AppError, unavailableIn } from '../errors.js';
import { outsideRequestScope, runInRequestScope } from '../request-scope.js';
import { JobStore, type HeldJob, type RecoveredJob } from './job.store.js';
import type { JobKind } from './job-kind.js';
import { type JobExecutor, type JobKindName, type JobOutcome, type JobRecord, type JobStatus } from './job.model.js';

/** How often a running job's progress is written at most; the last report before it finishes is always written. */
export const PROGRESS_WRITE_MS = 500;

/** A change of a job's state made or noticed by a runner (the worker CLI prints one line per change). */
export interface JobChange {
  jobId: string;
  kind: JobKindName;
  ownerId: string;
  from: JobStatus;
  to: JobStatus;
  /** The attempt concerned, and how many the job may have. */
  attempt: number;
  maxAttempts: number;
  /** The error of a failure, or why the job went back to queued. */
  detail?: string;
}

export interface JobRunnerOptions {
  store: JobStore;
  /** The kinds this runner claims are those it has an executor for. */
  executors: Partial<Record<JobKindName, JobExecutor>>;
  config: JobsConfig;
  log: FastifyBaseLogger;
  /** Deletes a result object nobody will read: written by an executor whose job was cancelled or lost meanwhile. */
  onDeleteResult?: (resultKey: string) => Promise<void>;
  /**
   * Stops what an attempt whose worker stopped (kill -9, a lost host) may have left running outside that process:
   * its queries on a ClickHouse server run on for up to their time limit otherwise. Called by the sweep that
   * requeues or fails the job.
   */
  onAttemptLost?: (job: RecoveredJob) => Promise<void>;
  onChange?: (change: JobChange) => void;
  /** Default: host/pid/random, unique per runner. */
  workerId?: string;
  /** Default PROGRESS_WRITE_MS. */
  progressIntervalMs?: number;
}

interface Running {
  job: JobRecord;
  held: HeldJob;
  controller: AbortController;
  progress: ProgressWriter;
  done?: Promise<void>;
}

// The runners started in this process, by the database handle they use: an enqueue or a cancellation made through
// the same handle reaches them at once instead of at their next poll or heartbeat.
const localRunners = new WeakMap<Db, Set<JobRunner>>();

/** The runners of this process on `db` (started, not stopped). */
export function localJobRunners(db: Db): readonly JobRunner[] {
  return [...(localRunners.get(db) ?? [])];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Claims queued jobs and runs them (docs/jobs.md, "How jobs run"): at most `config.concurrency` at once in this
 * process, at most `config.perUser` of one owner across every worker (enforced by the claim). It heartbeats the
 * jobs it runs, aborts those cancelled or lost, and sweeps expired leases of every worker. Every write is
 * conditional on this worker still holding the job's attempt, so nothing it writes late overwrites a newer state.
 */
export class JobRunner {
  readonly workerId: string;
  private readonly store: JobStore;
  private readonly kinds: JobKindName[];
  private readonly log: FastifyBaseLogger;
  private readonly running = new Map<string, Running>();
  private state: 'new' | 'started' | 'stopping' | 'stopped' = 'new';
  private pollTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private readonly cleanups = new Set<Promise<void>>();
  private pumping: Promise<void> | null = null;
  private pumpAgain = false;
  private ticking: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;

  constructor(private readonly opts: JobRunnerOptions) {
    this.store = opts.store;
    this.workerId = opts.workerId ?? `${hostname()}/${process.pid}/${randomBytes(3).toString('hex')}`;
    this.kinds = Object.keys(opts.executors).filter((k) => opts.executors[k]);
    this.log = opts.log.child({ component: 'JobRunner', workerId: this.workerId });
  }

  /** Ids of the jobs this runner is running now. */
  get runningJobIds(): string[] {
    return [...this.running.keys()];
  }

  /**
   * Sweeps expired leases, claims what it may, and keeps doing both (claims every JOBS_POLL_MS, heartbeats and
   * sweeps every JOBS_HEARTBEAT_MS). Resolves after the first sweep and claim; never rejects (failures are logged
   * and retried at the next tick).
   */
  async start(): Promise<void> {
    if (this.state !== 'new') return;
    this.state = 'started';
    const db = this.store.db;
    if (!localRunners.has(db)) localRunners.set(db, new Set());
    localRunners.get(db)!.add(this);
    this.log.info({ kinds: this.kinds, concurrency: this.opts.config.concurrency }, 'job runner started');
    await outsideRequestScope(async () => {
      this.heartbeatTimer = setInterval(() => void this.tick(), this.opts.config.heartbeatMs);
      this.pollTimer = setInterval(() => void this.pump(), this.opts.config.pollMs);
      await this.tick();
      await this.pump();
    });
  }

  /** Claims at once instead of at the next poll (a job was enqueued or a slot freed in this process). */
  wake(): void {
    if (this.state === 'started') outsideRequestScope(() => void this.pump());
  }

  /** Aborts the job if this runner runs it (it was cancelled in the store); true when it did. */
  cancelLocal(jobId: string): boolean {
    const entry = this.running.get(jobId);
    if (!entry || entry.controller.signal.aborted) return false;
    this.notice(entry, 'cancelled');
    return true;
  }

  /**
   * Stops claiming, then waits up to `waitMs` (default JOBS_STOP_WAIT_MS) for the running jobs, heartbeating them
   * meanwhile. Aborts nothing: jobs still running afterwards get no more heartbeats, so their lease expires and a
   * sweep (of another worker, or of the next start) retries or fails them.
   */
  stop(opts: { waitMs?: number } = {}): Promise<void> {
    if (this.state === 'new') this.state = 'stopped';
    this.stopping ??= this.state === 'stopped' ? Promise.resolve() : this.stopRunning(opts.waitMs ?? this.opts.config.stopWaitMs);
    return this.stopping;
  }

  private async stopRunning(waitMs: number): Promise<void> {
    this.state = 'stopping';
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
    localRunners.get(this.store.db)?.delete(this);
    // A claim under way ends first, whatever waitMs says: what it hands over is this runner's to run, and once stop
    // returns this runner claims nothing more (a claim still in flight could take a job queued after the stop).
    await this.pumping;
    const settled = Promise.allSettled([...this.running.values()].map((r) => r.done));
    await Promise.race([settled, sleep(waitMs)]);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    // A heartbeat under way, and the stopping of lost attempts' queries, end before the caller closes the stores.
    await Promise.race([Promise.allSettled([this.ticking, ...this.cleanups]), sleep(Math.max(waitMs, 1000))]);
    this.state = 'stopped';
    const left = this.runningJobIds;
    if (left.length) this.log.warn({ jobIds: left }, 'job runner stopped with jobs running; their leases will expire');
    else this.log.info('job runner stopped');
  }

  private pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return this.pumping;
    }
    // Cleared in a callback, which always runs after this assignment (the claim may end without awaiting anything).
    const pumping = this.claimWhileFree().finally(() => {
      if (this.pumping === pumping) this.pumping = null;
    });
    this.pumping = pumping;
    return pumping;
  }

  private async claimWhileFree(): Promise<void> {
    try {
      do {
        this.pumpAgain = false;
        // Claims again while slots are free and the last claim took something: it may have skipped rows a
        // cancellation held.
        while (this.state === 'started' && this.running.size < this.opts.config.concurrency) {
          const claimed = await this.store.claim({
            workerId: this.workerId,
            limit: this.opts.config.concurrency - this.running.size,
            perUser: this.opts.config.perUser,
            kinds: this.kinds,
          });
          for (const job of claimed) this.launch(job);
          if (claimed.length === 0) break;
        }
      } while (this.pumpAgain && this.state === 'started');
    } catch (e) {
      this.log.error({ err: e }, 'claiming jobs failed');
    }
  }

  private launch(job: JobRecord): void {
    const held = { id: job.id, attempt: job.attempts };
    // Only when this runner lost an attempt and claimed the job's next one before noticing: the old one stops.
    const stale = this.running.get(job.id);
    if (stale && !stale.controller.signal.aborted) stale.controller.abort(new Error('the job was taken over by a newer attempt'));
    const entry: Running = {
      job,
      held,
      controller: new AbortController(),
      progress: new ProgressWriter(this.store, this.workerId, held, this.opts.progressIntervalMs ?? PROGRESS_WRITE_MS, this.log),
    };
    this.running.set(job.id, entry);
    this.change(entry, 'queued', 'running');
    entry.done = this.execute(entry).finally(() => {
      entry.progress.close();
      if (this.running.get(job.id) === entry) this.running.delete(job.id);
      if (this.state === 'started') void this.pump();
    });
  }

  private async execute(entry: Running): Promise<void> {
    const { job, held, controller } = entry;
    const { signal } = controller;
    const log = this.log.child({ jobId: job.id, kind: job.kind });
    const executor = this.opts.executors[job.kind]!;
    let outcome: JobOutcome;
    try {
      // The job's own scope: the statements, ClickHouse queries and worker tasks it starts stop with its signal,
      // and carry its id as their request id.
      outcome = await runInRequestScope({ requestId: job.id, signal }, () =>
        executor(job, { signal, progress: (fraction, message) => entry.progress.report(fraction, message), log }),
      );
    } catch (e) {
      // Cancelled or lost: the store already says so, and nothing may be written over it.
      if (signal.aborted) return;
      // A store's ServiceUnavailable may arrive wrapped by the ORM (a lost database session): the owner reads it; what
      // the store said is for the operators.
      const known = e instanceof AppError ? e : unavailableIn(e);
      const message = known ? known.message : 'internal error';
      if (!known || known.status === 503) log.error({ err: (e as { cause?: unknown }).cause ?? e }, 'job failed');
      await entry.progress.settle();
      const failed = await this.store.fail(this.workerId, held, message).catch((err: unknown) => this.writeFailed(err, job));
      if (failed) this.change(entry, 'running', 'failed', message);
      return;
    }
    if (!signal.aborted) {
      await entry.progress.flush();
      const done = await this.store.succeed(this.workerId, held, outcome).catch((err: unknown) => this.writeFailed(err, job));
      if (done) return this.change(entry, 'running', 'succeeded');
      if (done === null) return; // the write failed: the job stays running until its lease expires
    }
    // Finished after it was cancelled or lost: the result is nobody's.
    log.info('job finished after it was cancelled or lost; its result is discarded');
    if (outcome.resultKey && this.opts.onDeleteResult) {
      await this.opts.onDeleteResult(outcome.resultKey).catch((err: unknown) => log.warn({ err, resultKey: outcome.resultKey }, 'deleting a discarded result failed'));
    }
  }

  /** A write that failed (the database is gone): logged; the lease decides what happens to the job. */
  private writeFailed(err: unknown, job: JobRecord): null {
    this.log.error({ err, jobId: job.id }, 'writing a finished job failed; its lease will expire');
    return null;
  }

  /** Work started by a sweep that the stores must outlive (stop() waits for it). */
  private track(work: Promise<void>): void {
    this.cleanups.add(work);
    void work.finally(() => this.cleanups.delete(work));
  }

  /** Heartbeat of the jobs running here, then the sweep of expired leases (this worker's and everyone's). */
  private tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    const ticking = this.heartbeatAndSweep().finally(() => {
      if (this.ticking === ticking) this.ticking = null;
    });
    this.ticking = ticking;
    return ticking;
  }

  private async heartbeatAndSweep(): Promise<void> {
    try {
      const held = [...this.running.values()].filter((r) => !r.controller.signal.aborted).map((r) => r.held);
      if (held.length) {
        const { cancelled, lost } = await this.store.heartbeat(this.workerId, held);
        for (const id of cancelled) this.noticeById(id, 'cancelled');
        for (const id of lost) this.noticeById(id, 'lost');
      }
      const recovered = await this.store.recoverExpired(this.opts.config.leaseMs, this.workerId, this.runningJobIds);
      for (const r of recovered) {
        const detail = r.detail;
        this.log.warn({ jobId: r.id, stoppedWorker: r.workerId, status: r.status }, 'recovered a job whose worker stopped');
        // Not awaited: a kill that waits for a busy server must not hold up the heartbeats of the jobs running here.
        if (this.opts.onAttemptLost) this.track(this.opts.onAttemptLost(r).catch((err: unknown) => this.log.warn({ err, jobId: r.id }, 'stopping what a lost attempt left running failed')));
        this.opts.onChange?.({ jobId: r.id, kind: r.kind, ownerId: r.ownerId, from: 'running', to: r.status, attempt: r.attempts, maxAttempts: r.maxAttempts, detail });
      }
      if (recovered.some((r) => r.status === 'queued') && this.state === 'started') void this.pump();
    } catch (e) {
      this.log.warn({ err: e }, 'job heartbeat failed');
    }
  }

  private noticeById(id: string, why: 'cancelled' | 'lost'): void {
    const entry = this.running.get(id);
    if (entry && !entry.controller.signal.aborted) this.notice(entry, why);
  }

  private notice(entry: Running, why: 'cancelled' | 'lost'): void {
    entry.progress.close();
    if (why === 'cancelled') {
      entry.controller.abort(new Error('the job was cancelled'));
      this.change(entry, 'running', 'cancelled');
    } else {
      // Its lease expired (this process stalled longer than JOBS_LEASE_MS): a sweep requeued or failed it.
      entry.controller.abort(new Error('this worker lost the job: its lease expired'));
      this.log.warn({ jobId: entry.job.id }, 'lost a job whose lease expired');
    }
  }

  private change(entry: Running, from: JobStatus, to: JobStatus, detail?: string): void {
    const { job, held } = entry;
    this.log.info({ jobId: job.id, kind: job.kind, ownerId: job.ownerId, attempt: held.attempt, from, to }, `job ${to}`);
    this.opts.onChange?.({ jobId: job.id, kind: job.kind, ownerId: job.ownerId, from, to, attempt: held.attempt, maxAttempts: job.maxAttempts, detail });
  }
}

/**
 * Writes an executor's progress reports to the store, at most one write every `intervalMs` and one at a time: the
 * latest report waits for its turn, older ones are dropped. Writes run outside the job's scope, so a cancelled
 * job's last report is not refused for its aborted signal (the store's condition decides).
 */
class ProgressWriter {
  private pending: { fraction: number; message: string } | null = null;
  private lastWrite = 0;
  private inFlight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly store: JobStore,
    private readonly workerId: string,
    private readonly held: HeldJob,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  report(fraction: number, message: string): void {
    if (this.closed) return;
    const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
    this.pending = { fraction: f, message: String(message) };
    this.schedule();
  }

  /** Writes the last report still waiting, and waits for it. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
    if (this.pending && !this.closed) {
      this.write();
      await this.inFlight;
    }
  }

  /** Drops what waits and lets a write under way end. */
  async settle(): Promise<void> {
    this.close();
    await this.inFlight;
  }

  close(): void {
    this.closed = true;
    this.pending = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.inFlight || this.timer || !this.pending) return;
    const wait = this.lastWrite + this.intervalMs - Date.now();
    if (wait <= 0) return this.write();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.write();
    }, wait);
    this.timer.unref();
  }

  private write(): void {
    const p = this.pending;
    if (!p || this.closed) return;
    this.pending = null;
    this.lastWrite = Date.now();
    this.inFlight = outsideRequestScope(() => this.store.progress(this.workerId, this.held, p.fraction, p.message))
      .then(
        () => {},
        (err: unknown) => this.log.warn({ err, jobId: this.held.id }, 'writing job progress failed'),
      )
      .finally(() => {
        this.inFlight = null;
        this.schedule();
      });
  }
}

/**
 * The runner of a process (a server with JOBS_IN_PROCESS, or `npm run worker`) on the process's stores, for the
 * kinds registered in it: it claims those only. Discarded results are deleted from object storage. Started at once;
 * call `stop()` before the stores close.
 */
export function startJobRunner(deps: Pick<SubgraphDeps, 'stores' | 'config' | 'log'>, kinds: readonly JobKind[], opts: Pick<JobRunnerOptions, 'onChange'> = {}): JobRunner {
  const byName = new Map(kinds.map((k) => [k.name, k]));
  const runner = new JobRunner({
    store: new JobStore(deps.stores.relational.db),
    executors: Object.fromEntries(kinds.map((k) => [k.name, k.execute])),
    config: deps.config.jobs,
    log: deps.log,
    onDeleteResult: (key) => deps.stores.objects.delete(key),
    onAttemptLost: async (job) => {
      await byName.get(job.kind)?.onAttemptLost?.(job);
    },
    ...opts,
  });
  void runner.start();
  return runner;
}
