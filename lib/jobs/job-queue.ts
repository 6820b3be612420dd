import type { FastifyBaseLogger } from 'fastify';
import type { SubgraphDeps } from '../subgraph.js';
import { Conflict, RateLimited } from '../errors.js';
import { newId } from '../ids.js';
import { outsideRequestScope } from '../request-scope.js';
import { JobStore } from './job.store.js';
import { localJobRunners } from './job-runner.js';
import { type JobInput, type JobKindName, type JobRecord, type JobStatus } from './job.model.js';

export interface JobQueueOptions {
  store: JobStore;
  /** Attempts each new job gets (JOBS_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** Jobs one owner may have queued or running (JOBS_QUEUED_PER_USER); unset: no cap. */
  queuedPerUser?: number;
  log: FastifyBaseLogger;
  /** Deletes a deleted job's result object. */
  onDeleteResult: (resultKey: string) => Promise<void>;
}

/**
 * What the jobs service uses to put jobs in the store and take them out. Access decisions are the service's: these
 * methods take ids as they are. Each reaches the runners of this process at once (an enqueue starts at once when
 * a slot is free, a cancellation aborts a job running here); workers elsewhere notice at their next poll or
 * heartbeat.
 */
export class JobQueue {
  constructor(private readonly opts: JobQueueOptions) {}

  /**
   * A new queued job of `ownerId` (the kind is the caller's to check). Throws RateLimited (429) when the owner
   * already has `queuedPerUser` jobs queued or running.
   */
  async enqueue(ownerId: string, kind: JobKindName, input: JobInput, savedQueryId: string | null = null): Promise<JobRecord> {
    const row = { id: newId(), ownerId, kind, input, savedQueryId, maxAttempts: this.opts.maxAttempts };
    const cap = this.opts.queuedPerUser;
    let job: JobRecord;
    if (cap === undefined) job = await this.opts.store.insert(row);
    else {
      const r = await this.opts.store.insertWithin(row, cap);
      if ('active' in r) {
        throw new RateLimited(
          `you have ${r.active} jobs queued or running, the most one user may (JOBS_QUEUED_PER_USER = ${cap}): wait for some to finish, or cancel jobs you no longer need (DELETE /v1/jobs/{job_id})`,
          30,
        );
      }
      job = r.job;
    }
    this.opts.log.info({ jobId: job.id, kind, ownerId }, 'job queued');
    this.wake();
    return job;
  }

  get(id: string): Promise<JobRecord | undefined> {
    return this.opts.store.get(id);
  }

  /** One page of the owner's jobs, newest first, with the total; `statuses` empty or absent means all. */
  list(ownerId: string, opts: { statuses?: readonly JobStatus[]; limit: number; offset: number }): Promise<{ items: JobRecord[]; total: number }> {
    return this.opts.store.listByOwner(ownerId, opts);
  }

  /**
   * Cancels a queued or running job and returns it as it now is: `cancelled`, or unchanged in the finished state
   * it had already reached (succeeded or failed: the caller decides whether that is a Conflict). Undefined when
   * there is no such job. A queued job never starts; a running one's executor sees its signal abort.
   */
  async cancel(id: string): Promise<JobRecord | undefined> {
    const result = await this.opts.store.cancel(id);
    if (!result) return undefined;
    if (result.previous === 'running') {
      for (const runner of localJobRunners(this.opts.store.db)) runner.cancelLocal(id);
    }
    if (result.previous !== result.job.status) this.opts.log.info({ jobId: id, previous: result.previous }, 'job cancelled');
    return result.job;
  }

  /**
   * Deletes a finished job (succeeded, failed or cancelled) and its result object, returning what was deleted;
   * undefined when there is no such job. Throws Conflict while it is queued or running.
   */
  async delete(id: string): Promise<JobRecord | undefined> {
    const result = await this.opts.store.delete(id);
    if (!result) return undefined;
    if ('notFinished' in result) throw new Conflict(`the job is ${result.notFinished.status}; cancel it before deleting it`);
    const job = result.deleted;
    if (job.resultKey) {
      // The row is gone either way; an object left behind costs space, not correctness.
      await this.opts.onDeleteResult(job.resultKey).catch((err: unknown) => this.opts.log.warn({ err, jobId: id, resultKey: job.resultKey }, 'deleting a job result failed'));
    }
    this.opts.log.info({ jobId: id }, 'job deleted');
    return job;
  }

  private wake(): void {
    outsideRequestScope(() => {
      for (const runner of localJobRunners(this.opts.store.db)) runner.wake();
    });
  }
}

/** The queue on a process's stores: results are deleted from object storage. */
export function createJobQueue(deps: Pick<SubgraphDeps, 'stores' | 'config' | 'log'>): JobQueue {
  return new JobQueue({
    store: new JobStore(deps.stores.relational.db),
    maxAttempts: deps.config.jobs.maxAttempts,
    queuedPerUser: deps.config.jobs.queuedPerUser,
    log: deps.log.child({ component: 'JobQueue' }),
    onDeleteResult: (key) => deps.stores.objects.delete(key),
  });
}
