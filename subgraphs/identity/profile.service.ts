import type { Clock } from '../../lib/clock.js';
import { BadInput, Conflict, Forbidden, NotFound, Unauthenticated } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import type { AccountStore, Account, ProfilePatch } from './store/account.store.js';
import { hashPassword, verifyPassword } from './password.js';
import type { PasswordThrottle } from './password-throttle.service.js';
import type { AuthService } from './auth.service.js';
import {
  AFFILIATION_MAX,
  BIO_MAX,
  normalizeEmail,
  normalizeOrcid,
  optionalText,
  scientistTagFor,
  validateDisplayName,
  validateLinks,
  validatePassword,
} from './account.rules.js';

/** What PATCH /v1/user/profile accepts; an absent field is left alone, null clears an optional one. */
export interface ProfileUpdate {
  display_name?: string | null;
  affiliation?: string | null;
  orcid?: string | null;
  bio?: string | null;
  links?: string[] | null;
  email?: string | null;
  current_password?: string | null;
}

const TAG_ATTEMPTS = 8;

/** Who is asking for a credential change: the client's address (throttling) and its login (kept signed in). */
export interface CredentialCaller {
  clientIp?: string;
  /** The refresh family the caller's access token belongs to; unknown for tokens that do not name one. */
  sessionId?: string;
}

const WRONG_CURRENT = 'wrong current_password attempts for this account';

export class ProfileService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly clock: Clock,
    private readonly throttle: PasswordThrottle,
    private readonly auth: AuthService,
  ) {}

  /** The caller's own account; a token whose account was deleted is refused. */
  async own(accountId: string): Promise<Account> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new Unauthenticated('the account of this access token no longer exists');
    return account;
  }

  /**
   * Updates the caller's profile. Changing the email needs `current_password` (a stolen access token alone
   * cannot take over the account); a wrong one is 403, an email held by another account 409. The password check
   * is throttled like a login, and a changed email signs out every other login of the account.
   */
  async update(accountId: string, input: ProfileUpdate, caller: CredentialCaller = {}): Promise<Account> {
    const current = await this.own(accountId);
    const patch: ProfilePatch = {};
    if (input.display_name !== undefined) {
      if (input.display_name === null) throw new BadInput('display_name: cannot be cleared');
      patch.displayName = validateDisplayName(input.display_name);
    }
    if (input.affiliation !== undefined) patch.affiliation = optionalText(input.affiliation, 'affiliation', AFFILIATION_MAX);
    if (input.bio !== undefined) patch.bio = optionalText(input.bio, 'bio', BIO_MAX);
    if (input.orcid !== undefined) patch.orcid = normalizeOrcid(input.orcid);
    if (input.links !== undefined) patch.links = validateLinks(input.links ?? []);
    if (input.email !== undefined && input.email !== null) {
      const email = normalizeEmail(input.email);
      if (email.email !== current.email) {
        if (!input.current_password) throw new BadInput('current_password: required to change the email');
        const currentPassword = input.current_password;
        const ok = await this.throttle.check(
          normalizeEmail(current.email).key,
          caller.clientIp,
          async () => verifyPassword(await this.accounts.passwordHash(accountId), currentPassword),
          WRONG_CURRENT,
        );
        if (!ok) throw new Forbidden('current_password does not match');
        patch.email = email.email;
        patch.emailKey = email.key;
      }
    } else if (input.email === null) {
      throw new BadInput('email: cannot be cleared');
    }
    if (Object.keys(patch).length === 0) return current;
    const updated = await this.accounts.updateProfile(accountId, patch, this.clock.now());
    if (!updated) throw new Unauthenticated('the account of this access token no longer exists');
    if (patch.email) await this.auth.revokeOtherSessions(accountId, caller.sessionId);
    return updated;
  }

  /**
   * Sets the caller's password. An account created by a social sign-in has none, and its first password needs only
   * the access token (the person proved who they are at the provider); replacing an existing password needs
   * `current_password`, like an email change: missing is 400, wrong is 403, checked within the password throttle.
   * Every other login of the account is signed out afterwards; the caller's own stays.
   */
  async setPassword(accountId: string, newPassword: string, currentPassword?: string | null, caller: CredentialCaller = {}): Promise<Account> {
    const current = await this.own(accountId);
    const email = normalizeEmail(current.email);
    const stored = await this.accounts.passwordHash(accountId);
    if (stored) {
      if (!currentPassword) throw new BadInput('current_password: required to change an existing password');
      const ok = await this.throttle.check(email.key, caller.clientIp, () => verifyPassword(stored, currentPassword), WRONG_CURRENT);
      if (!ok) throw new Forbidden('current_password does not match');
    }
    validatePassword(newPassword, email, 'new_password');
    // The first password costs a hash but no check: it still takes its token.
    if (!stored) await this.throttle.spend(caller.clientIp);
    if (!(await this.accounts.setPasswordHash(accountId, await hashPassword(newPassword), this.clock.now()))) {
      throw new Unauthenticated('the account of this access token no longer exists');
    }
    await this.auth.revokeOtherSessions(accountId, caller.sessionId);
    return this.own(accountId);
  }

  /**
   * Returns the caller's scientist tag, generating it on first use from the display name; later calls return the
   * same tag, even if the display name changes. A suffix that collides with another account's tag is redrawn.
   */
  async scientistTag(accountId: string): Promise<string> {
    const account = await this.own(accountId);
    if (account.scientistTag) return account.scientistTag;
    for (let attempt = 0; attempt < TAG_ATTEMPTS; attempt++) {
      try {
        const set = await this.accounts.setScientistTagOnce(accountId, scientistTagFor(account.displayName), this.clock.now());
        if (set?.scientistTag) return set.scientistTag;
        // Another request set it first: that one is the tag.
        const again = await this.own(accountId);
        if (again.scientistTag) return again.scientistTag;
      } catch (e) {
        if (!(e instanceof Conflict)) throw e;
      }
    }
    throw new Conflict('could not find a free scientist tag; try again');
  }

  /** Public fields of any account (never the email). NotFound for unknown and malformed ids alike. */
  async publicProfile(userId: string): Promise<Account> {
    const account = isUuid(userId) ? await this.accounts.findById(userId) : undefined;
    if (!account) throw new NotFound(`no user with id ${JSON.stringify(String(userId).slice(0, 100))}`);
    return account;
  }
}
