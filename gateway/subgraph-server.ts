import type { GraphQLSchema } from 'graphql';
import { composeSupergraph, enabledSubgraphs } from './compose.js';
import { schemaOnlyDeps } from './supergraph-file.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { Config, SubgraphName } from '../lib/config.js';
import { isUuid, newId } from '../lib/ids.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { openStores, type Stores } from '../lib/stores.js';
import type { RequestContext } from '../lib/context.js';
import { buildRequestContext } from '../lib/auth/context-builder.js';
import { withResolvers } from '../schema/federation.js';
import type { SubgraphDeps } from '../lib/subgraph.js';
import { registerPipeline } from './pipeline/index.js';
import { closeHost, fastifyOptions, maskServerErrors } from './app.js';
import { SUBGRAPHS, startSubgraphs } from './subgraphs.js';
import { prepareStart } from './startup.js';
import { createTokenVerifier } from './token-verifier.js';

export interface SubgraphServer {
  http: FastifyInstance;
  stores: Stores;
  /** What the subgraph's services were built from. */
  deps: SubgraphDeps;
  close(): Promise<void>;
}

/**
 * One subgraph served alone over HTTP at /graphql, for a gateway configured with SUBGRAPH_<NAME>_URL. It keeps
 * the request id the gateway forwards, verifies the forwarded bearer token itself, and runs the same pipeline.
 */
export async function createSubgraphServer(config: Config, name: SubgraphName, opts: { clock?: Clock } = {}): Promise<SubgraphServer> {
  const http = Fastify({
    ...fastifyOptions(config),
    genReqId: (req) => {
      const forwarded = req.headers['x-request-id'];
      return typeof forwarded === 'string' && isUuid(forwarded) ? forwarded : newId();
    },
  });
  await prepareStart(config, http.log, [name]);
  const stores = await openStores(config, http.log.child({ component: 'limits' }));
  // Its own bucket scope: a request through the gateway has already taken a token there.
  await registerPipeline(http, config, stores.limits, `subgraph-${name}`);
  // Composed from the same code and settings as the gateway's, so a subgraph served alone reports the same API.
  let api: Promise<GraphQLSchema> | undefined;
  const apiSchema = () => (api ??= composeSupergraph({ ...schemaOnlyDeps(), config }).then((c) => c.apiSchema));
  const deps: SubgraphDeps = { config, stores, clock: opts.clock ?? systemClock, log: http.log, apiSchema };
  const started = await startSubgraphs(deps, [name], enabledSubgraphs(config));
  const { schema, resolvers } = await SUBGRAPHS[name].buildSchema(deps);
  const verifier = await createTokenVerifier(deps);
  const apollo = new ApolloServer<RequestContext>({
    schema,
    introspection: true,
    csrfPrevention: false,
    // On SIGINT/SIGTERM the process stops the server and closes the stores itself (gateway/shutdown.ts). Apollo's own
    // handler (on outside tests) races that and ends the process before the stores are closed: PGlite could lose
    // its last writes.
    stopOnTerminationSignals: false,
    plugins: [ApolloServerPluginLandingPageDisabled()],
    formatError: maskServerErrors,
  });
  await apollo.start();
  const handler = fastifyApolloHandler(apollo, {
    context: async (request) =>
      withResolvers(
        await buildRequestContext(
        // request.ip is the client's when TRUST_PROXY lists the gateway, which forwards it in X-Forwarded-For.
        {
          requestId: request.id,
          authorization: request.headers.authorization,
          clientIp: request.ip,
          baseUrl: typeof request.headers['x-forwarded-base-url'] === 'string' ? request.headers['x-forwarded-base-url'] : `${request.protocol}://${request.host}`,
          signal: request.abort,
          log: request.log,
          institutionalLogin: Boolean(config.login.providers.institutional),
        },
          verifier,
        ),
        resolvers,
      ),
  });
  http.route({ method: ['GET', 'POST'], url: '/graphql', handler });
  http.get('/health', async () => ({ subgraph: name, status: 'ok' }));
  await http.ready();
  return {
    http,
    stores,
    deps,
    close: () => closeHost(http, apollo, started, stores),
  };
}
