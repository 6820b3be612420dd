import { defineSubgraph, pingOf, type HandleOf } from '../../lib/subgraph.js';
import { jobsServed } from '../../lib/jobs/index.js';
import { buildGraphServices } from './services.js';
import { GraphResolver } from './graph.resolver.js';
import { AnalyticsResolver } from './analytics/analytics.resolver.js';
import { MorphometricsResolver } from './morphometrics/morphometrics.resolver.js';
import { MetaAnalysisResolver } from './meta/meta.resolver.js';
import { GraphJobResolver } from './graph-job.resolver.js';

export const SUBGRAPH_NAME = 'graph' as const;

export type { FullAnalysisArgs } from './graph.service.js';
export type { GraphProgress } from './graph.model.js';

/** The graph subgraph: graph analyses, dataset analytics, morphometrics, meta-analysis; the `graph` job kind. */
export const graph = defineSubgraph({
  name: SUBGRAPH_NAME,
  services: buildGraphServices,
  resolvers: (s, deps) => [
    pingOf(SUBGRAPH_NAME),
    new GraphResolver(s.graph),
    new AnalyticsResolver(s.analytics, s.atlas),
    new MorphometricsResolver(s.morphometrics),
    new MetaAnalysisResolver(s.meta),
    ...(jobsServed(deps.config) ? [new GraphJobResolver(s.submitGraphJob)] : []),
  ],
  jobKinds: (s) => [s.job],
});

/** The graph subgraph's handle: empty, since no other subgraph reaches its data. */
export type GraphHandle = HandleOf<typeof graph>;
