import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../../schema/federation.js';
import { pingResolver } from '../../schema/health.types.js';
import type { SubgraphDeps } from '../../lib/subgraph.js';
import { publishedCatalogue, resolveDatasetVersion } from '../neurodata/index.js';
import { regionLineages } from '../ontology/index.js';
import { GraphSourceStore } from './store/graph-source.store.js';
import { GraphCache } from './graph-cache.js';
import { GraphLoader } from './graph-loader.js';
import { GraphService, type FullAnalysisArgs } from './graph.service.js';
import { GraphResolver } from './graph.resolver.js';
import { AnalyticsStore } from './store/analytics.store.js';
import { AnalyticsService } from './analytics/analytics.service.js';
import { AtlasService } from './analytics/atlas.service.js';
import { AnalyticsResolver } from './analytics/analytics.resolver.js';
import { MorphometricsService } from './morphometrics/morphometrics.service.js';
import { MorphometricsResolver } from './morphometrics/morphometrics.resolver.js';
import { MetaAnalysisService } from './meta/meta-analysis.service.js';
import { MetaAnalysisResolver } from './meta/meta.resolver.js';
import type { GraphProgress } from './graph.model.js';
import type { RequestContext } from '../../lib/context.js';

export const SUBGRAPH_NAME = 'graph';

type Deps = Pick<SubgraphDeps, 'stores' | 'config' | 'clock' | 'log'>;
const built = new WeakMap<object, GraphService>();

/** The graph service over these stores, built once per set of stores (one graph cache per process). */
export function graphService(deps: Deps): GraphService {
  let s = built.get(deps.stores);
  if (!s) {
    const log = deps.log.child({ subgraph: SUBGRAPH_NAME });
    const loader = new GraphLoader(new GraphSourceStore(deps.stores.column), deps.stores.objects, new GraphCache(deps.config.graph.cacheBytes), log);
    s = new GraphService((ctx, ref, version) => resolveDatasetVersion(deps, ctx, ref, version), loader);
    built.set(deps.stores, s);
  }
  return s;
}

const builtAnalytics = new WeakMap<object, ReturnType<typeof buildAnalytics>>();

/** The analytics services (summaries, comparisons, morphometrics, meta-analysis, atlas), built once per set of stores. */
export function analyticsServices(deps: Deps): ReturnType<typeof buildAnalytics> {
  let s = builtAnalytics.get(deps.stores);
  if (!s) builtAnalytics.set(deps.stores, (s = buildAnalytics(deps)));
  return s;
}

function buildAnalytics(deps: Deps) {
  const store = new AnalyticsStore(deps.stores.column);
  const resolve = (ctx: Parameters<typeof resolveDatasetVersion>[1], ref: string, version?: string | null) => resolveDatasetVersion(deps, ctx, ref, version);
  const lineages = (codes: readonly string[]) => regionLineages(deps, codes);
  return {
    analytics: new AnalyticsService(resolve, store, (ctx) => publishedCatalogue(deps, ctx), lineages),
    atlas: new AtlasService(resolve, store, lineages),
    morphometrics: new MorphometricsService(resolve, store, deps.stores.objects),
    meta: new MetaAnalysisService(resolve, store),
  };
}

/** Builds the graph subgraph's federated schema. */
export async function buildSchema(deps: SubgraphDeps): Promise<GraphQLSchema> {
  const Ping = pingResolver(SUBGRAPH_NAME);
  const a = analyticsServices(deps);
  return buildFederatedSchema({
    resolvers: [Ping, GraphResolver, AnalyticsResolver, MorphometricsResolver, MetaAnalysisResolver],
    instances: [
      new (Ping as new () => object)(),
      new GraphResolver(graphService(deps)),
      new AnalyticsResolver(a.analytics, a.atlas),
      new MorphometricsResolver(a.morphometrics),
      new MetaAnalysisResolver(a.meta),
    ],
  });
}

export type { FullAnalysisArgs, GraphProgress };
/** The arguments of a full analysis as GraphQL arguments, for the graph job route of the query subgraph. */
export { FullAnalysisArgs as FullAnalysisArgsType } from './graph.args.js';

/**
 * The full analysis of POST /v1/graph/{dataset_id}/full-analysis, for a job (the query subgraph's jobs): the same
 * computation and answer, run whatever the time, reporting progress after each step. `ctx` is the job owner's.
 */
export function runFullAnalysis(deps: Deps, ctx: Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>, args: FullAnalysisArgs, onProgress?: (p: GraphProgress) => void) {
  return graphService(deps).fullAnalysis(ctx, args, { asJob: true, onProgress });
}
