import { AccessClass } from '../../lib/access.js';
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
    openapi: { responses: { '200': { description: 'the document', content: { 'application/json': { schema: { type: 'object' } } } } } },
  },
  {
    kind: 'handler',
    method: 'GET',
    path: '/docs',
    handler: 'docs',
    access: AccessClass.Public,
    tag: 'platform',
    summary: 'Interactive API documentation (HTML)',
    openapi: { responses: { '200': { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } } } },
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
        { name: 'query', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'variables', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'operationName', in: 'query', required: false, schema: { type: 'string' } },
      ],
      responses: { '200': { description: 'GraphQL response, or the explorer page', content: { 'application/json': { schema: { type: 'object' } }, 'text/html': { schema: { type: 'string' } } } } },
    },
  },
  {
    kind: 'handler',
    method: 'POST',
    path: '/graphql',
    handler: 'graphql',
    access: AccessClass.Public,
    tag: 'platform',
    summary: 'GraphQL endpoint; each field checks its own access class',
    openapi: {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['query'],
              properties: { query: { type: 'string' }, variables: { type: 'object' }, operationName: { type: 'string' } },
            },
          },
        },
      },
      responses: { '200': { description: 'GraphQL response', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  },
];
