import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../../lib/context.js';
import type { DirectExecutor } from './execute.js';
import { jsonBody } from '../../lib/json-body.js';

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * The response media type Apollo Server chooses for the Accept headers clients send most (none, `*\/*`, JSON, or
 * GraphQL's own); undefined for any other, which Apollo Server then negotiates itself.
 */
const MEDIA_TYPES: Record<string, string> = {
  '': 'application/json; charset=utf-8',
  '*/*': 'application/json; charset=utf-8',
  'application/json': 'application/json; charset=utf-8',
  'application/graphql-response+json': 'application/graphql-response+json; charset=utf-8',
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);

/**
 * POST /graphql: a JSON request for one operation that the direct path takes is answered by it, with the body and
 * status Apollo Server would send (`{"errors", "data"}`, one line); everything else (GET, batches, persisted
 * queries, other media types, operations the direct path leaves to the gateway) goes to Apollo Server.
 */
export function directGraphqlHandler(direct: DirectExecutor, makeContext: (request: FastifyRequest) => Promise<RequestContext>, apollo: Handler): Handler {
  return async function (this: unknown, request, reply) {
    const body = request.body;
    const contentType = MEDIA_TYPES[request.headers.accept ?? ''];
    if (
      request.method === 'POST' &&
      contentType &&
      isRecord(body) &&
      typeof body.query === 'string' &&
      body.query !== '' &&
      (body.variables === undefined || body.variables === null || isRecord(body.variables)) &&
      (body.operationName === undefined || body.operationName === null || typeof body.operationName === 'string') &&
      (body.extensions === undefined || body.extensions === null)
    ) {
      const context = await makeContext(request);
      const answer = await direct({ query: body.query, variables: (body.variables as Record<string, unknown> | null) ?? undefined, operationName: body.operationName as string | null }, context);
      if (answer) return reply.code(answer.status ?? 200).header('content-type', contentType).send(jsonBody(`${JSON.stringify(answer.result)}\n`));
    }
    return apollo.call(this, request, reply);
  };
}
