import type { FastifyReply, FastifyRequest } from 'fastify';
import { GENERIC_SERVER_ERROR, codeOf, statusForCode } from '../lib/errors.js';

/** `{"error": message}` with a status. */
export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
}

/** A GraphQL error of an operation a hand-written handler ran, answered with the status of its code; faults are logged and masked. */
export function sendGraphqlError(request: FastifyRequest, reply: FastifyReply, error: unknown, what: string): FastifyReply {
  const status = statusForCode(codeOf(error));
  if (status >= 500 && status !== 503) request.log.error({ err: error }, what);
  return sendError(reply, status, status >= 500 && status !== 503 ? GENERIC_SERVER_ERROR : (error as { message: string }).message);
}
