import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../lib/db/relational.js';
import type { AccountType, Viewer } from '../../lib/auth/viewer.js';
import { BadInput, NotFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Config, LoginProviderName } from '../../lib/config.js';
import { AccountStore, type Account } from './store/account.store.js';
import { AccountService } from './account.service.js';
import { normalizeOrcid } from './account.rules.js';
import { InstitutionalStore, type InstitutionalVerification, type LinkedIdentity } from './store/institutional.store.js';
import {
  BROWSER_BINDING_MIN_LENGTH,
  LoginFlowService,
  authorizePath,
  hashBrowserBinding,
  type AuthorizationRequest,
  type CallbackParams,
} from './login-flow.service.js';
import type { PendingFlow } from './store/institutional.store.js';

/**
 * What `GET /v1/user/authenticate/institutional` shows: the account's stored standing (`verified` is the account's
 * flag, so a Service account reads verified without an institution) and the institutional evidence, if any.
 */
export interface VerificationStatus {
  verified: boolean;
  accountType: AccountType;
  verification: InstitutionalVerification | null;
}

export interface OrcidStatus {
  link: LinkedIdentity | null;
}

/** Institution-related claims of an institutional login, as stored with the verification. */
export interface InstitutionClaims {
  institution: string | null;
  email: string | null;
  emailDomain: string | null;
  affiliations: string[];
}

const MAX_AFFILIATIONS = 20;
export const REFRESH_HINT =
  'Academic routes are open now with your current token; refresh it at POST /v1/user/auth/refresh so that its claims (read by other clusters) show the new account type';

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * Reads institution, email and affiliation from the claims of the federations we know: REFEDS/eduGAIN and
 * SURFconext (`eduperson_scoped_affiliation`, `schac_home_organization`) and CILogon (`affiliation` as a `;` list,
 * `idp_name`). An email the provider marks unverified is not recorded, since its domain would prove nothing.
 */
export function institutionClaims(claims: Record<string, unknown>): InstitutionClaims {
  const raw = [claims.eduperson_scoped_affiliation, claims.eduPersonScopedAffiliation, claims.affiliation].flatMap((v) =>
    Array.isArray(v) ? v : typeof v === 'string' ? v.split(/[;,\s]+/) : [],
  );
  const affiliations = [...new Set(raw.map(str).filter((a): a is string => a !== null && a.length <= 256))].slice(0, MAX_AFFILIATIONS);
  const asserted = claims.email_verified === false ? null : /^([^@\s]+)@([^@\s]+)$/.exec(str(claims.email) ?? '');
  const emailDomain = asserted ? asserted[2].toLowerCase() : null;
  const email = asserted ? `${asserted[1]}@${emailDomain}` : null;
  const scope = affiliations.map((a) => /@([^@\s]+)$/.exec(a)?.[1]).find(Boolean) ?? null;
  const institution = str(claims.idp_name) ?? str(claims.schac_home_organization) ?? str(claims.organization) ?? scope ?? emailDomain;
  return { institution, email, emailDomain, affiliations };
}

/** The ORCID iD in a researcher-ID provider's subject (bare, or as an orcid.org URL), or null when it holds none. */
export function orcidIdFrom(subject: string): string | null {
  try {
    return normalizeOrcid(subject.replace(/^https?:\/\/sandbox\.orcid\.org\//i, ''));
  } catch {
    return null;
  }
}

/**
 * Academic verification through the institutional login federation (spec 3, 5.8) and ORCID iD linking (spec 5.7),
 * both on the login-flow machinery. Completing a flow changes the account the flow was started for, never the
 * caller of the callback: the browser arrives there without a token. So each flow is bound to the browser that
 * started it (a random value the authorize route keeps in an HttpOnly cookie, stored here as a hash) and only that
 * browser can complete it: otherwise anyone could hand the provider URL to a person at an institution (or with an
 * ORCID iD) and have that person's login verify their own account.
 */
export class InstitutionalService {
  constructor(
    private readonly flows: LoginFlowService,
    private readonly store: InstitutionalStore,
    private readonly db: Db,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** BadInput without a browser binding: the callback could not tell the starting browser from any other. */
  startVerification(viewer: Viewer, binding: string | null | undefined): Promise<AuthorizationRequest> {
    return this.flows.start('institutional', 'verify', viewer.id, { bindingHash: this.bindingHash(binding, 'institutional') });
  }

  /**
   * Marks the account that started the flow as ACADEMIC and verified, with the institution's claims as evidence.
   * SuperUser and Service accounts keep their type. Nothing changes unless the whole flow validates.
   */
  async completeVerification(
    params: CallbackParams,
    caller: Viewer | null,
    binding: string | null | undefined,
  ): Promise<{ status: VerificationStatus; accountChanged: boolean }> {
    const identity = await this.flows.complete('institutional', params, (flow) => this.assertStarter(flow, caller, binding, 'verify'));
    const claims = institutionClaims(identity.claims);
    const now = this.clock.now();
    const result = await this.store.transaction(async (store, tx) => {
      const accounts = new AccountStore(tx);
      const before = await this.account(accounts, identity.flow.accountId);
      const verification = await store.upsertVerification({
        accountId: before.id,
        issuer: identity.issuer,
        subject: identity.subject,
        ...claims,
        verifiedAt: now,
      });
      // The identity core's rule: Regular becomes verified Academic; Service and SuperUser keep their type.
      const after = await new AccountService(accounts, this.config, this.clock).markAcademicVerified(before.id);
      return { verification, before, after };
    });
    this.log.info({ accountId: result.after.id, issuer: identity.issuer, institution: claims.institution }, 'account verified by institution');
    return {
      status: { verified: true, accountType: result.after.accountType, verification: result.verification },
      accountChanged: result.before.accountType !== result.after.accountType || result.before.verified !== result.after.verified,
    };
  }

  async verificationStatus(viewer: Viewer): Promise<VerificationStatus> {
    const account = await this.account(new AccountStore(this.db), viewer.id);
    const verification = (await this.store.findVerification(viewer.id)) ?? null;
    return { verified: account.verified, accountType: account.accountType, verification };
  }

  startOrcidLink(viewer: Viewer, binding: string | null | undefined): Promise<AuthorizationRequest> {
    return this.flows.start('orcid', 'link', viewer.id, { bindingHash: this.bindingHash(binding, 'orcid') });
  }

  /** Links the ORCID iD the provider authenticated to the account that started the flow and shows it on its profile. */
  async completeOrcidLink(params: CallbackParams, caller: Viewer | null, binding: string | null | undefined): Promise<OrcidStatus> {
    const identity = await this.flows.complete('orcid', params, (flow) => this.assertStarter(flow, caller, binding, 'link'));
    const orcid = orcidIdFrom(identity.subject);
    if (!orcid) throw new BadInput(`the researcher-ID provider returned "${identity.subject}", which is not an ORCID iD; nothing was linked`);
    const given = str(identity.claims.given_name);
    const family = str(identity.claims.family_name);
    const name = str(identity.claims.name) ?? ([given, family].filter(Boolean).join(' ') || null);
    const now = this.clock.now();
    const link = await this.store.transaction(async (store, tx) => {
      const accounts = new AccountStore(tx);
      const account = await this.account(accounts, identity.flow.accountId);
      const saved = await store.upsertLink({ id: newId(), accountId: account.id, provider: 'orcid', issuer: identity.issuer, subject: orcid, name, linkedAt: now });
      await accounts.updateProfile(account.id, { orcid }, now);
      return saved;
    });
    this.log.info({ accountId: link.accountId }, 'ORCID iD linked');
    return { link };
  }

  async orcidStatus(viewer: Viewer): Promise<OrcidStatus> {
    return { link: (await this.store.findLink(viewer.id, 'orcid')) ?? null };
  }

  /** Removes the link, and the iD from the profile when it is the linked one. */
  async unlinkOrcid(viewer: Viewer): Promise<OrcidStatus> {
    await this.store.transaction(async (store, tx) => {
      const link = await store.findLink(viewer.id, 'orcid');
      if (!link) throw new NotFound('no ORCID iD is linked to this account');
      await store.deleteLink(viewer.id, 'orcid');
      const accounts = new AccountStore(tx);
      const account = await accounts.findById(viewer.id);
      if (account?.orcid === link.subject) await accounts.updateProfile(viewer.id, { orcid: null }, this.clock.now());
    });
    return { link: null };
  }

  private async account(accounts: AccountStore, id: string | null): Promise<Account> {
    const account = id ? await accounts.findById(id) : undefined;
    if (!account) throw new NotFound('the account this request was started for no longer exists');
    return account;
  }

  private bindingHash(binding: string | null | undefined, provider: 'institutional' | 'orcid'): string {
    if (!binding || binding.length < BROWSER_BINDING_MIN_LENGTH) {
      throw new BadInput(
        `browser_binding: required (a random value of at least ${BROWSER_BINDING_MIN_LENGTH} characters); GET ${authorizePath(provider)} sets it in a cookie for the callback`,
      );
    }
    return hashBrowserBinding(binding);
  }

  /**
   * Runs on the consumed flow before the code is exchanged. The callback must come from the browser that started
   * the flow (its binding cookie); one that also carries a token must carry the starting account's.
   */
  private assertStarter(flow: PendingFlow, caller: Viewer | null, binding: string | null | undefined, purpose: 'verify' | 'link'): void {
    const again = `Start again at ${authorizePath(flow.provider as LoginProviderName)}`;
    if (flow.purpose !== purpose) throw new BadInput('state belongs to another kind of request');
    if (caller && caller.id !== flow.accountId) throw new BadInput(`this request was started by another account; nothing was changed. ${again}`);
    if (!flow.bindingHash || !binding || hashBrowserBinding(binding) !== flow.bindingHash) {
      throw new BadInput(`this request was started in another browser (or its cookie is gone); nothing was changed. ${again} in the browser that completes it`);
    }
  }
}
