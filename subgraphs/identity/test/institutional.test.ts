import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, gql, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { ManualClock } from '../../../lib/clock.js';
import { AccessClass, requireClass } from '../../../lib/access.js';
import { buildRequestContext } from '../../../lib/auth/context-builder.js';
import { ConfigError, configFrom } from '../../../lib/config.js';
import type { TokenVerifier } from '../../../lib/auth/viewer.js';
import { createTokenVerifier } from '../index.js';
import { institutionClaims, orcidIdFrom } from '../institutional.service.js';
import { followToService, startTestOidcProvider, type TestOidcProvider } from './oidc-provider.fixture.js';

const PUBLIC_URL = 'https://neurodata.example.org';
const INSTITUTIONAL_CALLBACK = `${PUBLIC_URL}/v1/user/authenticate/institutional/callback`;
const ORCID_CALLBACK = `${PUBLIC_URL}/v1/user/authenticate/orcid/callback`;
/** ORCID's own documentation example iD (Josiah Carberry), which has a valid check digit. */
const ORCID_ID = '0000-0002-1825-0097';

/** People at the test provider, with the claims a CILogon-style institutional federation releases. */
const IDENTITIES = {
  'alice@example.edu': {
    email: 'Alice@example.edu',
    email_verified: true,
    name: 'Alice Example',
    idp_name: 'Example University',
    affiliation: 'faculty@example.edu;member@example.edu',
  },
  'bob@example.edu': { email: 'bob@example.edu', email_verified: true, idp_name: 'Example University', affiliation: 'student@example.edu' },
  'carol@example.edu': { email: 'carol@example.edu', email_verified: true, idp_name: 'Example University', affiliation: 'staff@example.edu' },
  'dave@example.edu': { email: 'dave@example.edu', email_verified: true, idp_name: 'Example University', affiliation: 'member@example.edu' },
  'frank@example.edu': { email: 'frank@example.edu', email_verified: true, idp_name: 'Example University', affiliation: 'member@example.edu' },
  'erin@example.edu': { email: 'erin@example.edu', email_verified: true, idp_name: 'Example University', affiliation: 'faculty@example.edu' },
  'grace@example.edu': { email: 'grace@example.edu', email_verified: true, idp_name: 'Example University', affiliation: 'faculty@example.edu' },
  'heidi@example.edu': { email: 'heidi@example.edu', email_verified: true, idp_name: 'Example University', affiliation: 'staff@example.edu' },
  [ORCID_ID]: { given_name: 'Josiah', family_name: 'Carberry' },
};

describe('institutional verification and ORCID iD linking against a real OpenID provider', () => {
  let op: TestOidcProvider;
  let t: TestApp;
  let verifier: TokenVerifier;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    op = await startTestOidcProvider({
      identities: IDENTITIES,
      // ORCID releases the public name with the openid scope alone.
      scopes: { openid: ['sub', 'given_name', 'family_name'], email: ['email', 'email_verified'], 'org.cilogon.userinfo': ['idp_name', 'affiliation'] },
      clients: [
        {
          client_id: 'neurodata-institutional',
          client_secret: 'institutional-client-secret',
          token_endpoint_auth_method: 'client_secret_post',
          redirect_uris: [INSTITUTIONAL_CALLBACK],
        },
        // ORCID-style public client: PKCE is its only proof.
        { client_id: 'neurodata-orcid', token_endpoint_auth_method: 'none', redirect_uris: [ORCID_CALLBACK] },
      ],
    });
    t = await startTestApp(
      {
        PUBLIC_URL,
        OIDC_INSTITUTIONAL_ISSUER: op.issuer,
        OIDC_INSTITUTIONAL_CLIENT_ID: 'neurodata-institutional',
        OIDC_INSTITUTIONAL_CLIENT_SECRET: 'institutional-client-secret',
        OIDC_INSTITUTIONAL_SCOPES: 'openid email org.cilogon.userinfo',
        OIDC_ORCID_ISSUER: op.issuer,
        OIDC_ORCID_CLIENT_ID: 'neurodata-orcid',
      },
      { listen: true, clock },
    );
    verifier = await createTokenVerifier({ config: t.config, stores: t.app.stores, clock, log: t.app.http.log });
  });
  afterAll(async () => {
    await t?.close();
    await op?.close();
  });

  /**
   * What the user's page does: GET the authorize route with its token, read where to send the browser. The browser
   * keeps the binding cookie the route sets (`cookie`, ready for a Cookie header).
   */
  async function authorize(u: TestUser, provider = 'institutional'): Promise<URL & { cookie: string }> {
    const r = await call(t.url, 'GET', `/v1/user/authenticate/${provider}/authorize?mode=json`, { token: u.accessToken });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return Object.assign(new URL(r.body.authorization_url), { cookie: r.headers.get('set-cookie')!.split(';')[0] });
  }

  /** The browser at the provider: logs in as `subject`, comes back to the service's callback with its cookie, without a token. */
  async function completeAt(url: URL & { cookie: string }, subject: string) {
    op.loginAs(subject);
    return call(t.url, 'GET', await followToService(url.href, PUBLIC_URL), { headers: { cookie: url.cookie } });
  }

  /** The check every Academic-only field runs before its resolver (the same context the HTTP host builds). */
  const academicClass = async (accessToken: string) => {
    const context = await buildRequestContext(
      { requestId: 'academic-check', authorization: `Bearer ${accessToken}`, signal: new AbortController().signal, log: t.app.http.log },
      verifier,
    );
    return requireClass(context, AccessClass.Academic);
  };

  it('a Regular user becomes a verified Academic after institutional login, with the token it already holds', async () => {
    const u = await createUser(t, { accountType: 'REGULAR' });
    const before = await call(t.url, 'GET', '/v1/user/authenticate/institutional', { token: u.accessToken });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ verified: false, account_type: 'REGULAR', institution: null, affiliations: [], verified_at: null });
    await expect(academicClass(u.accessToken)).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN' } });

    const start = await fetch(`${t.url}/v1/user/authenticate/institutional/authorize`, {
      headers: { authorization: `Bearer ${u.accessToken}` },
      redirect: 'manual',
    });
    expect(start.status).toBe(302);
    expect(start.headers.get('cache-control')).toBe('no-store');
    // The browser binding: only the browser holding this cookie can complete the verification.
    const setCookie = start.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^login_binding=[A-Za-z0-9_-]{43}; Path=\/v1\/user\/authenticate\/institutional\/callback; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
    const location = new URL(start.headers.get('location')!);
    expect(location.origin).toBe(op.issuer);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: 'neurodata-institutional',
      redirect_uri: INSTITUTIONAL_CALLBACK,
      response_type: 'code',
      scope: 'openid email org.cilogon.userinfo',
      code_challenge_method: 'S256',
    });
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    op.loginAs('alice@example.edu');
    const callback = await followToService(location.href, PUBLIC_URL);
    expect(callback.startsWith('/v1/user/authenticate/institutional/callback?')).toBe(true);
    const done = await call(t.url, 'GET', callback, { headers: { cookie: setCookie.split(';')[0] } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.headers.get('set-cookie')).toMatch(/^login_binding=; .*Max-Age=0/);
    expect(done.body).toMatchObject({
      verified: true,
      account_type: 'ACADEMIC',
      issuer: op.issuer,
      institution: 'Example University',
      email: 'Alice@example.edu',
      email_domain: 'example.edu',
      affiliations: ['faculty@example.edu', 'member@example.edu'],
      refresh_required: true,
    });
    expect(done.body.message).toMatch(/POST \/v1\/user\/auth\/refresh/);

    // The token from before still claims REGULAR, but the access check re-reads the account: open at once.
    expect(await academicClass(u.accessToken)).toMatchObject({ id: u.id, accountType: 'ACADEMIC', verified: true });
    const refreshed = await call(t.url, 'POST', '/v1/user/auth/refresh', { body: { refresh_token: u.refreshToken } });
    expect(refreshed.status).toBe(200);
    const viewer = await academicClass(refreshed.body.access_token);
    expect(viewer).toMatchObject({ id: u.id, accountType: 'ACADEMIC', verified: true });

    const profile = await call(t.url, 'GET', '/v1/user/profile', { token: refreshed.body.access_token });
    expect(profile.body).toMatchObject({ id: u.id, account_type: 'ACADEMIC', verified: true });
    const after = await call(t.url, 'GET', '/v1/user/authenticate/institutional', { token: refreshed.body.access_token });
    expect(after.body).toMatchObject({ verified: true, account_type: 'ACADEMIC', institution: 'Example University', email_domain: 'example.edu' });
    expect(new Date(after.body.verified_at).getTime()).toBe(clock.now().getTime());
  });

  it('a callback replayed with the same state answers 400', async () => {
    const u = await createUser(t);
    const url = await authorize(u);
    op.loginAs('bob@example.edu');
    const callback = await followToService(url.href, PUBLIC_URL);
    expect((await call(t.url, 'GET', callback, { headers: { cookie: url.cookie } })).status).toBe(200);
    const again = await call(t.url, 'GET', callback, { headers: { cookie: url.cookie } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: expect.stringMatching(/state is unknown or was already used/) });
  });

  it('an authorization request older than 10 minutes is refused and the account stays Regular', async () => {
    const u = await createUser(t);
    const url = await authorize(u);
    op.loginAs('carol@example.edu');
    const callback = await followToService(url.href, PUBLIC_URL);
    clock.advance(10 * 60 * 1000 + 1000);
    const late = await call(t.url, 'GET', callback, { headers: { cookie: url.cookie } });
    expect(late.status).toBe(400);
    expect(late.body.error).toMatch(/expired/);
    await expectUnchanged(u);
    // Carol's institutional identity was not used up by the failed attempt.
    const retry = await completeAt(await authorize(u), 'carol@example.edu');
    expect(retry.status).toBe(200);
  });

  it('an ID token whose nonce differs from the one bound to the state is refused and nothing changes', async () => {
    const u = await createUser(t);
    const url = await authorize(u);
    url.searchParams.set('nonce', 'a-nonce-this-service-never-issued');
    const r = await completeAt(url, 'dave@example.edu');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/does not belong to this authorization request.*nonce/);
    await expectUnchanged(u);
  });

  it('a code issued for another PKCE challenge is refused by the provider and nothing changes', async () => {
    const u = await createUser(t);
    const url = await authorize(u);
    // The challenge of some other verifier: the stored verifier no longer matches what the provider saw.
    url.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    const r = await completeAt(url, 'dave@example.edu');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/PKCE code verifier/);
    await expectUnchanged(u);
  });

  it('a state this service never issued, and a provider error, answer 400', async () => {
    const unknown = await call(t.url, 'GET', '/v1/user/authenticate/institutional/callback?code=abc&state=never-issued');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/state is unknown/);
    const missing = await call(t.url, 'GET', '/v1/user/authenticate/institutional/callback?code=abc');
    expect(missing.status).toBe(400);

    const u = await createUser(t);
    const started = await authorize(u);
    const state = started.searchParams.get('state')!;
    const denied = await call(t.url, 'GET', `/v1/user/authenticate/institutional/callback?state=${state}&error=access_denied&error_description=user+cancelled`, {
      headers: { cookie: started.cookie },
    });
    expect(denied.status).toBe(400);
    expect(denied.body.error).toMatch(/access_denied \(user cancelled\)/);
    await expectUnchanged(u);
  });

  it('one institutional identity verifies only one account', async () => {
    const first = await createUser(t);
    expect((await completeAt(await authorize(first), 'dave@example.edu')).status).toBe(200);
    const second = await createUser(t);
    const r = await completeAt(await authorize(second), 'dave@example.edu');
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/already verifies another account/);
    await expectUnchanged(second);
  });

  it('a callback that carries the token of another account than the one that started the flow is refused', async () => {
    const starter = await createUser(t);
    const other = await createUser(t);
    const url = await authorize(starter);
    op.loginAs('frank@example.edu');
    const r = await call(t.url, 'GET', await followToService(url.href, PUBLIC_URL), { token: other.accessToken, headers: { cookie: url.cookie } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/started by another account; nothing was changed/);
    await expectUnchanged(starter);
    await expectUnchanged(other);
  });

  it('a Regular user who hands the provider URL to someone at an institution stays Regular: a callback without the starting browser\'s cookie is refused', async () => {
    const requester = await createUser(t);
    const url = await authorize(requester);
    // Someone else's browser: logs in at their institution and arrives at the callback without the cookie.
    op.loginAs('grace@example.edu');
    const callback = await followToService(url.href, PUBLIC_URL);
    const r = await call(t.url, 'GET', callback);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.stringMatching(/started in another browser \(or its cookie is gone\); nothing was changed\. Start again at \/v1\/user\/authenticate\/institutional\/authorize/) });
    await expectUnchanged(requester);
    // The state is used up: the requester cannot replay the callback with the cookie either.
    expect((await call(t.url, 'GET', callback, { headers: { cookie: url.cookie } })).status).toBe(400);
    await expectUnchanged(requester);
    // And Grace's institutional identity is still free to verify her own account.
    const grace = await createUser(t);
    expect((await completeAt(await authorize(grace), 'grace@example.edu')).status).toBe(200);
  });

  it('a callback with another browser\'s binding cookie is refused and nothing changes', async () => {
    const requester = await createUser(t);
    const url = await authorize(requester);
    const otherBrowser = await authorize(await createUser(t));
    const r = await completeAt(Object.assign(url, { cookie: otherBrowser.cookie }), 'heidi@example.edu');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/started in another browser/);
    await expectUnchanged(requester);
  });

  it('an ORCID iD cannot be linked from a browser other than the one that asked', async () => {
    const u = await createUser(t);
    const url = await authorize(u, 'orcid');
    op.loginAs(ORCID_ID);
    const r = await call(t.url, 'GET', await followToService(url.href, PUBLIC_URL));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/started in another browser/);
    expect((await call(t.url, 'GET', '/v1/user/authenticate/orcid', { token: u.accessToken })).body).toMatchObject({ linked: false });
  });

  it('a SuperUser keeps its type and gets the institutional metadata', async () => {
    const su = await createUser(t, { accountType: 'SUPERUSER' });
    const r = await completeAt(await authorize(su), 'erin@example.edu');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ verified: true, account_type: 'SUPERUSER', institution: 'Example University', refresh_required: false });
    const status = await call(t.url, 'GET', '/v1/user/authenticate/institutional', { token: su.accessToken });
    expect(status.body).toMatchObject({ account_type: 'SUPERUSER', affiliations: ['faculty@example.edu'] });
  });

  it('the JSON form returns the provider URL; an unknown mode and a missing token are refused', async () => {
    const u = await createUser(t);
    const r = await call(t.url, 'GET', '/v1/user/authenticate/institutional/authorize?mode=json', { token: u.accessToken });
    expect(r.status).toBe(200);
    expect(r.body.authorization_url.startsWith(`${op.issuer}/`)).toBe(true);
    expect(new Date(r.body.expires_at).getTime() - clock.now().getTime()).toBe(10 * 60 * 1000);
    expect((await call(t.url, 'GET', '/v1/user/authenticate/institutional/authorize?mode=xml', { token: u.accessToken })).status).toBe(400);
    const anonymous = await call(t.url, 'GET', '/v1/user/authenticate/institutional/authorize');
    expect(anonymous.status).toBe(401);
    expect(Object.keys(anonymous.body)).toEqual(['error']);
    expect((await call(t.url, 'GET', '/v1/user/authenticate/institutional')).status).toBe(401);
  });

  it('GraphQL clients start verification with a mutation and a browser binding, and read the metadata with a query', async () => {
    const u = await createUser(t);
    const unbound = await gql(t.url, 'mutation { startInstitutionalVerification { authorization_url } }', {}, u.accessToken);
    expect(unbound.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringMatching(/^browser_binding: required/) });
    const started = await gql(
      t.url,
      'mutation($b: String) { startInstitutionalVerification(browser_binding: $b) { authorization_url expires_at } }',
      { b: 'a-random-value-kept-in-a-cookie-by-the-page' },
      u.accessToken,
    );
    expect(started.body.data.startInstitutionalVerification.authorization_url).toContain('code_challenge_method=S256');
    const status = await gql(t.url, '{ institutionalVerification { verified account_type affiliations } }', {}, u.accessToken);
    expect(status.body.data.institutionalVerification).toEqual({ verified: false, account_type: 'REGULAR', affiliations: [] });
  });

  it('links an ORCID iD to the logged-in account, shows it on the profile, and unlinks it', async () => {
    const u = await createUser(t);
    expect((await call(t.url, 'GET', '/v1/user/authenticate/orcid', { token: u.accessToken })).body).toMatchObject({ linked: false, orcid: null });
    const url = await authorize(u, 'orcid');
    expect(url.searchParams.get('scope')).toBe('openid');
    expect(url.cookie).toMatch(/^login_binding=/);
    op.loginAs(ORCID_ID);
    const done = await call(t.url, 'GET', await followToService(url.href, PUBLIC_URL), { headers: { cookie: url.cookie } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ linked: true, orcid: ORCID_ID, orcid_url: `https://orcid.org/${ORCID_ID}`, name: 'Josiah Carberry' });

    const profile = await call(t.url, 'GET', '/v1/user/profile', { token: u.accessToken });
    expect(profile.body).toMatchObject({ orcid: ORCID_ID, account_type: 'REGULAR', verified: false });

    const other = await createUser(t);
    const taken = await completeAt(await authorize(other, 'orcid'), ORCID_ID);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatch(/already linked to another account/);

    const unlinked = await call(t.url, 'DELETE', '/v1/user/authenticate/orcid', { token: u.accessToken });
    expect(unlinked.body).toMatchObject({ linked: false, orcid: null });
    expect((await call(t.url, 'GET', '/v1/user/profile', { token: u.accessToken })).body.orcid).toBeNull();
    expect((await call(t.url, 'DELETE', '/v1/user/authenticate/orcid', { token: u.accessToken })).status).toBe(404);
  });

  /** Nothing of a failed flow reached the account: still Regular, unverified, without institutional metadata. */
  async function expectUnchanged(u: TestUser) {
    const profile = await call(t.url, 'GET', '/v1/user/profile', { token: u.accessToken });
    expect(profile.body).toMatchObject({ account_type: 'REGULAR', verified: false });
    const status = await call(t.url, 'GET', '/v1/user/authenticate/institutional', { token: u.accessToken });
    expect(status.body).toMatchObject({ verified: false, institution: null, affiliations: [] });
  }

  // Social sign-in is not configured on this app: its routes' answers are checked here, the institutional and ORCID
  // ones' in social-login.test.ts, so that neither file starts an app with no provider for them.
  describe('social login providers that are not configured', () => {
    it('answer 404 with "not configured" on every route and never start a flow', async () => {
      const u = await createUser(t);
      const labels = { social: 'social login', gitlab: 'GitLab login', github: 'GitHub login' };
      for (const [provider, label] of Object.entries(labels)) {
        for (const mode of ['redirect', 'json']) {
          const login = await call(t.url, 'GET', `/v1/user/authenticate/${provider}/login?mode=${mode}`);
          expect(login.status).toBe(404);
          expect(login.body).toEqual({ error: `${label} is not configured on this server` });
          expect((await call(t.url, 'GET', `/v1/user/authenticate/${provider}/authorize?mode=${mode}`, { token: u.accessToken })).status).toBe(404);
        }
        const callback = await call(t.url, 'GET', `/v1/user/authenticate/${provider}/callback?code=x&state=y`);
        expect(callback.status).toBe(404);
        expect(callback.body.error).toBe(`${label} is not configured on this server`);
      }
      expect((await call(t.url, 'POST', '/v1/user/auth/exchange', { body: { login_code: 'never-issued' } })).status).toBe(401);
      expect((await call(t.url, 'GET', '/v1/user/authenticate/identities', { token: u.accessToken })).body).toEqual({ has_password: true, identities: [] });
    });
  });
});

describe('login provider configuration', () => {
  const problems = (env: Record<string, string>) => {
    try {
      configFrom(env);
      return [];
    } catch (e) {
      return (e as ConfigError).problems;
    }
  };

  it('turns a provider on with its client id and requires PUBLIC_URL for redirect URIs', () => {
    const config = configFrom({ PUBLIC_URL: 'https://nd.example.org/', OIDC_INSTITUTIONAL_ISSUER: 'https://cilogon.org', OIDC_INSTITUTIONAL_CLIENT_ID: 'cid' });
    expect(config.login).toEqual({
      publicUrl: 'https://nd.example.org',
      providers: { institutional: { issuer: 'https://cilogon.org', clientId: 'cid', clientSecret: undefined, scopes: ['openid', 'email'] } },
    });
    expect(configFrom({}).login.providers).toEqual({});
    expect(problems({ OIDC_ORCID_CLIENT_ID: 'x' })).toEqual([expect.stringMatching(/^PUBLIC_URL: required/)]);
  });

  it('reports half-configured providers, plain-http issuers and scopes without openid, all at once', () => {
    expect(
      problems({
        PUBLIC_URL: 'https://nd.example.org',
        OIDC_INSTITUTIONAL_ISSUER: 'http://idp.example.org',
        OIDC_INSTITUTIONAL_CLIENT_ID: 'cid',
        OIDC_INSTITUTIONAL_SCOPES: 'email',
        OIDC_ORCID_CLIENT_SECRET: 'secret',
      }),
    ).toEqual([
      'OIDC_INSTITUTIONAL_ISSUER: must be an https:// URL (http:// only on loopback)',
      'OIDC_INSTITUTIONAL_SCOPES: must include openid (got "email")',
      'OIDC_ORCID_CLIENT_ID: required with OIDC_ORCID_CLIENT_SECRET',
    ]);
    expect(problems({ OIDC_INSTITUTIONAL_ISSUER: 'https://cilogon.org' })).toEqual(['OIDC_INSTITUTIONAL_CLIENT_ID: required with OIDC_INSTITUTIONAL_ISSUER']);
  });
});

describe('institutionClaims', () => {
  it('reads CILogon claims: idp_name and a ;-separated affiliation list', () => {
    expect(institutionClaims(IDENTITIES['alice@example.edu'])).toEqual({
      institution: 'Example University',
      email: 'Alice@example.edu',
      emailDomain: 'example.edu',
      affiliations: ['faculty@example.edu', 'member@example.edu'],
    });
  });

  it('reads REFEDS / SURFconext claims and falls back to the affiliation scope for the institution', () => {
    expect(institutionClaims({ eduperson_scoped_affiliation: ['employee@uva.nl', 'employee@uva.nl'], email: 'j.doe@uva.nl' })).toEqual({
      institution: 'uva.nl',
      email: 'j.doe@uva.nl',
      emailDomain: 'uva.nl',
      affiliations: ['employee@uva.nl'],
    });
    expect(institutionClaims({ schac_home_organization: 'uva.nl', email: 'x@uva.nl', email_verified: false })).toEqual({
      institution: 'uva.nl',
      email: null,
      emailDomain: null,
      affiliations: [],
    });
  });

  it('takes ORCID iDs bare or as orcid.org URLs and rejects anything with a wrong check digit', () => {
    expect(orcidIdFrom(ORCID_ID)).toBe(ORCID_ID);
    expect(orcidIdFrom(`https://sandbox.orcid.org/${ORCID_ID}`)).toBe(ORCID_ID);
    expect(orcidIdFrom('0000-0002-1825-0098')).toBeNull();
    expect(orcidIdFrom('alice@example.edu')).toBeNull();
  });
});
