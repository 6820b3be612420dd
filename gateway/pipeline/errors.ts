import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../lib/config.js';
import { newId } from '../../lib/ids.js';
import {
  type AppError,
  BadInput,
  HeadersTooLarge,
  PayloadTooLarge,
  Timeout,
  UnsupportedMediaType,
  UriTooLong,
  statusOfThrown,
} from '../../lib/errors.js';
import { dropUnsendableHeaders, errorCodeHeaders, sendError, sendExposedError } from '../../lib/error-reply.js';
import { corsHeaders, responseHeaders } from './headers.js';

export { sendError };

/** Sends an AppError with the status of its code. */
export const sendAppError = (reply: FastifyReply, err: AppError): FastifyReply => sendExposedError(reply, err.status, err);

/** Framework and application errors -> status and `{"error"}`; real faults are logged and masked. */
export function handleError(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const code = err.code;
  // A header Node cannot write is a fault here (what reaches a header is to be checked and encoded first).
  dropUnsendableHeaders(err, reply);
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return sendAppError(reply, new PayloadTooLarge(`request body exceeds the limit of ${request.server.initialConfig.bodyLimit} bytes (BODY_LIMIT_BYTES; a compressed body counts its decompressed bytes)`));
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return sendAppError(reply, new UnsupportedMediaType(`unsupported Content-Type ${JSON.stringify(request.headers['content-type'] ?? '')}: send application/json`));
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return sendError(reply, 400, 'the JSON body is empty');
  if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return sendError(reply, 400, 'Content-Length does not match the body');
  if (err instanceof SyntaxError || code === 'FST_ERR_CTP_INVALID_JSON_BODY') return sendError(reply, 400, `malformed JSON body: ${err.message}`);
  if (code === 'FST_ERR_VALIDATION') return sendError(reply, 400, err.message);
  const status = statusOfThrown(err);
  if (status >= 500) request.log.error({ err }, 'request failed');
  return sendExposedError(reply, status, err);
}

/**
 * Errors the router raises before any hook runs (a path parameter over maxParamLength, an undecodable URL): the
 * pipeline's headers are added here, since its hooks never see these requests. The URL is not logged: it may
 * carry what its sender should not have put there.
 */
export function frameworkErrorHandler(config: Config) {
  const headers = responseHeaders(config);
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.header('X-Request-ID', request.id).headers({ ...headers, ...corsHeaders(config, request.headers.origin) });
    const appError =
      err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new UriTooLong(`a path segment is longer than ${request.server.initialConfig.maxParamLength} characters`)
        : err.code === 'FST_ERR_BAD_URL'
          ? new BadInput('the URL is not validly percent-encoded')
          : undefined;
    if (!appError) return handleError(err, request, reply);
    request.log.info({ method: request.method, status: appError.status, ip: request.ip }, 'request refused by the router');
    return sendAppError(reply, appError);
  };
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (431 when the request line and headers exceed
 * Node's limit, 408, 400 for anything malformed): the API's error body and headers, written on the raw socket.
 * No CORS headers: the request's own headers were never parsed.
 */
export function clientErrorHandler(config: Config) {
  const headers = responseHeaders(config);
  return function onClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex) {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const appError =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? new HeadersTooLarge(`the request line and headers exceed ${maxHeaderSize} bytes`)
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new Timeout('the request was not received in time')
          : new BadInput('malformed HTTP request');
    const requestId = newId();
    this.log.info({ requestId, status: appError.status, parserError: err.code }, 'request refused by the HTTP parser');
    if (socket.writable) {
      const body = JSON.stringify({ error: appError.message });
      const lines = Object.entries({
        ...headers,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        'x-request-id': requestId,
        ...errorCodeHeaders(appError.status, appError.code),
        connection: 'close',
      }).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(`HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\n${lines.join('')}\r\n${body}`);
    }
    socket.destroy(err);
  };
}
