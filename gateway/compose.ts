import { parse, printSchema, type GraphQLSchema, type GraphQLError } from 'graphql';
import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import { ApolloGateway, RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { SUBGRAPH_NAMES, disableVendorTelemetry, type Config, type SubgraphName } from '../lib/config.js';
import type { SubgraphDeps } from '../lib/subgraph.js';
import { mergeResolvers, type SubgraphResolvers } from '../schema/federation.js';
import type { RequestContext } from '../lib/context.js';
import { ServiceUnavailable } from '../lib/errors.js';
import { SUBGRAPHS } from './subgraphs.js';
import { CachingLocalDataSource } from './local-data-source.js';

/** The subgraphs SUBGRAPHS_DISABLED may leave out (OPTIONAL_SUBGRAPHS in lib/config.ts): a composition may lack these. */
type OptionalSubgraph = 'query' | 'graph';
const OPTIONAL: readonly SubgraphName[] = ['query', 'graph'] satisfies readonly OptionalSubgraph[];

/** The schema of every composed subgraph: those SUBGRAPHS_DISABLED may leave out can be missing. */
export type SubgraphSchemas = Record<Exclude<SubgraphName, OptionalSubgraph>, GraphQLSchema> & Partial<Record<OptionalSubgraph, GraphQLSchema>>;

export interface Composition {
  /** The subgraphs composed (every one but those SUBGRAPHS_DISABLED names), in composition order. */
  subgraphs: SubgraphName[];
  schemas: SubgraphSchemas;
  /** What this app's in-process subgraphs run on (their schemas are shared by the apps of a process). */
  resolvers: SubgraphResolvers;
  supergraphSdl: string;
  /** The public API schema (what /graphql and the REST layer see). */
  apiSchema: GraphQLSchema;
}

/** The subgraphs this cluster serves: every one but those SUBGRAPHS_DISABLED names, in composition order. */
export function enabledSubgraphs(config: Pick<Config, 'subgraphs'>): SubgraphName[] {
  return SUBGRAPH_NAMES.filter((name) => !config.subgraphs.disabled.includes(name));
}

/**
 * Builds the schema of every enabled subgraph from code and composes them; a subgraph SUBGRAPHS_DISABLED names is
 * neither built nor composed, so none of its fields exist. The SDL always comes from the code, so composition
 * never waits on a remote subgraph; a remote one that is down only fails the operations that reach it.
 */
export async function composeSupergraph(deps: SubgraphDeps): Promise<Composition> {
  const names = enabledSubgraphs(deps.config);
  for (const name of deps.config.subgraphs.disabled) {
    if (!OPTIONAL.includes(name)) throw new Error(`the ${name} subgraph cannot be left out of the supergraph (only ${OPTIONAL.join(', ')})`);
  }
  const schemas: Partial<Record<SubgraphName, GraphQLSchema>> = {};
  const resolvers: SubgraphResolvers[] = [];
  for (const name of names) {
    const built = await SUBGRAPHS[name].buildSchema(deps);
    schemas[name] = built.schema;
    resolvers.push(built.resolvers);
  }
  const services = names.map((name) => ({ name, url: deps.config.subgraphs.urls[name] ?? `local://${name}`, sdl: sdlOf(schemas[name]!) }));
  return { subgraphs: names, schemas: schemas as SubgraphSchemas, resolvers: mergeResolvers(resolvers), ...composeSdl(services) };
}

/** Subgraph schemas are shared by the apps of a process, and so is their printed SDL. */
const sdls = new WeakMap<GraphQLSchema, string>();
function sdlOf(schema: GraphQLSchema): string {
  let sdl = sdls.get(schema);
  if (sdl === undefined) sdls.set(schema, (sdl = printSubgraphSchema(schema)));
  return sdl;
}

/**
 * Composition is a function of the subgraphs' SDL and URLs alone, and the slowest step of building an app: a
 * process that builds several apps from the same subgraphs (the tests) composes them once. Only the latest is kept,
 * so a process whose subgraphs change does not accumulate compositions.
 */
let latest: { key: string; composed: Pick<Composition, 'supergraphSdl' | 'apiSchema'> } | undefined;
function composeSdl(services: { name: string; url: string; sdl: string }[]): Pick<Composition, 'supergraphSdl' | 'apiSchema'> {
  const key = JSON.stringify(services);
  if (latest?.key === key) return latest.composed;
  const result = composeServices(services.map(({ name, url, sdl }) => ({ name, url, typeDefs: parse(sdl) })));
  if (result.errors) {
    throw new Error(`supergraph composition failed:\n${result.errors.map((e: GraphQLError) => e.message).join('\n')}`);
  }
  const composed = { supergraphSdl: result.supergraphSdl, apiSchema: result.schema.toAPISchema().toGraphQLJSSchema() };
  latest = { key, composed };
  return composed;
}

/** The API schema as SDL, for docs and diffing. */
export const printApiSchema = (c: Composition) => printSchema(c.apiSchema);

/** Forwards identity, client IP and request id to a remote subgraph, and turns "cannot reach it" into a clear 503. */
class ForwardingRemoteDataSource extends RemoteGraphQLDataSource<RequestContext> {
  constructor(
    readonly subgraph: string,
    url: string,
  ) {
    super({ url });
  }

  willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<RequestContext>) {
    const ctx = context as Partial<RequestContext>;
    if (ctx.requestId) request.http?.headers.set('x-request-id', ctx.requestId);
    if (ctx.authorization) request.http?.headers.set('authorization', ctx.authorization);
    // Replaces whatever the client sent: a subgraph that lists this gateway in TRUST_PROXY takes its client IP from here.
    if (ctx.clientIp) request.http?.headers.set('x-forwarded-for', ctx.clientIp);
    if (ctx.baseUrl) request.http?.headers.set('x-forwarded-base-url', ctx.baseUrl);
  }

  async process(options: GraphQLDataSourceProcessOptions<RequestContext>) {
    try {
      return await super.process(options);
    } catch (e) {
      const err = e as { code?: string; type?: string; extensions?: { code?: string }; message?: string };
      const unreachable =
        err.type === 'system' ||
        /ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|socket hang up|fetch failed/i.test(err.message ?? '') ||
        (err.extensions?.code && /^5\d\d$/.test(String((e as { extensions?: { response?: { status?: number } } }).extensions?.response?.status ?? '')));
      if (unreachable) {
        options.context && (options.context as RequestContext).log?.warn({ subgraph: this.subgraph, err: err.message }, 'subgraph unavailable');
        throw new ServiceUnavailable(`the ${this.subgraph} service is unavailable; operations that do not need it still work`);
      }
      throw e;
    }
  }
}

/**
 * The gateway's data source of every composed subgraph: in-process ones run on the subgraph's schema, remote ones
 * are reached over HTTP. Shared by the gateway and the direct path (gateway/direct/), so both log and run fetches
 * the same way.
 */
export function subgraphDataSources(
  composition: Composition,
  urls: Partial<Record<SubgraphName, string>>,
  opts: { compiled?: boolean } = {},
): { sources: Map<string, GraphQLDataSource>; local: Map<string, GraphQLDataSource> } {
  const sources = new Map<string, GraphQLDataSource>();
  const local = new Map<string, GraphQLDataSource>();
  for (const name of composition.subgraphs) {
    const url = urls[name];
    if (url) {
      sources.set(name, loggedFetches(name, new ForwardingRemoteDataSource(name, url)));
      continue;
    }
    const schema = composition.schemas[name as Exclude<SubgraphName, OptionalSubgraph>] ?? composition.schemas[name as OptionalSubgraph];
    if (!schema) throw new Error(`the ${name} subgraph is not composed`);
    const source = loggedFetches(name, new CachingLocalDataSource(schema, composition.resolvers, { compiled: opts.compiled }));
    sources.set(name, source);
    local.set(name, source);
  }
  return { sources, local };
}

/** The gateway over the composed supergraph, with in-process or remote data sources per subgraph. */
export function createGateway(composition: Composition, urls: Partial<Record<SubgraphName, string>>, sources = subgraphDataSources(composition, urls).sources): ApolloGateway {
  disableVendorTelemetry();
  return new ApolloGateway({
    supergraphSdl: composition.supergraphSdl,
    // Called for the composed subgraphs only: a disabled one is not in the supergraph.
    buildService: ({ name }) => {
      const source = sources.get(name);
      if (!source) throw new Error(`the ${name} subgraph is not composed`);
      return source;
    },
  });
}

/**
 * Logs every fetch the gateway makes of a subgraph (debug level), with the number of entity representations it
 * carries: how many calls one operation costs each subgraph is then visible in the logs (batched entity
 * references cost one fetch per subgraph, whatever the page size).
 */
function loggedFetches(subgraph: string, inner: GraphQLDataSource): GraphQLDataSource {
  return {
    process(options) {
      const log = (options.context as Partial<RequestContext> | undefined)?.log;
      const representations = (options.request.variables as { representations?: unknown[] } | undefined)?.representations;
      log?.debug({ subgraph, operation: options.request.operationName ?? null, representations: representations?.length ?? null }, 'subgraph fetch');
      return inner.process(options);
    },
  };
}
