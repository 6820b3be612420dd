import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { REDACT } from '../app.js';
import { requestLoggerFactory } from './request-logger.js';

function logger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().trim().split('\n').map((l) => JSON.parse(l))));
  const parent = pino({ level, redact: REDACT }, stream);
  let children = 0;
  const counted = Object.create(parent, {
    child: {
      value: (...args: Parameters<typeof parent.child>) => {
        children++;
        return parent.child(...args);
      },
    },
  }) as FastifyBaseLogger;
  const forRequest = (options = {}) => requestLoggerFactory.call(undefined as never, counted, { requestId: 'req-1' }, options, undefined as never) as FastifyBaseLogger;
  return { lines, forRequest, children: () => children, flush: () => new Promise((r) => setImmediate(r)) };
}

describe('a request logger', () => {
  it('writes what the child pino makes would write: the request id on every line, credentials redacted', async () => {
    const l = logger('info');
    const log = l.forRequest();
    log.info({ body: { token: 'SECRET123' }, status: 200 }, 'request completed');
    log.child({ component: 'store' }).warn('slow statement');
    await l.flush();
    expect(l.lines).toMatchObject([
      { level: 30, requestId: 'req-1', status: 200, body: { token: '[Redacted]' }, msg: 'request completed' },
      { level: 40, requestId: 'req-1', component: 'store', msg: 'slow statement' },
    ]);
  });

  it('makes no child for a request that logs nothing at the service level', async () => {
    const l = logger('warn');
    const log = l.forRequest();
    expect(log.level).toBe('warn');
    log.info('request completed');
    log.debug('detail');
    expect(l.children()).toBe(0);
    log.error({ errorCode: 'INTERNAL' }, 'operation failed');
    await l.flush();
    expect(l.children()).toBe(1);
    expect(l.lines).toMatchObject([{ level: 50, requestId: 'req-1', errorCode: 'INTERNAL', msg: 'operation failed' }]);
  });

  it("follows a route's own log level", async () => {
    const l = logger('warn');
    const log = l.forRequest({ level: 'debug' });
    expect(log.level).toBe('debug');
    log.debug('detail');
    await l.flush();
    expect(l.lines).toMatchObject([{ level: 20, requestId: 'req-1', msg: 'detail' }]);
  });
});
