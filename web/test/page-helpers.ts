import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { isFocused } from '../../test/kit/browser.js';

/** Fills and sends the sign-in form, as a person would; the caller waits for where it leads. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Creates an account on the registration page and waits for the account page, where a new account lands signed in. */
export async function register(page: Page, person: { name: string; email: string; password: string }): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('Your name').fill(person.name);
  await page.getByLabel('Email address').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/account');
}

/** Signs in through the sign-in page, as a person does; `next` is the page to land on. */
export async function signIn(page: Page, user: { email: string; password: string }, next = '/account'): Promise<void> {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email address').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === next.split('?')[0]);
}

/**
 * Presses Tab from the top of the page until `target` has the focus, as a keyboard user reaches it; fails when it is
 * not reached within `maxTabs` presses. The focused element must show a focus indicator (an outline).
 */
export async function tabTo(page: Page, target: Locator, maxTabs = 80): Promise<void> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await page.keyboard.press('Tab');
  for (let i = 0; i < maxTabs; i++) {
    if (await isFocused(target)) {
      const outline = await target.evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(outline, 'the focused control shows a focus outline').not.toBe('none');
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`${target} was not reached with ${maxTabs} presses of Tab`);
}

/** The JSON-LD data block of the page, parsed. */
export async function jsonLdOf(page: Page): Promise<Record<string, unknown>> {
  const blocks = page.locator('head script[type="application/ld+json"]');
  expect(await blocks.count()).toBe(1);
  return JSON.parse((await blocks.textContent()) ?? '') as Record<string, unknown>;
}

/** Runs `action` (a click, a key press) and waits for the page it leads to: also when that page has the same URL. */
export async function andLoad(page: Page, action: () => Promise<unknown>): Promise<void> {
  const loaded = page.waitForEvent('load');
  await action();
  await loaded;
}
