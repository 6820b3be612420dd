import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Stores } from './stores.js';
import type { Clock } from './clock.js';
import type { GraphQLSchema } from 'graphql';

/** What a subgraph gets to build its services: configuration, the opened stores, a clock and a logger. */
export interface SubgraphDeps {
  config: Config;
  stores: Stores;
  clock: Clock;
  log: FastifyBaseLogger;
  /**
   * The API schema this cluster serves, composed from its enabled subgraphs: what its clients (and other clusters)
   * see. Set by the gateway, and by `npm run subgraph` from the same code.
   */
  apiSchema?: () => Promise<GraphQLSchema>;
}

export interface SubgraphModule {
  SUBGRAPH_NAME: string;
  buildSchema(deps: SubgraphDeps): Promise<GraphQLSchema>;
  /**
   * Problems with this subgraph's settings that the environment's shape cannot show (a key that does not import, a
   * password that breaks the rules), each naming its variable. Checked before any store opens; start-up reports
   * them all at once.
   */
  checkConfig?(config: Config): Promise<string[]>;
  /** Seeds or prepares the subgraph's data on start-up (idempotent). */
  onStart?(deps: SubgraphDeps): Promise<void>;
  /**
   * Stops what onStart started (the query subgraph's job runner), before the stores close; called with the same
   * deps as onStart, in the reverse order. Should end within a bounded time.
   */
  onStop?(deps: SubgraphDeps): Promise<void>;
  /** Subgraphs whose onStart must have run first in the same process (their seed data is needed). */
  startsAfter?: readonly string[];
  /** Re-applies the subgraph's shipped seed data (npm run seed; idempotent), reporting progress line by line. */
  seed?(deps: SubgraphDeps, onProgress: (message: string) => void): Promise<unknown>;
}
