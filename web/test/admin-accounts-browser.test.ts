import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { call, startTestApp, type TestApp } from '../../test/kit/app.js';
import { NARROW, expectNoHorizontalOverflow, hasChromium, launchBrowser, openTab, textOf } from '../../test/kit/browser.js';
import { createUser } from '../../test/kit/users.js';
import { andLoad, signIn, tabTo } from './page-helpers.js';

describe.skipIf(!hasChromium)('/admin/accounts in a browser', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    // A real socket: Chromium loads the pages.
    [t, browser] = await Promise.all([startTestApp({}, { listen: true }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lets a SuperUser find an account and verify it with a reason by keyboard alone, then take it back', async () => {
    const admin = await createUser(t, { accountType: 'SUPERUSER' });
    const tag = randomUUID().slice(0, 8);
    const student = await createUser(t, { email: `keyboard-${tag}@example.org` });
    const { page } = await openTab(browser, t.url);
    await signIn(page, admin, '/datasets');

    const entry = page.getByRole('link', { name: 'Accounts', exact: true });
    await tabTo(page, entry);
    await andLoad(page, () => page.keyboard.press('Enter'));
    expect(new URL(page.url()).pathname).toBe('/admin/accounts');

    await tabTo(page, page.getByLabel('Email contains'));
    await page.keyboard.type(`keyboard-${tag}`);
    await andLoad(page, () => page.keyboard.press('Enter'));
    expect(await textOf(page.locator('main'))).toContain(`keyboard-${tag}@example.org`);

    await tabTo(page, page.getByLabel(`Why verify keyboard-${tag}@example.org?`));
    await page.keyboard.type('listed on the lab roster');
    await page.keyboard.press('Tab');
    await andLoad(page, () => page.keyboard.press('Enter'));
    expect(await textOf(page.locator('main'))).toContain(`keyboard-${tag}@example.org is now Academic.`);
    expect((await call(t.url, 'GET', '/v1/user/profile', { token: student.accessToken })).body).toMatchObject({
      account_type: 'ACADEMIC',
      verification: { method: 'SUPERUSER', reason: 'listed on the lab roster' },
    });

    // Taking a verification back asks first.
    await tabTo(page, page.getByRole('button', { name: `Unverify keyboard-${tag}@example.org` }));
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await andLoad(page, () => page.keyboard.press('Enter'));
    expect(asked).toEqual([`Take back the verification of keyboard-${tag}@example.org? The account becomes Regular at once.`]);
    expect(await textOf(page.locator('main'))).toContain(`keyboard-${tag}@example.org is now Regular.`);
    expect((await call(t.url, 'GET', '/v1/user/profile', { token: student.accessToken })).body.account_type).toBe('REGULAR');
  });

  it('fits a 375 px screen, long addresses and reasons included', async () => {
    const admin = await createUser(t, { accountType: 'SUPERUSER' });
    await createUser(t, { email: `an-exceptionally-long-mailbox-name-without-breaks-${randomUUID().slice(0, 8)}@a-rather-long-institution-domain.example.org` });
    const { page, screenshot } = await openTab(browser, t.url, { viewport: NARROW });
    await signIn(page, admin, '/admin/accounts');
    await page.goto('/admin/accounts?email=an-exceptionally-long-mailbox');
    await expectNoHorizontalOverflow(page);
    await screenshot('admin-accounts-375');
  });
});
