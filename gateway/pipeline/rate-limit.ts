import type { Config } from '../../lib/config.js';
import type { BucketTake, Limits, Rate } from '../../lib/limits/limits.js';

/**
 * The per-client request bucket of the pipeline: `RATE_LIMIT_BURST` tokens, refilled at
 * `RATE_LIMIT_REFILL_PER_SEC`, one bucket per client IP. It lives in the shared limits, so replicas with the same
 * REDIS_URL enforce one bucket per client; without Redis each replica has its own. `scope` keeps servers that are
 * not the gateway (a subgraph served alone) from spending the gateway's tokens for the same request.
 */
export class RequestBuckets {
  readonly rate: Rate;

  constructor(
    private readonly limits: Limits,
    config: Config['limits'],
    private readonly scope = 'gateway',
  ) {
    this.rate = { burst: config.rateLimitBurst, refillPerSec: config.rateLimitRefillPerSec };
  }

  /** Takes one token for this client; wall-clock time, since replicas compare it. */
  take(clientIp: string): BucketTake | Promise<BucketTake> {
    return this.limits.take(`requests:${this.scope}:${clientIp}`, this.rate, Date.now());
  }
}
