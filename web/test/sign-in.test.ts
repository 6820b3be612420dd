import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../test/kit/app.js';
import { hasChromium, isFocused, launchBrowser, openTab, textOf } from '../../test/kit/browser.js';

describe.skipIf(!hasChromium)('signing in and out in a browser', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp({}, { listen: true }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const signIn = async (page: Page, email: string, password: string) => {
    await page.goto('/sign-in');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  it('registers, signs in, signs out and signs in again; a wrong password is shown on its field', async () => {
    const { page, allow } = await openTab(browser, t.url);
    const email = `ada-${Date.now()}@example.org`;
    const password = 'analytical engine 1843';

    await page.goto('/register');
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/account');
    expect(await textOf(page.getByRole('status'))).toContain('Your account is ready');
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in');
    expect(await textOf(page.getByRole('status'))).toContain('You are signed out');
    expect(await page.getByRole('link', { name: 'Sign in' }).isVisible()).toBe(true);

    // The failed sign-in answers 401 with the form again: the browser logs the status as a console error.
    allow(/status of 401/);
    await signIn(page, email, 'not the password');
    const summary = page.locator('[data-error-summary]');
    expect(await isFocused(summary)).toBe(true);
    expect(await textOf(summary)).toContain('wrong email or password');
    const passwordField = page.getByLabel('Password');
    expect(await passwordField.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await passwordField.getAttribute('aria-describedby'))!.split(' ');
    const messages = await Promise.all(describedBy.map((id) => page.locator(`#${id}`).textContent()));
    expect(messages.join(' ')).toContain('wrong email or password');
    // The email is kept, the password is not.
    expect(await page.getByLabel('Email address').inputValue()).toBe(email);
    expect(await passwordField.inputValue()).toBe('');

    await signIn(page, email, password);
    await page.waitForURL('**/account');
    expect(await textOf(page.getByRole('status'))).toContain('You are signed in');
  });
});
