import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { call, startTestApp, type TestApp } from '../../test/kit/app.js';
import { allowOrigin, hasChromium, launchBrowser, openTab, textOf } from '../../test/kit/browser.js';
import { freePort } from '../../test/kit/processes.js';
import { createUser } from '../../test/kit/users.js';
import { submitSignIn } from './page-helpers.js';
import { startTestOidcProvider, type TestOidcProvider } from '../../subgraphs/identity/test/oidc-provider.fixture.js';

/** ORCID's own documentation example iD (Josiah Carberry), which has a valid check digit. */
const ORCID_ID = '0000-0002-1825-0097';

/** People at the test provider, with the claims a CILogon-style federation releases. */
const IDENTITIES = {
  'alice@example.edu': { email: 'Alice@example.edu', email_verified: true, name: 'Alice Example', idp_name: 'Example University', affiliation: 'faculty@example.edu' },
  'bob@example.edu': { email: 'bob@example.edu', email_verified: true, name: 'Bob Example', idp_name: 'Example University', affiliation: 'student@example.edu' },
  'carol@example.edu': { email: 'carol@example.edu', email_verified: true, name: 'Carol Example', idp_name: 'Example University', affiliation: 'staff@example.edu' },
  'erin@example.edu': { email: 'erin@example.edu', email_verified: true, name: 'Erin Example' },
  [ORCID_ID]: { given_name: 'Josiah', family_name: 'Carberry' },
};

describe.skipIf(!hasChromium)('the account page and the sign-in page with a login provider, in a browser', () => {
  let op: TestOidcProvider;
  let t: TestApp;
  let browser: Browser;
  let publicUrl: string;

  beforeAll(async () => {
    // The provider sends the browser back to PUBLIC_URL, so the app listens where PUBLIC_URL says.
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    [op, browser] = await Promise.all([
      startTestOidcProvider({
        identities: IDENTITIES,
        loginPage: true,
        scopes: { openid: ['sub', 'given_name', 'family_name'], email: ['email', 'email_verified'], profile: ['name'], 'org.cilogon.userinfo': ['idp_name', 'affiliation'] },
        clients: [
          {
            client_id: 'web-institutional',
            client_secret: 'web-institutional-secret',
            token_endpoint_auth_method: 'client_secret_post',
            redirect_uris: [`${publicUrl}/v1/user/authenticate/institutional/callback`],
          },
          { client_id: 'web-orcid', token_endpoint_auth_method: 'none', redirect_uris: [`${publicUrl}/v1/user/authenticate/orcid/callback`] },
          { client_id: 'web-social', client_secret: 'web-social-secret', token_endpoint_auth_method: 'client_secret_post', redirect_uris: [`${publicUrl}/v1/user/authenticate/social/callback`] },
        ],
      }),
      launchBrowser(),
    ]);
    allowOrigin(op.issuer);
    t = await startTestApp(
      {
        PUBLIC_URL: publicUrl,
        LOGIN_RETURN_URL: `${publicUrl}/sign-in/complete`,
        OIDC_INSTITUTIONAL_ISSUER: op.issuer,
        OIDC_INSTITUTIONAL_CLIENT_ID: 'web-institutional',
        OIDC_INSTITUTIONAL_CLIENT_SECRET: 'web-institutional-secret',
        OIDC_INSTITUTIONAL_SCOPES: 'openid email org.cilogon.userinfo',
        OIDC_ORCID_ISSUER: op.issuer,
        OIDC_ORCID_CLIENT_ID: 'web-orcid',
        OIDC_SOCIAL_ISSUER: op.issuer,
        OIDC_SOCIAL_CLIENT_ID: 'web-social',
        OIDC_SOCIAL_CLIENT_SECRET: 'web-social-secret',
      },
      { listen: true, port },
    );
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await op?.close();
  });

  const signIn = async (page: Page, email: string, password: string) => {
    await submitSignIn(page, email, password);
    await page.waitForURL(`${publicUrl}/account`);
  };
  /** The person at the provider's login page. */
  const logInAtProvider = async (page: Page, who: string) => {
    await page.waitForURL(`${op.issuer}/interaction/**`);
    await page.getByLabel('Institutional login').fill(who);
    await page.getByRole('button', { name: 'Log in' }).click();
  };
  /** A second browser opens `providerUrl` and logs in as `who`: the service's answer at the callback. */
  const completeInAnotherBrowser = async (providerUrl: string, who: string) => {
    const other = await openTab(browser, publicUrl);
    other.allow(/status of 400/);
    const callback = other.page.waitForResponse((r) => r.url().startsWith(`${publicUrl}/v1/user/authenticate/institutional/callback`));
    await other.page.goto(providerUrl);
    await logInAtProvider(other.page, who);
    const answer = await callback;
    return { status: answer.status(), body: (await answer.json()) as { error: string } };
  };
  const standingOf = async (token: string) => (await call(t.url, 'GET', '/v1/user/authenticate/institutional', { token })).body;

  it('a Regular user verifies their institution from the account page and comes back Academic; the provider URL fails in a second browser', async () => {
    const u = await createUser(t);
    const { page } = await openTab(browser, publicUrl);
    await signIn(page, u.email, u.password);
    expect(await textOf(page.locator('.details'))).toContain('Account class Regular not verified');

    const toProvider = page.waitForRequest((r) => r.url().startsWith(`${op.issuer}/auth`));
    await page.getByRole('link', { name: 'Verify my institution' }).click();
    const providerUrl = (await toProvider).url();
    await logInAtProvider(page, 'alice@example.edu');
    await page.waitForURL(`${publicUrl}/account`);
    expect(await textOf(page.getByRole('status'))).toContain('Your institution (Example University) verified you: your account is now Academic.');
    expect(await textOf(page.locator('.details'))).toContain('Account class Academic verified');
    expect(await textOf(page.locator('#academic-title + p'))).toContain('verified by Example University');
    // The page's own session goes on (its token is older than the change).
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);

    // Another browser with the same provider URL: the callback has no binding (nor return) cookie there.
    const refused = await completeInAnotherBrowser(providerUrl, 'bob@example.edu');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/already used|another browser/);
    expect(await standingOf(u.accessToken)).toMatchObject({ account_type: 'ACADEMIC', email: 'Alice@example.edu' });
  });

  it('a verification started on the account page cannot be completed in another browser, and changes nothing', async () => {
    const u = await createUser(t);
    const { page, allow } = await openTab(browser, publicUrl);
    await signIn(page, u.email, u.password);
    // The link carries the browser's CSRF value: a link from elsewhere does not start anything.
    allow(/status of 403/);
    expect((await page.goto('/account/verify/institutional?csrf=from-another-site'))!.status()).toBe(403);
    await page.goto('/account');
    // The first browser gets as far as the provider's login page, and stops there.
    const toProvider = page.waitForRequest((r) => r.url().startsWith(`${op.issuer}/auth`));
    await page.getByRole('link', { name: 'Verify my institution' }).click();
    const providerUrl = (await toProvider).url();
    await page.waitForURL(`${op.issuer}/interaction/**`);

    const refused = await completeInAnotherBrowser(providerUrl, 'carol@example.edu');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/started in another browser/);

    expect(await standingOf(u.accessToken)).toMatchObject({ account_type: 'REGULAR', verified: false, institution: null });
    await page.goto('/account');
    expect(await textOf(page.locator('.details'))).toContain('Account class Regular not verified');
  });

  it('signs in with the social provider from the sign-in page (LOGIN_RETURN_URL is /sign-in/complete); its login_code is refused in a browser that did not start it', async () => {
    const { page } = await openTab(browser, publicUrl);
    await page.goto('/sign-in');
    const toReturnPage = page.waitForRequest((r) => r.url().startsWith(`${publicUrl}/sign-in/complete`));
    await page.getByRole('link', { name: 'single sign-on' }).click();
    await logInAtProvider(page, 'erin@example.edu');
    const returnUrl = (await toReturnPage).url();
    expect(returnUrl).toContain('login_code=');
    await page.waitForURL(`${publicUrl}/account`);
    expect(await textOf(page.getByRole('status'))).toContain('Your account was created with single sign-on, and you are signed in.');
    expect(await textOf(page.locator('.details'))).toContain('erin@example.edu');
    expect(await textOf(page.locator('.identity-list'))).toMatch(/Password: none yet.*Single sign-on/);
    // Its only way to sign in cannot be unlinked: the page asks first, then says why not.
    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Unlink Single sign-on' }).click();
    await page.getByRole('alert').filter({ hasText: 'the only way to log in' }).waitFor();
    expect(question).toContain('Unlink your single sign-on account?');

    // The same login_code, sent to another browser as a link (to sign its user in to this account): refused
    // before it is exchanged.
    const victim = await openTab(browser, publicUrl);
    victim.allow(/status of 400/);
    const response = await victim.page.goto(returnUrl);
    expect(response!.status()).toBe(400);
    expect(await textOf(victim.page.locator('main'))).toContain('This sign-in was not started in this browser');
    expect((await victim.context.cookies()).map((c) => c.name)).not.toContain('nd_at');
  });

  it('links an ORCID iD from the account page and unlinks it, asking first', async () => {
    const u = await createUser(t);
    const { page } = await openTab(browser, publicUrl);
    await signIn(page, u.email, u.password);
    await page.getByRole('link', { name: 'Link ORCID' }).click();
    await logInAtProvider(page, ORCID_ID);
    await page.waitForURL(`${publicUrl}/account`);
    expect(await textOf(page.getByRole('status'))).toContain(`Your ORCID iD ${ORCID_ID} is linked to this account.`);
    expect(await textOf(page.locator('#orcid-title + p'))).toContain(`Linked: ${ORCID_ID}`);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Unlink ORCID iD' }).click();
    await page.getByRole('status').filter({ hasText: 'Your ORCID iD is no longer linked.' }).waitFor();
    expect(await page.getByRole('link', { name: 'Link ORCID' }).isVisible()).toBe(true);
    expect((await call(t.url, 'GET', '/v1/user/authenticate/orcid', { token: u.accessToken })).body).toMatchObject({ linked: false });
  });
});
