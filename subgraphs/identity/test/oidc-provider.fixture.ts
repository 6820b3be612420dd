import http from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Provider, { type ClientMetadata, type KoaContextWithOIDC } from 'oidc-provider';

/** Claims of one identity at the test provider, keyed by its subject. */
export type TestIdentities = Record<string, Record<string, unknown>>;

export interface TestOidcProvider {
  issuer: string;
  /** Discovery metadata (endpoints), as clients read it from `/.well-known/openid-configuration`. */
  metadata(): Promise<Record<string, string>>;
  /** Subject the next login at the provider authenticates as (the person at the institution's login page). */
  loginAs(subject: string): void;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (panva's oidc-provider) on a loopback port: static clients, PKCE required, and an
 * interaction endpoint that logs in as the subject chosen with `loginAs` and grants whatever the client asked for,
 * standing in for the person at the login and consent pages.
 */
export async function startTestOidcProvider(opts: {
  clients: ClientMetadata[];
  identities: TestIdentities;
  scopes: Record<string, string[]>;
  /**
   * A resource server whose plain OAuth 2.0 scopes (e.g. `user:email`) the provider grants when a request asks
   * for them without `openid`, as a code-hosting site does; its access tokens are opaque and can be introspected.
   */
  resourceServer?: { audience: string; scopes: string[] };
  /**
   * Show a login page (a form asking which identity to log in as) instead of logging in as `loginAs`'s subject
   * without one: for tests that drive a real browser through the provider.
   */
  loginPage?: boolean;
}): Promise<TestOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let subject: string | undefined;
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  const provider = new Provider(issuer, {
    clients: opts.clients,
    jwks: { keys: [{ ...signingKey, kid: 'test-signing-key', alg: 'RS256', use: 'sig' }] as never },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // Resource servers (the code-hosting API fixture) check tokens here with their own client credentials.
      introspection: { enabled: true, allowedPolicy: (_ctx, client) => client.clientAuthMethod !== 'none' },
      ...(opts.resourceServer
        ? {
            resourceIndicators: {
              enabled: true,
              // A request without `openid` is for the resource server; one with it stays an OpenID request.
              defaultResource: (ctx: KoaContextWithOIDC) => (String(ctx.oidc.params?.scope ?? '').split(' ').includes('openid') ? undefined : opts.resourceServer!.audience),
              useGrantedResource: () => true,
              getResourceServerInfo: () => ({ scope: opts.resourceServer!.scopes.join(' '), audience: opts.resourceServer!.audience, accessTokenFormat: 'opaque' }),
            },
          }
        : {}),
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['test-provider-cookie-key'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    claims: { openid: ['sub'], ...opts.scopes },
    findAccount: (_ctx, sub) => {
      const claims = opts.identities[sub];
      return claims ? { accountId: sub, claims: async () => ({ sub, ...claims }) } : undefined;
    },
  });

  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (!ctx.path.startsWith('/interaction/')) return next();
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    let result: Record<string, unknown>;
    if (details.prompt.name === 'login') {
      if (opts.loginPage && ctx.method === 'GET') {
        ctx.type = 'html';
        ctx.body = loginPage(details.uid);
        return;
      }
      const chosen = opts.loginPage ? new URLSearchParams(await readBody(ctx.req)).get('login') ?? undefined : subject;
      if (!chosen || !opts.identities[chosen]) throw new Error(`the test provider has no identity ${chosen}`);
      result = { login: { accountId: chosen } };
    } else {
      const accountId = details.session!.accountId!;
      const grant = details.grantId ? (await provider.Grant.find(details.grantId))! : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
      result = { consent: { grantId: await grant.save() } };
    }
    const redirectTo = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: details.prompt.name !== 'login' });
    ctx.status = 303;
    ctx.set('location', redirectTo);
  });

  server.on('request', provider.callback());
  return {
    issuer,
    metadata: async () => (await fetch(`${issuer}/.well-known/openid-configuration`)).json() as Promise<Record<string, string>>,
    loginAs(s: string) {
      subject = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The provider's login page: one field, the identity to log in as. */
const loginPage = (uid: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Institution login</title><link rel="icon" href="data:,"></head>
<body><h1>Log in at your institution</h1>
<form method="post" action="/interaction/${uid}">
<label for="login">Institutional login</label> <input id="login" name="login" autocomplete="username">
<button type="submit">Log in</button>
</form></body></html>`;

async function readBody(stream: NodeJS.ReadableStream): Promise<string> {
  let body = '';
  for await (const chunk of stream) body += String(chunk);
  return body;
}

/**
 * A browser without a person: follows redirects from `url`, keeping the provider's cookies, until it is sent to
 * `publicOrigin` (the service's public address), and returns that path and query; the caller plays the reverse
 * proxy in front of the service and delivers it.
 */
export async function followToService(url: string, publicOrigin: string): Promise<string> {
  const jar = new Map<string, string>();
  let current = url;
  for (let hop = 0; hop < 20; hop++) {
    const target = new URL(current);
    if (target.origin === publicOrigin) return `${target.pathname}${target.search}`;
    const res = await fetch(target, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const cookie of res.headers.getSetCookie()) {
      const pair = cookie.split(';')[0];
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = res.headers.get('location');
    if (res.status < 300 || res.status > 399 || !location) throw new Error(`the provider answered ${res.status} at ${target.pathname}: ${(await res.text()).slice(0, 500)}`);
    current = new URL(location, target).href;
  }
  throw new Error('too many redirects');
}
