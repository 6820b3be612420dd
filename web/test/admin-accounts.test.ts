import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { call, startTestApp, type TestApp } from '../../test/kit/app.js';
import { createUser, type TestUser } from '../../test/kit/users.js';
import { PAGE_POLICY } from '../index.js';
import { Jar } from './cookie-jar.js';

describe('/admin/accounts: SuperUsers verify accounts from a page, without scripts', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Real sockets: the page's cookies and redirects as a browser meets them.
    t = await startTestApp({}, { listen: true });
  });
  afterAll(async () => t?.close());

  const get = async (jar: Jar, path: string) => jar.take(await fetch(`${t.url}${path}`, { redirect: 'manual', headers: { cookie: jar.header() } }));
  const post = async (jar: Jar, path: string, form: Record<string, string>) =>
    jar.take(
      await fetch(`${t.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded', origin: t.url },
        body: new URLSearchParams(form),
      }),
    );
  async function signedIn(u: TestUser): Promise<Jar> {
    const jar = new Jar();
    await get(jar, '/sign-in');
    expect((await post(jar, '/sign-in', { _csrf: jar.cookies.get('nd_csrf')!, email: u.email, password: u.password })).status).toBe(303);
    return jar;
  }
  /** Follows a post/redirect/get answer to its page, as a browser does. */
  const follow = async (jar: Jar, res: Response) => {
    expect(res.status).toBe(303);
    return get(jar, res.headers.get('location')!);
  };
  const profileOf = async (u: TestUser) => (await call(t.url, 'GET', '/v1/user/profile', { token: u.accessToken })).body;

  it('shows the Accounts entry in the navigation to SuperUsers only', async () => {
    const admin = await createUser(t, { accountType: 'SUPERUSER' });
    const regular = await createUser(t);
    expect(await (await get(await signedIn(admin), '/datasets')).text()).toContain('<a href="/admin/accounts">Accounts</a>');
    expect(await (await get(await signedIn(regular), '/datasets')).text()).not.toContain('/admin/accounts');
    expect(await (await get(new Jar(), '/datasets')).text()).not.toContain('/admin/accounts');
  });

  it('searches accounts by email, verifies one with a reason and unverifies it, each change shown on the next page', async () => {
    const admin = await createUser(t, { accountType: 'SUPERUSER' });
    const tag = randomUUID().slice(0, 8);
    const student = await createUser(t, { email: `student-${tag}@example.org` });
    const jar = await signedIn(admin);

    const list = await get(jar, `/admin/accounts?email=student-${tag}`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-security-policy')).toBe(PAGE_POLICY);
    const page = await list.text();
    expect(page).toContain('Accounts 1 to 1 of 1');
    expect(page).toContain(`student-${tag}@example.org`);
    expect(page).toContain(`action="/admin/accounts/${student.id}/verify"`);
    expect(page).toMatch(/<input type="hidden" name="_csrf" value="[A-Za-z0-9_-]{43}">/);

    const csrf = jar.cookies.get('nd_csrf')!;
    const verified = await follow(jar, await post(jar, `/admin/accounts/${student.id}/verify`, { _csrf: csrf, reason: 'on the lab roster', email: `student-${tag}`, page: '1' }));
    const after = await verified.text();
    expect(after).toContain(`student-${tag}@example.org is now Academic.`);
    expect(after).toContain('by a SuperUser on');
    expect(after).toContain('on the lab roster');
    expect(after).toContain(`action="/admin/accounts/${student.id}/unverify"`);
    expect(await profileOf(student)).toMatchObject({ account_type: 'ACADEMIC', verification: { method: 'SUPERUSER', verified_by: admin.id, reason: 'on the lab roster' } });

    // The owner's account page says who verified it and why.
    const own = await (await get(await signedIn(student), '/account')).text();
    expect(own).toContain('verified by a SuperUser of this service on');
    expect(own).toContain('on the lab roster');

    const taken = await (await follow(jar, await post(jar, `/admin/accounts/${student.id}/unverify`, { _csrf: csrf, email: `student-${tag}`, page: '1' }))).text();
    expect(taken).toContain(`student-${tag}@example.org is now Regular.`);
    expect((await profileOf(student)).account_type).toBe('REGULAR');
  });

  it('says what is missing when the reason is empty, and changes nothing', async () => {
    const admin = await createUser(t, { accountType: 'SUPERUSER' });
    const u = await createUser(t);
    const jar = await signedIn(admin);
    await get(jar, '/admin/accounts');
    const page = await (await follow(jar, await post(jar, `/admin/accounts/${u.id}/verify`, { _csrf: jar.cookies.get('nd_csrf')!, reason: ' ' }))).text();
    expect(page).toMatch(/role="alert"><p>reason: say why/);
    expect((await profileOf(u)).account_type).toBe('REGULAR');
  });

  it('answers 403 pages to other accounts and to forms without the CSRF value, and sends signed-out browsers to sign in', async () => {
    const regular = await createUser(t);
    const admin = await createUser(t, { accountType: 'SUPERUSER' });
    const jar = await signedIn(regular);
    const list = await get(jar, '/admin/accounts');
    expect(list.status).toBe(403);
    expect(await list.text()).toContain('Only SuperUsers administer accounts');
    const forged = await post(jar, `/admin/accounts/${regular.id}/verify`, { _csrf: jar.cookies.get('nd_csrf')!, reason: 'myself' });
    expect(forged.status).toBe(403);
    expect((await profileOf(regular)).account_type).toBe('REGULAR');

    const adminJar = await signedIn(admin);
    const noCsrf = await post(adminJar, `/admin/accounts/${regular.id}/verify`, { reason: 'no form token' });
    expect(noCsrf.status).toBe(403);
    expect((await profileOf(regular)).account_type).toBe('REGULAR');

    const anonymous = await get(new Jar(), '/admin/accounts');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/sign-in?next=%2Fadmin%2Faccounts');
  });

  it('pages through the accounts, 25 a page', async () => {
    const admin = await createUser(t, { accountType: 'SUPERUSER' });
    const tag = randomUUID().slice(0, 8);
    for (let i = 0; i < 26; i++) await createUser(t, { email: `paged-${tag}-${String(i).padStart(2, '0')}@example.org` });
    const jar = await signedIn(admin);
    const first = await (await get(jar, `/admin/accounts?email=paged-${tag}`)).text();
    expect(first).toContain('Accounts 1 to 25 of 26');
    expect(first).toContain(`href="/admin/accounts?email=paged-${tag}&amp;page=2" rel="next"`);
    const second = await (await get(jar, `/admin/accounts?email=paged-${tag}&page=2`)).text();
    expect(second).toContain('Accounts 26 to 26 of 26');
    expect(second).toContain(`paged-${tag}-00@example.org`);
  });
});

describe('/account without an institutional login says what works here', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, { listen: true });
  });
  afterAll(async () => t?.close());

  it('tells a Regular account to ask a SuperUser, or to run create-superuser on its own machine', async () => {
    const u = await createUser(t);
    const jar = new Jar();
    await jar.take(await fetch(`${t.url}/sign-in`, { redirect: 'manual' }));
    await jar.take(
      await fetch(`${t.url}/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded', origin: t.url },
        body: new URLSearchParams({ _csrf: jar.cookies.get('nd_csrf')!, email: u.email, password: u.password }),
      }),
    );
    const page = await (await fetch(`${t.url}/account`, { headers: { cookie: jar.header() } })).text();
    expect(page).toContain('This server has no institutional login.');
    expect(page).toContain('/admin/accounts');
    expect(page).toContain(`npm run admin -- create-superuser --email ${u.email} --password -`);
    expect(page).not.toContain('ask its operators');
  });
});
