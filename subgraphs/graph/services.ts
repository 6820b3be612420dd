import type { SubgraphDeps } from '../../lib/subgraph.js';
import { jobsOn, submitJob, type Caller, type JobInput } from '../../lib/jobs/index.js';
import { serviceVersion } from '../../lib/package-root.js';
import { neurodata } from '../neurodata/index.js';
import { ontology } from '../ontology/index.js';
import { identity } from '../identity/index.js';
import { GraphSourceStore } from './store/graph-source.store.js';
import { GraphCache } from './graph-cache.js';
import { GraphLoader } from './graph-loader.js';
import { GraphService } from './graph.service.js';
import { AnalyticsStore } from './store/analytics.store.js';
import { AnalyticsService } from './analytics/analytics.service.js';
import { AtlasService } from './analytics/atlas.service.js';
import { MorphometricsService } from './morphometrics/morphometrics.service.js';
import { MetaAnalysisService } from './meta/meta-analysis.service.js';
import { graphJobKind } from './graph-job.js';

/** Every service of the graph subgraph over these stores (one graph cache per process): the one place they are wired. */
export function buildGraphServices(deps: SubgraphDeps) {
  const datasets = neurodata.use(deps);
  const terms = ontology.use(deps);
  const resolve = datasets.resolveDatasetVersion;
  const lineages = terms.regionLineages;
  const loader = new GraphLoader(new GraphSourceStore(deps.stores.column), deps.stores.objects, new GraphCache(deps.config.graph.cacheBytes), deps.log);
  const graph = new GraphService(resolve, loader);
  const store = new AnalyticsStore(deps.stores.column);
  const job = graphJobKind({
    stores: deps.stores,
    graph,
    resolveDatasetVersion: resolve,
    checkStillReadable: datasets.checkStillReadable,
    standing: identity.use(deps).accountStanding,
    serviceVersion: serviceVersion(),
  });
  return {
    graph,
    analytics: new AnalyticsService(resolve, store, datasets.publishedCatalogue, lineages),
    atlas: new AtlasService(resolve, store, lineages),
    morphometrics: new MorphometricsService(resolve, store, deps.stores.objects),
    meta: new MetaAnalysisService(resolve, store),
    job,
    // The queue is the jobs platform's, reached on the first submission.
    submitGraphJob: (ctx: Caller, input: JobInput) => submitJob(jobsOn(deps).queue, ctx, job, input),
  };
}

export type GraphServices = Awaited<ReturnType<typeof buildGraphServices>>;
