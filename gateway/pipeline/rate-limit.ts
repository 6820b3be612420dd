/**
 * Per-client token bucket: `burst` tokens, refilled continuously at `refillPerSec`. State is per gateway replica
 * (documented in docs/decisions): each replica behind a load balancer enforces its own bucket.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private sweptAt = 0;

  constructor(
    readonly burst: number,
    readonly refillPerSec: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one token; returns what is left and, when empty, how long until the next token. */
  take(key: string): { allowed: boolean; remaining: number; retryAfterSec: number; resetSec: number } {
    const t = this.now();
    this.sweep(t);
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: t };
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.refillPerSec);
    b.at = t;
    this.buckets.set(key, b);
    const resetSec = Math.ceil((this.burst - b.tokens) / this.refillPerSec);
    if (b.tokens < 1) {
      return { allowed: false, remaining: 0, retryAfterSec: Math.max(1, Math.ceil((1 - b.tokens) / this.refillPerSec)), resetSec };
    }
    b.tokens -= 1;
    return { allowed: true, remaining: Math.floor(b.tokens), retryAfterSec: 0, resetSec: Math.ceil((this.burst - b.tokens) / this.refillPerSec) };
  }

  /** Forgets buckets that have refilled completely, so memory follows active clients only. */
  private sweep(t: number): void {
    if (t - this.sweptAt < 10_000) return;
    this.sweptAt = t;
    const full = (this.burst / this.refillPerSec) * 1000;
    for (const [k, b] of this.buckets) if (t - b.at > full) this.buckets.delete(k);
  }
}
