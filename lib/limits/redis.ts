import { Redis } from 'ioredis';
import { MemoryLimits } from './memory.js';
import { bucketAnswer, type BackoffPolicy, type BackoffReservation, type BucketTake, type Limits, type LimitsLog, type Rate } from './limits.js';

/**
 * The token bucket of MemoryLimits.take as one script, so a read-refill-take-write cannot interleave with another
 * replica's. Fractions are stored with %.17g: Redis would truncate a Lua number returned or stored as an integer.
 */
const TAKE = `
local burst = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2]) / 1000
local now = tonumber(ARGV[3])
local s = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(s[1])
local at = tonumber(s[2])
if tokens == nil or at == nil then tokens = burst; at = now end
local elapsed = now - at
if elapsed < 0 then elapsed = 0 end
tokens = math.min(burst, tokens + elapsed * per_ms)
if now > at then at = now end
local allowed = 0
if tokens >= 1 then tokens = tokens - 1; allowed = 1 end
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'at', string.format('%.17g', at))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / per_ms) + 1000)
return { allowed, string.format('%.17g', tokens) }
`;

/** MemoryLimits.reserve as one script: refuse while locked, else count and lock from the threshold on. */
const RESERVE = `
local now = tonumber(ARGV[1])
local threshold = tonumber(ARGV[2])
local quiet = tonumber(ARGV[3])
local base = tonumber(ARGV[4])
local max_lock = tonumber(ARGV[5])
local s = redis.call('HMGET', KEYS[1], 'n', 'last', 'until')
local n = tonumber(s[1]) or 0
local last = tonumber(s[2]) or now
local locked_until = tonumber(s[3]) or 0
if locked_until > now then return { 0, n, math.ceil(locked_until - now) } end
if now - last >= quiet then n = 0 end
n = n + 1
if now > last then last = now end
local lock_ms = 0
if n >= threshold then
  lock_ms = math.min(max_lock, base * 2 ^ math.min(n - threshold, 30))
  locked_until = now + lock_ms
end
redis.call('HSET', KEYS[1], 'n', n, 'last', string.format('%.17g', last), 'until', string.format('%.17g', locked_until))
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(last + quiet, locked_until) - now) + 1000)
return { 1, n, lock_ms }
`;

type ScriptedRedis = Redis & {
  ndTake(key: string, burst: number, refillPerSec: number, nowMs: number): Promise<[number, string]>;
  ndReserve(key: string, nowMs: number, threshold: number, quietMs: number, baseLockMs: number, maxLockMs: number): Promise<[number, number, number]>;
};

/** After a failed call, Redis is left alone this long (ioredis keeps reconnecting meanwhile). */
const PAUSE_AFTER_FAILURE_MS = 5_000;
/** A Redis that hangs must not hold every request: past this a call counts as failed. */
const COMMAND_TIMEOUT_MS = 500;

/**
 * Limits in Redis, shared by every replica with the same REDIS_URL and key prefix. Each operation is one Lua
 * script (atomic on the server). When Redis does not answer, the limits fall back to this process's counters
 * rather than failing requests: a warning is logged once, Redis is tried again after a pause, and a note is logged
 * when it answers again. Meanwhile each replica enforces its own limits, as without REDIS_URL.
 */
export class RedisLimits implements Limits {
  readonly kind = 'redis' as const;
  private readonly client: ScriptedRedis;
  private readonly fallback = new MemoryLimits();
  private pausedUntil = 0;
  private degraded = false;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly log: LimitsLog,
  ) {
    this.client = new Redis(url, {
      // Fail at once while disconnected instead of queueing: the fallback answers meanwhile.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    }) as ScriptedRedis;
    this.client.defineCommand('ndTake', { numberOfKeys: 1, lua: TAKE });
    this.client.defineCommand('ndReserve', { numberOfKeys: 1, lua: RESERVE });
    // ioredis reports every failed reconnect as an 'error' event; one warning per outage is enough.
    this.client.on('error', (e: Error) => this.failed(e));
  }

  /** Waits for the first connection (at most a few seconds); a Redis that is down then only means the fallback. */
  async connected(timeoutMs = 3_000): Promise<void> {
    if (this.client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.client.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    // Re-read: the status changed while waiting.
    if ((this.client.status as string) !== 'ready') this.failed(new Error(`no connection within ${timeoutMs} ms`));
  }

  take(key: string, rate: Rate, nowMs: number): Promise<BucketTake> {
    return this.run(
      async () => {
        const [allowed, tokens] = await this.client.ndTake(this.prefix + key, rate.burst, rate.refillPerSec, nowMs);
        return bucketAnswer(Number(tokens), allowed === 1, rate);
      },
      async () => this.fallback.take(key, rate, nowMs),
    );
  }

  reserve(key: string, policy: BackoffPolicy, nowMs: number): Promise<BackoffReservation> {
    return this.run(
      async () => {
        const [allowed, count, ms] = await this.client.ndReserve(this.prefix + key, nowMs, policy.threshold, policy.quietMs, policy.baseLockMs, policy.maxLockMs);
        return allowed === 1
          ? { allowed: true, count, retryAfterSec: Math.ceil(ms / 1000) }
          : { allowed: false, count, retryAfterSec: Math.max(1, Math.ceil(ms / 1000)) };
      },
      () => this.fallback.reserve(key, policy, nowMs),
    );
  }

  lockedFor(key: string, nowMs: number): Promise<number> {
    return this.run(
      async () => {
        const until = Number(await this.client.hget(this.prefix + key, 'until'));
        return until > nowMs ? Math.max(1, Math.ceil((until - nowMs) / 1000)) : 0;
      },
      () => this.fallback.lockedFor(key, nowMs),
    );
  }

  reset(key: string): Promise<void> {
    return this.run(
      async () => {
        await this.client.del(this.prefix + key);
        await this.fallback.reset(key);
      },
      () => this.fallback.reset(key),
    );
  }

  async close(): Promise<void> {
    this.client.removeAllListeners('error');
    this.client.on('error', () => {});
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  private async run<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    if (Date.now() < this.pausedUntil || this.client.status !== 'ready') return local();
    try {
      const result = await shared();
      if (this.degraded) {
        this.degraded = false;
        this.log.info({ backend: 'redis' }, 'Redis answers again: rate limits and login throttles are shared again');
      }
      return result;
    } catch (e) {
      this.failed(e as Error);
      return local();
    }
  }

  private failed(e: Error): void {
    this.pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
    if (this.degraded) return;
    this.degraded = true;
    this.log.warn({ backend: 'redis', err: e.message }, 'Redis does not answer: rate limits and login throttles fall back to this process until it does');
  }
}
