import { backoffLockMs, bucketAnswer, type BackoffPolicy, type BackoffReservation, type BucketTake, type Limits, type Rate } from './limits.js';

/**
 * `expiresAt` is wall-clock time, like a Redis TTL, whatever clock the callers pass: entries written with a test's
 * manual clock and with the real one must not expire each other.
 */
interface Bucket {
  tokens: number;
  at: number;
  expiresAt: number;
}

interface Counter {
  count: number;
  lastAt: number;
  lockedUntil: number;
  expiresAt: number;
}

const SWEEP_EVERY_MS = 10_000;

/**
 * Limits held in this process: exact for one process, per replica when there are several. Each operation runs
 * without awaiting anything, so it is atomic on the event loop.
 */
export class MemoryLimits implements Limits {
  readonly kind = 'memory' as const;
  private readonly buckets = new Map<string, Bucket>();
  private readonly counters = new Map<string, Counter>();
  private sweptAt = 0;

  take(key: string, rate: Rate, nowMs: number): BucketTake {
    this.sweep();
    const b = this.buckets.get(key) ?? { tokens: rate.burst, at: nowMs, expiresAt: 0 };
    b.tokens = Math.min(rate.burst, b.tokens + (Math.max(0, nowMs - b.at) / 1000) * rate.refillPerSec);
    b.at = Math.max(b.at, nowMs);
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    // Once full again the bucket is the same as no bucket: forget it then, so memory follows active clients.
    b.expiresAt = Date.now() + ((rate.burst - b.tokens) / rate.refillPerSec) * 1000;
    this.buckets.set(key, b);
    return bucketAnswer(b.tokens, allowed, rate);
  }

  async reserve(key: string, policy: BackoffPolicy, nowMs: number): Promise<BackoffReservation> {
    this.sweep();
    const c = this.counters.get(key) ?? { count: 0, lastAt: nowMs, lockedUntil: 0, expiresAt: 0 };
    if (c.lockedUntil > nowMs) return { allowed: false, count: c.count, retryAfterSec: Math.max(1, Math.ceil((c.lockedUntil - nowMs) / 1000)) };
    if (nowMs - c.lastAt >= policy.quietMs) c.count = 0;
    c.count += 1;
    c.lastAt = Math.max(c.lastAt, nowMs);
    const lockMs = backoffLockMs(c.count, policy);
    if (lockMs > 0) c.lockedUntil = nowMs + lockMs;
    c.expiresAt = Date.now() + Math.max(c.lastAt + policy.quietMs, c.lockedUntil) - nowMs;
    this.counters.set(key, c);
    return { allowed: true, count: c.count, retryAfterSec: Math.ceil(lockMs / 1000) };
  }

  async lockedFor(key: string, nowMs: number): Promise<number> {
    const c = this.counters.get(key);
    return c && c.lockedUntil > nowMs ? Math.max(1, Math.ceil((c.lockedUntil - nowMs) / 1000)) : 0;
  }

  async reset(key: string): Promise<void> {
    this.buckets.delete(key);
    this.counters.delete(key);
  }

  async close(): Promise<void> {
    this.buckets.clear();
    this.counters.clear();
  }

  private sweep(): void {
    const now = Date.now();
    if (now - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    for (const map of [this.buckets, this.counters] as Map<string, { expiresAt: number }>[]) {
      for (const [k, v] of map) if (v.expiresAt < now) map.delete(k);
    }
  }
}
