import { PROVIDER_NAMES } from '../../lib/auth/provider-names.js';
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import type { FastifyBaseLogger } from 'fastify';
import { SOCIAL_PROVIDERS, isOidcProvider, type Config, type LoginProviderConfig, type LoginProviderName, type OAuthProviderConfig } from '../../lib/config.js';
import type { Clock } from '../../lib/clock.js';
import { BadInput, NotFound, ServiceUnavailable } from '../../lib/errors.js';
import type { FlowPurpose, InstitutionalStore, LoginMode, PendingFlow } from './store/institutional.store.js';
import { fetchCodeHostingUser } from './code-hosting.client.js';

/** Spec 5.7: an authorization request can be completed for ten minutes, once. */
export const FLOW_TTL_MS = 10 * 60 * 1000;
/** Used and expired flows are kept this long, so a late replay still reads as "already used" rather than "unknown". */
const FLOW_RETENTION_MS = 24 * 60 * 60 * 1000;

const PROVIDER_LABEL = Object.fromEntries(Object.entries(PROVIDER_NAMES).map(([p, n]) => [p, n.flow])) as Record<LoginProviderName, string>;

export const authorizePath = (provider: LoginProviderName) => `/v1/user/authenticate/${provider}/authorize`;
export const loginPath = (provider: LoginProviderName) => `/v1/user/authenticate/${provider}/login`;
export const callbackPath = (provider: LoginProviderName) => `/v1/user/authenticate/${provider}/callback`;

/** Where a user starts over after a failed callback: a sign-in starts at /login, everything else at /authorize. */
const startAgain = (provider: LoginProviderName, purpose?: FlowPurpose) =>
  `start again at ${purpose === 'login' ? loginPath(provider) : authorizePath(provider)}`;

export interface AuthorizationRequest {
  authorizationUrl: string;
  expiresAt: Date;
}

/** What the provider's callback carries (RFC 6749 4.1.2, RFC 9207 `iss`). */
export interface CallbackParams {
  state: string;
  code?: string | null;
  iss?: string | null;
  error?: string | null;
  error_description?: string | null;
}

/** What a sign-in flow records besides the account binding. */
export interface FlowOptions {
  mode?: LoginMode;
  bindingHash?: string;
}

/** An identity the provider vouched for: ID token claims merged with userinfo (or the user API), and the flow it completed. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  claims: Record<string, unknown>;
  flow: PendingFlow;
}

const hashState = (state: string) => createHash('sha256').update(state).digest('base64url');

/** A browser-binding value (kept in an HttpOnly cookie by the REST routes): random, at least 128 bits. */
export const BROWSER_BINDING_MIN_LENGTH = 22;
/** What a flow stores of its browser binding. */
export const hashBrowserBinding = (binding: string) => createHash('sha256').update(binding, 'utf8').digest('base64url');

/**
 * GitHub answers token errors with HTTP 200 and an `error` member; as a 400 they reach openid-client's error
 * handling like any other provider's (`bad_verification_code`, `incorrect_client_credentials`).
 */
const oauthErrorsAs400: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (res.status !== 200 || !(res.headers.get('content-type') ?? '').includes('json')) return res;
  const body = await res.text();
  let error: unknown;
  try {
    error = (JSON.parse(body) as { error?: unknown }).error;
  } catch {
    error = undefined;
  }
  return new Response(body, { status: typeof error === 'string' ? 400 : 200, headers: res.headers });
};

/** GitHub's names for the standard token errors. */
const GITHUB_ERRORS: Record<string, string> = {
  bad_verification_code: 'invalid_grant',
  incorrect_client_credentials: 'invalid_client',
  unverified_user_email: 'access_denied',
};

/**
 * OAuth 2.0 authorization-code flows with PKCE (S256) and state against the configured providers, through
 * openid-client: OpenID providers (discovery, nonce, ID token validation, userinfo) and the GitHub-style plain OAuth
 * 2.0 provider (explicit endpoints, then its user API). The state row in the relational store binds the account (or,
 * for a sign-in, the mode and browser binding), code verifier, nonce and redirect URI, so any process can complete a
 * flow another one started. Provider metadata is discovered once per process.
 */
export class LoginFlowService {
  private readonly discovered = new Map<LoginProviderName, Promise<oidc.Configuration>>();

  constructor(
    private readonly login: Config['login'],
    private readonly store: InstitutionalStore,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  isConfigured(provider: LoginProviderName): boolean {
    return Boolean(this.login.providers[provider]);
  }

  /** NotFound "<provider> is not configured on this server" unless it is. */
  assertConfigured(provider: LoginProviderName): void {
    this.settings(provider);
  }

  /**
   * Starts a flow for the account (null for a sign-in, whose account is only known at the callback); throws
   * NotFound when the provider is not configured.
   */
  async start(provider: LoginProviderName, purpose: FlowPurpose, accountId: string | null, options: FlowOptions = {}): Promise<AuthorizationRequest> {
    const settings = this.settings(provider);
    const config = await this.configuration(provider, settings);
    const isOidc = isOidcProvider(settings);
    const state = oidc.randomState();
    // A plain OAuth 2.0 provider issues no ID token to carry a nonce (and oidc-style servers refuse one without openid).
    const nonce = isOidc ? oidc.randomNonce() : '';
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + FLOW_TTL_MS);
    const redirectUri = `${this.login.publicUrl}${callbackPath(provider)}`;
    await this.store.purgeFlows(new Date(now.getTime() - FLOW_RETENTION_MS));
    await this.store.saveFlow(hashState(state), {
      provider,
      purpose,
      accountId,
      mode: options.mode ?? null,
      bindingHash: options.bindingHash ?? null,
      codeVerifier,
      nonce,
      redirectUri,
      createdAt: now,
      expiresAt,
    });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: settings.scopes.join(' '),
      state,
      ...(isOidc ? { nonce } : {}),
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    this.log.info({ provider, purpose, accountId }, 'login flow started');
    return { authorizationUrl: url.href, expiresAt };
  }

  /**
   * Completes a flow from the provider's callback: consumes the state (whatever happens next, it cannot be used
   * again), exchanges the code with the stored PKCE verifier, validates the ID token (issuer, audience, signature,
   * expiry, nonce) and reads userinfo, or for a plain OAuth 2.0 provider reads its user API. `precheck` sees the
   * consumed flow before the code is exchanged (binding checks). Every failure of the request itself is BadInput; an
   * unreachable provider is ServiceUnavailable.
   */
  async complete(provider: LoginProviderName, params: CallbackParams, precheck?: (flow: PendingFlow) => void): Promise<ProviderIdentity> {
    const settings = this.settings(provider);
    // Until the flow is known, a social provider's likelier start is a sign-in.
    let again = startAgain(provider, (SOCIAL_PROVIDERS as readonly string[]).includes(provider) ? 'login' : undefined);
    if (!params.state) throw new BadInput(`state is required: ${again}`);
    const now = this.clock.now();
    const flow = await this.store.consumeFlow(hashState(params.state), provider, now);
    if (!flow) throw new BadInput(`state is unknown or was already used: ${again}`);
    again = startAgain(provider, flow.purpose);
    if (flow.expiresAt.getTime() <= now.getTime()) {
      throw new BadInput(`this authorization request expired (requests are valid for ${FLOW_TTL_MS / 60_000} minutes): ${again}`);
    }
    if (params.error) {
      const detail = params.error_description ? ` (${params.error_description})` : '';
      throw new BadInput(`the provider did not authorize the request: ${params.error}${detail}; ${again}`);
    }
    if (!params.code) throw new BadInput(`code is required: ${again}`);
    precheck?.(flow);

    const config = await this.configuration(provider, settings);
    const callbackUrl = new URL(flow.redirectUri);
    callbackUrl.searchParams.set('code', params.code);
    callbackUrl.searchParams.set('state', params.state);
    if (!isOidcProvider(settings)) return this.completeOAuth(provider, settings, config, callbackUrl, flow, again);
    if (params.iss) callbackUrl.searchParams.set('iss', params.iss);
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: params.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      const userinfo = config.serverMetadata().userinfo_endpoint ? await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub) : {};
      // The ID token is authoritative for who and for whom; userinfo adds the profile and affiliation claims.
      const claims: Record<string, unknown> = { ...idToken, ...userinfo, iss: idToken.iss, sub: idToken.sub };
      return { issuer: idToken.iss, subject: idToken.sub, claims, flow };
    } catch (e) {
      throw this.explain(provider, e, again);
    }
  }

  /**
   * The plain OAuth 2.0 branch: the code grant with the PKCE verifier (no ID token, no nonce), then the user API.
   * The callback's `iss`, if any, is not checked: GitHub-style providers do not implement RFC 9207.
   */
  private async completeOAuth(
    provider: LoginProviderName,
    settings: OAuthProviderConfig,
    config: oidc.Configuration,
    callbackUrl: URL,
    flow: PendingFlow,
    again: string,
  ): Promise<ProviderIdentity> {
    let accessToken: string;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: callbackUrl.searchParams.get('state')!,
        idTokenExpected: false,
      });
      accessToken = tokens.access_token;
    } catch (e) {
      throw this.explain(provider, e, again);
    }
    const user = await fetchCodeHostingUser(settings.apiUrl, accessToken, PROVIDER_LABEL[provider], this.log);
    return { issuer: settings.apiUrl, subject: user.subject, claims: { ...user.claims }, flow };
  }

  private settings(provider: LoginProviderName): LoginProviderConfig {
    const settings = this.login.providers[provider];
    if (!settings) throw new NotFound(`${PROVIDER_LABEL[provider]} is not configured on this server`);
    return settings;
  }

  /**
   * Discovers an OpenID provider once per process (a failed discovery is retried by the next request); a plain
   * OAuth 2.0 provider is described by its configured endpoints, with its authorization server's origin as issuer.
   */
  private configuration(provider: LoginProviderName, s: LoginProviderConfig): Promise<oidc.Configuration> {
    if (!isOidcProvider(s)) {
      const server = { issuer: new URL(s.authorizationEndpoint).origin, authorization_endpoint: s.authorizationEndpoint, token_endpoint: s.tokenEndpoint };
      const config = new oidc.Configuration(server, s.clientId, s.clientSecret, s.clientSecret ? undefined : oidc.None());
      config.timeout = 10;
      config[oidc.customFetch] = oauthErrorsAs400 as never;
      if ([s.authorizationEndpoint, s.tokenEndpoint].some((u) => u.startsWith('http:'))) oidc.allowInsecureRequests(config);
      return Promise.resolve(config);
    }
    let pending = this.discovered.get(provider);
    if (!pending) {
      const issuer = new URL(s.issuer);
      // Config validation allows plain http only for loopback issuers (local providers and tests).
      const execute = issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
      pending = oidc.discovery(issuer, s.clientId, s.clientSecret, s.clientSecret ? undefined : oidc.None(), { execute, timeout: 10 });
      this.discovered.set(provider, pending);
      pending.catch((e: unknown) => {
        this.discovered.delete(provider);
        this.log.warn({ provider, issuer: s.issuer, err: (e as Error).message }, 'login provider discovery failed');
      });
    }
    return pending.catch(() => {
      throw new ServiceUnavailable(`the ${PROVIDER_LABEL[provider]} provider cannot be reached; try again later`);
    });
  }

  /** openid-client failures -> errors a user can act on; provider-side configuration problems are logged. */
  private explain(provider: LoginProviderName, e: unknown, again: string): Error {
    if (e instanceof oidc.ResponseBodyError) {
      const error = GITHUB_ERRORS[e.error] ?? e.error;
      if (error === 'invalid_grant') {
        return new BadInput(`the provider rejected the authorization code: it is invalid, expired, already used or does not match this request's PKCE code verifier; ${again}`);
      }
      if (error === 'invalid_client' || error === 'unauthorized_client') {
        this.log.error({ provider, error: e.error, description: e.error_description }, 'login provider rejected the client credentials');
        return new ServiceUnavailable(`the ${PROVIDER_LABEL[provider]} provider rejected this service's client credentials; contact the operators`);
      }
      return new BadInput(`the provider refused the token request: ${e.error}${e.error_description ? ` (${e.error_description})` : ''}; ${again}`);
    }
    if (e instanceof oidc.AuthorizationResponseError) {
      return new BadInput(`the provider did not authorize the request: ${e.error}${e.error_description ? ` (${e.error_description})` : ''}; ${again}`);
    }
    if (e instanceof oidc.ClientError) {
      const detail = e.cause instanceof Error ? e.cause.message : e.message;
      if (e.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' || e.code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') {
        return new BadInput(`the provider's response does not belong to this authorization request (${detail}); ${again}`);
      }
      if (e.code === 'OAUTH_TIMEOUT' || e.name === 'AbortError' || e.name === 'TimeoutError') {
        return new ServiceUnavailable(`the ${PROVIDER_LABEL[provider]} provider did not answer in time; try again later`);
      }
      return new BadInput(`the provider's response failed validation (${detail}); ${again}`);
    }
    if (e instanceof TypeError || (e as Error)?.name === 'TimeoutError' || (e as Error)?.name === 'AbortError') {
      this.log.warn({ provider, err: (e as Error).message }, 'login provider unreachable');
      return new ServiceUnavailable(`the ${PROVIDER_LABEL[provider]} provider cannot be reached; try again later`);
    }
    return e as Error;
  }
}
