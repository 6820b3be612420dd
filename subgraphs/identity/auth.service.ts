import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { BadInput, RateLimited, Unauthenticated } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { AccountStore, Account } from './store/account.store.js';
import type { SessionStore } from './store/session.store.js';
import { verifyPassword } from './password.js';
import { emailKeyForLogin, PASSWORD_MAX } from './account.rules.js';
import { ACCESS_TOKEN_TTL_SEC, REFRESH_TOKEN_TTL_SEC, type TokenChecker, type TokenSigner } from './token.service.js';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_expires_in: number;
}

/** Failed logins per email within the window before the account is locked. */
export const LOGIN_FAILURE_THRESHOLD = 5;
export const LOGIN_FAILURE_WINDOW_MS = 60 * 60 * 1000;
/** The first lock lasts 15 s and doubles with each further failure, up to 15 minutes. */
export const LOGIN_LOCK_BASE_MS = 15 * 1000;
export const LOGIN_LOCK_MAX_MS = 15 * 60 * 1000;

export function lockDurationMs(failures: number): number {
  if (failures < LOGIN_FAILURE_THRESHOLD) return 0;
  return Math.min(LOGIN_LOCK_MAX_MS, LOGIN_LOCK_BASE_MS * 2 ** Math.min(failures - LOGIN_FAILURE_THRESHOLD, 20));
}

const WRONG_CREDENTIALS = 'wrong email or password';
const REUSED = 'this refresh token was already used or revoked: every session of that login is signed out; log in again';

const sha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** Login, refresh-token rotation with reuse detection, logout. */
export class AuthService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly sessions: SessionStore,
    private readonly signer: TokenSigner,
    private readonly checker: TokenChecker,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Spec 5.2. A wrong email and a wrong password get the same 401 after the same argon2 work. Failures are
   * counted per email (registered or not) in the relational store; past the threshold the email is locked for
   * a doubling period and answers 429 with Retry-After, without checking the password.
   */
  async login(email: string, password: string): Promise<TokenPair> {
    if ([...String(password ?? '')].length > PASSWORD_MAX) throw new BadInput(`password: at most ${PASSWORD_MAX} characters`);
    const key = emailKeyForLogin(email);
    const now = this.clock.now();
    const state = await this.sessions.loginFailures(key);
    if (state?.lockedUntil && state.lockedUntil > now) {
      const retryAfter = Math.max(1, Math.ceil((state.lockedUntil.getTime() - now.getTime()) / 1000));
      throw new RateLimited(`too many failed logins for this email: try again in ${retryAfter} s`, retryAfter);
    }
    const found = key.length <= 254 ? await this.accounts.findCredentials(key) : undefined;
    const ok = await verifyPassword(found?.passwordHash, password);
    if (!ok || !found) {
      const failures = await this.sessions.recordLoginFailure(key, now, new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS));
      const lockMs = lockDurationMs(failures);
      if (lockMs > 0) {
        await this.sessions.lockLogin(key, new Date(now.getTime() + lockMs));
        this.log.warn({ failures, lockSeconds: lockMs / 1000 }, 'login locked after repeated failures');
      }
      throw new Unauthenticated(WRONG_CREDENTIALS);
    }
    if (state) await this.sessions.clearLoginFailures(key);
    return this.startSession(found.account, 'password');
  }

  /**
   * Starts a login for an account its caller has already authenticated (a password, or an external provider's
   * sign-in): a new refresh family and its first token pair. The one place token pairs for new logins are made.
   */
  async startSession(account: Account, method: string): Promise<TokenPair> {
    const familyId = newId();
    const pair = await this.issuePair(account, familyId, true);
    this.log.info({ accountId: account.id, familyId, method }, 'logged in');
    return pair;
  }

  /**
   * Spec 5.3. The token is consumed by one conditional UPDATE; presenting a token that was already used or
   * revoked revokes its whole family (a stolen token was replayed, or the client lost a response).
   */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const claims = await this.checker.check(refreshToken, 'refresh');
    const hash = sha256(refreshToken);
    const now = this.clock.now();
    const consumed = await this.sessions.consume(claims.jti, hash, now);
    if (!consumed) {
      const stored = await this.sessions.findToken(claims.jti);
      if (!stored || stored.tokenHash !== hash) throw new Unauthenticated('invalid refresh token');
      if (stored.usedAt || stored.revokedAt || stored.familyRevokedAt) {
        await this.sessions.revokeFamily(stored.familyId, 'reuse', now);
        this.log.warn({ accountId: stored.accountId, familyId: stored.familyId }, 'refresh token reused: family revoked');
        throw new Unauthenticated(REUSED);
      }
      throw new Unauthenticated('refresh token expired: log in again');
    }
    const account = await this.accounts.findById(consumed.accountId);
    if (!account) throw new Unauthenticated('the account of this refresh token no longer exists');
    return this.issuePair(account, consumed.familyId, false);
  }

  /** Spec 5.4: revokes the refresh token and its family. Logging out twice is not an error. */
  async logout(refreshToken: string): Promise<void> {
    const claims = await this.checker.check(refreshToken, 'refresh');
    const stored = await this.sessions.findToken(claims.jti);
    if (!stored || stored.tokenHash !== sha256(refreshToken)) throw new Unauthenticated('invalid refresh token');
    await this.sessions.revokeFamily(stored.familyId, 'logout', this.clock.now());
    this.log.info({ accountId: stored.accountId, familyId: stored.familyId }, 'logged out');
  }

  private async issuePair(account: Account, familyId: string, newFamily: boolean): Promise<TokenPair> {
    const subject = { accountId: account.id, accountType: account.accountType, verified: account.verified };
    const [access, refresh] = await Promise.all([this.signer.issue('access', subject), this.signer.issue('refresh', subject, familyId)]);
    const row = {
      id: refresh.jti,
      familyId,
      accountId: account.id,
      tokenHash: sha256(refresh.token),
      issuedAt: refresh.issuedAt,
      expiresAt: refresh.expiresAt,
    };
    if (newFamily) await this.sessions.startFamily(familyId, row);
    else await this.sessions.insertToken(row);
    return {
      access_token: access.token,
      refresh_token: refresh.token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SEC,
      refresh_expires_in: REFRESH_TOKEN_TTL_SEC,
    };
  }
}
