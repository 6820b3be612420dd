/** A token bucket: `burst` tokens, refilled continuously at `refillPerSec`. */
export interface Rate {
  burst: number;
  refillPerSec: number;
}

export interface BucketTake {
  allowed: boolean;
  /** Whole tokens left after this take. */
  remaining: number;
  /** When refused: seconds until the next token (at least 1); 0 when allowed. */
  retryAfterSec: number;
  /** Seconds until the bucket is full again. */
  resetSec: number;
}

/**
 * A counter of attempts that locks its key with exponential backoff: from the `threshold`-th attempt on, each
 * attempt locks the key for `baseLockMs` doubling per further attempt, up to `maxLockMs`. The count starts over
 * after `quietMs` without attempts.
 */
export interface BackoffPolicy {
  threshold: number;
  quietMs: number;
  baseLockMs: number;
  maxLockMs: number;
}

export interface BackoffReservation {
  /** False while the key is locked: nothing was counted. */
  allowed: boolean;
  /** Attempts counted in the current run, this one included. */
  count: number;
  /** When refused: seconds until the lock ends (at least 1). When allowed: seconds this attempt locked the key for. */
  retryAfterSec: number;
}

/**
 * Atomic counters shared by everything that limits clients: in-process, or in Redis so that every replica sees the
 * same numbers. Times are passed in (milliseconds since the epoch) so the callers' clocks decide; each operation is
 * one atomic step, so concurrent callers can never together exceed a limit.
 */
export interface Limits {
  readonly kind: 'memory' | 'redis';
  /**
   * Takes one token from the bucket `key`. An in-process store answers at once (no promise): the request pipeline
   * takes one per request, and a promise there costs every request a turn of the microtask queue.
   */
  take(key: string, rate: Rate, nowMs: number): BucketTake | Promise<BucketTake>;
  /**
   * Counts one attempt on `key` unless it is locked. An attempt is counted before the caller knows how it ends, so
   * concurrent attempts cannot get past the threshold together; a caller whose attempt succeeded calls `reset`.
   */
  reserve(key: string, policy: BackoffPolicy, nowMs: number): Promise<BackoffReservation>;
  /** Seconds until the lock on `key` ends; 0 when it is not locked. Counts nothing. */
  lockedFor(key: string, nowMs: number): Promise<number>;
  /** Forgets `key` (a bucket or a counter). */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

/** What the limits log: a warning when Redis stops answering, a note when it is back. */
export interface LimitsLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** Lock length after `count` attempts; 0 below the threshold. The exponent is capped so the number stays finite. */
export function backoffLockMs(count: number, policy: BackoffPolicy): number {
  if (count < policy.threshold) return 0;
  return Math.min(policy.maxLockMs, policy.baseLockMs * 2 ** Math.min(count - policy.threshold, 30));
}

/** Bucket arithmetic both backends share (the Redis script mirrors it): refill since `at`, never backwards. */
export function bucketAnswer(tokens: number, allowed: boolean, rate: Rate): BucketTake {
  return {
    allowed,
    remaining: Math.max(0, Math.floor(tokens)),
    retryAfterSec: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / rate.refillPerSec)),
    resetSec: Math.max(0, Math.ceil((rate.burst - tokens) / rate.refillPerSec)),
  };
}
