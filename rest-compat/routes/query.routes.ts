import { AccessClass } from '../../lib/access.js';
import { errorResponse } from '../openapi/error-responses.js';
import type { GraphqlRoute, Route } from '../route-table.js';

const route = (method: GraphqlRoute['method'], path: string, field: string, tag: string, summary: string, extra: Partial<GraphqlRoute> = {}): GraphqlRoute => ({
  kind: 'graphql',
  method,
  path,
  field,
  tag,
  summary,
  ...extra,
});


/** SyQL (spec 4.3 SyQL; docs/syql.md): every route takes {"query": "<SyQL>", "parameters": {...}}. */
export const syqlRoutes: Route[] = [
  route('POST', '/v1/syql/plan', 'Query.syqlPlan', 'syql', 'Parse and check a query: canonical text, dataset versions, result columns with types', { errors: [400] }),
  route('POST', '/v1/syql/explain', 'Query.syqlExplain', 'syql', 'The ClickHouse SQL the query compiles to (every value a bound parameter) and the engine plan', { errors: [400] }),
  route('POST', '/v1/syql/exec', 'Mutation.syqlExec', 'syql', 'Run a query within the request: columns, rows, the true total and truncated; query_id lets another request cancel it', {
    errors: [400, 409],
  }),
  route('POST', '/v1/syql/cancel', 'Mutation.syqlCancel', 'syql', 'Stop a running query by its query_id (its owner or a SuperUser); the waiting exec answers 409', { errors: [400] }),
];

/** Saved queries (spec 4.3 Saved queries): owner-only. */
export const savedQueryRoutes: Route[] = [
  route('GET', '/v1/queries', 'Query.savedQueries', 'queries', 'Your saved queries with their last run', { errors: [400] }),
  route('POST', '/v1/queries', 'Mutation.createSavedQuery', 'queries', 'Save a query {name, description?, query, parameters?}', { status: 201, bodyArg: 'input', errors: [400, 409] }),
  route('POST', '/v1/queries/from-syql', 'Mutation.createSavedQueryFromSyql', 'queries', 'Plan a query (everything checked) and save its canonical text {query, parameters?, name?, description?}', {
    status: 201,
    bodyArg: 'input',
    errors: [400, 409],
  }),
  route('GET', '/v1/queries/{id}', 'Query.savedQuery', 'queries', 'A saved query with its last run and result'),
  route('PUT', '/v1/queries/{id}', 'Mutation.updateSavedQuery', 'queries', 'Change name, description, query or parameters', { bodyArg: 'input', errors: [400, 409] }),
  route('DELETE', '/v1/queries/{id}', 'Mutation.deleteSavedQuery', 'queries', 'Delete a saved query (its jobs and results stay until deleted)'),
  route('POST', '/v1/queries/{id}/run', 'Mutation.runSavedQuery', 'queries', 'Run it now as a job on the versions it names (@latest: the latest now), echoed in input.pins', { status: 202, errors: [400] }),
  route('POST', '/v1/queries/{id}/refresh', 'Mutation.refreshSavedQuery', 'queries', 'Re-resolve @latest to the current versions and run again; the previous result stays available', {
    status: 202,
    errors: [400],
  }),
];

/** Jobs (spec 4.3 Jobs; docs/jobs.md). */
export const jobRoutes: Route[] = [
  route('POST', '/v1/jobs', 'Mutation.submitQueryJob', 'jobs', 'Queue a SyQL job: {query, parameters?} or {saved_query_id}; the result is an Arrow IPC stream of every row', { status: 202, errors: [400] }),
  route('POST', '/v1/jobs/graph', 'Mutation.submitGraphJob', 'jobs', 'Queue a graph analysis job (the body full-analysis answers with status run_as_job)', { status: 202, errors: [400] }),
  route('GET', '/v1/jobs', 'Query.jobs', 'jobs', 'Your jobs, newest first; ?status=queued,running,... filters', { errors: [400] }),
  route('GET', '/v1/jobs/{job_id}', 'Query.job', 'jobs', 'A job: status, progress (0..1) and message, timestamps, error, result size and row count'),
  route('DELETE', '/v1/jobs/{job_id}', 'Mutation.deleteJob', 'jobs', 'Cancel a queued or running job; delete a finished one and its result', { errors: [409] }),
  route('POST', '/v1/jobs/{job_id}/rerun', 'Mutation.rerunJob', 'jobs', 'A new job with the same input (text, parameters and dataset versions)', { status: 202, errors: [400] }),
  {
    kind: 'handler',
    method: 'GET',
    path: '/v1/jobs/{job_id}/result',
    handler: 'jobResult',
    subgraph: 'query',
    access: AccessClass.Academic,
    tokenNeed: 'compute',
    tag: 'jobs',
    summary: "A finished job's result as an Apache Arrow IPC stream (schema metadata: job id, SyQL, dataset versions, service version); Range requests supported",
    openapi: {
      responses: {
        '200': {
          description: 'the result',
          headers: {
            'Repr-Digest': { description: 'sha-256 of the whole result (RFC 9530)', schema: { type: 'string' } },
            'X-Checksum-SHA256': { description: 'SHA-256 of the whole result, lower-case hex', schema: { type: 'string' } },
          },
          content: { 'application/vnd.apache.arrow.stream': { schema: { type: 'string', format: 'binary' } } },
        },
        '302': { description: 'the result is in an object store that signs its own URLs (S3): fetch it from Location', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
        '304': { description: 'If-None-Match named this result (its ETag is its SHA-256)' },
        '206': { description: 'the requested range', content: { 'application/vnd.apache.arrow.stream': { schema: { type: 'string', format: 'binary' } } } },
        '403': errorResponse('a dataset the job read is restricted and you may no longer read its data (or your account is not Academic)'),
        '404': errorResponse('no such job of yours, or it has no result, or a dataset it read is gone'),
        '409': errorResponse('the job has not succeeded'),
        '416': errorResponse('the range cannot be satisfied'),
      },
    },
  },
];
