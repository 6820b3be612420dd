import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { followToService, startTestOidcProvider, type TestOidcProvider } from './oidc-provider.fixture.js';
import { startTestCodeHostingApi, type TestCodeHostingApi, type TestCodeHostingUser } from './code-hosting-api.fixture.js';

const PUBLIC_URL = 'https://neurodata.example.org';
const CALLBACK = `${PUBLIC_URL}/v1/user/authenticate/github/callback`;
const API_AUDIENCE = 'https://code-hosting.test/api';

/** Users of the code-hosting site by the authorization server's subject (its numeric user id). */
const USERS: Record<string, TestCodeHostingUser> = {
  '1001': {
    id: 1001,
    login: 'octo-ada',
    name: 'Ada Octo',
    emails: [
      { email: 'ada.secondary@example.com', primary: false, verified: true },
      { email: 'Ada@Example.com', primary: true, verified: true },
    ],
  },
  '1002': { id: 1002, login: 'no-verified-primary', name: null, emails: [{ email: 'np@example.com', primary: true, verified: false }, { email: 'np2@example.com', primary: false, verified: true }] },
  '1003': { id: 1003, login: 'researcher', name: 'R. Searcher', emails: [{ email: 'researcher@example.com', primary: true, verified: true }] },
  '1004': { id: 1004, login: 'pkce-tamper', emails: [{ email: 'pkce@example.com', primary: true, verified: true }] },
};

/**
 * The GitHub-style flow is plain OAuth 2.0: an oidc-provider instance acts as the authorization server (it issues
 * codes and opaque access tokens for a resource server when `openid` is not requested, and verifies PKCE), and a
 * loopback Fastify server plays the user API, checking every token at the authorization server's introspection.
 */
describe('GitHub-style sign-in (OAuth 2.0 + PKCE, user and emails API)', () => {
  let op: TestOidcProvider;
  let api: TestCodeHostingApi;
  let t: TestApp;

  beforeAll(async () => {
    op = await startTestOidcProvider({
      identities: Object.fromEntries(Object.keys(USERS).map((sub) => [sub, {}])),
      scopes: {},
      resourceServer: { audience: API_AUDIENCE, scopes: ['user:email'] },
      clients: [
        { client_id: 'neurodata-github', client_secret: 'github-client-secret', token_endpoint_auth_method: 'client_secret_post', redirect_uris: [CALLBACK] },
        // The API's own credentials for introspection; it never takes part in a login.
        { client_id: 'code-hosting-api', client_secret: 'api-secret', redirect_uris: [], response_types: [], grant_types: [] },
      ],
    });
    const metadata = await op.metadata();
    api = await startTestCodeHostingApi({
      introspectionEndpoint: metadata.introspection_endpoint,
      client: { id: 'code-hosting-api', secret: 'api-secret' },
      audience: API_AUDIENCE,
      users: USERS,
    });
    t = await startTestApp({
      PUBLIC_URL,
      OAUTH_GITHUB_CLIENT_ID: 'neurodata-github',
      OAUTH_GITHUB_CLIENT_SECRET: 'github-client-secret',
      OAUTH_GITHUB_AUTHORIZATION_URL: metadata.authorization_endpoint,
      OAUTH_GITHUB_TOKEN_URL: metadata.token_endpoint,
      OAUTH_GITHUB_API_URL: api.url,
    }, { listen: true });
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
    await op?.close();
  });

  async function signIn(subject: string, tamper?: (url: URL) => void) {
    const start = await call(t.url, 'GET', '/v1/user/authenticate/github/login?mode=json');
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const url = new URL(start.body.authorization_url);
    tamper?.(url);
    op.loginAs(subject);
    return call(t.url, 'GET', await followToService(url.href, PUBLIC_URL));
  }

  async function link(u: TestUser, subject: string) {
    const start = await call(t.url, 'GET', '/v1/user/authenticate/github/authorize?mode=json', { token: u.accessToken });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    op.loginAs(subject);
    return call(t.url, 'GET', await followToService(start.body.authorization_url, PUBLIC_URL));
  }

  it('asks for user:email without openid or nonce, reads the user API, keeps the primary verified email and signs in again to the same account', async () => {
    const start = await call(t.url, 'GET', '/v1/user/authenticate/github/login?mode=json');
    const url = new URL(start.body.authorization_url);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ client_id: 'neurodata-github', redirect_uri: CALLBACK, scope: 'user:email', code_challenge_method: 'S256' });
    expect(url.searchParams.has('nonce')).toBe(false);
    expect(url.searchParams.get('state')).toBeTruthy();

    const before = api.authorizedRequests();
    op.loginAs('1001');
    const done = await call(t.url, 'GET', await followToService(url.href, PUBLIC_URL));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ provider: 'github', account_created: true, token_type: 'Bearer' });
    // /user and /user/emails, each with a token the authorization server vouched for.
    expect(api.authorizedRequests() - before).toBe(2);

    const profile = await call(t.url, 'GET', '/v1/user/profile', { token: done.body.access_token });
    expect(profile.body).toMatchObject({ email: 'Ada@example.com', display_name: 'Ada Octo', account_type: 'REGULAR' });
    const methods = await call(t.url, 'GET', '/v1/user/authenticate/identities', { token: done.body.access_token });
    expect(methods.body).toMatchObject({ has_password: false, identities: [{ provider: 'github', issuer: api.url, subject: '1001', username: 'octo-ada', email: 'Ada@Example.com' }] });

    const again = await signIn('1001');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ account_id: done.body.account_id, account_created: false });
  });

  it('a code issued for another PKCE challenge is refused by the authorization server and nothing is created', async () => {
    const r = await signIn('1004', (url) => url.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/PKCE code verifier/);
    // The same person without tampering gets a new account: the failed attempt left nothing behind.
    expect((await signIn('1004')).body.account_created).toBe(true);
  });

  it('a replayed callback answers 400', async () => {
    const start = await call(t.url, 'GET', '/v1/user/authenticate/github/login?mode=json');
    op.loginAs('1001');
    const callback = await followToService(start.body.authorization_url, PUBLIC_URL);
    expect((await call(t.url, 'GET', callback)).status).toBe(200);
    const replay = await call(t.url, 'GET', callback);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toMatch(/already used/);
  });

  it('without a verified primary email no account is created, but the identity can be linked to an existing account', async () => {
    const refused = await signIn('1002');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/GitHub did not confirm a verified email address/);

    const u = await createUser(t);
    const linked = await link(u, '1002');
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body).toMatchObject({ provider: 'github', subject: '1002', username: 'no-verified-primary', email: null });
    const signedIn = await signIn('1002');
    expect(signedIn.body).toMatchObject({ account_id: u.id, account_created: false });
  });

  it('researcher-ID association: a logged-in researcher links the code-hosting account, which an email collision would otherwise refuse', async () => {
    const u = await createUser(t, { email: 'researcher@example.com' });
    const collision = await signIn('1003');
    expect(collision.status).toBe(409);
    expect(collision.body.error).toMatch(/log in to it and link your GitHub account from your profile \(GET \/v1\/user\/authenticate\/github\/authorize\)/);

    expect((await link(u, '1003')).body).toMatchObject({ provider: 'github', subject: '1003', username: 'researcher' });
    const methods = await call(t.url, 'GET', '/v1/user/authenticate/identities', { token: u.accessToken });
    expect(methods.body).toMatchObject({ has_password: true, identities: [{ provider: 'github', username: 'researcher' }] });
    // Linked to one account, not to another.
    const other = await createUser(t);
    expect((await link(other, '1003')).status).toBe(409);
    // With a password the account may drop its only provider.
    expect((await call(t.url, 'DELETE', '/v1/user/authenticate/identities/github', { token: u.accessToken })).status).toBe(200);
  });
});
