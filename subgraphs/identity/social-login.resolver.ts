import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import type { AuthorizationRequest } from './login-flow.service.js';
import type { CallbackOutcome, ExchangedSession, LinkedIdentity as LinkedIdentityRecord, LoginMethods as LoginMethodsRecord, SocialLoginService } from './social-login.service.js';
import { AuthorizationRedirect, ProviderCallbackArgs } from './institutional.types.js';
import { LinkedIdentity, LoginMethods, SocialLoginCallback, SocialSession } from './social-login.types.js';

const toRedirect = (r: AuthorizationRequest): AuthorizationRedirect => ({ authorization_url: r.authorizationUrl, expires_at: r.expiresAt });

const toIdentity = (l: LinkedIdentityRecord): LinkedIdentity => ({
  provider: l.provider,
  issuer: l.issuer,
  subject: l.subject,
  username: l.username ?? null,
  name: l.name,
  email: l.email ?? null,
  linked_at: l.linkedAt,
});

const toMethods = (m: LoginMethodsRecord): LoginMethods => ({ has_password: m.hasPassword, identities: m.identities.map(toIdentity) });

const toSession = (s: ExchangedSession): SocialSession => ({ ...s.session, account_id: s.accountId, account_created: s.accountCreated, provider: s.provider });

function toCallback(o: CallbackOutcome): SocialLoginCallback {
  if (o.purpose === 'link') return { purpose: 'link', provider: o.provider, account_id: o.link.accountId, account_created: false, identity: toIdentity(o.link) };
  return {
    purpose: 'login',
    provider: o.provider,
    account_id: o.account.id,
    account_created: o.accountCreated,
    session: o.session ? toSession({ provider: o.provider, accountId: o.account.id, accountCreated: o.accountCreated, session: o.session }) : null,
    redirect_url: o.redirect?.url ?? null,
    login_code: o.redirect?.loginCode ?? null,
    login_code_expires_at: o.redirect?.expiresAt ?? null,
  };
}

/**
 * Social sign-in and identity linking (spec 5.7): general OpenID Connect, GitLab-style and GitHub-style providers.
 * `provider` is one of SOCIAL_PROVIDERS (lib/config.ts), the path segment of the REST routes.
 */
@Resolver()
export class SocialLoginResolver {
  constructor(private readonly service: SocialLoginService) {}

  @Mutation(() => AuthorizationRedirect, {
    name: 'startSocialLogin',
    description: 'Starts signing in with a social login provider (OAuth 2.0 authorization code with PKCE S256). mode=json: the callback answers the session; mode=redirect needs browser_binding and answers a login_code',
  })
  @Access(AccessClass.Public)
  async startSocialLogin(
    @Arg('provider', () => String) provider: string,
    @Arg('mode', () => String, { defaultValue: 'json' }) mode: string,
    @Arg('browser_binding', () => String, { nullable: true }) browser_binding: string | null,
  ): Promise<AuthorizationRedirect> {
    return toRedirect(await this.service.startLogin(provider, mode, browser_binding));
  }

  @Mutation(() => AuthorizationRedirect, { name: 'startSocialLink', description: 'Starts linking an identity at a social login provider to the current account' })
  @Access(AccessClass.User, { token: 'login' })
  async startSocialLink(@Arg('provider', () => String) provider: string, @Ctx() ctx: RequestContext): Promise<AuthorizationRedirect> {
    return toRedirect(await this.service.startLink(ctx.viewer!, provider));
  }

  @Mutation(() => SocialLoginCallback, {
    name: 'completeSocialLogin',
    description: "Completes a sign-in or a link from the provider's callback",
  })
  @Access(AccessClass.Public, { token: 'login' })
  async completeSocialLogin(
    @Arg('provider', () => String) provider: string,
    @Args(() => ProviderCallbackArgs) { browser_binding, ...params }: ProviderCallbackArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<SocialLoginCallback> {
    return toCallback(await this.service.complete(provider, params, ctx.viewer, browser_binding));
  }

  @Mutation(() => SocialSession, { name: 'exchangeLoginCode', description: 'Exchanges the login_code of a redirect-mode sign-in for a token pair (once, within a minute)' })
  @Access(AccessClass.Public)
  async exchangeLoginCode(@Arg('login_code', () => String) login_code: string): Promise<SocialSession> {
    return toSession(await this.service.exchange(login_code));
  }

  @Query(() => LoginMethods, { name: 'loginMethods', description: 'Whether the current account has a password, and the external identities linked to it' })
  @Access(AccessClass.User, { remoteCallers: false })
  async loginMethods(@Ctx() ctx: RequestContext): Promise<LoginMethods> {
    return toMethods(await this.service.loginMethods(ctx.viewer!));
  }

  @Mutation(() => LoginMethods, { name: 'unlinkIdentity', description: 'Unlinks the identity at a social login provider, unless it is the last way to log in' })
  @Access(AccessClass.User, { token: 'login' })
  async unlinkIdentity(@Arg('provider', () => String) provider: string, @Ctx() ctx: RequestContext): Promise<LoginMethods> {
    return toMethods(await this.service.unlink(ctx.viewer!, provider));
  }
}
