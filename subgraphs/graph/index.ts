import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../../schema/federation.js';
import { pingResolver } from '../../schema/health.types.js';
import type { SubgraphDeps } from '../../lib/subgraph.js';

export const SUBGRAPH_NAME = 'graph';

/** Builds the graph subgraph's federated schema. */
export async function buildSchema(_deps: SubgraphDeps): Promise<GraphQLSchema> {
  const Ping = pingResolver(SUBGRAPH_NAME);
  return buildFederatedSchema({ resolvers: [Ping], instances: [new (Ping as new () => object)()] });
}
