import type { AccessClass } from '../lib/access.js';
import { ERROR_STATUS } from '../lib/errors.js';
import { pathParams, type Route } from './route-table.js';

type Json = Record<string, unknown>;

export interface OpenApiInput {
  routes: Route[];
  /** The OpenAPI operations sofa generated, by `METHOD sofaPath`. */
  sofaOperations: Map<string, Json>;
  /** Component schemas sofa generated from the GraphQL types. */
  sofaSchemas: Record<string, Json>;
  /** Root field coordinate -> access class. */
  access: Map<string, AccessClass>;
  version: string;
}

const errorSchema = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: { error: { type: 'string', description: 'human-readable message' } },
};

const STATUS_TEXT: Record<number, string> = {
  400: 'bad request',
  401: 'missing, invalid or expired access token',
  403: 'the access class is too low',
  404: 'not found (or not visible to the caller)',
  408: 'the request exceeded the timeout',
  409: 'conflict',
  413: 'request body too large',
  414: 'a path segment (or the whole URI) is too long',
  415: 'unsupported Content-Type: send application/json',
  429: 'rate limited (see Retry-After)',
  431: 'the request line and headers are too large',
  500: 'internal error (the message carries no detail; quote X-Request-ID)',
  503: 'a service this operation needs is unavailable',
};

/** OpenAPI 3.0 `nullable` -> 3.1 type unions, recursively. */
function to31(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(to31);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) if (k !== 'nullable') out[k] = to31(v);
  if ((node as Json).nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (out.$ref) return { anyOf: [{ $ref: out.$ref }, { type: 'null' }] };
  }
  return out;
}

function errorResponses(access: AccessClass, extra: number[] = []): Json {
  const codes = new Set([400, 408, 413, 429, 500, ...extra]);
  if (access !== 'Public') codes.add(401);
  if (access === 'Academic' || access === 'SuperUser') codes.add(403);
  const out: Json = {};
  for (const c of [...codes].sort()) out[String(c)] = { $ref: `#/components/responses/E${c}` };
  return out;
}

/** One document for every route: sofa's generated operations, the hand-written handlers, the error model. */
export function buildOpenApi(input: OpenApiInput): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of input.routes) {
    const method = route.method.toLowerCase();
    let op: Json;
    let access: AccessClass;
    if (route.kind === 'graphql') {
      access = input.access.get(route.field) ?? ('Public' as AccessClass);
      const generated = input.sofaOperations.get(`${route.method} ${route.path}`) ?? {};
      op = {
        ...generated,
        operationId: `${route.method.toLowerCase()}_${route.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
        summary: route.summary,
        tags: [route.tag],
        'x-graphql-field': route.field,
      };
      const responses = (op.responses as Json) ?? {};
      const hasBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
      op.responses = { ...responses, ...errorResponses(access, [404, 409, ...(hasBody ? [415] : [])]) };
      if (route.textBodyArg) {
        const json = ((op.requestBody as Json | undefined)?.content as Json | undefined) ?? {};
        op.requestBody = {
          required: true,
          content: { 'text/csv': { schema: { type: 'string', description: `the ${route.textBodyArg} argument; other arguments are query parameters` } }, ...json },
        };
      }
    } else {
      access = route.access;
      op = {
        operationId: `${route.method.toLowerCase()}_${route.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
        summary: route.summary,
        tags: [route.tag],
        parameters: [
          ...pathParams(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
          ...(route.openapi.parameters ?? []),
        ],
        ...(route.openapi.requestBody ? { requestBody: route.openapi.requestBody } : {}),
        responses: { ...errorResponses(access), ...route.openapi.responses },
      };
    }
    op['x-access-class'] = access;
    if (route.alternate) op['x-alternate-form'] = true;
    if (access !== 'Public') op.security = [{ bearerAuth: [] }];
    (paths[route.path] ??= {})[method] = to31(op) as Json;
  }
  const responses: Json = {};
  for (const status of new Set(Object.values(ERROR_STATUS))) {
    responses[`E${status}`] = { description: STATUS_TEXT[status] ?? 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  responses.E500 = { description: STATUS_TEXT[500], content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Neuroscience Data Service API',
      version: input.version,
      description:
        'REST compatibility layer over the GraphQL API at /graphql. Every response carries `api-version: v1` and `X-Request-ID`; every error body is `{"error": "..."}`. Access classes: Public, User, Academic (verified academic or Service), SuperUser (see `x-access-class` on each operation).',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(input.routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...(to31(input.sofaSchemas) as Json), Error: errorSchema },
      responses,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'PASETO v4.public' } },
    },
  };
}
