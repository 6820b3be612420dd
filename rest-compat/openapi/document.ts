import type { DocumentNode, GraphQLSchema } from 'graphql';
import { defaultTokenNeed, type AccessClass, type TokenNeed } from '../../lib/access.js';
import { handlerTokenNeed, pathParams, type GraphqlResult, type GraphqlRoute, type HandlerRoute, type Route } from '../route-table.js';
import { GraphqlJsonSchemas, type Json } from './graphql-json-schema.js';
import { requestParts, successResponse } from './graphql-operation.js';
import { errorResponseComponents, errorResponseRefs, errorSchema, errorStatuses, withErrorHeaders } from './error-responses.js';

export interface OpenApiInput {
  routes: Route[];
  /** The API schema the REST layer executes against. */
  apiSchema: GraphQLSchema;
  /** The operation sofa runs for each GraphQL route, by `METHOD path`. */
  documents: Map<string, DocumentNode>;
  /** Root field coordinate -> access class. */
  access: Map<string, AccessClass>;
  /** Root fields a person signed in at another cluster may call (the others answer such a caller 403). */
  remoteCallers: ReadonlySet<string>;
  /** Root field coordinate -> what a personal API token needs to call it. */
  tokenNeeds: ReadonlyMap<string, TokenNeed>;
  version: string;
}

/** Statuses a GraphQL route may answer besides the pipeline's: its resolver's not-found and conflict errors. */
const GRAPHQL_OWN = [404, 409];

export const routeKey = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** `Mutation.createTerm` -> `createTerm`; a handler `health` on GET -> `getHealth`. */
export function operationId(route: Route): string {
  if (route.operationId) return route.operationId;
  if (route.kind === 'graphql') return route.field.slice(route.field.indexOf('.') + 1);
  return `${route.method.toLowerCase()}${route.handler[0].toUpperCase()}${route.handler.slice(1)}`;
}

/** The plot route (`METHOD path`) that `?format=svg` on a `svg` route (or an older form of it) answers like. */
function plotRouteOf(route: GraphqlRoute, routes: readonly Route[]): string {
  const plot = routes.find((r) => r.kind === 'graphql' && r.plot && r.field === route.field);
  if (!plot) throw new Error(`${routeKey(route)} answers SVG, but no plot route answers ${route.field}`);
  return routeKey(plot);
}

/** The .arrow route (`METHOD path`, the route's own method) that `?format=arrow` on a route with `arrow` answers like. */
function arrowRouteOf(route: GraphqlRoute, routes: readonly Route[]): string {
  const target = routes.find((r) => r.kind === 'handler' && r.method === route.method && r.path === route.arrow);
  if (!target) throw new Error(`${routeKey(route)} answers format=arrow like ${route.arrow}, which is no handler route`);
  return routeKey(target);
}

function graphqlOperation(route: GraphqlRoute, input: OpenApiInput, schemas: GraphqlJsonSchemas): { op: Json; access: AccessClass } {
  const document = input.documents.get(routeKey(route));
  if (!document) throw new Error(`no sofa operation for ${routeKey(route)}`);
  const access = input.access.get(route.field) ?? ('Public' as AccessClass);
  const token = input.tokenNeeds.get(route.field) ?? defaultTokenNeed(route.field.split('.')[0]);
  const op: Json = {
    operationId: operationId(route),
    summary: route.summary,
    tags: [route.tag],
    ...requestParts(route, document, schemas),
    responses: { ...successResponse(route, document, schemas), ...errorResponseRefs(errorStatuses(route.method, access, [...GRAPHQL_OWN, ...(route.errors ?? [])], !input.remoteCallers.has(route.field), token)) },
    'x-graphql-field': route.field,
    'x-token-scope': token,
    // ?format=svg (or Accept: image/svg+xml) here answers what the named path answers (docs/rest-contract.md).
    ...(route.svg ? { 'x-svg-alias-of': plotRouteOf(route, input.routes) } : {}),
    // ?format=arrow here answers what the named .arrow route answers.
    ...(route.arrow ? { 'x-arrow-alias-of': arrowRouteOf(route, input.routes) } : {}),
  };
  return { op, access };
}

const isGraphqlResult = (value: object): value is GraphqlResult => 'graphqlType' in value && 'selection' in value;

/** A handler's response descriptions, with each GraphqlResult replaced by its schema. */
function withGraphqlResults(value: unknown, schemas: GraphqlJsonSchemas): unknown {
  if (Array.isArray(value)) return value.map((v) => withGraphqlResults(v, schemas));
  if (!value || typeof value !== 'object') return value;
  if (isGraphqlResult(value)) return schemas.selectionOf(value.graphqlType, value.selection);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withGraphqlResults(v, schemas)]));
}

function handlerOperation(route: HandlerRoute, schemas: GraphqlJsonSchemas): { op: Json; access: AccessClass } {
  const own = Object.keys(route.openapi.responses).map(Number);
  const op: Json = {
    operationId: operationId(route),
    summary: route.summary,
    tags: [route.tag],
    parameters: [
      ...pathParams(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...(route.openapi.parameters ?? []),
    ],
    ...(route.openapi.requestBody ? { requestBody: route.openapi.requestBody } : {}),
    responses: {
      ...errorResponseRefs(errorStatuses(route.method, route.access, [], route.method !== 'GET', handlerTokenNeed(route)).filter((s) => !own.includes(s))),
      ...(withGraphqlResults(route.openapi.responses, schemas) as Json),
    },
    'x-token-scope': handlerTokenNeed(route),
  };
  return { op, access: route.access };
}

/** The responses in status order, each error answer with its headers (withErrorHeaders). */
const sortResponses = (responses: Json): Json =>
  Object.fromEntries(
    Object.entries(responses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, r]) => [status, withErrorHeaders(Number(status), r as Json)]),
  );

/** One document for every route, built from the GraphQL schema and the route table, so neither can drift from it. */
export function buildOpenApi(input: OpenApiInput): Json {
  const schemas = new GraphqlJsonSchemas(input.apiSchema);
  const paths: Record<string, Record<string, Json>> = {};
  const ids = new Map<string, string>();
  for (const route of input.routes) {
    const { op, access } = route.kind === 'graphql' ? graphqlOperation(route, input, schemas) : handlerOperation(route, schemas);
    const id = op.operationId as string;
    if (ids.has(id)) throw new Error(`operationId ${id} of ${routeKey(route)} is already used by ${ids.get(id)}`);
    ids.set(id, routeKey(route));
    op.responses = sortResponses(op.responses as Json);
    op['x-access-class'] = access;
    if (route.alternate) op['x-alternate-form'] = true;
    // Public operations say so: without `security: []` a client would assume a token is needed everywhere.
    op.security = access === 'Public' ? [] : [{ bearerAuth: [] }];
    if ((op.parameters as unknown[]).length === 0) delete op.parameters;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = op;
  }
  const tags = [...new Set(input.routes.map((r) => r.tag))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Neuroscience Data Service API',
      version: input.version,
      description:
        'REST compatibility layer over the GraphQL API at /graphql. Every response carries `api-version: v1` and `X-Request-ID`; every error body is `{"error": "..."}`. Access classes: Public, User, Academic (verified academic or Service), SuperUser (see `x-access-class` on each operation). Request bodies are checked against this document: unknown fields and wrong types get 400.',
    },
    servers: [{ url: '/' }],
    tags: tags.map((name) => ({ name, description: TAG_TEXT[name] ?? name })),
    paths,
    components: {
      schemas: { ...sortKeys(schemas.components), Error: errorSchema },
      responses: errorResponseComponents(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'PASETO v4.public access token, or a personal API token (ndt_…)',
          description:
            "A 15-minute access token from POST /v1/user/auth/login, or a personal API token from POST /v1/user/tokens (or the /tokens page). An API token's scope must cover the operation's x-token-scope (read < compute < write); operations marked login refuse API tokens.",
        },
      },
    },
  };
}

const sortKeys = (o: Json): Json => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

const TAG_TEXT: Record<string, string> = {
  platform: 'Health, this document, the interactive documentation and the GraphQL endpoint',
  identity: 'Accounts, tokens, profiles, institutional verification, ORCID iD and social sign-in',
  ontology: 'Controlled vocabularies: terms, hierarchy, validation, import',
  search: 'Full-text, faceted, ontology-aware search of the published datasets (public)',
  neurodata: 'Datasets: records, versions, files, access requests, lineage, collections, citations',
  graph: 'Graph analysis of connectomes: metrics, triad census, paths, reachability, ego networks, comparison (docs/graph.md)',
  analytics: 'Summaries and distributions of a dataset',
  federation: 'Clusters of this service that federate',
};
