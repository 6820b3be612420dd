import 'reflect-metadata';
import type { Config, EnvName, SubgraphName } from '../../lib/config.js';
import { createSubgraphServer, type SubgraphServer } from '../../gateway/subgraph-server.js';
import type { Clock } from '../../lib/clock.js';
import { createTestEngines, testConfig, trackRunning, type TestEngines } from './app.js';

/** One subgraph served alone on fresh engines, without the gateway, REST or the pages (the subgraph tier). */
export interface TestSubgraph {
  name: SubgraphName;
  server: SubgraphServer;
  config: Config;
  engines: TestEngines;
  /** Posts an operation to the subgraph's /graphql through `inject()`; `token` as a bearer token. */
  gql(query: string, variables?: Record<string, unknown>, token?: string): Promise<{ status: number; body: GraphQLAnswer }>;
  close(): Promise<void>;
}

export interface GraphQLAnswer {
  data?: Record<string, any> | null;
  errors?: { message: string; extensions?: { code?: string; reason?: string } }[];
}

/**
 * Starts one subgraph as `npm run subgraph -- <name>` serves it (gateway/subgraph-server.ts): its schema, its
 * services and the request pipeline on real engines, with the test defaults of `startTestApp`. For behaviour that
 * belongs to one subgraph's schema and services; what crosses subgraphs, REST or the pages needs the whole service.
 */
export async function startTestSubgraph(name: SubgraphName, overrides: Partial<Record<EnvName, string>> = {}, opts: { clock?: Clock } = {}): Promise<TestSubgraph> {
  const engines = await createTestEngines();
  const config = testConfig(engines, overrides);
  let server: SubgraphServer;
  try {
    server = await createSubgraphServer(config, name, opts);
  } catch (e) {
    await engines.drop();
    throw e;
  }
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    tracked.untrack();
    await server.close();
    await engines.drop();
  };
  const tracked = trackRunning(close);
  return {
    name,
    server,
    config,
    engines,
    async gql(query, variables = {}, token) {
      const res = await server.http.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        payload: JSON.stringify({ query, variables }),
      });
      return { status: res.statusCode, body: res.json() as GraphQLAnswer };
    },
    close,
  };
}
