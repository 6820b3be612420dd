import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, gql, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { ManualClock } from '../../../lib/clock.js';
import { ConfigError, configFrom } from '../../../lib/config.js';
import { displayNameFrom, verifiedEmail } from '../social-login.service.js';
import { followToService, startTestOidcProvider, type TestOidcProvider } from './oidc-provider.fixture.js';

const PUBLIC_URL = 'https://neurodata.example.org';
const RETURN_URL = 'https://app.neurodata.example.org/signed-in?from=provider';
const callbackOf = (provider: string) => `${PUBLIC_URL}/v1/user/authenticate/${provider}/callback`;

/** People at the test provider, as a general social login (Google-style) or a GitLab instance shows them. */
const IDENTITIES: Record<string, Record<string, unknown>> = {
  'new-person': { email: 'New.Person@example.net', email_verified: true, name: 'New Person', preferred_username: 'newperson' },
  'returning-person': { email: 'returning@example.net', email_verified: true, name: 'Returning Person' },
  'unverified-person': { email: 'unverified@example.net', email_verified: false, name: 'Unverified Person' },
  'redirect-person': { email: 'redirect@example.net', email_verified: true, name: 'Redirect Person' },
  'replayed-person': { email: 'replayed@example.net', email_verified: true },
  'late-person': { email: 'late@example.net', email_verified: true },
  'csrf-victim-target': { email: 'attacker@example.net', email_verified: true },
  'gitlab-user': { email: 'dev@gitlab.example.net', email_verified: true, name: 'Self Hosted Dev', nickname: 'shdev', preferred_username: 'shdev' },
};
/** Identities created per test for an email only that test knows. */
const identityFor = (subject: string, email: string) => (IDENTITIES[subject] = { email, email_verified: true, name: `Person ${subject.slice(-6)}` });

describe('social sign-in against a real OpenID provider (general OIDC and GitLab-style)', () => {
  let op: TestOidcProvider;
  let t: TestApp;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    op = await startTestOidcProvider({
      identities: IDENTITIES,
      scopes: {
        email: ['email', 'email_verified'],
        profile: ['name', 'preferred_username'],
        // GitLab releases the user's profile and confirmed email to read_user.
        read_user: ['email', 'email_verified', 'name', 'nickname', 'preferred_username'],
      },
      clients: [
        { client_id: 'neurodata-social', client_secret: 'social-client-secret', token_endpoint_auth_method: 'client_secret_post', redirect_uris: [callbackOf('social')] },
        // A self-hosted GitLab application registered as a public client: PKCE is its only proof.
        { client_id: 'neurodata-gitlab', token_endpoint_auth_method: 'none', redirect_uris: [callbackOf('gitlab')] },
      ],
    });
    t = await startTestApp(
      {
        PUBLIC_URL,
        LOGIN_RETURN_URL: RETURN_URL,
        OIDC_SOCIAL_ISSUER: op.issuer,
        OIDC_SOCIAL_CLIENT_ID: 'neurodata-social',
        OIDC_SOCIAL_CLIENT_SECRET: 'social-client-secret',
        OIDC_GITLAB_ISSUER: op.issuer,
        OIDC_GITLAB_CLIENT_ID: 'neurodata-gitlab',
      },
      { listen: true, clock },
    );
  });
  afterAll(async () => {
    await t?.close();
    await op?.close();
  });

  /** A client that asked for JSON: reads the provider URL, sends the browser there, reads the callback's answer. */
  async function signInJson(subject: string, provider = 'social') {
    const start = await call(t.url, 'GET', `/v1/user/authenticate/${provider}/login?mode=json`);
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    op.loginAs(subject);
    return call(t.url, 'GET', await followToService(start.body.authorization_url, PUBLIC_URL));
  }

  /** A browser navigation: /login sets the binding cookie and redirects; the browser brings the cookie back to the callback. */
  async function startRedirect(provider = 'social') {
    const res = await fetch(`${t.url}/v1/user/authenticate/${provider}/login`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const setCookie = res.headers.get('set-cookie')!;
    return { location: res.headers.get('location')!, setCookie, cookie: setCookie.split(';')[0] };
  }

  async function linkAs(u: TestUser, subject: string, provider = 'social') {
    const start = await call(t.url, 'GET', `/v1/user/authenticate/${provider}/authorize?mode=json`, { token: u.accessToken });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    op.loginAs(subject);
    return call(t.url, 'GET', await followToService(start.body.authorization_url, PUBLIC_URL));
  }

  const methods = async (token: string) => (await call(t.url, 'GET', '/v1/user/authenticate/identities', { token })).body;

  it('a new identity with a verified email creates a Regular account without a password and signs it in', async () => {
    const start = await call(t.url, 'GET', '/v1/user/authenticate/social/login?mode=json');
    expect(start.status).toBe(200);
    expect(start.headers.get('cache-control')).toBe('no-store');
    const url = new URL(start.body.authorization_url);
    expect(url.origin).toBe(op.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'neurodata-social',
      redirect_uri: callbackOf('social'),
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('state')).toBeTruthy();

    op.loginAs('new-person');
    const done = await call(t.url, 'GET', await followToService(url.href, PUBLIC_URL));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.headers.get('cache-control')).toBe('no-store');
    expect(done.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, refresh_expires_in: 2592000, account_created: true, provider: 'social' });

    const profile = await call(t.url, 'GET', '/v1/user/profile', { token: done.body.access_token });
    expect(profile.body).toMatchObject({ id: done.body.account_id, email: 'New.Person@example.net', display_name: 'New Person', account_type: 'REGULAR', verified: false });
    expect(await methods(done.body.access_token)).toMatchObject({
      has_password: false,
      identities: [{ provider: 'social', issuer: op.issuer, subject: 'new-person', username: 'newperson', email: 'New.Person@example.net' }],
    });

    // No password login until the user sets one; the refresh token is an ordinary one.
    expect((await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: 'new.person@example.net', password: 'anything-at-all' } })).status).toBe(401);
    const refreshed = await call(t.url, 'POST', '/v1/user/auth/refresh', { body: { refresh_token: done.body.refresh_token } });
    expect(refreshed.status).toBe(200);
    const set = await call(t.url, 'POST', '/v1/user/auth/password', { token: refreshed.body.access_token, body: { new_password: 'a brand new passphrase' } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: 'new.person@example.net', password: 'a brand new passphrase' } })).status).toBe(200);
    // From now on a change needs the current password.
    const change = await call(t.url, 'POST', '/v1/user/auth/password', { token: refreshed.body.access_token, body: { new_password: 'another passphrase' } });
    expect(change.status).toBe(400);
    expect(change.body.error).toMatch(/current_password/);
    const wrong = await call(t.url, 'POST', '/v1/user/auth/password', { token: refreshed.body.access_token, body: { new_password: 'another passphrase', current_password: 'nope-nope' } });
    expect(wrong.status).toBe(403);
  });

  it('a known linked identity signs in to its account again, with a new refresh family', async () => {
    const first = await signInJson('returning-person');
    expect(first.body.account_created).toBe(true);
    const second = await signInJson('returning-person');
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ account_id: first.body.account_id, account_created: false });
    // Separate logins: logging out one leaves the other working.
    expect((await call(t.url, 'POST', '/v1/user/auth/logout', { body: { refresh_token: first.body.refresh_token } })).status).toBe(200);
    expect((await call(t.url, 'POST', '/v1/user/auth/refresh', { body: { refresh_token: second.body.refresh_token } })).status).toBe(200);
  });

  it('an unknown identity whose email an account already has is refused with 409; after linking from the profile it opens that account', async () => {
    const u = await createUser(t, { email: `Holder.${Date.now()}@example.org` });
    const subject = `collision-${u.id}`;
    identityFor(subject, u.email.toUpperCase().replace('@EXAMPLE.ORG', '@example.org'));
    const refused = await signInJson(subject);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: expect.stringMatching(/already exists: log in to it and link your single sign-on account from your profile/) });
    expect(await methods(u.accessToken)).toEqual({ has_password: true, identities: [] });

    const linked = await linkAs(u, subject);
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body).toMatchObject({ provider: 'social', subject, issuer: op.issuer });
    const signedIn = await signInJson(subject);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ account_id: u.id, account_created: false });
  });

  it('an identity without a verified email cannot create an account', async () => {
    const r = await signInJson('unverified-person');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/did not confirm a verified email address/);
  });

  it('redirect mode sends the browser to LOGIN_RETURN_URL with a single-use login_code, never tokens, and binds the flow to the browser', async () => {
    const { location, setCookie, cookie } = await startRedirect();
    expect(new URL(location).origin).toBe(op.issuer);
    expect(setCookie).toMatch(/^login_binding=[A-Za-z0-9_-]{43}; Path=\/v1\/user\/authenticate\/social\/callback; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
    op.loginAs('redirect-person');
    const callback = await followToService(location, PUBLIC_URL);
    const back = await fetch(`${t.url}${callback}`, { redirect: 'manual', headers: { cookie } });
    expect(back.status).toBe(302);
    expect(back.headers.get('referrer-policy')).toBe('no-referrer');
    expect(back.headers.get('set-cookie')).toMatch(/^login_binding=; .*Max-Age=0/);
    const target = new URL(back.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe('https://app.neurodata.example.org/signed-in');
    expect([...target.searchParams.keys()].sort()).toEqual(['from', 'login_code', 'provider']);
    expect(target.href).not.toMatch(/access_token|refresh_token|v4\.public/);

    const code = target.searchParams.get('login_code');
    const exchanged = await call(t.url, 'POST', '/v1/user/auth/exchange', { body: { login_code: code } });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    expect(exchanged.body).toMatchObject({ token_type: 'Bearer', account_created: true, provider: 'social' });
    expect((await call(t.url, 'GET', '/v1/user/profile', { token: exchanged.body.access_token })).body.email).toBe('redirect@example.net');
    const again = await call(t.url, 'POST', '/v1/user/auth/exchange', { body: { login_code: code } });
    expect(again.status).toBe(401);
    expect(again.body.error).toMatch(/unknown, expired or already used/);
  });

  it('a login_code older than a minute is refused', async () => {
    const { location, cookie } = await startRedirect();
    op.loginAs('redirect-person');
    const back = await fetch(`${t.url}${await followToService(location, PUBLIC_URL)}`, { redirect: 'manual', headers: { cookie } });
    const code = new URL(back.headers.get('location')!).searchParams.get('login_code');
    clock.advance(61_000);
    expect((await call(t.url, 'POST', '/v1/user/auth/exchange', { body: { login_code: code } })).status).toBe(401);
  });

  it("a redirect-mode callback reached without the starting browser's cookie is refused (login CSRF)", async () => {
    const { location } = await startRedirect();
    op.loginAs('csrf-victim-target');
    // The attacker's own sign-in, stopped before the callback and handed to another browser.
    const callback = await followToService(location, PUBLIC_URL);
    const elsewhere = await fetch(`${t.url}${callback}`, { redirect: 'manual', headers: { cookie: 'login_binding=a-different-browsers-value-xxxxxxxxx' } });
    expect(elsewhere.status).toBe(400);
    expect(((await elsewhere.json()) as { error: string }).error).toMatch(/started in another browser/);
    const none = await fetch(`${t.url}${callback}`, { redirect: 'manual' });
    expect(none.status).toBe(400);
  });

  it('a reused state and an expired state answer 400', async () => {
    const start = await call(t.url, 'GET', '/v1/user/authenticate/social/login?mode=json');
    op.loginAs('replayed-person');
    const callback = await followToService(start.body.authorization_url, PUBLIC_URL);
    expect((await call(t.url, 'GET', callback)).status).toBe(200);
    const replay = await call(t.url, 'GET', callback);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: expect.stringMatching(/state is unknown or was already used: start again at \/v1\/user\/authenticate\/social\/login/) });

    const late = await call(t.url, 'GET', '/v1/user/authenticate/social/login?mode=json');
    op.loginAs('late-person');
    const lateCallback = await followToService(late.body.authorization_url, PUBLIC_URL);
    clock.advance(10 * 60 * 1000 + 1000);
    const expired = await call(t.url, 'GET', lateCallback);
    expect(expired.status).toBe(400);
    expect(expired.body.error).toMatch(/expired/);
    // Nothing was created for the expired attempt: the next sign-in creates the account.
    expect((await signInJson('late-person')).body.account_created).toBe(true);

    const unknown = await call(t.url, 'GET', '/v1/user/authenticate/social/callback?code=abc&state=never-issued');
    expect(unknown.status).toBe(400);
    const denied = await call(t.url, 'GET', `/v1/user/authenticate/social/callback?state=${new URL((await call(t.url, 'GET', '/v1/user/authenticate/social/login?mode=json')).body.authorization_url).searchParams.get('state')}&error=access_denied`);
    expect(denied.status).toBe(400);
    expect(denied.body.error).toMatch(/access_denied/);
  });

  it('an ID token whose nonce differs from the one bound to the state is refused', async () => {
    const start = await call(t.url, 'GET', '/v1/user/authenticate/social/login?mode=json');
    const url = new URL(start.body.authorization_url);
    url.searchParams.set('nonce', 'a-nonce-this-service-never-issued');
    op.loginAs('replayed-person');
    const r = await call(t.url, 'GET', await followToService(url.href, PUBLIC_URL));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/nonce/);
  });

  it('GitLab-style sign-in asks the configured (self-hosted) issuer for openid read_user and creates an account', async () => {
    const start = await call(t.url, 'GET', '/v1/user/authenticate/gitlab/login?mode=json');
    const url = new URL(start.body.authorization_url);
    expect(url.origin).toBe(op.issuer);
    expect(url.searchParams.get('scope')).toBe('openid read_user');
    expect(url.searchParams.get('client_id')).toBe('neurodata-gitlab');
    op.loginAs('gitlab-user');
    const done = await call(t.url, 'GET', await followToService(url.href, PUBLIC_URL));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ provider: 'gitlab', account_created: true });
    expect((await call(t.url, 'GET', '/v1/user/profile', { token: done.body.access_token })).body).toMatchObject({ display_name: 'Self Hosted Dev', email: 'dev@gitlab.example.net' });
    expect((await methods(done.body.access_token)).identities).toMatchObject([{ provider: 'gitlab', username: 'shdev' }]);
  });

  it('unlinking is refused for the last way to log in and allowed once another remains', async () => {
    const subject = `unlink-${Date.now()}`;
    identityFor(subject, `${subject}@example.net`);
    const signedIn = await signInJson(subject);
    const token = signedIn.body.access_token;
    const last = await call(t.url, 'DELETE', '/v1/user/authenticate/identities/social', { token });
    expect(last.status).toBe(409);
    expect(last.body.error).toMatch(/only way to log in to this account: set a password/);

    // A second provider is another way in.
    const gitlabSubject = `${subject}-gitlab`;
    identityFor(gitlabSubject, `${gitlabSubject}@example.net`);
    const me = { accessToken: token } as TestUser;
    expect((await linkAs(me, gitlabSubject, 'gitlab')).status).toBe(200);
    const unlinked = await call(t.url, 'DELETE', '/v1/user/authenticate/identities/social', { token });
    expect(unlinked.status, JSON.stringify(unlinked.body)).toBe(200);
    expect(unlinked.body).toMatchObject({ has_password: false, identities: [{ provider: 'gitlab', subject: gitlabSubject }] });
    expect((await call(t.url, 'DELETE', '/v1/user/authenticate/identities/social', { token })).status).toBe(404);
    // The unlinked identity is unknown again: its email now belongs to an account, so it is refused.
    expect((await signInJson(subject)).status).toBe(409);

    // With a password the last provider can go too.
    expect((await call(t.url, 'POST', '/v1/user/auth/password', { token, body: { new_password: 'passphrase for later' } })).status).toBe(200);
    const gone = await call(t.url, 'DELETE', '/v1/user/authenticate/identities/gitlab', { token });
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ has_password: true, identities: [] });

    expect((await call(t.url, 'DELETE', '/v1/user/authenticate/identities/myspace', { token })).status).toBe(404);
    expect((await call(t.url, 'DELETE', '/v1/user/authenticate/identities/orcid', { token })).status).toBe(400);
  });

  it('an identity linked to one account cannot be linked to another, and a link callback with another account’s token is refused', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const subject = `shared-${owner.id}`;
    identityFor(subject, `${subject}@example.net`);
    expect((await linkAs(owner, subject)).status).toBe(200);
    const taken = await linkAs(other, subject);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatch(/already linked to another account/);

    const start = await call(t.url, 'GET', '/v1/user/authenticate/gitlab/authorize?mode=json', { token: owner.accessToken });
    op.loginAs('gitlab-user');
    const r = await call(t.url, 'GET', await followToService(start.body.authorization_url, PUBLIC_URL), { token: other.accessToken });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/started by another account/);
    expect((await methods(owner.accessToken)).identities).toMatchObject([{ provider: 'social' }]);
  });

  it('GraphQL clients start a sign-in in json mode and must bind redirect mode to a browser', async () => {
    const started = await gql(t.url, 'mutation { startSocialLogin(provider: "social") { authorization_url expires_at } }');
    expect(started.body.data.startSocialLogin.authorization_url).toContain('code_challenge_method=S256');
    const unbound = await gql(t.url, 'mutation { startSocialLogin(provider: "social", mode: "redirect") { authorization_url } }');
    expect(unbound.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringMatching(/browser_binding/) });
    const u = await createUser(t);
    const link = await gql(t.url, 'mutation { startSocialLink(provider: "gitlab") { authorization_url } }', {}, u.accessToken);
    expect(link.body.data.startSocialLink.authorization_url).toContain('scope=openid+read_user');
    expect((await call(t.url, 'GET', '/v1/user/authenticate/social/login?mode=xml')).status).toBe(400);
    expect((await call(t.url, 'GET', '/v1/user/authenticate/social/authorize')).status).toBe(401);
  });

  // Institutional verification and ORCID are not configured on this app: their routes' answers are checked here, the
  // social ones' in institutional.test.ts, so that neither file starts an app with no provider for them.
  describe('login providers that are not configured', () => {
    it('answer 404 with "not configured" and never start a flow', async () => {
      const u = await createUser(t);
      for (const provider of ['institutional', 'orcid']) {
        for (const mode of ['redirect', 'json']) {
          const r = await call(t.url, 'GET', `/v1/user/authenticate/${provider}/authorize?mode=${mode}`, { token: u.accessToken });
          expect(r.status).toBe(404);
          expect(r.body).toEqual({ error: expect.stringMatching(/is not configured on this server$/) });
        }
        const callback = await call(t.url, 'GET', `/v1/user/authenticate/${provider}/callback?code=x&state=y`);
        expect(callback.status).toBe(404);
      }
      // The stored standing is still readable.
      const status = await call(t.url, 'GET', '/v1/user/authenticate/institutional', { token: u.accessToken });
      expect(status.body).toMatchObject({ verified: false, account_type: 'REGULAR' });
    });
  });
});

describe('social login provider configuration', () => {
  const problems = (env: Record<string, string>) => {
    try {
      configFrom(env);
      return [];
    } catch (e) {
      return (e as ConfigError).problems;
    }
  };

  it('turns each provider on with its client id, with GitLab.com and GitHub.com as defaults', () => {
    const config = configFrom({ PUBLIC_URL: 'https://nd.example.org', OIDC_SOCIAL_ISSUER: 'https://accounts.google.com', OIDC_SOCIAL_CLIENT_ID: 's', OIDC_GITLAB_CLIENT_ID: 'g', OAUTH_GITHUB_CLIENT_ID: 'h', OAUTH_GITHUB_CLIENT_SECRET: 'hs' });
    expect(config.login.providers).toEqual({
      social: { issuer: 'https://accounts.google.com', clientId: 's', clientSecret: undefined, scopes: ['openid', 'email', 'profile'] },
      gitlab: { issuer: 'https://gitlab.com', clientId: 'g', clientSecret: undefined, scopes: ['openid', 'read_user'] },
      github: {
        clientId: 'h',
        clientSecret: 'hs',
        authorizationEndpoint: 'https://github.com/login/oauth/authorize',
        tokenEndpoint: 'https://github.com/login/oauth/access_token',
        apiUrl: 'https://api.github.com',
        scopes: ['user:email'],
      },
    });
    const enterprise = configFrom({
      PUBLIC_URL: 'https://nd.example.org',
      OAUTH_GITHUB_CLIENT_ID: 'h',
      OAUTH_GITHUB_AUTHORIZATION_URL: 'https://ghe.example.org/login/oauth/authorize',
      OAUTH_GITHUB_TOKEN_URL: 'https://ghe.example.org/login/oauth/access_token',
      OAUTH_GITHUB_API_URL: 'https://ghe.example.org/api/v3/',
    });
    expect(enterprise.login.providers.github).toMatchObject({ apiUrl: 'https://ghe.example.org/api/v3' });
  });

  it('reports half-configured providers, scopes that cannot work and insecure URLs, all at once', () => {
    expect(
      problems({
        PUBLIC_URL: 'https://nd.example.org',
        OIDC_SOCIAL_ISSUER: 'https://accounts.example.org',
        OIDC_GITLAB_CLIENT_ID: 'g',
        OIDC_GITLAB_SCOPES: 'read_user',
        OAUTH_GITHUB_CLIENT_ID: 'h',
        OAUTH_GITHUB_SCOPES: 'read:user',
        OAUTH_GITHUB_API_URL: 'http://ghe.example.org/api/v3',
      }),
    ).toEqual([
      'OIDC_SOCIAL_CLIENT_ID: required with OIDC_SOCIAL_ISSUER',
      'OIDC_GITLAB_SCOPES: must include openid (got "read_user")',
      'OAUTH_GITHUB_API_URL: must be an https:// URL (http:// only on loopback)',
      'OAUTH_GITHUB_SCOPES: must include user:email (or user) to read the primary email (got "read:user")',
    ]);
    expect(problems({ OAUTH_GITHUB_CLIENT_SECRET: 'x' })).toEqual(['OAUTH_GITHUB_CLIENT_ID: required with OAUTH_GITHUB_CLIENT_SECRET']);
    expect(problems({ OAUTH_GITHUB_CLIENT_ID: 'x' })).toEqual([expect.stringMatching(/^PUBLIC_URL: required/)]);
    expect(problems({ NODE_ENV: 'production', TOKEN_SECRET_KEY: 'k4.secret.x', API_DOMAIN: 'https://nd.example.org', LOGIN_RETURN_URL: 'http://app.example.org/' })).toEqual([
      'LOGIN_RETURN_URL: must be an https:// URL in production',
    ]);
  });
});

describe('social sign-in rules', () => {
  it('accepts an email only when the provider marks it verified', () => {
    expect(verifiedEmail({ email: 'a@example.org', email_verified: true })).toBe('a@example.org');
    expect(verifiedEmail({ email: 'a@example.org', email_verified: 'true' })).toBe('a@example.org');
    expect(verifiedEmail({ email: 'a@example.org', email_verified: false })).toBeNull();
    expect(verifiedEmail({ email: 'a@example.org' })).toBeNull();
  });

  it('names a new account after the provider name, else the username, else the email', () => {
    expect(displayNameFrom({ name: '  Ada   Lovelace ' }, 'ada@example.org')).toBe('Ada Lovelace');
    expect(displayNameFrom({ name: ' ', preferred_username: 'ada-l' }, 'ada@example.org')).toBe('ada-l');
    expect(displayNameFrom({}, 'ada@example.org')).toBe('ada');
  });
});
