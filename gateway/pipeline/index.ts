import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import cors from '@fastify/cors';
import compress from '@fastify/compress';
import type { Config } from '../../lib/config.js';
import type { BucketTake, Limits } from '../../lib/limits/limits.js';
import { RequestBuckets } from './rate-limit.js';
import { sendError, handleError } from './errors.js';
import { CORS_EXPOSED_HEADERS, CORS_METHODS, corsOrigin, responseHeaders } from './headers.js';
import { registerInputGuards, type SignedInCheck } from './input-guards.js';
import { REQUEST_ENCODINGS, invalidCompressedBody, unsupportedRequestEncoding } from './request-decompression.js';
import { RequestAbort, runInRequestScope, type RequestScope } from '../../lib/request-scope.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Aborted when the request times out or the client disconnects; its signal is made when first asked for. */
    abort: RequestAbort;
    startedAt: number;
    scope: RequestScope;
    userId?: string;
  }
}

/** Log levels at which the per-request line is not written. */
const QUIETER_THAN_INFO = new Set(['warn', 'error', 'fatal', 'silent']);

/**
 * The request pipeline of spec 4.6, in its order: request id (assigned by Fastify's genReqId), structured logs,
 * rate limit, timeout, CORS, compression, body limit (Fastify's bodyLimit), api-version header. CORS headers are
 * added right after the request id, so that the answers of the layers before it carry them too.
 */
export async function registerPipeline(app: FastifyInstance, config: Config, limits: Limits, rateLimitScope = 'gateway', opts: { isSignedIn?: SignedInCheck } = {}): Promise<void> {
  const buckets = new RequestBuckets(limits, config.limits, rateLimitScope);

  // 1. request id, and 8. api-version with the security headers: set first so that every response, errors included,
  // carries them.
  // Hooks that never wait are written with `done`: an async hook costs a promise per request, on every request.
  const headers = responseHeaders(config);
  app.addHook('onRequest', (request, reply, done) => {
    request.startedAt = performance.now();
    const abort = (request.abort = new RequestAbort());
    reply.header('X-Request-ID', request.id);
    reply.headers(headers);
    // Everything the request starts (resolvers, stores, worker tasks) sees its id and abort signal.
    request.scope = {
      requestId: request.id,
      get signal() {
        return abort.signal;
      },
    };
    runInRequestScope(request.scope, done);
  });

  // 5. CORS, ahead of its place in the order so that its headers are on every answer after this one, the rate
  // limit's 429 and the timeout's 408 included: without them a browser cannot read those answers. Preflights are
  // answered here too, before the rate limit: a 429 to a preflight is unreadable, and they cost nothing.
  await app.register(cors, { origin: corsOrigin(config), methods: CORS_METHODS, credentials: true, exposedHeaders: CORS_EXPOSED_HEADERS });

  // 2. tracing: one structured line per response (built only when it is written).
  app.addHook('onResponse', (request, reply, done) => {
    if (QUIETER_THAN_INFO.has(request.log.level)) return done();
    request.log.info(
      {
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        durationMs: Math.round((performance.now() - request.startedAt) * 100) / 100,
        userId: request.userId,
        ip: request.ip,
      },
      'request completed',
    );
    done();
  });

  // 3. rate limit, then 4. timeout: one hook, and no promise when the bucket answers at once (in-process limits).
  const rateLimit = String(config.limits.rateLimitBurst);
  const ratePolicy = `${config.limits.rateLimitBurst};w=${Math.ceil(config.limits.rateLimitBurst / config.limits.rateLimitRefillPerSec)}`;
  const admit = (request: FastifyRequest, reply: FastifyReply, r: BucketTake, done: HookHandlerDoneFunction) => {
    reply.header('RateLimit-Limit', rateLimit);
    reply.header('RateLimit-Remaining', String(r.remaining));
    reply.header('RateLimit-Reset', String(r.resetSec));
    reply.header('RateLimit-Policy', ratePolicy);
    if (!r.allowed) {
      reply.header('Retry-After', String(r.retryAfterSec));
      sendError(reply, 429, `rate limit exceeded: retry in ${r.retryAfterSec} s`);
      return;
    }
    startTimeout(request, reply);
    done();
  };
  const startTimeout = (request: FastifyRequest, reply: FastifyReply) => {
    // A route may set its own deadline (uploads: UPLOAD_TIMEOUT_MS); every other request has REQUEST_TIMEOUT_MS.
    const timeoutMs = (request.routeOptions.config as { timeoutMs?: number } | undefined)?.timeoutMs ?? config.limits.requestTimeoutMs;
    // Work that can tell in advance it would not finish in time (a whole-connectome analysis) reads the deadline.
    request.scope.deadline = Date.now() + timeoutMs;
    const timer = setTimeout(() => {
      request.abort.abort(new Error('request timeout'));
      if (!reply.sent) {
        request.log.warn({ timeoutMs }, 'request timed out');
        sendError(reply, 408, `the request exceeded the timeout of ${timeoutMs} ms`);
      }
    }, timeoutMs);
    timer.unref();
    reply.raw.once('close', () => {
      clearTimeout(timer);
      if (!reply.raw.writableFinished) request.abort.abort(new Error('client closed the connection'));
    });
  };
  app.addHook('onRequest', (request, reply, done) => {
    const r = buckets.take(request.ip);
    if (r instanceof Promise) r.then((taken) => admit(request, reply, taken, done), done);
    else admit(request, reply, r, done);
  });

  // Untrusted input: credentials or NUL characters in URL parameters, and the JSON body's nesting depth.
  // The anonymous body limit is the gateway's: a subgraph served alone sees the gateway's forwarded operations.
  registerInputGuards(app, rateLimitScope === 'gateway' ? config.limits.anonymousBodyLimitBytes : undefined, opts.isSignedIn);

  // 6. compression, of responses and of request bodies (their limits count the decompressed bytes).
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip', 'deflate'],
    threshold: 1024,
    requestEncodings: [...REQUEST_ENCODINGS, 'identity'],
    onUnsupportedRequestEncoding: unsupportedRequestEncoding,
    onInvalidRequestPayload: invalidCompressedBody,
  });

  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => sendError(reply, 404, `no route for ${request.method} ${request.url.split('?')[0]}`));
}
