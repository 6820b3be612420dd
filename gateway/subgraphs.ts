import type { SubgraphName } from '../lib/config.js';
import type { Subgraph, SubgraphDeps } from '../lib/subgraph.js';
import { JOBS_API_SUBGRAPH, jobsOn, jobsServed, startJobRunner, type JobChange, type JobKind, type JobRunner } from '../lib/jobs/index.js';
import { identity } from '../subgraphs/identity/index.js';
import { neurodata } from '../subgraphs/neurodata/index.js';
import { query } from '../subgraphs/query/index.js';
import { graph } from '../subgraphs/graph/index.js';
import { ontology } from '../subgraphs/ontology/index.js';
import { federation } from '../subgraphs/federation/index.js';

/** Every subgraph, in composition order. */
export const SUBGRAPHS: Record<SubgraphName, Subgraph> = { identity, neurodata, query, graph, ontology, federation };

/** The subgraphs in an order where each starts after those it names in `startsAfter`. */
export function startOrder(names: readonly SubgraphName[]): SubgraphName[] {
  const out: SubgraphName[] = [];
  const visit = (name: SubgraphName, path: string[]) => {
    if (out.includes(name)) return;
    if (path.includes(name)) throw new Error(`subgraph start order has a cycle: ${[...path, name].join(' -> ')}`);
    for (const before of SUBGRAPHS[name].startsAfter) if (names.includes(before)) visit(before, [...path, name]);
    out.push(name);
  };
  for (const name of names) visit(name, []);
  return out;
}

/**
 * Registers the job kinds of the subgraphs this cluster serves (`enabled`, wherever each runs) with the jobs
 * platform of `deps.stores`, so the jobs API can present, rerun and hand out a job of any of them. Nothing when the
 * cluster runs no jobs.
 */
export function registerJobKinds(deps: SubgraphDeps, enabled: readonly SubgraphName[]): void {
  if (!jobsServed(deps.config)) return;
  const { kinds } = jobsOn(deps);
  for (const name of enabled) kinds.register(() => SUBGRAPHS[name].jobKinds(deps));
}

/** The job kinds of these subgraphs: what a runner serving them claims. */
export async function jobKindsOf(deps: SubgraphDeps, names: readonly SubgraphName[]): Promise<JobKind[]> {
  if (!jobsServed(deps.config)) return [];
  return (await Promise.all(names.map((name) => SUBGRAPHS[name].jobKinds(deps)))).flat();
}

/** A job runner for the kinds of `names`, or null when they have none. */
export async function startRunnerFor(deps: SubgraphDeps, names: readonly SubgraphName[], opts: { onChange?: (c: JobChange) => void } = {}): Promise<JobRunner | null> {
  const kinds = await jobKindsOf(deps, names);
  return kinds.length ? startJobRunner(deps, kinds, opts) : null;
}

/** The subgraphs a process started, and how to stop them. */
export interface StartedSubgraphs {
  readonly names: readonly SubgraphName[];
  /** Stops the job runner, then each subgraph's onStop in reverse start order. */
  stop(): Promise<void>;
}

/**
 * Starts the subgraphs this process serves (`served`, in start order; each logs as itself). The process that serves
 * the jobs API (JOBS_API_SUBGRAPH) then starts the in-process job runner (JOBS_IN_PROCESS), which claims the kinds
 * of every subgraph the cluster serves (`enabled`), as `npm run worker` does.
 */
export async function startSubgraphs(deps: SubgraphDeps, served: readonly SubgraphName[], enabled: readonly SubgraphName[] = served): Promise<StartedSubgraphs> {
  const started: { name: SubgraphName; deps: SubgraphDeps }[] = [];
  let runner: JobRunner | null = null;
  const stop = async () => {
    await runner?.stop();
    await stopSubgraphs(started);
  };
  try {
    for (const name of startOrder(served)) {
      await SUBGRAPHS[name].onStart(deps);
      started.push({ name, deps });
    }
  } catch (err) {
    // A start that fails halfway (a seed file missing) stops what it started, so the caller can close the stores.
    await stopSubgraphs(started);
    throw err;
  }
  registerJobKinds(deps, enabled);
  if (deps.config.jobs.inProcess && served.includes(JOBS_API_SUBGRAPH)) runner = await startRunnerFor(deps, enabled);
  return { names: started.map((s) => s.name), stop };
}

/**
 * Runs the subgraphs' onStop in reverse start order, before the stores close. A failure is logged and the others
 * still stop: the stores must close whatever happened (PGlite writes its last changes on close).
 */
export async function stopSubgraphs(started: readonly { name: SubgraphName; deps: SubgraphDeps }[]): Promise<void> {
  for (const { name, deps } of [...started].reverse()) {
    try {
      await SUBGRAPHS[name].onStop(deps);
    } catch (err) {
      deps.log.error({ err }, 'stopping the subgraph failed');
    }
  }
}
