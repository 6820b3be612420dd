import type { FastifyReply, FastifyRequest } from 'fastify';
import { codeOf, statusForCode } from '../lib/errors.js';
import { sendCaughtError } from '../lib/error-reply.js';

/** A GraphQL error of an operation a hand-written handler ran, answered with the status of its code; faults are logged and masked. */
export function sendGraphqlError(request: FastifyRequest, reply: FastifyReply, error: unknown, what: string): FastifyReply {
  return sendCaughtError(request, reply, statusForCode(codeOf(error)), error, what);
}
