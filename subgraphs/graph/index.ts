import { defineSubgraph, pingOf, type HandleOf, type SubgraphDeps } from '../../lib/subgraph.js';
import { jobsOn, jobsServed, submitJob } from '../../lib/jobs/index.js';
import { serviceVersion } from '../../lib/package-root.js';
import { neurodata } from '../neurodata/index.js';
import { ontology } from '../ontology/index.js';
import { identity } from '../identity/index.js';
import { GraphSourceStore } from './store/graph-source.store.js';
import { GraphCache } from './graph-cache.js';
import { GraphLoader } from './graph-loader.js';
import { GraphService } from './graph.service.js';
import { GraphResolver } from './graph.resolver.js';
import { AnalyticsStore } from './store/analytics.store.js';
import { AnalyticsService } from './analytics/analytics.service.js';
import { AtlasService } from './analytics/atlas.service.js';
import { AnalyticsResolver } from './analytics/analytics.resolver.js';
import { MorphometricsService } from './morphometrics/morphometrics.service.js';
import { MorphometricsResolver } from './morphometrics/morphometrics.resolver.js';
import { MetaAnalysisService } from './meta/meta-analysis.service.js';
import { MetaAnalysisResolver } from './meta/meta.resolver.js';
import { graphJobKind } from './graph-job.js';
import { GraphJobResolver } from './graph-job.resolver.js';

export const SUBGRAPH_NAME = 'graph' as const;

export type { FullAnalysisArgs } from './graph.service.js';
export type { GraphProgress } from './graph.model.js';

/** Every service of the graph subgraph over these stores (one graph cache per process): the one place they are wired. */
function graphServices(deps: SubgraphDeps) {
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
  };
}

/** The graph subgraph: graph analyses, dataset analytics, morphometrics, meta-analysis; the `graph` job kind. */
export const graph = defineSubgraph({
  name: SUBGRAPH_NAME,
  services: graphServices,
  resolvers: (s, deps) => [
    pingOf(SUBGRAPH_NAME),
    new GraphResolver(s.graph),
    new AnalyticsResolver(s.analytics, s.atlas),
    new MorphometricsResolver(s.morphometrics),
    new MetaAnalysisResolver(s.meta),
    ...(jobsServed(deps.config) ? [new GraphJobResolver((ctx, input) => submitJob(jobsOn(deps).queue, ctx, s.job, input))] : []),
  ],
  jobKinds: (s) => [s.job],
});

export type GraphHandle = HandleOf<typeof graph>;
