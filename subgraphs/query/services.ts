import type { SubgraphDeps } from '../../lib/subgraph.js';
import { openDownloadSigner } from '../../lib/objects/signed-url.js';
import { JobService, jobsOn, submitJob } from '../../lib/jobs/index.js';
import { neurodata, type DatasetVersionRef } from '../neurodata/index.js';
import { Conflict, NotFound } from '../../lib/errors.js';
import { ontology } from '../ontology/index.js';
import { identity } from '../identity/index.js';
import { SyqlService, type Caller } from './syql.service.js';
import { syqlLimitsOf } from './syql-limits.js';
import type { PlannerEnv } from './syql/plan.js';
import type { DatasetRef } from './syql/ast.js';
import { datasetRefText } from './syql/planner.js';
import { SavedQueryStore } from './store/saved-query.store.js';
import { SavedQueryService } from './saved-query.service.js';
import { syqlJobKind, type SubmitSyqlJob } from './jobs/syql-job.js';

/**
 * The dataset version a reference names, or the one a job pinned at submission. A pinned draft is read as the draft,
 * by whoever may read it (the draft's version number is not published); once that draft has been published, the
 * pinned number is the published version it became, with the same rows.
 */
function datasetResolver(deps: SubgraphDeps) {
  const datasets = neurodata.use(deps);
  return async (ctx: Caller, ref: DatasetRef, pinned?: number): Promise<DatasetVersionRef> => {
    if (ref.selector.kind !== 'draft' || pinned === undefined) {
      const selector = pinned !== undefined ? String(pinned) : ref.selector.kind === 'number' ? String(ref.selector.version) : ref.selector.kind;
      return datasets.resolveDatasetVersion(ctx, ref.dataset, selector);
    }
    // Only "not there (any more)" sends the job on to the published version; any other fault is the answer.
    const absent = (e: unknown) => {
      if (e instanceof NotFound || e instanceof Conflict) return e;
      throw e;
    };
    const draft = await datasets.resolveDatasetVersion(ctx, ref.dataset, 'draft').catch(absent);
    if (!(draft instanceof Error) && draft.version === pinned) return draft;
    const published = await datasets.resolveDatasetVersion(ctx, ref.dataset, String(pinned)).catch(absent);
    if (!(published instanceof Error)) return published;
    if (draft instanceof Error) throw draft;
    throw new NotFound(`dataset ${JSON.stringify(ref.dataset)}: the draft this job read (v${pinned}) was neither kept nor published; its open draft is now v${draft.version}`);
  };
}

/** The planner's view of the service for one caller: the datasets they may read, the brain-region hierarchy. */
function plannerEnv(deps: SubgraphDeps): (ctx: Caller) => PlannerEnv {
  const resolvePinned = datasetResolver(deps);
  const terms = ontology.use(deps);
  return (ctx) => ({
    async resolveDataset(ref, pinned) {
      const r = await resolvePinned(ctx, ref, pinned);
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
  const signer = await openDownloadSigner(deps.config.dataDir);
  const job = syqlJobKind(deps, syql, identity.use(deps).accountStanding);
  const submitSyql: SubmitSyqlJob = (ctx, input, savedQueryId = null) => submitJob(queue, ctx, job, { ...input }, savedQueryId);
  // The jobs API of every kind is served here; each kind's checks are its owner subgraph's.
  const jobs = new JobService(queue, kinds, neurodata.use(deps).checkStillReadable, signer, deps.clock);
  const saved = new SavedQueryService(new SavedQueryStore(deps.stores.relational.db), syql, submitSyql, queue, deps.clock);
  return { syql, queue, jobs, job, submitSyql, saved };
}

export type QueryServices = Awaited<ReturnType<typeof buildQueryServices>>;
