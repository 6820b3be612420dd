import { PROVIDER_NAMES } from '../../lib/auth/provider-names.js';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../lib/db/relational.js';
import type { Viewer } from '../../lib/auth/viewer.js';
import { BadInput, Conflict, NotFound, Unauthenticated } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { SOCIAL_PROVIDERS, type Config, type SocialProviderName } from '../../lib/config.js';
import { AccountStore, type Account } from './store/account.store.js';
import { InstitutionalStore, type LinkedIdentity, type LoginMode, type PendingFlow } from './store/institutional.store.js';
import type { LoginCodeStore } from './store/social-login.store.js';
import { normalizeEmail, validateDisplayName } from './account.rules.js';
import type { AuthService, TokenPair } from './auth.service.js';
import { LoginFlowService, authorizePath, loginPath, type AuthorizationRequest, type CallbackParams, type ProviderIdentity } from './login-flow.service.js';

export type { LinkedIdentity } from './store/institutional.store.js';

/** A login_code is exchanged by the front end right after the redirect; a minute is plenty and keeps a leak short-lived. */
export const LOGIN_CODE_TTL_MS = 60 * 1000;
/** The browser-binding value the /login route keeps in a cookie: random, at least 128 bits. */
const BINDING_MIN_LENGTH = 22;

/** A completed sign-in: the account, whether it was just created, and the session or the code that fetches it. */
export interface SignIn {
  provider: SocialProviderName;
  account: Account;
  accountCreated: boolean;
  /** json mode */
  session?: TokenPair;
  /** redirect mode: the front-end URL with the login_code, and when the code stops working */
  redirect?: { url: string; loginCode: string; expiresAt: Date };
}

export type CallbackOutcome = ({ purpose: 'login' } & SignIn) | { purpose: 'link'; provider: SocialProviderName; link: LinkedIdentity };

export interface LoginMethods {
  hasPassword: boolean;
  identities: LinkedIdentity[];
}

export interface ExchangedSession {
  provider: string;
  accountId: string;
  accountCreated: boolean;
  session: TokenPair;
}


const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('base64url');
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The provider name from a path or argument; anything else is 404, as an unknown route would be. */
export function socialProvider(name: string): SocialProviderName {
  if (!(SOCIAL_PROVIDERS as readonly string[]).includes(name)) {
    throw new NotFound(`unknown login provider ${JSON.stringify(String(name).slice(0, 50))}: expected one of ${SOCIAL_PROVIDERS.join(', ')}`);
  }
  return name as SocialProviderName;
}

/** The email a provider vouches for: present and marked verified (`email_verified: true`), or none. */
export function verifiedEmail(claims: Record<string, unknown>): string | null {
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  return verified ? text(claims.email) : null;
}

/** A display name for a new account: the provider's name, else its username, else the email's local part. */
export function displayNameFrom(claims: Record<string, unknown>, email: string): string {
  for (const candidate of [claims.name, claims.preferred_username, claims.nickname, email.split('@')[0]]) {
    const value = text(candidate);
    if (!value) continue;
    try {
      return validateDisplayName(value.slice(0, 100));
    } catch {
      /* try the next one */
    }
  }
  return 'user';
}

/**
 * Social sign-in (spec 5.7: general OpenID Connect, GitLab-style, GitHub-style) and linking those identities to an
 * account. The rules (docs/identity-providers.md): a linked identity signs in to its account; an unknown identity
 * with a provider-verified email that no account has creates a Regular account without a password; an unknown
 * identity whose email an account already has is refused (409), so a provider account cannot take over an
 * existing one; a logged-in user links identities explicitly; an identity is unlinked only when another way to log
 * in remains.
 */
export class SocialLoginService {
  constructor(
    private readonly flows: LoginFlowService,
    private readonly links: InstitutionalStore,
    private readonly codes: LoginCodeStore,
    private readonly auth: AuthService,
    private readonly db: Db,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Starts a sign-in. `redirect` mode needs LOGIN_RETURN_URL and a browser binding (the REST route sets it as a
   * cookie), because its result is handed to whichever browser reaches the callback.
   */
  async startLogin(providerName: string, mode: string, binding?: string | null): Promise<AuthorizationRequest> {
    const provider = socialProvider(providerName);
    this.flows.assertConfigured(provider);
    if (mode !== 'redirect' && mode !== 'json') throw new BadInput(`mode: expected redirect or json, got ${JSON.stringify(mode)}`);
    if (mode === 'redirect') {
      if (!this.config.login.returnUrl) throw new BadInput('mode=redirect is not available: this server has no LOGIN_RETURN_URL to send the browser back to; use mode=json');
      if (!binding || binding.length < BINDING_MIN_LENGTH) throw new BadInput(`browser_binding: required with mode=redirect (a random value of at least ${BINDING_MIN_LENGTH} characters)`);
    }
    return this.flows.start(provider, 'login', null, { mode: mode as LoginMode, bindingHash: binding ? sha256(binding) : undefined });
  }

  /** Starts linking an identity at the provider to the caller's account (for GitHub-style: researcher-ID association). */
  startLink(viewer: Viewer, providerName: string): Promise<AuthorizationRequest> {
    return this.flows.start(socialProvider(providerName), 'link', viewer.id);
  }

  /**
   * Completes a sign-in or a link from the provider's callback. For a sign-in, `binding` must match the value the
   * flow was started with (the cookie of the browser that started it); for a link, a callback that carries a token
   * must carry the starting account's.
   */
  async complete(providerName: string, params: CallbackParams, caller: Viewer | null, binding?: string | null): Promise<CallbackOutcome> {
    const provider = socialProvider(providerName);
    const identity = await this.flows.complete(provider, params, (flow) => this.assertBinding(flow, caller, binding));
    if (identity.flow.purpose === 'link') return { purpose: 'link', provider, link: await this.link(provider, identity) };
    const { account, created } = await this.findOrCreate(provider, identity);
    const mode = identity.flow.mode ?? 'json';
    if (mode === 'json') return { purpose: 'login', provider, account, accountCreated: created, session: await this.auth.startSession(account, provider) };
    const loginCode = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + LOGIN_CODE_TTL_MS);
    await this.codes.purge(new Date(now.getTime() - LOGIN_CODE_TTL_MS));
    await this.codes.save(sha256(loginCode), { accountId: account.id, provider, accountCreated: created, createdAt: now, expiresAt });
    const url = new URL(this.config.login.returnUrl!);
    url.searchParams.set('login_code', loginCode);
    url.searchParams.set('provider', provider);
    return { purpose: 'login', provider, account, accountCreated: created, redirect: { url: url.href, loginCode, expiresAt } };
  }

  /** Exchanges a login_code (once, within a minute) for a new session. */
  async exchange(loginCode: string): Promise<ExchangedSession> {
    const code = typeof loginCode === 'string' && loginCode.length <= 200 ? await this.codes.consume(sha256(loginCode), this.clock.now()) : undefined;
    // Like an invalid refresh token: a credential that does not (or no longer) authenticate, not malformed input.
    if (!code) throw new Unauthenticated('login_code is unknown, expired or already used: sign in again');
    const account = await new AccountStore(this.db).findById(code.accountId);
    if (!account) throw new Unauthenticated('the account of this login_code no longer exists');
    const session = await this.auth.startSession(account, code.provider);
    return { provider: code.provider, accountId: account.id, accountCreated: code.accountCreated, session };
  }

  async loginMethods(viewer: Viewer): Promise<LoginMethods> {
    const accounts = new AccountStore(this.db);
    if (!(await accounts.findById(viewer.id))) throw new Unauthenticated('the account of this access token no longer exists');
    return { hasPassword: Boolean(await accounts.passwordHash(viewer.id)), identities: await this.links.listLinks(viewer.id) };
  }

  /**
   * Unlinks the caller's identity at a social provider, unless it is the account's last way to log in (no password
   * and no other linked identity at a configured social provider): then 409, so nobody locks themselves out.
   */
  async unlink(viewer: Viewer, providerName: string): Promise<LoginMethods> {
    if (providerName === 'orcid') throw new BadInput('an ORCID iD is unlinked at DELETE /v1/user/authenticate/orcid');
    const provider = socialProvider(providerName);
    await this.links.transaction(async (store, tx) => {
      const identities = await store.listLinks(viewer.id);
      if (!identities.some((l) => l.provider === provider)) throw new NotFound(`no ${PROVIDER_NAMES[provider].name} identity is linked to this account`);
      const hasPassword = Boolean(await new AccountStore(tx).passwordHash(viewer.id));
      const otherLogin = identities.some((l) => l.provider !== provider && (SOCIAL_PROVIDERS as readonly string[]).includes(l.provider) && this.flows.isConfigured(l.provider as SocialProviderName));
      if (!hasPassword && !otherLogin) {
        throw new Conflict(
          `this ${PROVIDER_NAMES[provider].name} identity is the only way to log in to this account: set a password (POST /v1/user/auth/password) or link another provider first`,
        );
      }
      await store.deleteLink(viewer.id, provider);
    });
    this.log.info({ accountId: viewer.id, provider }, 'identity unlinked');
    return this.loginMethods(viewer);
  }

  private assertBinding(flow: PendingFlow, caller: Viewer | null, binding?: string | null): void {
    const provider = flow.provider as SocialProviderName;
    if (flow.purpose === 'link') {
      if (caller && caller.id !== flow.accountId) throw new BadInput(`this request was started by another account; nothing was changed. Start again at ${authorizePath(provider)}`);
      return;
    }
    if (flow.purpose !== 'login') throw new BadInput('state belongs to another kind of request');
    // Without this, someone could send a victim the callback URL of their own sign-in and have the victim's
    // browser signed in to the attacker's account (login CSRF, RFC 6749 section 10.12).
    if (flow.bindingHash && (!binding || sha256(binding) !== flow.bindingHash)) {
      throw new BadInput(`this sign-in was started in another browser (or its cookie is gone); nothing was changed. Start again at ${loginPath(provider)}`);
    }
  }

  /** The linked account, or a new Regular account for an unknown identity with a verified email no account has. */
  private async findOrCreate(provider: SocialProviderName, identity: ProviderIdentity): Promise<{ account: Account; created: boolean }> {
    const label = PROVIDER_NAMES[provider].name;
    const known = await this.linkedAccount(provider, identity);
    if (known) return { account: known, created: false };
    const email = verifiedEmail(identity.claims);
    if (!email) {
      throw new BadInput(
        `${label} did not confirm a verified email address, so no account can be created: verify your (primary) email there and sign in again, or register here and link ${label} from your profile at ${authorizePath(provider)}`,
      );
    }
    const normalized = normalizeEmail(email);
    const collision = new Conflict(
      `an account with the email ${normalized.email} already exists: log in to it and link your ${label} account from your profile (GET ${authorizePath(provider)}); signing in with ${label} then opens that account`,
    );
    try {
      const account = await this.links.transaction(async (store, tx) => {
        const accounts = new AccountStore(tx);
        if (await accounts.findCredentials(normalized.key)) throw collision;
        const now = this.clock.now();
        const created = await accounts.insert({
          id: newId(),
          email: normalized.email,
          emailKey: normalized.key,
          passwordHash: null,
          displayName: displayNameFrom(identity.claims, normalized.email),
          accountType: 'REGULAR',
          verified: false,
          now,
        });
        await store.upsertLink(this.linkRecord(provider, identity, created.id, now));
        return created;
      });
      this.log.info({ accountId: account.id, provider }, 'account created by social sign-in');
      return { account, created: true };
    } catch (e) {
      // Two first sign-ins of the same identity at once: the loser finds the winner's link.
      if (e instanceof Conflict && e !== collision) {
        const winner = await this.linkedAccount(provider, identity);
        if (winner) return { account: winner, created: false };
        throw collision;
      }
      throw e;
    }
  }

  private async linkedAccount(provider: SocialProviderName, identity: ProviderIdentity): Promise<Account | undefined> {
    const link = await this.links.findLinkByIdentity(provider, identity.issuer, identity.subject);
    return link ? new AccountStore(this.db).findById(link.accountId) : undefined;
  }

  /** Links the identity to the account that started the flow; one linked to another account is 409. */
  private async link(provider: SocialProviderName, identity: ProviderIdentity): Promise<LinkedIdentity> {
    const accountId = identity.flow.accountId;
    const link = await this.links.transaction(async (store, tx) => {
      const account = accountId ? await new AccountStore(tx).findById(accountId) : undefined;
      if (!account) throw new NotFound('the account this request was started for no longer exists');
      return store.upsertLink(this.linkRecord(provider, identity, account.id, this.clock.now()));
    });
    this.log.info({ accountId: link.accountId, provider }, 'identity linked');
    return link;
  }

  private linkRecord(provider: SocialProviderName, identity: ProviderIdentity, accountId: string, now: Date): LinkedIdentity {
    const c = identity.claims;
    return {
      id: newId(),
      accountId,
      provider,
      issuer: identity.issuer,
      subject: identity.subject,
      name: text(c.name),
      username: text(c.preferred_username) ?? text(c.nickname),
      email: verifiedEmail(c),
      linkedAt: now,
    };
  }
}
