import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import type { Config } from '../lib/config.js';
import type { RequestContext } from '../lib/context.js';
import type { ObjectStore } from '../lib/objects/objects.js';
import { openDownloadSigner } from '../lib/objects/signed-url.js';
import { accessGate } from './access-gate.js';
import { sendError } from '../lib/error-reply.js';
import { jobResultHandler } from './job-results.js';
import { loginRedirectHandlers, type RunOperation } from './login-redirect.js';
import { neurodataHandlers, registerUploadParsers } from './neurodata-files.js';
import { OpenApiValidator } from './openapi/validator.js';
import { docsPage, graphiqlPage, readAsset, sendPage } from './pages.js';
import { colonPath, graphqlRoutes, type HandlerRoute, type Route } from './route-table.js';
import { buildSofaRoutes, mountSofaRoutes, type MountedRoute } from './sofa.js';
import { mountWeb } from '../web/index.js';

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** Runs one GraphQL operation through the gateway: sofa's routes give a document, hand-written handlers a text. */
export type RunGraphql = (
  operation: { query: string | DocumentNode; variables?: Record<string, unknown>; operationName?: string },
  context: RequestContext,
) => Promise<ExecutionResult>;

/** What the host hands the REST layer: the gateway's schema and routes, how to run operations, and a few endpoints. */
export interface RestHost {
  config: Config;
  apiSchema: GraphQLSchema;
  /** The routes the composition answers (a disabled subgraph's are absent). */
  routes: Route[];
  /** The OpenAPI document of these routes, from the operations sofa runs for them. */
  openApiDocument(mounted: MountedRoute[]): Record<string, unknown>;
  run: RunGraphql;
  /**
   * Readies the operations of the REST routes ahead of their first request (parsed, validated, planned), in the
   * background; optional.
   */
  prepare?(operations: readonly { document: DocumentNode; operationName?: string }[]): void;
  /** The request's context, built once per request (the access gate builds it before the body is read). */
  makeContext(request: FastifyRequest): Promise<RequestContext>;
  /** The /graphql endpoint; GraphiQL is served in front of it to browsers. */
  graphql: Handler;
  /** /health's report; 200 when healthy, 503 otherwise. */
  health(): Promise<{ status: string }>;
  objects: ObjectStore;
}

/**
 * Mounts the REST layer on `app`: the table's GraphQL routes through sofa (held to the OpenAPI document), the
 * hand-written handlers (login redirects, dataset files, job results, health, the document, the pages), each behind
 * its route's access gate, the documentation's assets, and the browser pages of web/. Returns the OpenAPI document served at /openapi.json.
 */
export async function mountRest(app: FastifyInstance, host: RestHost): Promise<{ openapi: Record<string, unknown> }> {
  const { config, run, makeContext } = host;
  const { sofaRoutes, openapi, validator } = restLayerOf(host);
  host.prepare?.(sofaRoutes.map((r) => r.operation));

  const runOperation: RunOperation = async (request, query, variables = {}) => run({ query, variables }, await makeContext(request));
  const downloadSigner = await openDownloadSigner(config.dataDir);
  const handlers: Record<string, Handler> = {
    // The browser-binding cookie of social sign-ins is Secure whenever browsers reach the service over https.
    ...loginRedirectHandlers(runOperation, { secureCookies: Boolean(config.login.publicUrl?.startsWith('https://')) }),
    ...neurodataHandlers(runOperation, host.objects),
    jobResult: jobResultHandler(runOperation, host.objects, downloadSigner),
    health: async (_request, reply) => {
      const report = await host.health();
      return reply.code(report.status === 'healthy' ? 200 : 503).send(report);
    },
    openapi: async (_request, reply) => reply.send(openapi),
    // API_DOCS off: the pages answer like routes that do not exist.
    docs: async (_request, reply) => (config.api.docs ? sendPage(reply, docsPage()) : reply.callNotFound()),
    graphql: async (request, reply) => {
      const wantsPage = request.method === 'GET' && !(request.query as Record<string, unknown>)?.query && String(request.headers.accept ?? '').includes('text/html');
      if (wantsPage) return config.api.docs ? sendPage(reply, graphiqlPage()) : reply.callNotFound();
      return host.graphql(request, reply);
    },
  };
  mountSofaRoutes(
    app,
    sofaRoutes,
    makeContext,
    validator,
    ({ document, variables, operationName, context }) => run({ query: document, variables, operationName }, context),
    config.api.directExecution,
    (path, method) => {
      const route = host.routes.find((r): r is HandlerRoute => r.kind === 'handler' && r.method === method && r.path === path);
      return route ? handlers[route.handler] : undefined;
    },
  );
  for (const route of host.routes.filter((r): r is HandlerRoute => r.kind === 'handler')) {
    await mountHandler(app, route, handlers[route.handler], host);
  }
  // The browser pages (web/): outside the route table and the OpenAPI document.
  const runAnonymous: RunOperation = async (request, query, variables = {}) => run({ query, variables }, await makeContext(withoutCredentials(request)));
  await mountWeb(app, { config, runOperation, runAnonymous, handlers });
  app.get('/docs/assets/:name', async (request, reply) => {
    if (!config.api.docs) return reply.callNotFound();
    const asset = await readAsset((request.params as { name: string }).name);
    if (!asset) return sendError(reply, 404, 'no such asset');
    return reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(asset.body);
  });
  return { openapi };
}

/**
 * The request as one that carries no credential, for public operations run on its behalf (a browser session's
 * refresh): its id, address and signal, but its own context (contexts are kept per request object).
 */
function withoutCredentials(request: FastifyRequest): FastifyRequest {
  const { authorization: _dropped, ...headers } = request.headers;
  return Object.create(request, { headers: { value: headers, enumerable: true } }) as FastifyRequest;
}

/**
 * What the REST layer builds from the API schema and the route table alone: sofa's routers, the OpenAPI document
 * and its validator (which compiles each operation's schemas on first use). A process that builds several apps over
 * the same composition (the tests) builds it once; only the latest is kept, so a process whose composition changes
 * accumulates nothing.
 */
let latest: { apiSchema: GraphQLSchema; routes: string; built: { sofaRoutes: MountedRoute[]; openapi: Record<string, unknown>; validator: OpenApiValidator } } | undefined;
function restLayerOf(host: RestHost) {
  const routes = JSON.stringify(host.routes);
  if (latest?.apiSchema === host.apiSchema && latest.routes === routes) return latest.built;
  const sofaRoutes = buildSofaRoutes(host.apiSchema, graphqlRoutes(host.routes));
  const openapi = host.openApiDocument(sofaRoutes);
  latest = { apiSchema: host.apiSchema, routes, built: { sofaRoutes, openapi, validator: new OpenApiValidator(openapi) } };
  return latest.built;
}

async function mountHandler(app: FastifyInstance, route: HandlerRoute, handler: Handler | undefined, host: RestHost): Promise<void> {
  if (typeof handler !== 'function') throw new Error(`no handler registered for ${route.method} ${route.path} (${route.handler})`);
  // The access class first, before the body is read (access-gate.ts).
  const gate = accessGate(route, host.makeContext);
  const hooks = gate ? { onRequest: gate } : {};
  if (route.streamBody) {
    // Its own scope: the body is not parsed (nor limited to BODY_LIMIT_BYTES) but streamed to the handler.
    await app.register(async (scope) => {
      await registerUploadParsers(scope);
      scope.route({ method: route.method, url: colonPath(route.path), ...hooks, handler: handler as never, config: { timeoutMs: host.config.assets.uploadTimeoutMs } as never });
    });
  } else {
    const config = route.longTransfer ? { config: { timeoutMs: host.config.assets.uploadTimeoutMs } as never } : {};
    app.route({ method: route.method, url: colonPath(route.path), ...hooks, handler: handler as never, ...config });
  }
}
