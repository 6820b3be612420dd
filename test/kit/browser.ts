import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect, onTestFinished } from 'vitest';
import { PACKAGE_ROOT } from '../../lib/package-root.js';

/** Debian's Chromium (CI installs it: .ci/run); the browser tests are skipped on a machine without it. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Where screenshots go (gitignored): those of a failed test stay, and those a test asks to keep. */
export const SCREENSHOTS = path.join(PACKAGE_ROOT, 'test-results', 'screenshots');

/** The narrowest screen the pages are made for (a small phone), in CSS pixels. */
export const NARROW = { width: 375, height: 740 };

/**
 * One headless Chromium for a test file (about a second to start): `beforeAll(launch)`, `afterAll(close)`. The flags
 * keep it from calling out on its own, so the tests see every request the pages make.
 */
export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      // Root in a container has no user namespace for Chromium's sandbox.
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-features=Translate,OptimizationHints,MediaRouter',
    ],
  });
}

export interface BrowserTab {
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught page errors, CSP violations and requests to other sites seen so far. */
  problems: string[];
  /** Accepts console errors matching `pattern` (a page answered 4xx on purpose, say). */
  allow(pattern: RegExp): void;
  /** Saves a screenshot of the page under SCREENSHOTS; kept when the test fails or with `keep`, else removed after it. */
  screenshot(name: string, opts?: { keep?: boolean; fullPage?: boolean }): Promise<string>;
}

/**
 * A fresh browser context (its own cookies) with one page, for one test: closed when the test ends. Console errors,
 * page errors, Content-Security-Policy violations and any request outside `origin` are collected, and the test fails
 * on any of them that it did not `allow`. A failed test leaves a screenshot of the page behind.
 */
export async function openTab(browser: Browser, origin: string, opts: { viewport?: { width: number; height: number } } = {}): Promise<BrowserTab> {
  const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1024, height: 768 }, baseURL: origin });
  const page = await context.newPage();
  const problems: string[] = [];
  const allowed: RegExp[] = [];
  const testName = expect.getState().currentTestName ?? 'test';
  const taken: string[] = [];

  // Reported by the page itself: a violation of the pages' policy is a bug even when nothing visible breaks.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const note = (text: string) => {
    if (!allowed.some((p) => p.test(text))) problems.push(text);
  };
  context.on('console', (msg) => {
    if (msg.type() === 'error') note(`console error on ${msg.page()?.url()} (${msg.location().url}): ${msg.text()}`);
  });
  context.on('weberror', (e) => note(`page error: ${e.error().message}`));
  context.on('request', (request) => {
    const url = request.url();
    // The login provider of a test is another origin on purpose; its pages are the test's business.
    if (!url.startsWith(origin) && !url.startsWith('data:') && !allowedOrigins.some((o) => url.startsWith(o))) note(`request to another site: ${url}`);
  });

  const tab: BrowserTab = {
    context,
    page,
    problems,
    allow: (pattern) => allowed.push(pattern),
    async screenshot(name, { keep = false, fullPage = true } = {}) {
      await mkdir(SCREENSHOTS, { recursive: true });
      const file = path.join(SCREENSHOTS, `${slug(testName)}-${slug(name)}.png`);
      await page.screenshot({ path: file, fullPage });
      if (!keep) taken.push(file);
      return file;
    },
  };

  onTestFinished(async (ctx) => {
    const failed = ctx.task.result?.state === 'fail';
    try {
      if (failed && !page.isClosed()) await tab.screenshot('failure', { keep: true }).catch(() => undefined);
      else await Promise.all(taken.map((f) => rm(f, { force: true })));
    } finally {
      await context.close();
    }
    if (!failed && problems.length) throw new Error(`the browser reported problems:\n${problems.join('\n')}`);
  });
  return tab;
}

/** Other origins a test's pages may reach (its login provider): `allowOrigin(op.issuer)`. */
const allowedOrigins: string[] = [];
export function allowOrigin(origin: string): void {
  if (!allowedOrigins.includes(origin)) allowedOrigins.push(origin);
}

/** Fails when the page is wider than the viewport: content that makes a small screen scroll sideways. */
export async function expectNoHorizontalOverflow(page: Page, width = NARROW.width): Promise<void> {
  const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth }));
  expect(sizes.scroll, `${page.url()} is ${sizes.scroll} px wide at ${width} px`).toBeLessThanOrEqual(width);
  expect(sizes.body, `${page.url()}'s body is ${sizes.body} px wide at ${width} px`).toBeLessThanOrEqual(width);
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);

/** Whether the element of `locator` has the focus. */
export const isFocused = (locator: Locator): Promise<boolean> => locator.evaluate((el) => el === el.ownerDocument.activeElement);

/** The element's text as rendered (innerText), runs of white space collapsed; '' when it is absent. */
export async function textOf(locator: Locator): Promise<string> {
  if ((await locator.count()) === 0) return '';
  return (await locator.first().innerText()).replace(/\s+/g, ' ').trim();
}
