import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorReason, GENERIC_SERVER_ERROR, SERVER_FAULT_CODE, codeForStatus, codeOf, exposedMessage, isExposed, reasonOf, statusForCode } from './errors.js';

/** The headers that carry an error's code (and reason) beside the body, for clients that choose by them. */
export function errorCodeHeaders(status: number, code: string | undefined, reason?: ErrorReason): Record<string, string> {
  const onWire = code !== undefined && statusForCode(code) === status ? code : codeForStatus(status);
  return reason ? { 'x-error-code': onWire, 'x-error-reason': reason } : { 'x-error-code': onWire };
}

/**
 * Sends the one error shape of the API: `{"error": message}` with a status, and the error's code in `X-Error-Code`
 * (the status's own code when none is given or the one given belongs to another status).
 */
export function sendError(reply: FastifyReply, status: number, message: string, code?: string, reason?: ErrorReason): FastifyReply {
  return reply.code(status).headers(errorCodeHeaders(status, code, reason)).type('application/json; charset=utf-8').send({ error: message });
}

/** Sends a thrown or returned error with `status`: its message, code and reason where the client may see them. */
export function sendExposedError(reply: FastifyReply, status: number, error: unknown): FastifyReply {
  if (!isExposed(status)) return sendError(reply, 500, GENERIC_SERVER_ERROR, SERVER_FAULT_CODE);
  return sendError(reply, status, exposedMessage(error), codeOf(error), reasonOf(error));
}

/**
 * Answers a caught error with `status` and its message when the client may see it (isExposed); a fault is logged
 * as `what` and answered 500 with the generic message.
 */
export function sendCaughtError(request: FastifyRequest, reply: FastifyReply, status: number, error: unknown, what: string): FastifyReply {
  if (!isExposed(status)) request.log.error({ err: error }, what);
  return sendExposedError(reply, status, error);
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
