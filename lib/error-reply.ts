import type { FastifyReply, FastifyRequest } from 'fastify';
import { GENERIC_SERVER_ERROR, exposedMessage, isExposed } from './errors.js';

/** Sends the one error shape of the API: `{"error": message}` with a status. */
export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
}

/**
 * Answers a caught error with `status` and its message when the client may see it (isExposed); a fault is logged
 * as `what` and answered 500 with the generic message.
 */
export function sendCaughtError(request: FastifyRequest, reply: FastifyReply, status: number, error: unknown, what: string): FastifyReply {
  if (isExposed(status)) return sendError(reply, status, exposedMessage(error));
  request.log.error({ err: error }, what);
  return sendError(reply, 500, GENERIC_SERVER_ERROR);
}
