import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { call, startTestApp, type TestApp } from '../../test/kit/app.js';
import { NARROW, expectNoHorizontalOverflow, hasChromium, isFocused, launchBrowser, openTab, textOf } from '../../test/kit/browser.js';
import { createUser } from '../../test/kit/users.js';
import { register, submitSignIn } from './page-helpers.js';

describe.skipIf(!hasChromium)('the sign-in, registration, account and password pages in a browser', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp({}, { listen: true }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const uniqueEmail = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.org`;
  /** What has the focus: an input's id, or a link's or button's text. */
  const focused = (page: Page) => page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.id || el?.textContent?.trim() || el?.tagName || '';
  });
  /** The header's controls in document order (its navigation grows with the pages): what Tab reaches first. */
  const headerControls = (page: Page) => page.locator('.site-header a, .site-header button').evaluateAll((els) => els.map((el) => el.id || el.textContent?.trim() || ''));
  const tabThrough = async (page: Page, n: number) => {
    const order: string[] = [];
    for (let i = 0; i < n; i++) {
      await page.keyboard.press('Tab');
      order.push(await focused(page));
    }
    return order;
  };

  it('registers, signs in, signs out and signs in again; a wrong password is shown on its field', async () => {
    const { page, allow } = await openTab(browser, t.url);
    const email = uniqueEmail('ada');
    const password = 'analytical engine 1843';

    await register(page, { name: 'Ada Lovelace', email, password });
    expect(await textOf(page.getByRole('status'))).toContain('Your account is ready');
    expect(await textOf(page.locator('.details'))).toContain('Name Ada Lovelace');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in');
    expect(await textOf(page.getByRole('status'))).toContain('You are signed out');
    expect(await page.getByRole('link', { name: 'Sign in' }).isVisible()).toBe(true);
    // Signed out means signed out: the account page sends the browser to sign in.
    await page.goto('/account');
    expect(new URL(page.url()).pathname).toBe('/sign-in');

    // The failed sign-in answers 401 with the form again, which the browser logs.
    allow(/status of 401/);
    await submitSignIn(page, email, 'not the password');
    const summary = page.locator('[data-error-summary]');
    expect(await isFocused(summary)).toBe(true);
    expect(await textOf(summary)).toContain('wrong email or password');
    const passwordField = page.getByLabel('Password');
    expect(await passwordField.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await passwordField.getAttribute('aria-describedby'))!.split(' ');
    const messages = await Promise.all(describedBy.map((id) => textOf(page.locator(`#${id}`))));
    expect(messages.join(' ')).toContain('Wrong email or password');
    // The summary's entry leads to the field.
    await summary.getByRole('link').click();
    expect(await isFocused(passwordField)).toBe(true);
    expect(await page.getByLabel('Email address').inputValue()).toBe(email);
    expect(await passwordField.inputValue()).toBe('');

    await submitSignIn(page, email, password);
    await page.waitForURL('**/account');
    expect(await textOf(page.getByRole('status'))).toContain('You are signed in');
  });

  it('changes the password from the page: this browser stays signed in, the old password no longer logs in', async () => {
    const u = await createUser(t);
    const { page, context, allow } = await openTab(browser, t.url);
    const newPassword = 'a brand new passphrase';
    await submitSignIn(page, u.email, u.password);
    await page.waitForURL('**/account');
    await page.getByRole('link', { name: 'Change your password' }).click();
    await page.waitForURL('**/account/password');

    allow(/status of 403/);
    await page.getByLabel('Current password').fill('not the current one');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('New password again').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    expect(await textOf(page.locator('#f-current_password-error'))).toContain('This is not your current password');
    expect(await page.getByLabel('Current password').getAttribute('aria-describedby')).toBe('f-current_password-error');

    await page.getByLabel('Current password').fill(u.password);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('New password again').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL('**/account');
    expect(await textOf(page.getByRole('status'))).toContain('Your password is changed');

    // Still signed in, after the access token is gone too: this login's refresh token was kept.
    await context.clearCookies({ name: 'nd_at' });
    await page.goto('/account');
    expect(new URL(page.url()).pathname).toBe('/account');
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    expect((await context.cookies()).map((c) => c.name)).toContain('nd_at');

    expect((await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: u.email, password: u.password } })).status).toBe(401);
    expect((await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: u.email, password: newPassword } })).status).toBe(200);
    // The login made before the change (createUser's) is signed out.
    expect((await call(t.url, 'POST', '/v1/user/auth/refresh', { body: { refresh_token: u.refreshToken } })).status).toBe(401);
  });

  it('registers and signs in with the keyboard alone, in a logical focus order', async () => {
    const { page } = await openTab(browser, t.url);
    const email = uniqueEmail('keys');
    const password = 'typed on a keyboard';

    await page.goto('/register');
    const header = await headerControls(page);
    expect(header.at(-1)).toBe('Sign in');
    const order = await tabThrough(page, header.length + 6);
    expect(order).toEqual(['Skip to main content', ...header, 'f-display_name', 'f-email', 'f-password', 'Create account', 'Sign in']);
    // The skip link goes to the main content.
    await page.keyboard.press('Shift+Tab');
    await page.goto('/register');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('main');

    await page.goto('/register');
    for (let i = 0; i < header.length + 2; i++) await page.keyboard.press('Tab');
    await page.keyboard.type('Keyboard User');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/account');

    // Sign out with the keyboard: the header's last control, after the skip link and the navigation.
    const signedInHeader = await headerControls(page);
    expect(signedInHeader.at(-1)).toBe('Sign out');
    expect(await tabThrough(page, signedInHeader.length + 1)).toEqual(['Skip to main content', ...signedInHeader]);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/sign-in');

    const signInHeader = await headerControls(page);
    expect(await tabThrough(page, signInHeader.length + 4)).toEqual(['Skip to main content', ...signInHeader, 'f-email', 'f-password', 'Sign in']);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/account');
    expect(await textOf(page.getByRole('status'))).toContain('You are signed in');
  });

  it('no page of the account fits badly on a 375 px screen', async () => {
    const { page, allow, screenshot } = await openTab(browser, t.url, { viewport: NARROW });
    allow(/status of 400/);
    // A long unbroken address and name are the hardest content for a narrow screen.
    const email = `an-exceptionally-long-mailbox-name-without-breaks-${Date.now()}@a-rather-long-institution-domain.example.org`;
    const check = async (name: string) => {
      await expectNoHorizontalOverflow(page);
      await screenshot(`375-${name}`, { keep: true });
    };
    await page.goto('/sign-in');
    await check('sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForSelector('[data-error-summary]');
    await check('sign-in-errors');
    await page.goto('/register');
    await check('register');
    await register(page, { name: 'Maximiliana Wilhelmina Fitzgerald-Montgomery-Rutherford', email, password: 'narrow screens welcome' });
    await check('account');
    await page.goto('/account/password');
    await check('password');
    await page.goto('/sign-in/complete');
    await check('sign-in-complete-without-code');
  });
});
