import Fastify, { LogController, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { ApolloServer, type ApolloServerPlugin, type GraphQLRequestContext } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Config } from '../lib/config.js';
import { newId } from '../lib/ids.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { openStores, closeStores, type Stores } from '../lib/stores.js';
import { serveAdminSocket } from './admin.js';
import type { RequestContext } from '../lib/context.js';
import type { TokenVerifier } from '../lib/auth/viewer.js';
import { buildRequestContext } from '../lib/auth/context-builder.js';
import { taskOwner } from '../lib/workers/pool.js';
import { GENERIC_SERVER_ERROR, codeOf, isExposed, statusForCode, unavailableIn } from '../lib/errors.js';
import type { SubgraphDeps } from '../lib/subgraph.js';
import { registerPipeline } from './pipeline/index.js';
import { clientErrorHandler, frameworkErrorHandler } from './pipeline/errors.js';
import { hideSuggestions, hideSuggestionsPlugin, operationChecksPlugin, operationGuards, type OperationCheck } from './operation-guards.js';
import { operationAccess, operationResolved } from './operation-access.js';
import { operationLimits } from './operation-limits.js';
import { prepareStart } from './startup.js';
import { composeSupergraph, createGateway, enabledSubgraphs, subgraphDataSources, type Composition } from './compose.js';
import { DirectOperations } from './direct/operations.js';
import { directExecutor, type DirectExecutor, type DirectStats } from './direct/execute.js';
import { directGraphqlHandler } from './direct/http.js';
import { sharedHealthCheck } from './health.js';
import { documentText } from './document-text.js';
import { startSubgraphs } from './subgraphs.js';
import { openApiDocument, routesFor } from './openapi-file.js';
import { createTokenVerifier } from './token-verifier.js';
import { requestLoggerFactory } from './pipeline/request-logger.js';
import { mountRest, type RunGraphql } from '../rest-compat/mount.js';

export interface AppOptions {
  clock?: Clock;
  /** Overrides how access tokens are verified (default: the identity subgraph's verifier). */
  verifier?: TokenVerifier | null;
  /** Where logs go (default stdout); tests pass a stream to read them. */
  logStream?: NodeJS.WritableStream;
}

export interface App {
  http: FastifyInstance;
  stores: Stores;
  /** What the in-process subgraphs were built with (tools and tests call subgraphs' exported functions with it). */
  deps: SubgraphDeps;
  composition: Composition;
  openapi: Record<string, unknown>;
  /** The direct path's counts (gateway/direct/); undefined when GATEWAY_DIRECT_EXECUTION is false. */
  directExecution: DirectStats | undefined;
  close(): Promise<void>;
}

/** Log redaction: credentials never reach the logs. */
export const REDACT = [
  'req.headers.authorization',
  // The web pages' session cookies hold tokens (web/session.ts).
  'req.headers.cookie',
  'req.headers["x-service-secret"]',
  '*.password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.secret',
  '*.authorization',
];

export function fastifyOptions(config: Config, logStream?: NodeJS.WritableStream): FastifyServerOptions {
  return {
    logger: { level: config.logLevel, redact: REDACT, ...(logStream ? { stream: logStream } : {}) } as FastifyServerOptions['logger'],
    genReqId: () => newId(),
    childLoggerFactory: requestLoggerFactory,
    requestIdHeader: false,
    // The pipeline writes its own one line per request (with status, duration and user); Fastify's pair is off.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    bodyLimit: config.limits.bodyLimitBytes,
    trustProxy: config.http.trustProxy.length ? config.http.trustProxy : false,
    return503OnClosing: true,
    // Refusals before any hook runs (431, 414, malformed requests) still get the error body and the pipeline's headers.
    clientErrorHandler: clientErrorHandler(config),
    frameworkErrors: frameworkErrorHandler(config),
  };
}

/** Builds the whole service: pipeline, stores, subgraphs, gateway, /graphql, REST /v1, /health, /openapi.json, /docs. */
export async function createApp(config: Config, opts: AppOptions = {}): Promise<App> {
  const http = Fastify(fastifyOptions(config, opts.logStream));
  await prepareStart(config, http.log);
  // Stores first: the pipeline's rate limit keeps its buckets in the shared limits.
  const stores = await openStores(config, http.log.child({ component: 'limits' }));
  // The token is verified before the body limit is chosen; the verifier exists once the subgraphs have started.
  let contextOf: ((request: FastifyRequest) => Promise<RequestContext>) | undefined;
  await registerPipeline(http, config, stores.limits, 'gateway', { isSignedIn: async (request) => Boolean(contextOf && (await contextOf(request)).viewer) });
  http.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const clock = opts.clock ?? systemClock;
  // Composition needs the subgraphs' schemas, and the federation subgraph needs the composed one: handed over late.
  let composed: Composition | undefined;
  const apiSchema = async () => {
    if (!composed) throw new Error('the API schema is asked for before composition');
    return composed.apiSchema;
  };
  const deps: SubgraphDeps = { config, stores, clock, log: http.log, apiSchema };
  // A subgraph SUBGRAPHS_DISABLED names is neither started nor composed; a remote one starts in its own process.
  const enabled = enabledSubgraphs(config);
  const started = await startSubgraphs(
    deps,
    enabled.filter((name) => !config.subgraphs.urls[name]),
    enabled,
  ).catch(async (err: unknown) => {
    // PGlite writes its last changes on close: a start that fails (a seed file missing) still closes the stores.
    await closeStores(stores).catch(() => undefined);
    throw err;
  });
  const verifier = opts.verifier !== undefined ? opts.verifier : await createTokenVerifier(deps);

  const composition = await composeSupergraph(deps);
  composed = composition;
  // Only what the composition answers: a disabled subgraph's routes are absent (404) and undocumented.
  const routes = routesFor(composition);
  const limits = operationLimits(config.limits.operation);
  const checks = operationChecks(config, limits);
  const sources = subgraphDataSources(composition, config.subgraphs.urls, { compiled: config.api.compiledExecution });
  const apollo = createApolloServer(config, composition, limits, checks, sources.sources);
  await apollo.start();
  const direct = config.api.directExecution
    ? directExecutor({
        operations: new DirectOperations({
          apiSchema: composition.apiSchema,
          supergraphSdl: composition.supergraphSdl,
          localSources: sources.local,
          validationRules: limits.validationRules,
          parseOptions: limits.parseOptions,
        }),
        apiSchema: composition.apiSchema,
        checks,
        onErrors: (errors, context) => {
          logOperationErrors(errors, context);
          if (!config.api.introspection) hideSuggestions(errors);
        },
        formatError: errorFormatter(config),
      })
    : undefined;

  const makeContext = (contextOf = requestContexts(config, verifier));
  const preparing = inIdleSlices();
  const apolloHandler = fastifyApolloHandler(apollo, { context: async (request) => makeContext(request) });
  const graphqlHandler = direct ? directGraphqlHandler(direct, makeContext, apolloHandler as never) : apolloHandler;
  const { openapi } = await mountRest(http, {
    config,
    apiSchema: composition.apiSchema,
    routes,
    openApiDocument: (mounted) => openApiDocument(composition, mounted),
    run: operationRunner(apollo, direct),
    prepare: direct && ((operations) => preparing.start(operations.map((o) => () => direct.prepare(documentText(o.document), o.operationName)))),
    makeContext,
    graphql: (request, reply) => graphqlHandler.call(http, request as never, reply as never),
    health: sharedHealthCheck(stores, config.limits.healthTimeoutMs, http.log.child({ component: 'health' })),
    objects: stores.objects,
  });

  await http.ready();
  // `npm run admin` reaches the running service here: the embedded database has one opener (gateway/admin.ts). Only
  // where this process holds the accounts: the identity subgraph in-process, on an embedded database on disk.
  const holdsAccounts = enabled.includes('identity') && !config.subgraphs.urls.identity;
  const embedded = config.relational.kind === 'pglite' && !config.relational.dataDir.startsWith('memory://');
  const adminSocket = holdsAccounts && embedded ? await serveAdminSocket(config, deps, http.log.child({ component: 'admin' })) : null;
  return {
    http,
    stores,
    deps,
    composition,
    openapi,
    directExecution: direct?.stats,
    close: async () => {
      // No admin command starts while the stores close.
      await adminSocket?.close();
      preparing.stop();
      await closeHost(http, apollo, started, stores);
    },
  };
}

/**
 * Runs steps one per turn of the event loop (setImmediate), after the requests that are waiting: work done ahead of
 * need (readying the REST routes' operations, a few milliseconds each) never holds up a request for longer than
 * one step, and starting the service does not wait for it.
 */
function inIdleSlices(): { start(steps: (() => void)[]): void; stop(): void } {
  let timer: NodeJS.Immediate | undefined;
  let queue: (() => void)[] = [];
  const next = () => {
    timer = undefined;
    const step = queue.shift();
    if (!step) return;
    try {
      step();
    } catch {
      // Work ahead of need only: whatever failed here is done, and answered, when a request needs it.
    }
    timer = setImmediate(next);
  };
  return {
    start(steps) {
      queue.push(...steps);
      timer ??= setImmediate(next);
    },
    stop() {
      queue = [];
      if (timer) clearImmediate(timer);
      timer = undefined;
    },
  };
}

/**
 * Stops a host in the one safe order: no new requests, then the GraphQL server, then the subgraphs (their job
 * runners and timers), and the stores last whatever failed before (PGlite writes its last changes on close).
 */
export async function closeHost(http: FastifyInstance, apollo: ApolloServer<RequestContext>, started: { stop(): Promise<void> }, stores: Stores): Promise<void> {
  try {
    await http.close();
    await apollo.stop();
  } finally {
    await started.stop();
    await closeStores(stores);
  }
}

/** The operation checks, in the order they run: which operation, may the caller run it, and only then what its variables hold. */
function operationChecks(config: Config, limits: ReturnType<typeof operationLimits>): OperationCheck<RequestContext>[] {
  return [
    operationResolved,
    operationAccess,
    operationGuards({ introspection: config.api.introspection }) as OperationCheck<RequestContext>,
    limits.itemsCheck as OperationCheck<RequestContext>,
  ];
}

/** The gateway's Apollo Server: operation limits and checks, masked faults, no landing page. */
function createApolloServer(
  config: Config,
  composition: Composition,
  limits: ReturnType<typeof operationLimits>,
  checks: OperationCheck<RequestContext>[],
  sources: ReturnType<typeof subgraphDataSources>['sources'],
): ApolloServer<RequestContext> {
  return new ApolloServer<RequestContext>({
    gateway: createGateway(composition, config.subgraphs.urls, sources),
    validationRules: limits.validationRules,
    parseOptions: limits.parseOptions,
    // GRAPHQL_INTROSPECTION is enforced by operationGuardsPlugin, whose refusal names the setting.
    introspection: true,
    // Bearer tokens, never cookies: a cross-site form cannot act for a user, so GET queries need no preflight header.
    csrfPrevention: false,
    // On SIGINT/SIGTERM the process stops the server and closes the stores itself (gateway/shutdown.ts). Apollo's own
    // handler (on outside tests) races that and ends the process before the stores are closed: PGlite could lose
    // its last writes.
    stopOnTerminationSignals: false,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      errorLoggingPlugin(),
      ...(limits.plugins as ApolloServerPlugin<RequestContext>[]),
      operationChecksPlugin<RequestContext>(checks),
      // What the API tells about itself: with introspection off, errors do not suggest field names either.
      ...(config.api.introspection ? [] : [hideSuggestionsPlugin() as ApolloServerPlugin<RequestContext>]),
    ],
    formatError: errorFormatter(config),
  });
}

/**
 * Runs the REST layer's operations as /graphql would, with the request's context: directly on their subgraph when
 * the direct path takes them, through Apollo Server otherwise.
 */
function operationRunner(apollo: ApolloServer<RequestContext>, direct: DirectExecutor | undefined): RunGraphql {
  return async ({ query, variables, operationName }, context) => {
    const text = typeof query === 'string' ? query : documentText(query);
    const answer = direct && (await direct({ query: text, variables, operationName }, context));
    if (answer) return answer.result as never;
    const res = await apollo.executeOperation({ query: text, variables, operationName }, { contextValue: context });
    if (res.body.kind !== 'single') throw new Error('incremental delivery is not used by REST routes');
    return res.body.singleResult as never;
  };
}

/**
 * One context per request: the access gate of a route builds it before the body is read, and the route's
 * operations reuse it (the token is verified once).
 */
function requestContexts(config: Config, verifier: TokenVerifier | null): (request: FastifyRequest) => Promise<RequestContext> {
  const contexts = new WeakMap<FastifyRequest, Promise<RequestContext>>();
  const buildContext = async (request: FastifyRequest): Promise<RequestContext> => {
    const ctx = await buildRequestContext(
      {
        requestId: request.id,
        authorization: request.headers.authorization,
        clientIp: request.ip,
        baseUrl: config.login.publicUrl ?? `${request.protocol}://${request.host}`,
        signal: request.abort,
        log: request.log,
        institutionalLogin: Boolean(config.login.providers.institutional),
      },
      verifier,
    );
    if (ctx.viewer) request.userId = ctx.viewer.id;
    request.scope.owner = taskOwner(ctx);
    return ctx;
  };
  return (request) => {
    let ctx = contexts.get(request);
    if (!ctx) contexts.set(request, (ctx = buildContext(request)));
    return ctx;
  };
}

/**
 * The gateway's formatError: real faults masked (`maskServerErrors`), and in production no `extensions.serviceName`,
 * since the names of the internal subgraphs are none of a client's business (in development they help find a fault).
 */
export function errorFormatter(config: Pick<Config, 'env'>): (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError {
  if (config.env !== 'production') return maskServerErrors;
  return (formatted, error) => {
    const masked = maskServerErrors(formatted, error);
    if (!masked.extensions || !('serviceName' in masked.extensions)) return masked;
    const { serviceName: _internal, ...extensions } = masked.extensions;
    return { ...masked, extensions };
  };
}

/** Messages of real faults never reach clients; they are logged with the request id instead. */
export function maskServerErrors(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const code = codeOf(error) ?? (formatted.extensions?.code as string | undefined);
  const status = statusForCode(code);
  if (isExposed(status)) {
    const { stacktrace: _s, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
    // A store's ServiceUnavailable arrives wrapped by the ORM: its code and message, not the wrapper's statement.
    const lost = code === 'SERVICE_UNAVAILABLE' ? unavailableIn(error) : undefined;
    return lost ? { ...formatted, message: lost.message, extensions: { ...extensions, code } } : { ...formatted, extensions };
  }
  return { message: GENERIC_SERVER_ERROR, locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** Real faults are logged with their cause; refusals at debug level. */
function logOperationErrors(errors: readonly GraphQLError[], context: RequestContext): void {
  const log = context.log;
  if (!log) return;
  for (const err of errors) {
    const status = statusForCode(codeOf(err));
    if (!isExposed(status)) log.error({ err: err.originalError ?? err, path: err.path }, 'graphql operation failed');
    // A store that failed: the client reads which one; the operator needs what it said (paths, the server's reply).
    else if (status === 503) log.error({ err: (err.originalError as { cause?: unknown } | undefined)?.cause ?? err.originalError ?? err, path: err.path }, 'graphql operation failed: a store is unavailable');
    else log.debug({ code: codeOf(err), message: err.message }, 'graphql operation rejected');
  }
}

function errorLoggingPlugin() {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors(rc: GraphQLRequestContext<RequestContext>) {
          logOperationErrors((rc.errors ?? []) as GraphQLError[], rc.contextValue);
        },
      };
    },
  };
}
