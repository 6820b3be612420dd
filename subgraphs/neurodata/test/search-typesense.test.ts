import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { testTypesense } from '../../../test/kit/settings.js';
import { startTestApp, call, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { createTinyDataset } from '../../../test/kit/datasets.js';
import { eventually } from '../../../test/kit/eventually.js';
import { createSearchCatalogue } from './search-catalogue.js';
import { neurodata } from '../index.js';

type Hit = Record<string, any>;
type Answer = Awaited<ReturnType<typeof call>>;
const slugs = (body: { items: Hit[] }) => body.items.map((h) => h.slug);

/** The node these run against; without one (TEST_TYPESENSE_URL or TYPESENSE_URL) the whole file is skipped. */
const settings = testTypesense();
const COLLECTION = 'neurodata_datasets';

describe.skipIf(!settings)('dataset search on Typesense: the contract the PostgreSQL engine keeps', () => {
  let t: TestApp;
  let owner: TestUser;
  let outsider: TestUser;
  const search = (query: string, user?: TestUser) => call(t.url, 'GET', `/v1/search/fulltext?${query}`, { token: user?.accessToken });
  /**
   * The index follows a commit a moment later (the copy is made after it), so an answer that depends on a write is
   * awaited until it holds.
   */
  const until = async (query: string, holds: (body: Hit) => boolean, user?: TestUser): Promise<Answer> => {
    let last: Answer | undefined;
    const answered = async () => {
      last = await search(query, user);
      return last.status === 200 && holds(last.body) ? last : undefined;
    };
    // The last answer when it never holds: the caller's assertion shows what the index said.
    return eventually(answered, { timeoutMs: 10_000, intervalMs: 100, what: `an answer to ${query} that holds` }).catch((err: unknown) => {
      if (!last) throw err;
      return last;
    });
  };

  beforeAll(async () => {
    t = await startTestApp({ TYPESENSE_URL: settings!.url, TYPESENSE_API_KEY: settings!.apiKey });
    // The node outlives test runs: start from an empty collection, not the datasets of a previous run.
    await neurodata.use(t.app.deps).reindexSearch();
    [owner, outsider] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'ACADEMIC' })]);
    await createSearchCatalogue(t, owner);
    const all = await until('limit=1', (b) => b.total === 6);
    expect(all.body.total, JSON.stringify(all.body)).toBe(6);
  });
  afterAll(async () => t?.close());

  it('answers from Typesense, ranks title above keyword above description, and highlights the words', async () => {
    const r = await search('q=thalamocortical');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.engine).toBe('typesense');
    expect(slugs(r.body)).toEqual(['thal_title', 'thal_keyword', 'thal_description']);
    expect(r.body.total).toBe(3);
    const [first, second, third] = r.body.items;
    expect(first.highlight.title).toBe('<mark>Thalamocortical</mark> projections of the mouse');
    expect(third.highlight.snippet).toContain('<mark>thalamocortical</mark> input');
    // The order above is the engine's; the scores only have to agree with it.
    expect(first.score).toBeGreaterThan(0);
    expect(first.score).toBeGreaterThanOrEqual(second.score);
    expect(second.score).toBeGreaterThanOrEqual(third.score);
    expect(first).toMatchObject({ version: 1, visibility: 'public' });
    expect(first.species.map((s: Hit) => s.code)).toEqual(['NCBITaxon:10090']);
  });

  it('finds a dataset annotated with a subregion when searching for the region, by word or by filter', async () => {
    const byWord = await search('q=hippocampus');
    expect(slugs(byWord.body)).toEqual(['ca1_pyramidal']);
    expect(byWord.body.items[0].matched_terms[0]).toMatchObject({ matched: 'hippocampus', term_code: 'MBA:1080', annotation: { code: 'MBA:382' } });
    expect(slugs((await search(`brain_region=${encodeURIComponent('Hippocampal formation')}`)).body)).toEqual(['ca1_pyramidal']);
    expect(slugs((await search('brain_region=MBA:1080')).body)).toEqual(['ca1_pyramidal']);
    expect(slugs((await search('q=neocortex')).body).sort()).toEqual(['songbird_restricted', 'thal_description', 'thal_keyword']);
    expect(slugs((await search(`q=${encodeURIComponent('C. elegans nerve ring')}`)).body)).toEqual(['worm_ring']);
    expect((await search('species=mouse')).body.total).toBe(5);
  });

  it('still finds a dataset when a word is misspelled', async () => {
    const r = await search('q=thalamocortikal');
    expect(r.status).toBe(200);
    expect(slugs(r.body).sort()).toEqual(['thal_description', 'thal_keyword', 'thal_title']);
    const region = await search('q=hipocampus');
    expect(slugs(region.body)).toEqual(['ca1_pyramidal']);
  });

  it('takes quoted phrases, or, and -exclusions', async () => {
    expect(slugs((await search(`q=${encodeURIComponent('"spiny stellate"')}`)).body)).toEqual(['thal_description']);
    expect(slugs((await search(`q=${encodeURIComponent('"stellate spiny"')}`)).body)).toEqual([]);
    expect(slugs((await search(`q=${encodeURIComponent('thalamocortical -barrel')}`)).body)).toEqual(['thal_title', 'thal_description']);
    expect(slugs((await search(`q=${encodeURIComponent('songbird or nematode')}`)).body).sort()).toEqual(['songbird_restricted', 'worm_ring']);
  });

  it('keeps user text out of the filter structure', async () => {
    // Read as filter syntax, the first would find every public dataset.
    const injected = await search(`q=${encodeURIComponent('songbird` || visibility:=public || title:`x or nematode')}`);
    expect(injected.status, JSON.stringify(injected.body)).toBe(200);
    expect(injected.body.total).toBe(0);
    for (const q of ['a) || (b or c && d', '`*` or `', 'songbird or `nematode`']) {
      const r = await search(`q=${encodeURIComponent(q)}`);
      expect(r.status, `${q}: ${JSON.stringify(r.body)}`).toBe(200);
    }
  });

  it('counts facets over every hit, not only the page', async () => {
    const r = await search('limit=1');
    expect(r.body.total).toBe(6);
    expect(r.body.items).toHaveLength(1);
    const f = r.body.facets;
    expect(f.species).toEqual([
      { value: 'NCBITaxon:10090', label: 'Mus musculus', count: 5 },
      { value: 'NCBITaxon:6239', label: 'Caenorhabditis elegans', count: 1 },
    ]);
    expect(f.visibility).toEqual([
      { value: 'public', label: 'public', count: 5 },
      { value: 'restricted', label: 'restricted', count: 1 },
    ]);
    expect(f.license).toContainEqual({ value: 'CC-BY-NC-4.0', label: 'CC-BY-NC-4.0', count: 1 });
    expect(f.year).toContainEqual({ value: '2019', label: '2019', count: 1 });
    expect(f.year.map((y: Hit) => Number(y.value))).toEqual([...f.year.map((y: Hit) => Number(y.value))].sort((a, b) => b - a));
    expect(f.brain_region.find((v: Hit) => v.value === 'MBA:315')).toMatchObject({ label: 'Isocortex', count: 2 });
    expect((await search('limit=1&facets=false')).body).toMatchObject({ facets: null, total: 6 });
    const paged = await search('limit=2&offset=4');
    expect(paged.body).toMatchObject({ total: 6, limit: 2, offset: 4 });
    expect(paged.body.items).toHaveLength(2);
  });

  it('filters by year, licence and visibility', async () => {
    expect(slugs((await search('year=2019')).body)).toEqual(['ca1_pyramidal']);
    expect(slugs((await search('year=2018-2019')).body)).toEqual(['ca1_pyramidal']);
    expect(slugs((await search('license=cc-by-nc-4.0')).body)).toEqual(['songbird_restricted']);
    expect(slugs((await search('visibility=restricted')).body)).toEqual(['songbird_restricted']);
  });

  it("shows a restricted dataset's public metadata to everyone and its counts only to those who may read its data", async () => {
    for (const user of [undefined, outsider]) {
      const hit = (await search('q=songbird', user)).body.items[0];
      expect(hit).toMatchObject({ slug: 'songbird_restricted', visibility: 'restricted', counts: null });
    }
    expect((await search('q=songbird', owner)).body.items[0].counts).toMatchObject({ neurons: 3, connections: 3 });
  });

  it('never shows a draft that was not published', async () => {
    for (const user of [undefined, owner]) expect((await search('q=unpublishedword', user)).body.total).toBe(0);
  });

  it('follows dataset writes: visibility, a new version, deletion', async () => {
    const d = await createTinyDataset(t, owner, { slug: 'moving_target', title: 'Quokka retina wiring', description: 'A dataset that changes while we search it.' });
    expect(slugs((await until('q=quokka', (b) => b.total === 1)).body)).toEqual(['moving_target']);

    await call(t.url, 'PATCH', `/v1/neurodata/datasets/${d.id}`, { token: owner.accessToken, body: { visibility: 'restricted', title: 'Wombat retina wiring' } });
    const restricted = await until('q=quokka&visibility=restricted', (b) => b.total === 1);
    // Visibility changes at once; the title waits for the next publication.
    expect(restricted.body.items[0]).toMatchObject({ slug: 'moving_target', visibility: 'restricted', title: 'Quokka retina wiring', version: 1 });
    expect((await search('q=wombat')).body.total).toBe(0);

    expect((await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/publish`, { token: owner.accessToken })).status).toBe(201);
    expect((await until('q=wombat', (b) => b.total === 1)).body.items[0]).toMatchObject({ slug: 'moving_target', version: 2 });
    expect((await until('q=quokka', (b) => b.total === 0)).body.total).toBe(0);

    expect((await call(t.url, 'DELETE', `/v1/neurodata/datasets/${d.id}`, { token: owner.accessToken })).status).toBe(200);
    expect((await until('q=wombat', (b) => b.total === 0)).body.total).toBe(0);
  });

  it('rebuilds the collection on re-index, after it was lost', async () => {
    await t.app.stores.search.client!.collections(COLLECTION).delete();
    // Lost: the engine makes a new, empty collection rather than failing.
    const lost = await search('limit=1');
    expect(lost.status).toBe(200);
    expect(lost.body.total).toBe(0);

    const progress: Array<[number, number]> = [];
    const r = await neurodata.use(t.app.deps).reindexSearch((done, total) => progress.push([done, total]));
    expect(r).toMatchObject({ engine: 'typesense', indexed: 6 });
    expect(progress.at(-1)).toEqual([6, 6]);
    expect((await search('limit=1')).body.total).toBe(6);
    expect(slugs((await search('q=thalamocortical')).body)).toEqual(['thal_title', 'thal_keyword', 'thal_description']);
  });
});
