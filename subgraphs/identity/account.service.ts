import { secretMatches } from '../../lib/auth/secret-match.js';
import type { Config } from '../../lib/config.js';
import type { Clock } from '../../lib/clock.js';
import type { AccountType } from '../../lib/auth/viewer.js';
import { Conflict, Forbidden, NotFound } from '../../lib/errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import { AccountStore, type Account } from './store/account.store.js';
import { hashPassword } from './password.js';
import { emailKeyForLogin, normalizeEmail, validateDisplayName, validatePassword } from './account.rules.js';
import type { SessionStore } from './store/session.store.js';
import type { ApiTokenService } from './api-token.service.js';
import type { PasswordThrottle } from './password-throttle.service.js';

export type { Account } from './store/account.store.js';

export interface RegisterInput {
  email: string;
  password: string;
  display_name: string;
}

/** Accounts: registration, service accounts, SuperUser creation and promotion, academic verification. */
export class AccountService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly config: Config,
    private readonly clock: Clock,
    /** Absent for the admin side (tools, tests), which makes no requests on behalf of a client. */
    private readonly throttle?: PasswordThrottle,
    /** The admin side ends an account's logins and API tokens when it deactivates it. */
    private readonly ended?: { sessions: Pick<SessionStore, 'revokeAccountFamilies'>; apiTokens: Pick<ApiTokenService, 'revokeAll'> },
  ) {}

  /**
   * Deactivates the account with this email (an operator's decision, from the admin CLI): it can no longer sign
   * in, its refresh tokens and API tokens end at once, its access tokens within 15 minutes.
   */
  async deactivate(email: string): Promise<{ account: Account; action: 'deactivated' | 'unchanged' }> {
    if (!this.ended) throw new Error('deactivate is an administration call');
    const found = await this.accounts.findCredentials(emailKeyForLogin(email));
    if (!found) throw new NotFound(`no account with the email ${email}`);
    if (found.account.deactivatedAt) return { account: found.account, action: 'unchanged' };
    const now = this.clock.now();
    const account = (await this.accounts.deactivate(found.account.id, now))!;
    await this.ended.sessions.revokeAccountFamilies(account.id, null, 'account_deactivated', now);
    await this.ended.apiTokens.revokeAll(account.id, 'account_deactivated');
    return { account, action: 'deactivated' };
  }

  /**
   * Spec 4.1: a Regular, unverified account. Throws BadInput for bad fields, Conflict for a taken email, and
   * RateLimited when the client's password-check budget is spent (checked after the fields, before the hash).
   */
  async register(input: RegisterInput, clientIp?: string): Promise<Account> {
    return this.create(input, 'REGULAR', false, () => this.throttle?.spend(clientIp));
  }

  /**
   * Spec 5.5: a verified Service account, only with the server's SERVICE_SECRET. The secret is checked before
   * anything else, so a caller without it learns nothing about the body or existing emails.
   */
  async registerService(
    input: { email: string; password: string; display_name?: string | null; service_secret?: string | null },
    clientIp?: string,
  ): Promise<Account> {
    const expected = this.config.auth.serviceSecret;
    if (!expected) throw new Forbidden('service account registration is disabled on this server: SERVICE_SECRET is not set');
    if (!input.service_secret || !secretMatches(input.service_secret, expected)) {
      throw new Forbidden('the X-Service-Secret header is missing or wrong');
    }
    return this.createServiceAccount(input, () => this.throttle?.spend(clientIp));
  }

  /** A verified Service account without the secret check: for the admin side (tools, tests) only. */
  async createServiceAccount(input: { email: string; password: string; display_name?: string | null }, beforeHash?: () => Promise<void> | undefined): Promise<Account> {
    const displayName = input.display_name ?? String(input.email ?? '').trim().split('@')[0];
    return this.create({ email: input.email, password: input.password, display_name: displayName || 'service' }, 'SERVICE', true, beforeHash);
  }

  /**
   * Creates a SuperUser, or promotes the Regular or Academic account that already has this email (its password
   * is left unchanged). Used by the admin CLI and the first-start bootstrap; not reachable over the API.
   */
  async createSuperUser(input: { email: string; password: string; display_name?: string }): Promise<{ account: Account; action: 'created' | 'promoted' | 'unchanged' }> {
    const email = normalizeEmail(input.email);
    const existing = await this.accounts.findCredentials(email.key);
    if (existing) {
      if (existing.account.accountType === 'SUPERUSER') return { account: existing.account, action: 'unchanged' };
      return { account: await this.promote(existing.account.id), action: 'promoted' };
    }
    const account = await this.create(
      { email: input.email, password: input.password, display_name: input.display_name ?? email.email.split('@')[0] },
      'SUPERUSER',
      true,
    );
    return { account, action: 'created' };
  }

  /**
   * Spec 3: a Regular or Academic account becomes SuperUser. NotFound for unknown or malformed ids; Conflict for
   * a Service account or one that already is SuperUser. Tokens issued before keep their old type until refreshed.
   */
  async promote(userId: string): Promise<Account> {
    if (!isUuid(userId)) throw new NotFound(`no account with id ${JSON.stringify(userId)}`);
    const promoted = await this.accounts.changeType(userId, ['REGULAR', 'ACADEMIC'], 'SUPERUSER', true, this.clock.now());
    if (promoted) return promoted;
    const current = await this.accounts.findById(userId);
    if (!current) throw new NotFound(`no account with id ${userId}`);
    throw new Conflict(
      current.accountType === 'SUPERUSER' ? 'this account already is a SuperUser' : 'only Regular and Academic accounts can be promoted to SuperUser',
    );
  }

  /**
   * Marks a Regular account as a verified Academic one (the end of institutional verification). An account that
   * already is Academic, Service or SuperUser is returned unchanged.
   */
  async markAcademicVerified(accountId: string): Promise<Account> {
    if (!isUuid(accountId)) throw new NotFound(`no account with id ${JSON.stringify(accountId)}`);
    const changed = await this.accounts.changeType(accountId, ['REGULAR', 'ACADEMIC'], 'ACADEMIC', true, this.clock.now());
    if (changed) return changed;
    const current = await this.accounts.findById(accountId);
    if (!current) throw new NotFound(`no account with id ${accountId}`);
    return current;
  }

  async get(accountId: string): Promise<Account> {
    const account = isUuid(accountId) ? await this.accounts.findById(accountId) : undefined;
    if (!account) throw new NotFound(`no account with id ${JSON.stringify(accountId)}`);
    return account;
  }

  private async create(input: RegisterInput, accountType: AccountType, verified: boolean, beforeHash?: () => Promise<void> | undefined): Promise<Account> {
    const email = normalizeEmail(input.email);
    validatePassword(input.password, email);
    const displayName = validateDisplayName(input.display_name);
    await beforeHash?.();
    return this.accounts.insert({
      id: newId(),
      email: email.email,
      emailKey: email.key,
      passwordHash: await hashPassword(input.password),
      displayName,
      accountType,
      verified,
      now: this.clock.now(),
    });
  }
}
