import type { ApiTokenService } from './api-token.service.js';
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { BadInput, Unauthenticated } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { AccountStore, Account } from './store/account.store.js';
import type { SessionStore } from './store/session.store.js';
import { verifyPassword } from './password.js';
import type { PasswordThrottle } from './password-throttle.service.js';
import { emailKeyForLogin, PASSWORD_MAX } from './account.rules.js';
import { ACCESS_TOKEN_TTL_SEC, REFRESH_TOKEN_TTL_SEC, type TokenChecker, type TokenSigner } from './token.service.js';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_expires_in: number;
}

const WRONG_CREDENTIALS = 'wrong email or password';
const REUSED = 'this refresh token was already used or revoked: every session of that login is signed out; log in again';
const CREDENTIALS_CHANGED = "this login was signed out because the account's password or email changed: log in again";
const DEACTIVATED = 'this account is deactivated: ask the operators of this service';

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
    private readonly throttle: PasswordThrottle,
    private readonly apiTokens: Pick<ApiTokenService, 'revokeAll'>,
  ) {}

  /**
   * Spec 5.2. A wrong email and a wrong password get the same 401 after the same argon2 work. The check runs inside
   * the password throttle (per client IP budget, failures per email and IP, registered or not): past its limits
   * login answers 429 with Retry-After without checking the password.
   */
  async login(email: string, password: string, clientIp: string | undefined): Promise<TokenPair> {
    if ([...String(password ?? '')].length > PASSWORD_MAX) throw new BadInput(`password: at most ${PASSWORD_MAX} characters`);
    const key = emailKeyForLogin(email);
    const checked: { account?: Account } = {};
    const ok = await this.throttle.check(key, clientIp, async () => {
      const found = key.length <= 254 ? await this.accounts.findCredentials(key) : undefined;
      checked.account = found?.account;
      return (await verifyPassword(found?.passwordHash, password)) && Boolean(found);
    });
    if (!ok || !checked.account) throw new Unauthenticated(WRONG_CREDENTIALS);
    return this.startSession(checked.account, 'password');
  }

  /**
   * Signs out every login of the account except `keepFamilyId` (the caller's own, when its access token names it;
   * none otherwise): their refresh tokens stop working at once, their access tokens within 15 minutes. Every API
   * token of the account ends at once: scripts are given new ones by the person who changed the password.
   */
  async revokeOtherSessions(accountId: string, keepFamilyId: string | undefined): Promise<number> {
    await this.apiTokens.revokeAll(accountId, 'credentials_changed');
    const revoked = await this.sessions.revokeAccountFamilies(accountId, keepFamilyId ?? null, 'credentials_changed', this.clock.now());
    this.log.info({ accountId, keptFamilyId: keepFamilyId ?? null, revoked }, 'other sessions signed out after a credential change');
    return revoked;
  }

  /**
   * Starts a login for an account its caller has already authenticated (a password, or an external provider's
   * sign-in): a new refresh family and its first token pair. The one place token pairs for new logins are made.
   */
  async startSession(account: Account, method: string): Promise<TokenPair> {
    if (account.deactivatedAt) throw new Unauthenticated(DEACTIVATED);
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
      if (stored.familyRevokedReason === 'credentials_changed') throw new Unauthenticated(CREDENTIALS_CHANGED);
      if (stored.familyRevokedReason === 'account_deactivated') throw new Unauthenticated(DEACTIVATED);
      if (stored.usedAt || stored.revokedAt || stored.familyRevokedAt) {
        await this.sessions.revokeFamily(stored.familyId, 'reuse', now);
        this.log.warn({ accountId: stored.accountId, familyId: stored.familyId }, 'refresh token reused: family revoked');
        throw new Unauthenticated(REUSED);
      }
      throw new Unauthenticated('refresh token expired: log in again');
    }
    const account = await this.accounts.findById(consumed.accountId);
    if (!account) throw new Unauthenticated('the account of this refresh token no longer exists');
    if (account.deactivatedAt) throw new Unauthenticated(DEACTIVATED);
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
    // Access tokens carry the family too, so a password change can tell the caller's own login from the others.
    const [access, refresh] = await Promise.all([this.signer.issue('access', subject, familyId), this.signer.issue('refresh', subject, familyId)]);
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
