import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import type { AuthorizationRequest } from './login-flow.service.js';
import { REFRESH_HINT, type InstitutionalService, type OrcidStatus, type VerificationStatus } from './institutional.service.js';
import type { AccountTypeValue } from './account.types.js';
import { AuthorizationRedirect, InstitutionalVerification, InstitutionalVerificationResult, OrcidLink, ProviderCallbackArgs } from './institutional.types.js';

const toRedirect = (r: AuthorizationRequest): AuthorizationRedirect => ({ authorization_url: r.authorizationUrl, expires_at: r.expiresAt });

const toVerification = (s: VerificationStatus): InstitutionalVerification => ({
  verified: s.verified,
  account_type: s.accountType as AccountTypeValue,
  issuer: s.verification?.issuer ?? null,
  institution: s.verification?.institution ?? null,
  email: s.verification?.email ?? null,
  email_domain: s.verification?.emailDomain ?? null,
  affiliations: s.verification?.affiliations ?? [],
  verified_at: s.verification?.verifiedAt ?? null,
});

const orcidUrl = (issuer: string, id: string) => `${/sandbox\.orcid\.org/.test(issuer) ? 'https://sandbox.orcid.org' : 'https://orcid.org'}/${id}`;

const toOrcidLink = ({ link }: OrcidStatus): OrcidLink => ({
  linked: link !== null,
  orcid: link?.subject ?? null,
  orcid_url: link ? orcidUrl(link.issuer, link.subject) : null,
  name: link?.name ?? null,
  linked_at: link?.linkedAt ?? null,
});

/**
 * Institutional verification (spec 4.2, 5.8) and ORCID iD linking (5.7). The `start*` mutations answer the
 * authorize routes; the `complete*` mutations answer the provider callbacks, which browsers reach without a token.
 */
@Resolver()
export class InstitutionalResolver {
  constructor(private readonly service: InstitutionalService) {}

  @Query(() => InstitutionalVerification, { name: 'institutionalVerification', description: 'Academic standing of the current account and its institutional verification, if any' })
  @Access(AccessClass.User, { remoteCallers: false })
  async institutionalVerification(@Ctx() ctx: RequestContext): Promise<InstitutionalVerification> {
    return toVerification(await this.service.verificationStatus(ctx.viewer!));
  }

  @Mutation(() => AuthorizationRedirect, {
    name: 'startInstitutionalVerification',
    description:
      'Starts institutional login (OAuth 2.0 authorization code with PKCE S256), bound to the browser that will complete it: browser_binding is required and must come back to the callback in the login_binding cookie (GET /v1/user/authenticate/institutional/authorize does both)',
  })
  @Access(AccessClass.User, { token: 'login' })
  async startInstitutionalVerification(
    @Ctx() ctx: RequestContext,
    @Arg('browser_binding', () => String, { nullable: true }) browser_binding: string | null,
  ): Promise<AuthorizationRedirect> {
    return toRedirect(await this.service.startVerification(ctx.viewer!, browser_binding));
  }

  @Mutation(() => InstitutionalVerificationResult, {
    name: 'completeInstitutionalVerification',
    description:
      'Completes institutional login from the provider callback and marks the account that started it as verified academic; browser_binding must be the value the flow was started with (the callback route reads it from the cookie)',
  })
  @Access(AccessClass.Public, { token: 'login' })
  async completeInstitutionalVerification(
    @Args(() => ProviderCallbackArgs) { browser_binding, ...params }: ProviderCallbackArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<InstitutionalVerificationResult> {
    const { status, accountChanged } = await this.service.completeVerification(params, ctx.viewer, browser_binding);
    return {
      ...toVerification(status),
      refresh_required: accountChanged,
      message: accountChanged ? `verification complete: ${REFRESH_HINT}` : 'verification complete; the account already had this standing',
    };
  }

  @Query(() => OrcidLink, { name: 'orcidLink', description: 'The ORCID iD linked to the current account, if any' })
  @Access(AccessClass.User, { remoteCallers: false })
  async orcidLink(@Ctx() ctx: RequestContext): Promise<OrcidLink> {
    return toOrcidLink(await this.service.orcidStatus(ctx.viewer!));
  }

  @Mutation(() => AuthorizationRedirect, {
    name: 'startOrcidLink',
    description:
      'Starts linking an ORCID iD to the current account (OAuth 2.0 authorization code with PKCE S256), bound to the browser that will complete it like startInstitutionalVerification',
  })
  @Access(AccessClass.User, { token: 'login' })
  async startOrcidLink(
    @Ctx() ctx: RequestContext,
    @Arg('browser_binding', () => String, { nullable: true }) browser_binding: string | null,
  ): Promise<AuthorizationRedirect> {
    return toRedirect(await this.service.startOrcidLink(ctx.viewer!, browser_binding));
  }

  @Mutation(() => OrcidLink, { name: 'completeOrcidLink', description: 'Completes ORCID iD linking from the provider callback; browser_binding as for completeInstitutionalVerification' })
  @Access(AccessClass.Public, { token: 'login' })
  async completeOrcidLink(@Args(() => ProviderCallbackArgs) { browser_binding, ...params }: ProviderCallbackArgs, @Ctx() ctx: RequestContext): Promise<OrcidLink> {
    return toOrcidLink(await this.service.completeOrcidLink(params, ctx.viewer, browser_binding));
  }

  @Mutation(() => OrcidLink, { name: 'unlinkOrcid', description: 'Removes the linked ORCID iD from the current account' })
  @Access(AccessClass.User, { token: 'login' })
  async unlinkOrcid(@Ctx() ctx: RequestContext): Promise<OrcidLink> {
    return toOrcidLink(await this.service.unlinkOrcid(ctx.viewer!));
  }
}
