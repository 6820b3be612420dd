import { AccessClass } from '../../lib/access.js';
import { errorResponse } from '../openapi/error-responses.js';
import type { Route } from '../route-table.js';

const componentStatus = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['ok', 'error', 'not_configured'] },
    latency_ms: { type: 'integer', minimum: 0, description: 'measured round trip; absent for search' },
    error: { type: 'string', description: 'why the check failed' },
  },
};

const healthReport = {
  type: 'object',
  required: ['status', 'components'],
  properties: {
    status: { type: 'string', enum: ['healthy', 'degraded'] },
    components: {
      type: 'object',
      required: ['relational_db', 'column_db', 'storage', 'search'],
      properties: { relational_db: componentStatus, column_db: componentStatus, storage: componentStatus, search: componentStatus },
    },
  },
};

/** The GraphQL-over-HTTP response: errors inside an operation keep this shape at /graphql. */
const graphqlResponse = {
  type: 'object',
  properties: {
    data: { type: ['object', 'null'], additionalProperties: true },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['message'],
        properties: {
          message: { type: 'string' },
          locations: { type: 'array', items: { type: 'object', properties: { line: { type: 'integer' }, column: { type: 'integer' } } } },
          path: { type: 'array', items: { type: ['string', 'integer'] } },
          extensions: { type: 'object', additionalProperties: true, properties: { code: { type: 'string' } } },
        },
      },
    },
    extensions: { type: 'object', additionalProperties: true },
  },
};
const errorBody = { $ref: '#/components/schemas/Error' };
const graphqlRefusal = {
  description: 'the document does not parse, is not valid against the schema, names no operation it holds (operationName), or exceeds an operation limit (GraphQL errors); or the pipeline refused the request ({"error"})',
  content: { 'application/json': { schema: { anyOf: [graphqlResponse, errorBody] } } },
};

/** Refusals by access class, before the operation's variables are read: the whole operation, as GraphQL errors. */
const graphqlAccessRefusals = {
  '401': {
    description: 'a root field of the operation needs a signed-in caller, and no valid access token came (code UNAUTHENTICATED)',
    content: { 'application/json': { schema: graphqlResponse } },
  },
  '403': {
    description: 'a root field of the operation needs a higher access class, or an account on this cluster (code FORBIDDEN)',
    content: { 'application/json': { schema: graphqlResponse } },
  },
};

export const platformRoutes: Route[] = [
  {
    kind: 'handler',
    method: 'GET',
    path: '/health',
    handler: 'health',
    access: AccessClass.Public,
    tag: 'platform',
    summary: 'Health of the relational store, column store, object storage and search',
    openapi: {
      responses: {
        '200': { description: 'every required component answered', content: { 'application/json': { schema: healthReport } } },
        '503': { description: 'a required component failed, or configured search is unreachable', content: { 'application/json': { schema: healthReport } } },
      },
    },
  },
  {
    kind: 'handler',
    method: 'GET',
    path: '/openapi.json',
    handler: 'openapi',
    access: AccessClass.Public,
    tag: 'platform',
    summary: 'This OpenAPI 3.1 document',
    openapi: { responses: { '200': { description: 'the document', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } } } },
  },
  {
    kind: 'handler',
    method: 'GET',
    path: '/docs',
    handler: 'docs',
    access: AccessClass.Public,
    tag: 'platform',
    summary: 'Interactive API documentation (HTML)',
    openapi: {
      responses: {
        '200': { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } },
        '404': errorResponse('API_DOCS is off (the default in production)'),
      },
    },
  },
  {
    kind: 'handler',
    method: 'GET',
    path: '/graphql',
    handler: 'graphql',
    access: AccessClass.Public,
    tag: 'platform',
    summary: 'GraphQL endpoint (GET for queries; a browser gets the GraphiQL explorer)',
    openapi: {
      parameters: [
        { name: 'query', in: 'query', required: false, schema: { type: 'string' }, example: '{ ontologyPing { status } }' },
        { name: 'variables', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'operationName', in: 'query', required: false, schema: { type: 'string' } },
      ],
      responses: {
        '200': { description: 'GraphQL response, or the explorer page', content: { 'application/json': { schema: graphqlResponse }, 'text/html': { schema: { type: 'string' } } } },
        '400': graphqlRefusal,
        ...graphqlAccessRefusals,
        '404': errorResponse('a browser asked for the explorer page and API_DOCS is off'),
        '405': { description: 'a mutation sent with GET', content: { 'application/json': { schema: graphqlResponse } } },
      },
    },
  },
  {
    kind: 'handler',
    method: 'POST',
    path: '/graphql',
    handler: 'graphql',
    access: AccessClass.Public,
    tag: 'platform',
    summary: 'GraphQL endpoint; each root field checks its own access class, before the operation runs',
    openapi: {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['query'],
              properties: {
                query: { type: 'string', examples: ['query Terms($q: String) { terms(q: $q, limit: 5) { total items { code label deprecated } } }'] },
                variables: { type: 'object', additionalProperties: true, examples: [{ q: 'hippocampus' }] },
                operationName: { type: 'string' },
              },
            },
          },
        },
      },
      responses: {
        '200': { description: 'GraphQL response; errors inside the operation are in `errors`', content: { 'application/json': { schema: graphqlResponse } } },
        '400': graphqlRefusal,
        ...graphqlAccessRefusals,
      },
    },
  },
];
