import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import type { Config } from '../../lib/config.js';
import { RateLimited } from '../../lib/errors.js';
import { backoffLockMs, type BackoffPolicy, type Limits, type Rate } from '../../lib/limits/limits.js';

/**
 * Failed password checks per (email, client IP): from the 5th within a run the pair is locked for 15 s, doubling
 * with each further failure up to 15 minutes; an hour without failures starts the count over.
 */
export const LOGIN_FAILURE_POLICY: BackoffPolicy = { threshold: 5, quietMs: 60 * 60 * 1000, baseLockMs: 15 * 1000, maxLockMs: 15 * 60 * 1000 };

export const lockDurationMs = (failures: number): number => backoffLockMs(failures, LOGIN_FAILURE_POLICY);

/** Requests with no known address (not over HTTP) share one budget rather than escaping it. */
const UNKNOWN_IP = 'unknown';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest('base64url');

/**
 * Guards argon2 work, the most expensive thing a caller can make this service do and the one a guesser needs:
 * every password check or hash takes a token from the client IP's budget (against spraying one password across
 * many accounts, and against aliases that put hundreds of checks into one GraphQL request), and password checks
 * count failures per (email, client IP) with exponential backoff. Keying failures by IP as well means that a
 * guesser locks out only their own address, never the owner logging in from elsewhere. Both live in the shared
 * limits, so they hold across replicas when REDIS_URL is set.
 */
export class PasswordThrottle {
  private readonly budget: Rate;

  constructor(
    private readonly limits: Limits,
    config: Config['limits'],
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {
    this.budget = { burst: config.passwordCheckBurst, refillPerSec: config.passwordCheckRefillPerSec };
  }

  /** Takes one token of the client's password-check budget before argon2 work; RateLimited when it is used up. */
  async spend(clientIp: string | undefined): Promise<void> {
    const r = await this.limits.take(`password-checks:${clientIp ?? UNKNOWN_IP}`, this.budget, this.clock.now().getTime());
    if (!r.allowed) {
      throw new RateLimited(`too many password attempts from your address: try again in ${r.retryAfterSec} s`, r.retryAfterSec);
    }
  }

  /**
   * Runs `verify` (one password check for the account behind `emailKey`) within both limits, and returns its
   * answer. The attempt is counted as a failure before `verify` runs, so concurrent guesses cannot together get
   * past the threshold; a correct password clears the count of this (email, IP). RateLimited, without running
   * `verify`, while the pair is locked or the budget is spent. `what` names the attempts in that message.
   */
  async check(emailKey: string, clientIp: string | undefined, verify: () => Promise<boolean>, what = 'failed logins for this email'): Promise<boolean> {
    const key = `login-failures:${digest(emailKey)}:${clientIp ?? UNKNOWN_IP}`;
    const locked = (seconds: number) => new RateLimited(`too many ${what} from your address: try again in ${seconds} s`, seconds);
    // A cheap look first, so a locked pair does not also drain the address's budget.
    const lockedFor = await this.limits.lockedFor(key, this.clock.now().getTime());
    if (lockedFor > 0) throw locked(lockedFor);
    await this.spend(clientIp);
    const reserved = await this.limits.reserve(key, LOGIN_FAILURE_POLICY, this.clock.now().getTime());
    if (!reserved.allowed) throw locked(reserved.retryAfterSec);
    const ok = await verify();
    if (ok) await this.limits.reset(key);
    else if (reserved.retryAfterSec > 0) {
      this.log.warn({ failures: reserved.count, lockSeconds: reserved.retryAfterSec, clientIp }, 'password checks locked after repeated failures');
    }
    return ok;
  }
}
