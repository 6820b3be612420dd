import { readFile } from 'node:fs/promises';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, call, type TestApp } from '../../test/kit/app.js';
import { NARROW, expectNoHorizontalOverflow, hasChromium, launchBrowser, openTab, textOf } from '../../test/kit/browser.js';
import { createUser, type TestUser } from '../../test/kit/users.js';
import { createDataset, createTinyDataset, uploadFile } from '../../test/kit/datasets.js';
import { andLoad, jsonLdOf, signIn, tabTo } from './page-helpers.js';

const NEURONS = 'neuron_id,cell_class,neurotransmitter\nA1,A,acetylcholine\nB1,B,GABA\nC1,C,glutamate\n';
const CONNECTIONS = 'pre,post,synapse_type,weight\nA1,B1,chemical,3\nB1,C1,chemical,2\nA1,C1,electrical,1\n';

describe.skipIf(!hasChromium)('dataset pages for owners, readers and those who ask for access', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: TestUser;
  let academic: TestUser;
  let regular: TestUser;

  beforeAll(async () => {
    // A browser reaches the app over a socket.
    [t, browser] = await Promise.all([startTestApp({}, { listen: true }), launchBrowser()]);
    [owner, academic, regular] = await Promise.all([
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'REGULAR' }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the owner what a draft lacks and publishes it with the Publish button; nobody else sees the draft or the button', async () => {
    const draft = await createDataset(t, owner, { slug: 'draft_ring', title: 'Draft ring wiring', description: 'Too short' });
    const path = `/datasets/${draft.slug}`;

    for (const user of [null, regular, academic]) {
      const { page, allow } = await openTab(browser, t.url);
      allow(/status of 404/);
      if (user) await signIn(page, user);
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
      expect(await textOf(page.locator('h1'))).toBe('Dataset not found');
      expect(await page.getByRole('button', { name: /Publish/ }).count()).toBe(0);
      expect(await page.content()).not.toContain('Draft ring wiring');
    }

    const { page } = await openTab(browser, t.url);
    await signIn(page, owner, path);
    expect(await textOf(page.locator('h1'))).toBe('Draft ring wiring');
    expect(await textOf(page.locator('.lede'))).toContain('Not published yet');
    const missing = page.locator('.missing-list li');
    expect(await missing.allTextContents()).toEqual(['description: at least 20 characters', 'data: upload neurons.csv and connections.csv, or SWC morphologies']);
    // A draft has no public record: no JSON-LD, and search engines are asked not to index it.
    expect(await page.locator('script[type="application/ld+json"]').count()).toBe(0);
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');

    // Publishing too early says what is missing.
    await andLoad(page, () => page.getByRole('button', { name: 'Publish version 1' }).click());
    expect(await textOf(page.getByRole('alert'))).toMatch(/^The draft was not published: the draft cannot be published yet; missing: description: at least 20 characters; data: upload/);

    // Completed through the API, then published from the page.
    expect((await call(t.url, 'PATCH', `/v1/neurodata/datasets/${draft.id}`, { token: owner.accessToken, body: { description: 'Three neurons of the nerve ring and their synapses.' } })).status).toBe(200);
    expect((await uploadFile(t, owner, draft.id, 'neurons.csv', NEURONS)).status).toBe(201);
    expect((await uploadFile(t, owner, draft.id, 'connections.csv', CONNECTIONS)).status).toBe(201);
    await page.reload();
    expect(await page.locator('.missing-list').count()).toBe(0);
    expect(await textOf(page.locator('.draft-panel'))).toContain('The draft has everything a publication needs.');
    expect(await page.locator('.draft-panel .file-list li').count()).toBe(2);
    await page.getByLabel('What changed in this version (optional)').fill('first release');
    await andLoad(page, () => page.getByRole('button', { name: 'Publish version 1' }).click());
    expect(await textOf(page.getByRole('status'))).toBe('Version 1 is published: everyone can find it in the catalogue now.');
    expect(await textOf(page.locator('.lede'))).toMatch(/^Public Version 1, published/);
    expect(await textOf(page.locator('.version-list'))).toContain('Version 1, published');
    expect(await textOf(page.locator('.version-list'))).toContain('first release');
    expect((await jsonLdOf(page)).name).toBe('Draft ring wiring');
    expect(await page.locator('.draft-panel').count()).toBe(0);

    // The owner reads the data: the files of the version, downloaded through a signed URL.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download neurons.csv' }).click()]);
    expect(download.suggestedFilename()).toBe('neurons.csv');
    expect(await readFile((await download.path())!, 'utf8')).toBe(NEURONS);

    // Everyone finds it now.
    const anonymous = await openTab(browser, t.url);
    expect((await anonymous.page.goto(path))?.status()).toBe(200);
    expect(await anonymous.page.getByRole('button', { name: /Publish/ }).count()).toBe(0);
  });

  it('offers an Academic visitor without access a request form for a restricted dataset, then shows the pending request; no counts or files', async () => {
    const restricted = await createTinyDataset(t, owner, { slug: 'embargoed_ring', title: 'Embargoed ring wiring', visibility: 'restricted' });
    const files = await call(t.url, 'GET', `/v1/neurodata/datasets/${restricted.id}/assets`, { token: owner.accessToken });
    const secrets: string[] = files.body.items.flatMap((a: { id: string; sha256: string }) => [a.id, a.sha256]);
    const path = `/datasets/${restricted.slug}`;

    const { page } = await openTab(browser, t.url);
    await signIn(page, academic, path);
    expect(await textOf(page.locator('h1'))).toBe('Embargoed ring wiring');
    expect(await textOf(page.locator('.lede'))).toMatch(/^Restricted/);
    expect(await textOf(page.locator('#data-title + p'))).toContain('This dataset is restricted');
    expect(await page.locator('.counts').count()).toBe(0);
    expect(await page.locator('.file-list').count()).toBe(0);
    expect(secrets.filter((s) => page.url().includes(s))).toEqual([]);
    const html = await page.content();
    expect(secrets.filter((s) => html.includes(s))).toEqual([]);
    const doc = await jsonLdOf(page);
    expect(doc).toMatchObject({ variableMeasured: [] });
    expect(doc).not.toHaveProperty('distribution');

    await page.getByLabel('Why you need the data (optional, shown to the owner)').fill('to compare with my own reconstruction');
    await andLoad(page, () => page.getByRole('button', { name: 'Request access' }).click());
    expect(await textOf(page.getByRole('status'))).toContain('Your access request is sent');
    expect(await textOf(page.locator('.request-status'))).toMatch(/^Your access request is pending \(sent \d+ \w+ \d{4}\)/);
    expect(await page.getByRole('button', { name: 'Request access' }).count()).toBe(0);
    const seen = await call(t.url, 'GET', `/v1/neurodata/datasets/${restricted.id}/access`, { token: owner.accessToken });
    expect(seen.body.requests).toEqual([expect.objectContaining({ requester_id: academic.id, status: 'pending', message: 'to compare with my own reconstruction' })]);

    // A Regular account is told what it needs, and gets no form.
    const other = await openTab(browser, t.url);
    await signIn(other.page, regular, path);
    expect(await textOf(other.page.locator('#data-title ~ p').nth(1))).toContain('Requesting access needs an Academic account');
    expect(await other.page.getByRole('button', { name: 'Request access' }).count()).toBe(0);
  });

  it('reaches the Publish and Request access controls by keyboard, and fits a 375 px screen', async () => {
    const draft = await createDataset(t, owner, { slug: 'keyboard_draft', title: 'Keyboard draft' });
    const restricted = await createTinyDataset(t, owner, { slug: 'keyboard_restricted', title: 'Keyboard restricted', visibility: 'restricted' });
    const published = await createTinyDataset(t, owner, { slug: 'keyboard_public', title: 'Keyboard public with a rather long title that has to wrap on a phone' });

    const mine = await openTab(browser, t.url, { viewport: NARROW });
    await signIn(mine.page, owner, `/datasets/${draft.slug}`);
    await tabTo(mine.page, mine.page.getByLabel('What changed in this version (optional)'));
    await tabTo(mine.page, mine.page.getByRole('button', { name: 'Publish version 1' }));
    await expectNoHorizontalOverflow(mine.page);
    await mine.screenshot('draft-375');
    await mine.page.goto(`/datasets/${published.slug}`);
    await tabTo(mine.page, mine.page.getByRole('link', { name: 'Download connections.csv' }));
    await tabTo(mine.page, mine.page.getByRole('link', { name: 'Download the citation as RIS' }));
    await expectNoHorizontalOverflow(mine.page);
    await mine.screenshot('published-with-files-375');

    const theirs = await openTab(browser, t.url, { viewport: NARROW });
    await signIn(theirs.page, academic, `/datasets/${restricted.slug}`);
    await tabTo(theirs.page, theirs.page.getByLabel('Why you need the data (optional, shown to the owner)'));
    await tabTo(theirs.page, theirs.page.getByRole('button', { name: 'Request access' }));
    await expectNoHorizontalOverflow(theirs.page);
    await theirs.screenshot('restricted-375');
  });
});
