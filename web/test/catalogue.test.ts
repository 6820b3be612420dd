import { readFile } from 'node:fs/promises';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import jsonld, { type Options } from 'jsonld';
import { startTestApp, call, type TestApp } from '../../test/kit/app.js';
import { NARROW, expectNoHorizontalOverflow, hasChromium, launchBrowser, openTab, textOf } from '../../test/kit/browser.js';
import { createUser } from '../../test/kit/users.js';
import { createTinyDataset } from '../../test/kit/datasets.js';
import { packagePath } from '../../lib/package-root.js';
import { jsonLdOf, tabTo } from './page-helpers.js';

type RemoteDocument = Awaited<ReturnType<NonNullable<Options.Expand['documentLoader']>>>;
const S = 'http://schema.org/';

/** Expands JSON-LD against the shipped schema.org context; any other document (the network) is refused. */
async function expand(doc: Record<string, unknown>) {
  const context = JSON.parse(await readFile(packagePath('seed', 'jsonld', 'schemaorg-context.jsonld'), 'utf8')) as RemoteDocument['document'];
  const documentLoader = async (url: string): Promise<RemoteDocument> => {
    if (url === 'https://schema.org/' || url === 'http://schema.org/') return { contextUrl: undefined, documentUrl: url, document: context };
    throw new Error(`refusing to load ${url}`);
  };
  return (await jsonld.expand(doc as never, { documentLoader })) as Array<Record<string, any>>;
}

const HOSTILE_TITLE = 'Wiring </script><script>alert(1)</script> of the ring';
const MALE = 'worm_male_connectome';

/** Seven connectomes of two species, from five years, under two licences: enough to filter and to page by five. */
const CATALOGUE = [
  { slug: MALE, title: 'Adult male worm connectome', year: 2019, license: 'MIT' },
  { slug: 'worm_hermaphrodite_connectome', title: 'Adult hermaphrodite worm connectome', year: 2019, license: 'MIT' },
  { slug: 'worm_ring_connectome', title: 'Nerve ring connectome of a larva', year: 2011 },
  { slug: 'worm_l1_connectome', title: 'L1 larva connectome', year: 2021 },
  { slug: 'worm_dauer_connectome', title: 'Dauer larva connectome', year: 2021 },
  { slug: 'mouse_cortex_connectome', title: 'Mouse visual cortex connectome', year: 2020, mouse: true },
  { slug: 'mouse_barrel_connectome', title: 'Mouse barrel column connectome', year: 2024, mouse: true },
];

describe.skipIf(!hasChromium)('the catalogue and dataset pages for anonymous visitors', () => {
  let t: TestApp;
  let browser: Browser;
  let maleTitle: string;

  beforeAll(async () => {
    // A browser reaches the app over a socket. Seven small datasets are made here: publishing the shipped
    // connectomes (SEED_DATASETS) would take longer than every test of this file.
    [t, browser] = await Promise.all([startTestApp({}, { listen: true }), launchBrowser()]);
    const owner = await createUser(t, { accountType: 'ACADEMIC' });
    const mouse = { species: ['Mus musculus'], brain_regions: ['Isocortex'] };
    await Promise.all([
      ...CATALOGUE.map((d) =>
        createTinyDataset(t, owner, {
          slug: d.slug,
          title: d.title,
          keywords: ['connectome'],
          license: d.license ?? 'CC-BY-4.0',
          related_publication: { citation: `Example et al. (${d.year}). ${d.title}.`, year: d.year },
          ...(d.mouse ? mouse : {}),
        }),
      ),
      createTinyDataset(t, owner, { slug: 'hostile_title', title: HOSTILE_TITLE, description: 'A dataset whose title tries to end the page script.' }),
    ]);
    maleTitle = (await call(t.url, 'GET', `/v1/search/datasets/${MALE}`)).body.title;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('searches from the home page, filters by a facet, pages, follows the spelling correction and reads the ontology terms', async () => {
    const { page, allow } = await openTab(browser, t.url);
    const all = (await call(t.url, 'GET', '/v1/search/fulltext?q=connectome&limit=1')).body.total as number;
    expect(all).toBe(CATALOGUE.length);

    await page.goto('/');
    await page.getByLabel('Search the datasets').fill('connectome');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/datasets?q=connectome');
    expect(await textOf(page.locator('.result-count'))).toBe(`Showing 1–${Math.min(all, 20)} of ${all} datasets`);
    // Matches are marked, and only with <mark>.
    expect(await page.locator('.hit-title mark').first().textContent()).toMatch(/^connectome$/i);
    expect(await page.getByRole('link', { name: maleTitle }).count()).toBe(1);

    // A facet: the filters keep the query; the active filter is a link that removes it.
    await page.locator('summary', { hasText: 'Filters' }).click();
    await page.getByRole('group', { name: 'Year' }).getByLabel(/^2019/).check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/year=2019/);
    expect(new URL(page.url()).searchParams.get('q')).toBe('connectome');
    const filtered = (await call(t.url, 'GET', '/v1/search/fulltext?q=connectome&year=2019&limit=1')).body.total as number;
    expect(await textOf(page.locator('.result-count'))).toBe(`Showing 1–${filtered} of ${filtered} ${filtered === 1 ? 'dataset' : 'datasets'}`);
    await page.getByRole('link', { name: /^Remove the filter\s*Year: 2019$/ }).click();
    await page.waitForURL((url) => !url.searchParams.has('year'));
    expect(await textOf(page.locator('.result-count'))).toContain(`of ${all} datasets`);

    // Pages of five.
    await page.goto('/datasets?q=connectome&limit=5');
    expect(await textOf(page.locator('.result-count'))).toBe(`Showing 1–5 of ${all} datasets`);
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/page=2/);
    expect(await textOf(page.locator('.result-count'))).toBe(`Showing 6–${all} of ${all} datasets`);
    expect(await page.locator('.hit-list').getAttribute('start')).toBe('6');
    await page.getByRole('link', { name: 'Previous page' }).click();
    await page.waitForURL((url) => !url.searchParams.has('page'));

    // A misspelling: the results are the corrected query's, and the link makes it the query.
    await page.goto('/datasets?q=conectome');
    expect(await textOf(page.locator('.notice'))).toContain('Nothing matched “conectome”, so these are the results for “connectome”');
    await page.getByRole('link', { name: 'Search for “connectome” instead' }).click();
    await page.waitForURL('**/datasets?q=connectome');
    expect(await page.locator('.notice').count()).toBe(0);

    // Ontology terms the query was read as, linked to the term's public record.
    await page.goto('/datasets?q=worm');
    const term = page.locator('.interpreted a').first();
    expect(await textOf(term)).toBe('Caenorhabditis elegans');
    expect(await term.getAttribute('href')).toMatch(/^\/v1\/ontology\/terms\/[0-9a-f-]{36}$/);

    // A filter value that names no term: the search's message (a 400), and the form to change it.
    allow(/status of 400/);
    await page.goto('/datasets?species=unicorn');
    expect(await textOf(page.getByRole('alert').filter({ hasText: 'did not run' }))).toContain('not a term of vocabulary species');
  });

  it('shows a landing page with its terms, versions and citation, a BibTeX download, and JSON-LD that expands to a schema.org Dataset', async () => {
    const { page } = await openTab(browser, t.url);
    await page.goto('/datasets?q=connectome');
    await page.getByRole('link', { name: maleTitle }).click();
    await page.waitForURL(`**/datasets/${MALE}`);
    expect(await textOf(page.locator('h1'))).toBe(maleTitle);
    expect(await page.getByRole('link', { name: 'Caenorhabditis elegans' }).first().getAttribute('href')).toMatch(/^\/v1\/ontology\/terms\//);
    expect(await textOf(page.locator('.version-list'))).toMatch(/^Version 1, published \d+ \w+ \d{4}/);
    expect(await textOf(page.locator('#citation-text'))).toContain(`${maleTitle} (Version 1) [Data set]`);
    // Anonymous visitors see a public dataset's counts, and how to get its files.
    expect(await textOf(page.locator('.counts dt').first())).toBe('Neurons');
    expect(await textOf(page.locator('.counts dd').first())).toMatch(/^[\d,]+$/);
    expect(await page.getByRole('link', { name: 'Sign in' }).first().isVisible()).toBe(true);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the citation as BibTeX' }).click()]);
    expect(download.suggestedFilename()).toBe(`${MALE}_v1.bib`);
    const bibtex = await readFile((await download.path())!, 'utf8');
    expect(bibtex).toMatch(/^@dataset\{/);
    expect(bibtex).toContain(`title = {{${maleTitle.replace(/[&%$#_]/g, (c) => `\\${c}`)}}}`);
    const ris = await page.request.get(`/datasets/${MALE}/citation.ris`);
    expect(ris.headers()['content-disposition']).toContain(`${MALE}_v1.ris`);
    expect(await ris.text()).toContain(`TI  - ${maleTitle}`);

    const doc = await jsonLdOf(page);
    expect(doc).toMatchObject({ '@type': 'Dataset', '@id': `${t.url}/datasets/${MALE}`, name: maleTitle, url: `${t.url}/datasets/${MALE}` });
    expect(doc).not.toHaveProperty('distribution');
    const [expanded] = await expand(doc);
    expect(expanded['@type']).toEqual([`${S}Dataset`]);
    expect(expanded[`${S}name`]).toEqual([{ '@value': maleTitle }]);
    expect(expanded[`${S}creator`].length).toBeGreaterThan(0);
  });

  it('shows a title holding </script> as text, and its JSON-LD still parses: no script runs, no policy is violated', async () => {
    const { page } = await openTab(browser, t.url);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    // (PostgreSQL's text parser reads <script> as a tag and skips what it holds: the title is found by its words.)
    await page.goto('/datasets?q=wiring+ring');
    const hit = page.locator('.hit-title a[href="/datasets/hostile_title"]');
    expect(await textOf(hit)).toBe(HOSTILE_TITLE);
    await hit.click();
    await page.waitForURL('**/datasets/hostile_title');
    expect(await textOf(page.locator('h1'))).toBe(HOSTILE_TITLE);
    expect(await page.title()).toBe(`${HOSTILE_TITLE} · Neurodata`);
    const doc = await jsonLdOf(page);
    expect(doc.name).toBe(HOSTILE_TITLE);
    const [expanded] = await expand(doc);
    expect(expanded[`${S}name`]).toEqual([{ '@value': HOSTILE_TITLE }]);
    // Every script of the page is a file of this site or the data block.
    const inline = await page.evaluate(() => [...document.scripts].filter((s) => !s.src && s.type !== 'application/ld+json').length);
    expect(inline).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('reaches the main controls of every page by keyboard, and fits a 375 px screen', async () => {
    const { page, screenshot } = await openTab(browser, t.url);
    await page.goto('/');
    await tabTo(page, page.getByLabel('Search the datasets'));
    await page.keyboard.type('connectome');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/datasets?q=connectome');

    await tabTo(page, page.locator('summary', { hasText: 'Filters' }));
    await page.keyboard.press('Enter');
    // A radio group is one stop of the Tab key; its arrow keys move the choice.
    const years = page.getByRole('group', { name: 'Year' });
    await tabTo(page, years.getByLabel('Any year'));
    for (let i = 0; i < 5 && !(await years.getByLabel(/^2019/).isChecked()); i++) await page.keyboard.press('ArrowDown');
    expect(await years.getByLabel(/^2019/).isChecked()).toBe(true);
    await tabTo(page, page.getByRole('group', { name: 'Licence' }).getByLabel(/^MIT/));
    await page.keyboard.press('Space');
    await tabTo(page, page.getByRole('button', { name: 'Apply filters' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/year=2019/);
    expect(new URL(page.url()).searchParams.getAll('license')).toEqual(['MIT']);
    await tabTo(page, page.locator('.hit-title a').first());
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/datasets\/worm_(male|hermaphrodite)_connectome/);
    await tabTo(page, page.getByRole('link', { name: 'Download the citation as BibTeX' }));

    await page.goto('/datasets?q=connectome&limit=5');
    await tabTo(page, page.getByRole('link', { name: 'Next page' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/page=2/);

    const narrow = await openTab(browser, t.url, { viewport: NARROW });
    for (const [name, path] of [
      ['home', '/'],
      ['catalogue', '/datasets?q=connectome&year=2019'],
      ['landing', `/datasets/${MALE}`],
      ['hostile', '/datasets/hostile_title'],
    ]) {
      await narrow.page.goto(path!);
      if (name === 'catalogue') await narrow.page.locator('summary', { hasText: 'Filters' }).isVisible();
      await expectNoHorizontalOverflow(narrow.page);
      await narrow.screenshot(`${name}-375`);
    }
    await screenshot('landing-wide');
  });
});
