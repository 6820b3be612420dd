import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../lib/db/relational.js';
import { BadInput, Conflict, NotFound } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { AccountStore, type Account } from './store/account.store.js';
import { VerificationStore, type AccountVerification } from './store/verification.store.js';
import { emailKeyForLogin, validateVerificationReason } from './account.rules.js';

export type { AccountVerification } from './store/verification.store.js';

/** An account as a SuperUser administers it: with how it became Academic, if it did. */
export interface ManagedAccount {
  account: Account;
  verification: AccountVerification | null;
}

/** What a verification call did: `changed` is false when the account already was in the state asked for. */
export interface VerificationChange extends ManagedAccount {
  changed: boolean;
  message: string;
}

export const ACCOUNTS_PAGE_MAX = 100;

const notFound = (id: string) => new NotFound(`no account with id ${JSON.stringify(id)}`);

/**
 * Verification of accounts by a SuperUser (or the operator's command line), the second way to Academic beside
 * an institutional login, and its withdrawal; the SuperUsers' list of accounts.
 */
export class AccountVerificationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Makes a Regular account a verified Academic one, recording who (`verifiedBy`: a SuperUser's id, null for the
   * operator's command line), when and why. An account that already is Academic is left as it is (`changed: false`,
   * its first verification kept). NotFound for unknown or malformed ids; Conflict for Service and SuperUser
   * accounts, which hold academic access by their type; BadInput for a missing or too long reason.
   */
  async verify(userId: string, reason: unknown, verifiedBy: string | null): Promise<VerificationChange> {
    if (!isUuid(userId)) throw notFound(userId);
    const why = validateVerificationReason(reason);
    const now = this.clock.now();
    const changed = await this.db.transaction(async (tx) => {
      const accounts = new AccountStore(tx as unknown as Db);
      const account = await accounts.changeType(userId, ['REGULAR'], 'ACADEMIC', true, now);
      if (account) await new VerificationStore(tx as unknown as Db).recordBySuperUser({ accountId: userId, verifiedBy, reason: why, verifiedAt: now });
      return account;
    });
    if (changed) {
      this.log.info({ accountId: userId, verifiedBy }, 'account verified by a SuperUser');
      return { ...(await this.managed(changed)), changed: true, message: `${changed.email} is now Academic` };
    }
    const current = await this.current(userId);
    if (current.accountType === 'ACADEMIC') {
      return { ...(await this.managed(current)), changed: false, message: `${current.email} already is Academic: nothing changed` };
    }
    throw new Conflict(`a ${current.accountType === 'SERVICE' ? 'Service' : 'SuperUser'} account has academic access by its type: only Regular accounts are verified`);
  }

  /**
   * Takes an account's verification back: Academic becomes Regular, and every record of how it was verified is
   * deleted. Its access tokens stop opening Academic operations at once (lib/access.ts re-reads an Academic
   * account's standing), its API tokens too (they read the account when presented), and its next refresh carries
   * the Regular type. A Regular account is left as it is (`changed: false`). NotFound and Conflict as `verify`.
   */
  async unverify(userId: string): Promise<VerificationChange> {
    if (!isUuid(userId)) throw notFound(userId);
    const now = this.clock.now();
    const changed = await this.db.transaction(async (tx) => {
      const account = await new AccountStore(tx as unknown as Db).changeType(userId, ['ACADEMIC'], 'REGULAR', false, now);
      if (account) await new VerificationStore(tx as unknown as Db).deleteAll(userId);
      return account;
    });
    if (changed) {
      this.log.info({ accountId: userId }, 'account verification withdrawn');
      return { account: changed, verification: null, changed: true, message: `${changed.email} is now Regular` };
    }
    const current = await this.current(userId);
    if (current.accountType === 'REGULAR') return { account: current, verification: null, changed: false, message: `${current.email} already is Regular: nothing changed` };
    throw new Conflict(`a ${current.accountType === 'SERVICE' ? 'Service' : 'SuperUser'} account has academic access by its type: there is no verification to take back`);
  }

  /** The id of the account with this email, for the operator's command line; NotFound when there is none. */
  async idForEmail(email: string): Promise<string> {
    const found = await new AccountStore(this.db).findCredentials(emailKeyForLogin(email));
    if (!found) throw new NotFound(`no account with the email ${email}`);
    return found.account.id;
  }

  /** How each account became Academic, for the caller's profile. */
  async verificationOf(account: Account): Promise<AccountVerification | null> {
    return (await this.managed(account)).verification;
  }

  /** A page of accounts with their verification, newest first; `email` filters on a part of the address. */
  async list(opts: { email?: string | null; limit?: number | null; offset?: number | null }): Promise<{ items: ManagedAccount[]; total: number }> {
    const limit = opts.limit ?? 50;
    const offset = opts.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > ACCOUNTS_PAGE_MAX) throw new BadInput(`limit: expected 1 to ${ACCOUNTS_PAGE_MAX} (got ${limit})`);
    if (!Number.isInteger(offset) || offset < 0) throw new BadInput(`offset: expected 0 or more (got ${offset})`);
    const page = await new AccountStore(this.db).list({ emailContains: opts.email ?? undefined, limit, offset });
    const verifications = await new VerificationStore(this.db).latestOf(page.items.map((a) => a.id));
    return { items: page.items.map((account) => ({ account, verification: this.shown(account, verifications.get(account.id)) })), total: page.total };
  }

  private async current(userId: string): Promise<Account> {
    const account = await new AccountStore(this.db).findById(userId);
    if (!account) throw notFound(userId);
    return account;
  }

  private async managed(account: Account): Promise<ManagedAccount> {
    const found = (await new VerificationStore(this.db).latestOf([account.id])).get(account.id);
    return { account, verification: this.shown(account, found) };
  }

  /** A Regular account shows no verification, whatever record is left (an institutional login of a promoted account is shown). */
  private shown(account: Account, found: AccountVerification | undefined): AccountVerification | null {
    return account.accountType === 'REGULAR' ? null : (found ?? null);
  }
}
