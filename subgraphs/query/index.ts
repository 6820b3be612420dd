import { defineSubgraph, pingOf, type HandleOf } from '../../lib/subgraph.js';
import { buildQueryServices } from './services.js';
import { SyqlResolver } from './syql.resolver.js';
import { SavedQueryResolver } from './saved-query.resolver.js';
import { QueryJobResolver } from './jobs/query-job.resolver.js';
// After the query subgraph's own resolvers: type-graphql lists root fields in the order their classes load.
import { JobsResolver } from '../../lib/jobs/jobs.resolver.js';

export const SUBGRAPH_NAME = 'query' as const;

/** The query subgraph: SyQL, saved queries, the `syql` job kind, and the jobs API of every kind. */
export const query = defineSubgraph({
  name: SUBGRAPH_NAME,
  /** Jobs read the ontology and datasets, which must be seeded first. */
  startsAfter: ['identity', 'ontology', 'neurodata'],
  services: buildQueryServices,
  resolvers: (s) => [
    pingOf(SUBGRAPH_NAME),
    new SyqlResolver(s.syql),
    new SavedQueryResolver(s.saved, s.queue),
    new QueryJobResolver(s.submitSyql, s.saved),
    new JobsResolver(s.jobs),
  ],
  jobKinds: (s) => [s.job],
});

/** The query subgraph's handle: empty, since no other subgraph reaches its data. */
export type QueryHandle = HandleOf<typeof query>;
