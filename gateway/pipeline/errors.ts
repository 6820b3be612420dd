import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { GENERIC_SERVER_ERROR, codeOf, statusForCode } from '../../lib/errors.js';

/** Sends the one error shape of the API. */
export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
}

/** Framework and application errors -> status and `{"error"}`; real faults are logged and masked. */
export function handleError(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const code = err.code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, 413, `request body exceeds the limit of ${request.server.initialConfig.bodyLimit} bytes`);
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return sendError(reply, 415, `unsupported Content-Type ${JSON.stringify(request.headers['content-type'] ?? '')}: send application/json`);
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return sendError(reply, 400, 'the JSON body is empty');
  if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return sendError(reply, 400, 'Content-Length does not match the body');
  if (err instanceof SyntaxError || code === 'FST_ERR_CTP_INVALID_JSON_BODY') return sendError(reply, 400, `malformed JSON body: ${err.message}`);
  if (code === 'FST_ERR_VALIDATION') return sendError(reply, 400, err.message);
  const appCode = codeOf(err);
  const status = appCode ? statusForCode(appCode) : (err.statusCode ?? 500);
  if (status >= 500) {
    request.log.error({ err }, 'request failed');
    return sendError(reply, status === 503 && appCode ? 503 : 500, status === 503 && appCode ? err.message : GENERIC_SERVER_ERROR);
  }
  return sendError(reply, status, err.message);
}
