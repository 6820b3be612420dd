import type { SubgraphDeps } from '../../../lib/subgraph.js';
import type { AccountStanding, Caller, JobKind, JobRecord } from '../../../lib/jobs/index.js';
import { serviceVersion } from '../../../lib/package-root.js';
import type { SyqlInput, SyqlService } from '../syql.service.js';
import { pinsOf, readsOf, type SyqlJobInput } from './job-input.js';
import { stopSyqlAttempt, syqlExecutor } from './syql.executor.js';

/**
 * The query subgraph's job kind `syql`: a SyQL export to Arrow, planned at submission (errors answer at once) and
 * run later on the dataset versions it resolved to then (`pins`; a rerun keeps them).
 */
export function syqlJobKind(deps: Pick<SubgraphDeps, 'stores'>, syql: SyqlService, standing: AccountStanding): JobKind {
  return {
    name: 'syql',
    async prepare(ctx, input) {
      const { query, parameters, pins } = input as unknown as SyqlJobInput;
      const plan = await syql.plan(ctx, { query, parameters }, pins);
      const stored: SyqlJobInput = { query, parameters: parameters ?? {}, pins: pinsOf(plan) };
      return stored as unknown as Record<string, unknown>;
    },
    execute: syqlExecutor(deps, syql, standing, serviceVersion()),
    reads: readsOf,
    onAttemptLost: (job) => stopSyqlAttempt(deps.stores.column, job.id, job.attempts),
  };
}

/** Queues a SyQL job for the caller (`savedQueryId`: the saved query it runs). */
export type SubmitSyqlJob = (ctx: Caller, input: SyqlInput, savedQueryId?: string | null) => Promise<JobRecord>;
