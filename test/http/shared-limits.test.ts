import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { startTestApp, call } from '../kit/app.js';
import { configFrom, type EnvName } from '../../lib/config.js';
import { requireTestRedis } from '../kit/redis.js';
import { openLimits } from '../../lib/limits/open-limits.js';
import { fastifyOptions } from '../../gateway/app.js';
import { registerPipeline } from '../../gateway/pipeline/index.js';

/**
 * One gateway replica's request pipeline with its own connection to the limits, answering a ping. Whole apps
 * cannot run side by side in one test process (the embedded engines allow one data directory per process), and
 * the rate limit is all the pipeline shares.
 */
async function replica(env: Partial<Record<EnvName, string>>): Promise<{ url: string; close(): Promise<void> }> {
  const config = configFrom({ LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env });
  const http = Fastify(fastifyOptions(config));
  const limits = await openLimits(config.limits, http.log);
  await registerPipeline(http, config, limits);
  http.get('/ping', async () => ({ status: 'ok' }));
  await http.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`,
    async close() {
      await http.close();
      await limits.close();
    },
  };
}

describe('request rate limit across gateway replicas', () => {
  let redisUrl: string;
  beforeAll(async () => {
    redisUrl = await requireTestRedis();
  });
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((c) => c()));
  });

  it('gives a client one bucket across two replicas that share REDIS_URL', async () => {
    const shared = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `nd-test-${randomUUID()}:`, RATE_LIMIT_BURST: '4', RATE_LIMIT_REFILL_PER_SEC: '0.01' };
    const a = await replica(shared);
    cleanups.push(a.close);
    const b = await replica(shared);
    cleanups.push(b.close);
    const statuses = [];
    for (const r of [a, b, a, b, a, b]) statuses.push((await call(r.url, 'GET', '/ping')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await call(b.url, 'GET', '/ping');
    expect(refused.body).toEqual({ error: expect.stringMatching(/rate limit/) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');

    // Without REDIS_URL each replica keeps its own bucket: the same client gets a fresh one at each.
    const alone = await replica({ RATE_LIMIT_BURST: '4', RATE_LIMIT_REFILL_PER_SEC: '0.01' });
    cleanups.push(alone.close);
    expect((await call(alone.url, 'GET', '/ping')).status).toBe(200);
  });

  it('keeps the whole service answering, limited per replica, when Redis cannot be reached, and logs a warning', async () => {
    let logs = '';
    const logStream = new Writable({
      write(chunk, _enc, done) {
        logs += chunk;
        done();
      },
    });
    const t = await startTestApp(
      { REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_BURST: '3', RATE_LIMIT_REFILL_PER_SEC: '0.01', LOG_LEVEL: 'warn' },
      { logStream },
    );
    cleanups.push(t.close);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(t.url, 'GET', '/v1/federation/ping')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(logs).toMatch(/Redis does not answer: rate limits and login throttles fall back to this process/);
    expect(logs).not.toContain('redis://');
  });
});
