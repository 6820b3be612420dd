import 'reflect-metadata';
import { loadConfig } from '../../lib/config.js';
import { closeWorkerPool } from '../../lib/workers/pool.js';
import { jobsServed, type JobChange } from '../../lib/jobs/index.js';
import { enabledSubgraphs } from '../compose.js';
import { registerJobKinds, startRunnerFor } from '../subgraphs.js';
import { runCommand, withSubgraphDeps } from './store-session.js';

/**
 * npm run worker: runs jobs in a process of its own (every kind the cluster's enabled subgraphs register), beside
 * the servers and any number of other workers sharing the same PostgreSQL (docs/jobs.md, "How jobs run"). Applies the migrations, claims up to
 * JOBS_CONCURRENCY jobs at once, prints a line per job state change, and stops on SIGINT or SIGTERM: it claims
 * nothing more and waits up to JOBS_STOP_WAIT_MS for its running jobs, whose leases expire if they do not finish.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  if (!jobsServed(config)) {
    console.error('the query subgraph is disabled on this cluster (SUBGRAPHS_DISABLED): it has no jobs to run');
    return 2;
  }
  if (config.relational.kind !== 'postgres') {
    // PGlite and chDB serve one process: the server runs jobs itself (JOBS_IN_PROCESS) on the embedded engines.
    console.error('npm run worker needs PostgreSQL (DATABASE_URL) shared with the servers; on the embedded engines the server runs jobs itself');
    return 2;
  }
  const stopped = new Promise<string>((resolve) => {
    // The listeners stay: a second signal while stopping (Ctrl-C twice, npm passing it on) cannot cut the stop short.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => resolve(signal));
  });
  try {
    await withSubgraphDeps(config, async (deps) => {
      const enabled = enabledSubgraphs(config);
      registerJobKinds(deps, enabled);
      const runner = (await startRunnerFor(deps, enabled, { onChange: printChange }))!;
      console.log(
        `worker ${runner.workerId}: up to ${config.jobs.concurrency} jobs at once, ${config.jobs.perUser} per user, lease ${config.jobs.leaseMs} ms; Ctrl-C stops`,
      );
      const signal = await stopped;
      console.log(`${signal}: claiming no more jobs; waiting up to ${config.jobs.stopWaitMs} ms for ${runner.runningJobIds.length} running`);
      await runner.stop();
      const left = runner.runningJobIds;
      console.log(left.length ? `stopped; ${left.length} job(s) left to their lease: ${left.join(', ')}` : 'stopped');
    });
  } finally {
    await closeWorkerPool();
  }
  return 0;
}

function printChange(c: JobChange): void {
  const attempt = `attempt ${c.attempt} of ${c.maxAttempts}`;
  console.log(`${new Date().toISOString()} job ${c.jobId} (${c.kind}, owner ${c.ownerId}) ${c.from} -> ${c.to}, ${attempt}${c.detail ? `: ${c.detail}` : ''}`);
}

await runCommand(main);
