import type { JobsConfig, SyqlLimitsConfig } from '../../lib/config.js';
import { engineLimitOf, type EngineLimits } from '../../lib/column/column.js';
import { BadInput, RateLimited, Timeout, type AppError } from '../../lib/errors.js';

/** What a SyQL statement may cost (docs/syql.md, "Limits"): the engine's per-statement limits and the planner's. */
export type SyqlLimits = SyqlLimitsConfig & Pick<JobsConfig, 'maxExecutionSeconds' | 'maxThreads'> & { jobMaxExecutionSeconds: number };

/** The limits from the service's configuration. */
export function syqlLimitsOf(config: { syql: SyqlLimitsConfig; jobs: Pick<JobsConfig, 'maxExecutionSeconds' | 'maxThreads'> }): SyqlLimits {
  return { ...config.syql, jobMaxExecutionSeconds: config.jobs.maxExecutionSeconds, maxThreads: config.jobs.maxThreads };
}

export type SyqlRunKind = 'exec' | 'job';

/** The engine settings of one statement: jobs also get fewer threads, so they leave room for interactive queries. */
export function engineLimits(l: SyqlLimits, kind: SyqlRunKind): EngineLimits {
  return {
    maxMemoryUsage: l.maxMemoryBytes,
    maxRowsToRead: l.maxRowsToRead,
    maxBytesToRead: l.maxBytesToRead,
    ...(kind === 'job' ? { maxResultRows: l.maxResultRows, maxThreads: l.maxThreads } : {}),
  };
}

const NARROW =
  'narrow the query: give a node a name, id or class (WHERE a.name = $n, {class: "AVA"}), restrict regions with WITHIN, ' +
  'use fewer or shorter relationships (a variable-length *1..3 reaches far); LIMIT does not shorten a count(*), ORDER BY or DISTINCT';

/**
 * The error a caller sees when the engine stopped a statement at one of its limits; undefined for any other error.
 * `seconds` is the time limit the statement ran under.
 */
export function limitExceededError(e: unknown, l: SyqlLimits, kind: SyqlRunKind, seconds: number): AppError | undefined {
  const which = engineLimitOf(e);
  if (!which) return undefined;
  const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;
  switch (which) {
    case 'execution_time': {
      const setting = kind === 'job' ? 'JOBS_MAX_EXECUTION_SECONDS' : 'SYQL_MAX_EXECUTION_SECONDS, or what was left of the request';
      const alt = kind === 'exec' ? '; or submit it as a job (POST /v1/jobs), which may run longer' : '';
      return new Timeout(`the query ran past its time limit of ${seconds} s (${setting}) and was stopped: ${NARROW}${alt}`);
    }
    case 'memory':
      // "(total)": the engine's memory across every query is used up, which waiting may cure.
      if (/\(total\) memory limit/i.test(String((e as Error)?.message ?? ''))) {
        return new RateLimited('the column store is out of memory for all the queries it runs now: try again shortly, or ' + NARROW, 10);
      }
      return new BadInput(`the query needed more than its memory limit of ${mib(l.maxMemoryBytes)} (SYQL_MAX_MEMORY_MB) and was stopped: ${NARROW}`);
    case 'rows_to_read':
      return new BadInput(`the query would read more than ${l.maxRowsToRead} table rows (SYQL_MAX_ROWS_TO_READ) and was stopped: read fewer datasets or ${NARROW}`);
    case 'bytes_to_read':
      return new BadInput(`the query would read more than ${mib(l.maxBytesToRead)} of tables (SYQL_MAX_BYTES_TO_READ) and was stopped: read fewer datasets or ${NARROW}`);
    case 'result_rows':
      return new BadInput(`the result has more than ${l.maxResultRows} rows (SYQL_MAX_RESULT_ROWS): add LIMIT, or ${NARROW}`);
  }
}
