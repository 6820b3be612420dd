import type { FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import compress from '@fastify/compress';
import type { Config } from '../../lib/config.js';
import { TokenBuckets } from './rate-limit.js';
import { sendError, handleError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Aborted when the request times out or the client disconnects. */
    abort: AbortController;
    startedAt: number;
    userId?: string;
  }
}

/**
 * The request pipeline of spec 4.6, in its order: request id (assigned by Fastify's genReqId), structured logs,
 * rate limit, timeout, CORS, compression, body limit (Fastify's bodyLimit), api-version header.
 */
export async function registerPipeline(app: FastifyInstance, config: Config): Promise<void> {
  const buckets = new TokenBuckets(config.limits.rateLimitBurst, config.limits.rateLimitRefillPerSec);

  // 1. request id, and 8. api-version: set first so that every response, errors included, carries them.
  app.addHook('onRequest', async (request, reply) => {
    request.startedAt = performance.now();
    request.abort = new AbortController();
    reply.header('X-Request-ID', request.id);
    reply.header('api-version', 'v1');
  });

  // 2. tracing: one structured line per response.
  app.addHook('onResponse', async (request, reply) => {
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
  });

  // 3. rate limit.
  app.addHook('onRequest', async (request, reply) => {
    const r = buckets.take(request.ip);
    reply.header('RateLimit-Limit', String(config.limits.rateLimitBurst));
    reply.header('RateLimit-Remaining', String(r.remaining));
    reply.header('RateLimit-Reset', String(r.resetSec));
    reply.header('RateLimit-Policy', `${config.limits.rateLimitBurst};w=${Math.ceil(config.limits.rateLimitBurst / config.limits.rateLimitRefillPerSec)}`);
    if (!r.allowed) {
      reply.header('Retry-After', String(r.retryAfterSec));
      return sendError(reply, 429, `rate limit exceeded: retry in ${r.retryAfterSec} s`);
    }
  });

  // 4. timeout: answer 408 and abort the work behind the request.
  app.addHook('onRequest', async (request, reply) => {
    const timer = setTimeout(() => {
      request.abort.abort(new Error('request timeout'));
      if (!reply.sent) {
        request.log.warn({ timeoutMs: config.limits.requestTimeoutMs }, 'request timed out');
        sendError(reply, 408, `the request exceeded the timeout of ${config.limits.requestTimeoutMs} ms`);
      }
    }, config.limits.requestTimeoutMs);
    timer.unref();
    reply.raw.once('close', () => {
      clearTimeout(timer);
      if (!reply.raw.writableFinished) request.abort.abort(new Error('client closed the connection'));
    });
  });

  // 5. CORS.
  await app.register(cors, {
    // In production only the API's own origin, and nothing at all for others (an array makes cors compare).
    origin: config.env === 'production' ? [new URL(config.http.apiDomain!).origin] : true,
    credentials: true,
    exposedHeaders: ['X-Request-ID', 'api-version', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
  });

  // 6. compression.
  await app.register(compress, { global: true, encodings: ['br', 'gzip', 'deflate'], threshold: 1024 });

  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => sendError(reply, 404, `no route for ${request.method} ${request.url.split('?')[0]}`));
}
