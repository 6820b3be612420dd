import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { requireTestRedis } from '../../../test/kit/redis.js';
import { eventually } from '../../../test/kit/eventually.js';
import { MemoryLimits } from '../memory.js';
import { RedisLimits } from '../redis.js';
import type { BackoffPolicy, Limits, LimitsLog } from '../limits.js';

/** Every key of this file's run lives under its own prefix, so runs and files never share counters. */
const PREFIX = `nd-test-limits-${randomUUID()}:`;
const POLICY: BackoffPolicy = { threshold: 5, quietMs: 60 * 60 * 1000, baseLockMs: 15_000, maxLockMs: 15 * 60 * 1000 };

function recordingLog() {
  const lines: { level: string; msg: string }[] = [];
  const log: LimitsLog = { warn: (_o, msg) => lines.push({ level: 'warn', msg }), info: (_o, msg) => lines.push({ level: 'info', msg }) };
  return { log, lines };
}

let redisUrl: string;
beforeAll(async () => {
  redisUrl = await requireTestRedis();
});

const opened: Limits[] = [];
afterAll(async () => {
  await Promise.all(opened.map((l) => l.close()));
});

async function redis(prefix = PREFIX): Promise<RedisLimits> {
  const limits = new RedisLimits(redisUrl, prefix, recordingLog().log);
  opened.push(limits);
  await limits.connected();
  return limits;
}

const backends: [string, () => Promise<Limits>][] = [
  ['in-process', async () => new MemoryLimits()],
  ['Redis', () => redis()],
];

describe.each(backends)('shared limits (%s)', (_name, open) => {
  const t0 = Date.UTC(2030, 0, 1);

  it('lets a bucket give out its burst, refuses the next take with the wait until a token, and refills over time', async () => {
    const limits = await open();
    const key = `bucket-${randomUUID()}`;
    const rate = { burst: 3, refillPerSec: 0.5 };
    const taken = [];
    for (let i = 0; i < 4; i++) taken.push(await limits.take(key, rate, t0));
    expect(taken.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(taken.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(taken[3]).toMatchObject({ retryAfterSec: 2, resetSec: 6 });
    expect((await limits.take(key, rate, t0 + 2_000)).allowed).toBe(true);
    expect((await limits.take(key, rate, t0 + 2_000)).allowed).toBe(false);
    // A clock that runs behind another replica's never refills a bucket twice.
    expect((await limits.take(key, rate, t0 + 1_000)).allowed).toBe(false);
  });

  it('gives exactly the burst to many concurrent takes', async () => {
    const limits = await open();
    const key = `bucket-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 40 }, () => limits.take(key, { burst: 10, refillPerSec: 0.001 }, t0)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
  });

  it('locks a counter from the threshold on, doubling the lock with each further attempt', async () => {
    const limits = await open();
    const key = `counter-${randomUUID()}`;
    const first = [];
    for (let i = 0; i < 5; i++) first.push(await limits.reserve(key, POLICY, t0));
    expect(first.map((r) => [r.allowed, r.count, r.retryAfterSec])).toEqual([
      [true, 1, 0],
      [true, 2, 0],
      [true, 3, 0],
      [true, 4, 0],
      [true, 5, 15],
    ]);
    expect(await limits.reserve(key, POLICY, t0 + 1_000)).toEqual({ allowed: false, count: 5, retryAfterSec: 14 });
    expect(await limits.lockedFor(key, t0 + 1_000)).toBe(14);
    expect(await limits.reserve(key, POLICY, t0 + 15_000)).toEqual({ allowed: true, count: 6, retryAfterSec: 30 });
    expect(await limits.lockedFor(key, t0 + 44_000)).toBe(1);
    expect(await limits.lockedFor(key, t0 + 45_000)).toBe(0);
  });

  it('lets only the threshold of concurrent attempts through', async () => {
    const limits = await open();
    const key = `counter-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 50 }, () => limits.reserve(key, POLICY, t0)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(results.filter((r) => !r.allowed).every((r) => r.retryAfterSec >= 1)).toBe(true);
  });

  it('starts the count over after a quiet hour, and forgets a key on reset', async () => {
    const limits = await open();
    const key = `counter-${randomUUID()}`;
    for (let i = 0; i < 4; i++) await limits.reserve(key, POLICY, t0);
    expect((await limits.reserve(key, POLICY, t0 + POLICY.quietMs)).count).toBe(1);
    for (let i = 0; i < 5; i++) await limits.reserve(key, POLICY, t0 + POLICY.quietMs);
    expect(await limits.lockedFor(key, t0 + POLICY.quietMs)).toBeGreaterThan(0);
    await limits.reset(key);
    expect(await limits.lockedFor(key, t0 + POLICY.quietMs)).toBe(0);
    expect((await limits.reserve(key, POLICY, t0 + POLICY.quietMs)).count).toBe(1);
  });
});

describe('RedisLimits', () => {
  it('shares one bucket and one counter between two separately connected limiters (two replicas)', async () => {
    const [a, b] = [await redis(), await redis()];
    const key = `bucket-${randomUUID()}`;
    const rate = { burst: 4, refillPerSec: 0.001 };
    const now = Date.now();
    const answers = [await a.take(key, rate, now), await b.take(key, rate, now), await a.take(key, rate, now), await b.take(key, rate, now)];
    expect(answers.every((r) => r.allowed)).toBe(true);
    expect(await a.take(key, rate, now)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await b.take(key, rate, now)).toMatchObject({ allowed: false, remaining: 0 });

    const counter = `counter-${randomUUID()}`;
    for (let i = 0; i < 5; i++) await (i % 2 ? a : b).reserve(counter, POLICY, now);
    expect((await b.reserve(counter, POLICY, now)).allowed).toBe(false);
  });

  it('keeps keys of another prefix apart', async () => {
    const mine = await redis();
    const theirs = await redis(`nd-test-limits-${randomUUID()}:`);
    const rate = { burst: 1, refillPerSec: 0.001 };
    expect((await mine.take('same-key', rate, Date.now())).allowed).toBe(true);
    expect((await theirs.take('same-key', rate, Date.now())).allowed).toBe(true);
  });

  it('falls back to counting in this process when Redis does not answer, and says so once', async () => {
    const { log, lines } = recordingLog();
    // Port 1 on loopback: nothing listens, every connection is refused at once.
    const limits = new RedisLimits('redis://127.0.0.1:1', PREFIX, log);
    opened.push(limits);
    await limits.connected(1_000);
    const rate = { burst: 2, refillPerSec: 0.001 };
    const now = Date.now();
    const answers = [await limits.take('k', rate, now), await limits.take('k', rate, now), await limits.take('k', rate, now)];
    expect(answers.map((r) => r.allowed)).toEqual([true, true, false]);
    expect((await limits.reserve('c', POLICY, now)).allowed).toBe(true);
    expect(lines.filter((l) => l.level === 'warn')).toEqual([{ level: 'warn', msg: expect.stringMatching(/Redis does not answer.*fall back to this process/) }]);
  });
});

describe('RedisLimits when Redis drops its connection', () => {
  it('keeps answering from this process meanwhile, and shares the limits again once it has reconnected', async () => {
    const { log, lines } = recordingLog();
    const limits = new RedisLimits(redisUrl, PREFIX, log);
    opened.push(limits);
    await limits.connected();
    const other = await redis();
    const { Redis } = await import('ioredis');
    const admin = new Redis(redisUrl, { maxRetriesPerRequest: 0 });
    admin.on('error', () => {});
    try {
      // The server ends this limiter's connection, as a Redis restart or failover does.
      const own = (limits as unknown as { client: { client(sub: 'ID'): Promise<number> } }).client;
      await admin.client('KILL', 'ID', String(await own.client('ID')));
      const key = `dropped-${randomUUID()}`;
      const rate = { burst: 1, refillPerSec: 0.001 };
      const meanwhile = await Promise.all([0, 1, 2].map(() => limits.take(key, rate, Date.now())));
      expect(meanwhile.every((r) => typeof r.allowed === 'boolean')).toBe(true);
      // Once back, the two limiters count in one bucket: the second take of the shared key is refused.
      const shared = `shared-${randomUUID()}`;
      await eventually(
        async () => {
          await limits.reset(shared);
          const first = await other.take(shared, rate, Date.now());
          const second = await limits.take(shared, rate, Date.now());
          return first.allowed && !second.allowed;
        },
        { timeoutMs: 30_000, intervalMs: 200, what: 'the limiter sharing its bucket through Redis again' },
      );
      expect(lines.filter((l) => l.level === 'warn').length).toBeLessThanOrEqual(1);
    } finally {
      admin.disconnect();
    }
  });
});
