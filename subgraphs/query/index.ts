import { Forbidden } from '../../lib/errors.js';
import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../../schema/federation.js';
import { pingResolver } from '../../schema/health.types.js';
import type { SubgraphDeps } from '../../lib/subgraph.js';
import { serviceVersion } from '../../lib/package-root.js';
import { createDownloadSigner, loadDownloadSigningSecret } from '../../lib/objects/signed-url.js';
import { checkStillReadable, resolveDatasetVersion } from '../neurodata/index.js';
import { regionCodesWithin } from '../ontology/index.js';
import { createTokenVerifier } from '../identity/index.js';
import { SyqlService, type Caller } from './syql.service.js';
import { syqlLimitsOf } from './syql-limits.js';
import type { PlannerEnv } from './syql/plan.js';
import { datasetRefText } from './syql/planner.js';
import { SyqlResolver } from './syql.resolver.js';
import { SavedQueryStore } from './store/saved-query.store.js';
import { SavedQueryService } from './saved-query.service.js';
import { SavedQueryResolver } from './saved-query.resolver.js';
import { createJobQueue } from './jobs/job-queue.js';
import { JobService } from './jobs/job.service.js';
import { JobsResolver } from './jobs/jobs.resolver.js';
import { startJobRunner, type JobRunner } from './jobs/job-runner.js';
import type { JobExecutor, JobKind } from './jobs/job.model.js';
import { syqlExecutor } from './jobs/syql.executor.js';
import { graphExecutor } from './jobs/graph.executor.js';

export const SUBGRAPH_NAME = 'query';
/** Jobs read the ontology and datasets, which must be seeded first. */
export const startsAfter = ['identity', 'ontology', 'neurodata'] as const;

type Deps = Pick<SubgraphDeps, 'stores' | 'config' | 'clock' | 'log'>;

/** The planner's view of the service for one caller: the datasets they may read, the brain-region hierarchy. */
function plannerEnv(deps: Deps): (ctx: Caller) => PlannerEnv {
  return (ctx) => ({
    async resolveDataset(ref, pinned) {
      const selector = pinned !== undefined ? String(pinned) : ref.selector.kind === 'number' ? String(ref.selector.version) : ref.selector.kind;
      const r = await resolveDatasetVersion(deps, ctx, ref.dataset, selector);
      return {
        ref: datasetRefText(ref),
        datasetId: r.datasetId,
        slug: r.slug,
        version: r.version,
        isDraft: r.isDraft,
        label: `${r.slug}@${r.isDraft ? 'draft' : `v${r.version}`}`,
        rowCounts: { neurons: r.rowCounts.neurons ?? 0, connections: r.rowCounts.connections ?? 0, morphologies: r.rowCounts.morphologies ?? 0 },
      };
    },
    regionCodesWithin: (code) => regionCodesWithin(deps, code),
  });
}

const built = new WeakMap<object, ReturnType<typeof buildServices>>();

async function buildServices(deps: Deps) {
  const log = deps.log.child({ subgraph: SUBGRAPH_NAME });
  const syql = new SyqlService(deps.stores.column, plannerEnv(deps), syqlLimitsOf(deps.config));
  const queue = createJobQueue({ ...deps, log } as SubgraphDeps);
  const signer = createDownloadSigner(await loadDownloadSigningSecret(deps.config.dataDir));
  const checkGraph = async (ctx: Caller, args: Record<string, unknown>) => {
    if (deps.config.subgraphs.disabled.includes('graph')) throw new Forbidden('this cluster does not offer graph analyses (SUBGRAPHS_DISABLED=graph)');
    const r = await resolveDatasetVersion(deps, ctx, String(args.dataset_id ?? ''), (args.version as string | null | undefined) ?? null);
    // The job reads the version resolved now, whatever is published meanwhile.
    return { ...args, dataset_id: r.datasetId, version: r.isDraft ? 'draft' : String(r.version) };
  };
  const jobs = new JobService(queue, syql, checkGraph, (ctx, reads) => checkStillReadable(deps, ctx, reads), signer, deps.clock);
  const saved = new SavedQueryService(new SavedQueryStore(deps.stores.relational.db), syql, jobs, queue, deps.clock);
  return { syql, queue, jobs, saved };
}

/** The query subgraph's services over these stores, built once per set of stores. */
export function services(deps: Deps): ReturnType<typeof buildServices> {
  let s = built.get(deps.stores);
  if (!s) {
    s = buildServices(deps);
    built.set(deps.stores, s);
  }
  return s;
}

/** What runs each kind of job, for the in-process runner and for `npm run worker`. */
export async function jobExecutors(deps: SubgraphDeps): Promise<Record<JobKind, JobExecutor>> {
  const { syql } = await services(deps);
  const verifier = await createTokenVerifier(deps);
  return { syql: syqlExecutor(deps, syql, verifier, serviceVersion()), graph: graphExecutor(deps, verifier, serviceVersion()) };
}

const runners = new WeakMap<object, JobRunner>();

/** Starts the in-process job runner (JOBS_IN_PROCESS, on by default). */
export async function onStart(deps: SubgraphDeps): Promise<void> {
  if (!deps.config.jobs.inProcess || runners.has(deps.stores)) return;
  runners.set(deps.stores, startJobRunner(deps, await jobExecutors(deps)));
}

/** Stops claiming jobs; running ones finish or are left to their lease. */
export async function onStop(deps: SubgraphDeps): Promise<void> {
  const runner = runners.get(deps.stores);
  runners.delete(deps.stores);
  await runner?.stop();
}

/** Builds the query subgraph's federated schema. */
export async function buildSchema(deps: SubgraphDeps): Promise<GraphQLSchema> {
  const Ping = pingResolver(SUBGRAPH_NAME);
  const s = await services(deps);
  return buildFederatedSchema({
    resolvers: [Ping, SyqlResolver, SavedQueryResolver, JobsResolver],
    instances: [new (Ping as new () => object)(), new SyqlResolver(s.syql), new SavedQueryResolver(s.saved, s.queue), new JobsResolver(s.jobs, s.saved)],
  });
}
