import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../test/kit/app.js';
import { NARROW, expectNoHorizontalOverflow, hasChromium, isFocused, launchBrowser, openTab, textOf } from '../../test/kit/browser.js';
import { identity } from '../../subgraphs/identity/index.js';
import { register } from './page-helpers.js';

describe.skipIf(!hasChromium)('API tokens in a browser', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp({}, { listen: true }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const registerAs = (page: Page, email: string) => register(page, { name: 'Rosalind Franklin', email, password: 'photograph fifty one' });
  const datasets = (token: string) => fetch(`${t.url}/v1/neurodata/datasets`, { headers: { authorization: `Bearer ${token}` } });

  it('makes a token with the keyboard alone, shows it once, and the token works from a script with what the account holds', async () => {
    const { page } = await openTab(browser, t.url);
    const email = `rosalind-${Date.now()}@example.org`;
    await registerAs(page, email);
    await page.goto('/tokens');

    // Keyboard only: from the name field, Tab through the scope choices, the expiry and the button.
    await page.getByLabel('Name').focus();
    await page.keyboard.type('cluster jobs');
    await page.keyboard.press('Tab');
    expect(await isFocused(page.getByLabel('Read'))).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await page.getByLabel('Compute').isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await isFocused(page.getByLabel('Expires after'))).toBe(true);
    await page.keyboard.press('Tab');
    expect(await isFocused(page.getByRole('button', { name: 'Make token' }))).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#new-token');

    const token = (await textOf(page.locator('#new-token'))).trim();
    expect(token).toMatch(/^ndt_[A-Za-z0-9_-]{43}$/);
    // The example is one a Regular account's token can run: the account itself, not a dataset route that would be a 403.
    const example = await textOf(page.locator('#new-token-curl'));
    expect(example).toBe(`curl -H "Authorization: Bearer ${token}" ${t.url}/v1/user/profile`);
    expect((await fetch(example.split(' ').at(-1)!, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect(await page.getByRole('button', { name: 'Copy the token' }).isVisible()).toBe(true);
    expect(await textOf(page.locator('.token-list'))).toContain('cluster jobs');

    // A Regular account's token opens no dataset route; the account's verification opens them to the same token.
    expect((await datasets(token)).status).toBe(403);
    const account = await (await fetch(`${t.url}/v1/user/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'photograph fifty one' }) })).json();
    const { id } = await (await fetch(`${t.url}/v1/user/profile`, { headers: { authorization: `Bearer ${account.access_token}` } })).json();
    await (await identity.use(t.app.deps).accountAdmin()).markAcademicVerified(id);
    expect((await datasets(token)).status).toBe(200);

    // Reloaded, the token is no longer shown, and its last use is.
    await page.goto('/tokens');
    expect(await page.locator('#new-token').count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    expect(await textOf(page.locator('.token-list'))).toMatch(/Last used\s*\d+ \w+ \d{4}, \d\d:\d\d UTC from/);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke the token cluster jobs' }).click();
    await page.waitForURL('**/tokens');
    expect(await textOf(page.getByRole('status'))).toContain('is revoked');
    const refused = await datasets(token);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toMatch(/revoked on .* by its owner/);
  });

  it('names the field of a refused form, and fits a phone with a token shown', async () => {
    const { page, allow, screenshot } = await openTab(browser, t.url, { viewport: NARROW });
    await registerAs(page, `narrow-${Date.now()}@example.org`);
    await page.goto('/tokens');
    allow(/status of 400/);
    await page.getByRole('button', { name: 'Make token' }).click();
    const summary = page.locator('[data-error-summary]');
    expect(await isFocused(summary)).toBe(true);
    expect(await textOf(summary)).toContain('Name: say what the token is for');

    await page.getByLabel('Name').fill('a phone-width token with a long name that has to wrap somewhere');
    await page.getByRole('button', { name: 'Make token' }).click();
    await page.waitForSelector('#new-token');
    await screenshot('tokens-375');
    await expectNoHorizontalOverflow(page);
  });
});
