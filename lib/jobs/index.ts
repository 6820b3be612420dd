import type { Config, SubgraphName } from '../config.js';
import type { SubgraphDeps } from '../subgraph.js';
import type { Stores } from '../stores.js';
import { createJobQueue, type JobQueue } from './job-queue.js';
import { JobKinds } from './job-kind.js';

export { JobService, submitJob, type ReadCheck } from './job.service.js';
export { JobQueue } from './job-queue.js';
export { JobKinds, type JobKind, type Caller } from './job-kind.js';
export { startJobRunner, type JobRunner, type JobChange } from './job-runner.js';
export { ownerContext, type AccountStanding } from './owner-context.js';
export { ARROW_STREAM_MEDIA_TYPE, resultKey } from './job-result.js';
export type { JobRecord, JobInput, JobExecutor, JobOutcome, JobRun } from './job.model.js';

/** The jobs platform of one set of stores: its queue, and the kinds the subgraphs registered. */
export interface Jobs {
  queue: JobQueue;
  kinds: JobKinds;
}

const platforms = new WeakMap<Stores, Jobs>();

/** The jobs platform over these stores, one per set of stores (like every subgraph's services). */
export function jobsOn(deps: Pick<SubgraphDeps, 'stores' | 'config' | 'log'>): Jobs {
  let jobs = platforms.get(deps.stores);
  if (!jobs) platforms.set(deps.stores, (jobs = { queue: createJobQueue(deps), kinds: new JobKinds() }));
  return jobs;
}

/**
 * The subgraph that serves the jobs API (list, look at, cancel, rerun, download) for every kind. The process that
 * serves it runs the in-process runner (JOBS_IN_PROCESS); with it left out (SUBGRAPHS_DISABLED) no subgraph offers
 * jobs and no runner starts.
 */
export const JOBS_API_SUBGRAPH: SubgraphName = 'query';

/** Whether this cluster runs jobs (its JOBS_API_SUBGRAPH is enabled). */
export function jobsServed(config: Pick<Config, 'subgraphs'>): boolean {
  return !config.subgraphs.disabled.includes(JOBS_API_SUBGRAPH);
}
