import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { call, startTestApp, type TestApp } from '../../test/kit/app.js';
import { createUser, type TestUser } from '../../test/kit/users.js';
import { PAGE_POLICY } from '../index.js';
import { Jar } from './cookie-jar.js';

describe('browser sessions of the pages: cookies, refresh, CSRF', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({}, { listen: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = async (jar: Jar, path: string, headers: Record<string, string> = {}) => jar.take(await fetch(`${t.url}${path}`, { redirect: 'manual', headers: { cookie: jar.header(), ...headers } }));
  const post = async (jar: Jar, path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    jar.take(
      await fetch(`${t.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded', origin: t.url, ...headers },
        body: new URLSearchParams(form),
      }),
    );
  /** A browser signed in through the sign-in form. */
  async function signedIn(u: TestUser): Promise<Jar> {
    const jar = new Jar();
    await get(jar, '/sign-in');
    const res = await post(jar, '/sign-in', { _csrf: jar.cookies.get('nd_csrf')!, email: u.email, password: u.password });
    expect(res.status).toBe(303);
    expect(jar.cookies.has('nd_at') && jar.cookies.has('nd_rt')).toBe(true);
    return jar;
  }
  const canLogIn = async (email: string, password: string) => (await call(t.url, 'POST', '/v1/user/auth/login', { body: { email, password } })).status === 200;

  it('sets the session cookies HttpOnly, SameSite=Lax, for the whole site', async () => {
    const u = await createUser(t);
    const jar = new Jar();
    await get(jar, '/sign-in');
    const res = await post(jar, '/sign-in', { _csrf: jar.cookies.get('nd_csrf')!, email: u.email, password: u.password });
    const cookies = res.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith('nd_at='))).toMatch(/; Path=\/; Max-Age=900; HttpOnly; SameSite=Lax$/);
    expect(cookies.find((c) => c.startsWith('nd_rt='))).toMatch(/; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
    expect(res.headers.get('location')).toBe('/account');
  });

  it('the session cookies open the pages, never /v1 nor /graphql', async () => {
    const u = await createUser(t);
    const jar = await signedIn(u);
    expect((await get(jar, '/account')).status).toBe(200);

    const profile = await call(t.url, 'GET', '/v1/user/profile', { headers: { cookie: jar.header() } });
    expect(profile.status).toBe(401);
    const graphql = await call(t.url, 'POST', '/graphql', { body: { query: '{ profile { id } }' }, headers: { cookie: jar.header() } });
    expect(graphql.status).toBe(401);
    expect(graphql.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // The same request with the token as a Bearer header is the API's way.
    expect((await call(t.url, 'GET', '/v1/user/profile', { token: jar.cookies.get('nd_at') })).status).toBe(200);
  });

  it('refuses a POST without the CSRF value, with another one, or from another origin (403), and changes nothing', async () => {
    const u = await createUser(t);
    const jar = await signedIn(u);
    const csrf = jar.cookies.get('nd_csrf')!;
    const change = { current_password: u.password, new_password: 'changed by a forged form', confirm_password: 'changed by a forged form' };

    const missing = await post(jar, '/account/password', change);
    expect(missing.status).toBe(403);
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await missing.text()).toContain('Nothing was changed');
    expect((await post(jar, '/account/password', { ...change, _csrf: `${csrf.slice(0, -1)}${csrf.endsWith('A') ? 'B' : 'A'}` })).status).toBe(403);
    expect((await post(jar, '/account/password', { ...change, _csrf: csrf }, { origin: 'https://attacker.example' })).status).toBe(403);
    expect((await post(jar, '/account/password', { ...change, _csrf: csrf }, { origin: 'null' })).status).toBe(403);
    // A browser without the cookie (a cross-site form cannot send Lax cookies) is refused even with a value.
    const noCookie = new Jar({ nd_at: jar.cookies.get('nd_at')!, nd_rt: jar.cookies.get('nd_rt')! });
    expect((await post(noCookie, '/account/password', { ...change, _csrf: csrf })).status).toBe(403);
    expect((await post(jar, '/sign-out', {})).status).toBe(403);

    expect(await canLogIn(u.email, u.password)).toBe(true);
    expect(await canLogIn(u.email, change.new_password)).toBe(false);
    expect((await get(jar, '/account')).status).toBe(200);
  });

  it('refreshes an expired session once for concurrent and slightly late requests, and both cookies are replaced', async () => {
    const u = await createUser(t);
    const jar = await signedIn(u);
    const oldRefresh = jar.cookies.get('nd_rt')!;
    // The access token is gone (expired): the browser sends only the refresh token, from several requests at once.
    const expired = () => new Jar({ nd_rt: oldRefresh, nd_csrf: jar.cookies.get('nd_csrf')! });
    const browsers = [expired(), expired(), expired()];
    const answers = await Promise.all(browsers.map((b) => get(b, '/account')));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const pairs = browsers.map((b) => `${b.cookies.get('nd_at')} ${b.cookies.get('nd_rt')}`);
    expect(new Set(pairs).size).toBe(1);
    expect(browsers[0]!.cookies.get('nd_rt')).not.toBe(oldRefresh);

    // A request that was still on its way with the old cookie gets the same pair too, instead of revoking the login.
    const late = expired();
    expect((await get(late, '/account')).status).toBe(200);
    expect(`${late.cookies.get('nd_at')} ${late.cookies.get('nd_rt')}`).toBe(pairs[0]);

    // The login is alive: its new refresh token rotates as usual.
    const next = await call(t.url, 'POST', '/v1/user/auth/refresh', { body: { refresh_token: browsers[0]!.cookies.get('nd_rt') } });
    expect(next.status).toBe(200);
  });

  it('signing out revokes the login; a refresh token that no longer works clears the cookies and the page asks to sign in', async () => {
    const u = await createUser(t);
    const jar = await signedIn(u);
    const refreshToken = jar.cookies.get('nd_rt')!;
    expect((await post(jar, '/sign-out', { _csrf: jar.cookies.get('nd_csrf')! })).headers.get('location')).toBe('/sign-in');
    expect(jar.cookies.has('nd_at') || jar.cookies.has('nd_rt')).toBe(false);
    expect((await call(t.url, 'POST', '/v1/user/auth/refresh', { body: { refresh_token: refreshToken } })).status).toBe(401);

    // createUser's login, signed out through the API: a browser still holding its refresh token is signed out too.
    await call(t.url, 'POST', '/v1/user/auth/logout', { body: { refresh_token: u.refreshToken } });
    const res = await get(new Jar({ nd_rt: u.refreshToken }), '/account');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/sign-in?next=%2Faccount');
    expect(res.headers.getSetCookie().filter((c) => /^nd_(at|rt)=; .*Max-Age=0/.test(c))).toHaveLength(2);
  });

  it('sends the browser to where `next` points, percent-encoded for the Location header, or to the account page when it leaves the site', async () => {
    const u = await createUser(t);
    const jar = await signedIn(u);
    const cases: [string, string][] = [
      ['/\u3002evil', '/%E3%80%82evil'],
      ['/\u00e9', '/%C3%A9'],
      ['/datasets?q=caf\u00e9#top', '/datasets?q=caf%C3%A9#top'],
      ['/datasets/a%20b', '/datasets/a%20b'],
      ['//evil.example', '/account'],
      ['/\\evil.example', '/account'],
      ['https://evil.example/', '/account'],
      ['/a b', '/account'],
    ];
    for (const [next, location] of cases) {
      const res = await get(jar, `/sign-in?next=${encodeURIComponent(next)}`);
      expect(res.status, next).toBe(303);
      expect(res.headers.get('location'), next).toBe(location);
    }

    // Signing in with such a `next`: the login and its cookies reach the browser, and the redirect goes where it should.
    for (const [next, location] of cases.slice(0, 2)) {
      const fresh = new Jar();
      await get(fresh, '/sign-in');
      const res = await post(fresh, '/sign-in', { _csrf: fresh.cookies.get('nd_csrf')!, email: u.email, password: u.password, next });
      expect(res.status, next).toBe(303);
      expect(res.headers.get('location'), next).toBe(location);
      expect(fresh.cookies.has('nd_at') && fresh.cookies.has('nd_rt'), next).toBe(true);
      expect((await get(fresh, '/account')).status, next).toBe(200);
    }
  });

  it('pages carry their own policy and are not part of the API: not in /openapi.json, no CORS, login_code only on the return page', async () => {
    const page = await fetch(`${t.url}/sign-in`, { headers: { origin: 'https://elsewhere.example' } });
    expect(page.headers.get('content-security-policy')).toBe(PAGE_POLICY);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<style|style=/);
    for (const asset of html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)) {
      const res = await fetch(`${t.url}${asset[1]}`);
      expect(res.status, asset[1]).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    const openapi = await call(t.url, 'GET', '/openapi.json');
    expect(Object.keys(openapi.body.paths).filter((p) => !p.startsWith('/v1/') && !['/health', '/openapi.json', '/docs', '/graphql'].includes(p))).toEqual([]);

    expect((await call(t.url, 'GET', '/v1/user/profile?login_code=abc')).status).toBe(400);
    const returnPage = await fetch(`${t.url}/sign-in/complete?login_code=abc`);
    expect(returnPage.status).toBe(400);
    expect(returnPage.headers.get('content-type')).toMatch(/^text\/html/);
    expect(returnPage.headers.get('referrer-policy')).toBe('no-referrer');
  });
});
