import type { SubgraphDeps } from '../../lib/subgraph.js';
import { createDownloadSigner, loadDownloadSigningSecret } from '../../lib/objects/signed-url.js';
import { JobService, jobsOn, submitJob } from '../../lib/jobs/index.js';
import { neurodata } from '../neurodata/index.js';
import { ontology } from '../ontology/index.js';
import { identity } from '../identity/index.js';
import { SyqlService, type Caller } from './syql.service.js';
import { syqlLimitsOf } from './syql-limits.js';
import type { PlannerEnv } from './syql/plan.js';
import { datasetRefText } from './syql/planner.js';
import { SavedQueryStore } from './store/saved-query.store.js';
import { SavedQueryService } from './saved-query.service.js';
import { syqlJobKind, type SubmitSyqlJob } from './jobs/syql-job.js';

/** The planner's view of the service for one caller: the datasets they may read, the brain-region hierarchy. */
function plannerEnv(deps: SubgraphDeps): (ctx: Caller) => PlannerEnv {
  const datasets = neurodata.use(deps);
  const terms = ontology.use(deps);
  return (ctx) => ({
    async resolveDataset(ref, pinned) {
      const selector = pinned !== undefined ? String(pinned) : ref.selector.kind === 'number' ? String(ref.selector.version) : ref.selector.kind;
      const r = await datasets.resolveDatasetVersion(ctx, ref.dataset, selector);
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
    regionCodesWithin: (code) => terms.regionCodesWithin(code),
  });
}

/** Every service of the query subgraph over these stores: the one place they are wired. */
export async function buildQueryServices(deps: SubgraphDeps) {
  const syql = new SyqlService(deps.stores.column, plannerEnv(deps), syqlLimitsOf(deps.config));
  const { queue, kinds } = jobsOn(deps);
  const signer = createDownloadSigner(await loadDownloadSigningSecret(deps.config.dataDir));
  const job = syqlJobKind(deps, syql, identity.use(deps).accountStanding);
  const submitSyql: SubmitSyqlJob = (ctx, input, savedQueryId = null) => submitJob(queue, ctx, job, { ...input }, savedQueryId);
  // The jobs API of every kind is served here; each kind's checks are its owner subgraph's.
  const jobs = new JobService(queue, kinds, neurodata.use(deps).checkStillReadable, signer, deps.clock);
  const saved = new SavedQueryService(new SavedQueryStore(deps.stores.relational.db), syql, submitSyql, queue, deps.clock);
  return { syql, queue, jobs, job, submitSyql, saved };
}

export type QueryServices = Awaited<ReturnType<typeof buildQueryServices>>;
