import { validateHeaderName, validateHeaderValue } from 'node:http';
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

/** Node's codes for a response header it refuses to write (a character it cannot send, a malformed name). */
const UNSENDABLE_HEADER = new Set(['ERR_INVALID_CHAR', 'ERR_HTTP_INVALID_HEADER_VALUE', 'ERR_INVALID_HTTP_TOKEN']);

/**
 * After Node refused to write an answer's headers (`err.code` one of UNSENDABLE_HEADER), removes the headers it would
 * refuse again, so that the error answer can be sent: otherwise it fails the same way and Fastify's last resort
 * sends its own body. Returns whether `err` was such a refusal.
 */
export function dropUnsendableHeaders(err: { code?: string }, reply: FastifyReply): boolean {
  if (!err.code || !UNSENDABLE_HEADER.has(err.code)) return false;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    try {
      validateHeaderName(name);
      for (const v of Array.isArray(value) ? value : [value]) validateHeaderValue(name, String(v));
    } catch {
      reply.removeHeader(name);
    }
  }
  return true;
}
