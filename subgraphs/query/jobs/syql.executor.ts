import type { ColumnStore } from '../../../lib/column/column.js';
import type { SubgraphDeps } from '../../../lib/subgraph.js';
import { ownerContext, resultKey, type AccountStanding, type JobExecutor } from '../../../lib/jobs/index.js';
import { compileCount, compileQuery } from '../syql/compile.js';
import { exportArrow } from '../../../lib/column/arrow-export.js';
import type { SyqlService } from '../syql.service.js';
import { engineLimits, limitExceededError } from '../syql-limits.js';
import { resultMetadata, type SyqlJobInput } from './job-input.js';

/** The engine's id of one query of one attempt of a job. */
const queryIdOf = (jobId: string, attempt: number, part: 'count' | 'export') => `job-${jobId}-${attempt}-${part}`;

/** Stops the queries an attempt of a SyQL job may still run (its worker was killed; on chDB they died with it). */
export async function stopSyqlAttempt(column: ColumnStore, jobId: string, attempt: number): Promise<void> {
  for (const part of ['count', 'export'] as const) await column.kill(queryIdOf(jobId, attempt, part));
}

/**
 * A SyQL job: plans the query again as its owner on the versions pinned at submission, counts its rows, and writes
 * them as an Arrow IPC stream to object storage, with where they came from in the schema's metadata.
 */
export function syqlExecutor(deps: Pick<SubgraphDeps, 'stores'>, syql: SyqlService, standing: AccountStanding, serviceVersion: string): JobExecutor {
  return async (job, run) => {
    const input = job.input as unknown as SyqlJobInput;
    const ctx = await ownerContext(standing, job.ownerId, job.id, run.log);
    run.progress(0.02, 'planning');
    const plan = await syql.plan(ctx, { query: input.query, parameters: input.parameters }, input.pins);
    run.progress(0.05, 'counting rows');
    const [[count]] = await syql.rows(compileCount(plan), { columns: [{ name: 'count', type: 'integer', nullable: false, chType: 'Int64' }] }, queryIdOf(job.id, job.attempts, 'count'), 'SyqlJob.count', {
      kind: 'job',
      signal: run.signal,
    });
    const total = Number(count);
    run.progress(0.1, `writing ${total} rows as Arrow`);
    const key = resultKey(job, 'arrow');
    const seconds = syql.limits.jobMaxExecutionSeconds;
    const written = await exportArrow(
      { column: deps.stores.column, objects: deps.stores.objects },
      compileQuery(plan),
      plan.columns,
      key,
      resultMetadata(job, plan, serviceVersion),
      {
        signal: run.signal,
        name: 'SyqlJob.export',
        queryId: queryIdOf(job.id, job.attempts, 'export'),
        maxExecutionTime: seconds,
        limits: engineLimits(syql.limits, 'job'),
        onRows: (rows) => run.progress(0.1 + 0.89 * (total ? Math.min(1, rows / total) : 1), `${rows} of ${total} rows written`),
      },
    ).catch((e: unknown) => {
      throw limitExceededError(e, syql.limits, 'job', seconds) ?? e;
    });
    return {
      resultKey: key,
      resultBytes: written.bytes,
      resultRows: written.rows,
      resultSha256: written.sha256,
      resultMeta: {
        normalised: plan.normalised,
        datasets: plan.datasets.map((d) => ({ ref: d.ref, dataset_id: d.datasetId, slug: d.slug, version: d.version, is_draft: d.isDraft, label: d.label })),
        columns: plan.columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable, clickhouse_type: c.chType })),
      },
    };
  };
}
