import { readFile } from 'node:fs/promises';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { tableFromIPC } from 'apache-arrow';
import { startTestApp, call, type TestApp } from '../../test/kit/app.js';
import { NARROW, expectNoHorizontalOverflow, hasChromium, launchBrowser, openTab, textOf } from '../../test/kit/browser.js';
import { createUser, type TestUser } from '../../test/kit/users.js';
import { createTinyDataset } from '../../test/kit/datasets.js';
import { eventually } from '../../test/kit/eventually.js';
import { startRunnerFor } from '../../gateway/subgraphs.js';
import type { JobRunner } from '../../lib/jobs/index.js';
import { andLoad, signIn, tabTo } from './page-helpers.js';

describe.skipIf(!hasChromium)('the jobs page: progress, cancel, Arrow results', () => {
  let t: TestApp;
  let browser: Browser;
  let academic: TestUser;
  let regular: TestUser;
  let query: string;
  let runner: JobRunner | null = null;

  const submit = async (user: TestUser, text = query): Promise<string> => {
    const res = await call(t.url, 'POST', '/v1/jobs', { token: user.accessToken, body: { query: text } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return res.body.job_id;
  };
  const statusOf = async (user: TestUser, id: string): Promise<string> => (await call(t.url, 'GET', `/v1/jobs/${id}`, { token: user.accessToken })).body.status;

  beforeAll(async () => {
    // A browser reaches the app over a socket. No job runs until a test starts a runner (as `npm run worker` does):
    // a queued job stays queued for as long as a test needs it to.
    [t, browser] = await Promise.all([startTestApp({ JOBS_IN_PROCESS: 'false', JOBS_POLL_MS: '100' }, { listen: true }), launchBrowser()]);
    [academic, regular] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'REGULAR' })]);
    const d = await createTinyDataset(t, academic, { slug: 'job_ring' });
    query = `MATCH (a:Neuron)-[c:Synapse]->(b:Neuron) IN "${d.slug}" RETURN a.id AS pre, b.id AS post, c.weight AS weight ORDER BY pre, post`;
  });
  afterAll(async () => {
    await runner?.stop();
    await browser?.close();
    await t?.close();
  });

  it('cancels a queued job from the page; it stays listed as cancelled', async () => {
    const id = await submit(academic);
    const { page } = await openTab(browser, t.url);
    await signIn(page, academic, '/jobs');
    const job = page.locator(`[data-job="${id}"]`);
    expect(await textOf(job.locator('[data-field="status"]'))).toBe('Queued');
    expect(await job.locator('progress').getAttribute('value')).toBe('0');
    expect(await job.getByRole('link', { name: /Download result/ }).isVisible()).toBe(false);

    await andLoad(page, () => job.getByRole('button', { name: `Cancel SyQL export ${id.slice(-8)}` }).click());
    expect(await textOf(page.getByRole('status'))).toBe(`Job ${id.slice(-8)} is cancelled.`);
    expect(await textOf(page.locator(`[data-job="${id}"] [data-field="status"]`))).toBe('Cancelled');
    expect(await page.locator(`[data-job="${id}"]`).getByRole('button', { name: /^Cancel/ }).count()).toBe(0);
    expect(await statusOf(academic, id)).toBe('cancelled');
  });

  it('follows a job from queued to done without reloading, announces it, and downloads its result as Arrow', async () => {
    const id = await submit(academic);
    const { page } = await openTab(browser, t.url);
    await signIn(page, academic, '/jobs');
    const job = page.locator(`[data-job="${id}"]`);
    expect(await textOf(job.locator('[data-field="status"]'))).toBe('Queued');
    await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));

    runner = await startRunnerFor(t.app.deps, ['query']);
    await eventually(async () => (await textOf(job.locator('[data-field="status"]'))) === 'Done', { timeoutMs: 30_000, what: 'the page showing the job done' });
    expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    expect(await job.locator('progress').evaluate((p) => (p as HTMLProgressElement).value)).toBe(100);
    expect(await textOf(job.locator('[data-field="percent"]'))).toBe('100%');
    expect(await textOf(page.locator('#jobs-announcer'))).toContain(`SyQL export ${id.slice(-8)}: Done.`);
    expect(await job.getByRole('button', { name: /^Cancel/ }).isVisible()).toBe(false);
    const rows = (await call(t.url, 'GET', `/v1/jobs/${id}`, { token: academic.accessToken })).body.result_rows as number;
    expect(await textOf(job.locator('[data-field="result"]'))).toMatch(new RegExp(`^${rows} rows?, `));

    const status = await page.request.get(`/jobs/${id}/status.json`);
    expect(status.headers()['cache-control']).toBe('no-store');
    expect(await status.json()).toMatchObject({ job_id: id, status: 'succeeded', percent: 100, download_url: `/jobs/${id}/result.arrow` });

    const [download] = await Promise.all([page.waitForEvent('download'), job.getByRole('link', { name: /Download result/ }).click()]);
    const table = tableFromIPC(new Uint8Array(await readFile((await download.path())!)));
    const exec = await call(t.url, 'POST', '/v1/syql/exec', { token: academic.accessToken, body: { query } });
    expect(exec.status, JSON.stringify(exec.body)).toBe(200);
    expect(table.numRows).toBe(exec.body.total);
    expect(table.numRows).toBe(rows);
    expect(table.schema.fields.map((f) => f.name)).toEqual(['pre', 'post', 'weight']);
    expect(table.schema.metadata.get('job_id')).toBe(id);

    // Another account gets neither the status nor the result.
    const other = await openTab(browser, t.url);
    other.allow(/status of 404/);
    const stranger = await createUser(t, { accountType: 'ACADEMIC' });
    await signIn(other.page, stranger, '/jobs');
    expect((await other.page.request.get(`/jobs/${id}/status.json`)).status()).toBe(404);
    expect((await other.page.goto(`/jobs/${id}/result.arrow`))?.status()).toBe(404);
  });

  it('tells a Regular account that jobs need an Academic account, with a link to the account page', async () => {
    const { page, allow } = await openTab(browser, t.url);
    allow(/status of 403/);
    await signIn(page, regular, '/account');
    const res = await page.goto('/jobs');
    expect(res?.status()).toBe(403);
    expect(await textOf(page.locator('main'))).toContain('Jobs (SyQL exports and graph analyses) need an Academic account');
    await page.getByRole('link', { name: 'See how to verify your account' }).click();
    await page.waitForURL('**/account');
    // Signed out, the page asks to sign in first.
    const anonymous = await openTab(browser, t.url);
    await anonymous.page.goto('/jobs');
    expect(new URL(anonymous.page.url()).pathname).toBe('/sign-in');
  });

  it('reaches Cancel and Download by keyboard, and fits a 375 px screen', async () => {
    const queued = await submit(academic);
    const { page, screenshot } = await openTab(browser, t.url, { viewport: NARROW });
    await signIn(page, academic, '/jobs');
    await eventually(async () => (await statusOf(academic, queued)) === 'succeeded', { timeoutMs: 30_000, what: 'the job done' });
    await page.reload();
    await tabTo(page, page.locator(`[data-job="${queued}"]`).getByRole('link', { name: /Download result/ }));
    // With the runner stopped, a new job waits queued: Cancel, by keyboard.
    await runner?.stop();
    runner = null;
    const waiting = await submit(academic);
    await page.reload();
    await tabTo(page, page.locator(`[data-job="${waiting}"]`).getByRole('button', { name: /^Cancel/ }));
    await andLoad(page, () => page.keyboard.press('Enter'));
    expect(await textOf(page.getByRole('status'))).toBe(`Job ${waiting.slice(-8)} is cancelled.`);
    expect(await statusOf(academic, waiting)).toBe('cancelled');
    await expectNoHorizontalOverflow(page);
    await screenshot('jobs-375');
  });
});
