import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import type { EnvName } from '../../../lib/config.js';
import { startTestApp, call, gql, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { createTinyDataset } from '../../../test/kit/datasets.js';
import { createTerm } from '../../../test/kit/factories.js';
import { eventually } from '../../../test/kit/eventually.js';
import { expectError } from '../../../test/kit/expect.js';
import { testTypesense } from '../../../test/kit/settings.js';
import { createSearchCatalogue } from './search-catalogue.js';
import { neurodata } from '../index.js';
import { FEDERATED_SEARCH_DOCUMENT } from '../search/federated-search.js';

type Hit = Record<string, any>;
type Answer = Awaited<ReturnType<typeof call>>;
const slugs = (body: { items: Hit[] }) => body.items.map((h) => h.slug);

/** An engine the search contract runs on, and what differs in how the tests drive it. */
interface EngineUnderTest {
  name: 'postgres' | 'typesense';
  label: string;
  /** False skips the engine's run. */
  available: boolean;
  env: Partial<Record<EnvName, string>>;
  /** How long a committed write may take to show in the answers, and how a test title says it. */
  showsWritesWithinMs: number;
  showsWrites: string;
  /** What a re-index rebuilds, and how it is lost. */
  index: string;
  loseIndex(t: TestApp): Promise<void>;
}

/** The Typesense node its run uses; without one (TEST_TYPESENSE_URL or TYPESENSE_URL) that run is skipped. */
const typesense = testTypesense();
const TYPESENSE_COLLECTION = 'neurodata_datasets';

const ENGINES: EngineUnderTest[] = [
  {
    name: 'postgres',
    label: 'PostgreSQL',
    available: true,
    env: {},
    // The catalogue row is written in the dataset write's own transaction: the next answer shows the write.
    showsWritesWithinMs: 0,
    showsWrites: 'at once',
    index: 'catalogue',
    loseIndex: async (t) => {
      await t.app.deps.stores.relational.db.execute(sql`DELETE FROM neurodata.dataset_search`);
    },
  },
  {
    name: 'typesense',
    label: 'Typesense',
    available: typesense !== null,
    env: typesense ? { TYPESENSE_URL: typesense.url, TYPESENSE_API_KEY: typesense.apiKey } : {},
    // The index follows a commit a moment later: the copy is made after it.
    showsWritesWithinMs: 10_000,
    showsWrites: 'a moment later',
    index: 'collection',
    loseIndex: async (t) => {
      await t.app.stores.search.client!.collections(TYPESENSE_COLLECTION).delete();
    },
  },
];

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`dataset search on ${engine.label}: ranking, highlights, facets, ontology terms, typos, access`, () => {
    let t: TestApp;
    let owner: TestUser;
    let outsider: TestUser;
    let regular: TestUser;
    let admin: TestUser;
    let restrictedId: string;
    const search = (query: string, user?: TestUser) => call(t.url, 'GET', `/v1/search/fulltext?${query}`, { token: user?.accessToken });
    /**
     * The answer to `query` once it holds, for an answer that depends on a write: asked again for as long as the
     * engine may take to show a write, so on PostgreSQL only the next answer counts.
     */
    const until = async (query: string, holds: (body: Hit) => boolean, user?: TestUser): Promise<Answer> => {
      let last: Answer | undefined;
      const answered = async () => {
        last = await search(query, user);
        return last.status === 200 && holds(last.body) ? last : undefined;
      };
      // The last answer when it never holds: the caller's assertion shows what the engine said.
      return eventually(answered, { timeoutMs: engine.showsWritesWithinMs, intervalMs: 100, what: `an answer to ${query} that holds` }).catch((err: unknown) => {
        if (!last) throw err;
        return last;
      });
    };

    const CLUSTER = 'search-test-cluster';

    beforeAll(async () => {
      t = await startTestApp({ CLUSTER_NAME: CLUSTER, ...engine.env }, { listen: true });
      // A Typesense node outlives test runs: start from an empty collection, not the datasets of a previous run.
      await neurodata.use(t.app.deps).reindexSearch();
      [owner, outsider, regular, admin] = await Promise.all([
        createUser(t, { accountType: 'ACADEMIC' }),
        createUser(t, { accountType: 'ACADEMIC' }),
        createUser(t, { accountType: 'REGULAR' }),
        createUser(t, { accountType: 'SUPERUSER' }),
      ]);
      ({ restrictedId } = await createSearchCatalogue(t, owner));
      const all = await until('limit=1', (b) => b.total === 6);
      expect(all.body.total, JSON.stringify(all.body)).toBe(6);
    });
    afterAll(async () => t?.close());

    it(`answers from ${engine.label}, ranks title matches above keyword matches above description matches, and highlights the words`, async () => {
      const r = await search('q=thalamocortical');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.engine).toBe(engine.name);
      expect(slugs(r.body)).toEqual(['thal_title', 'thal_keyword', 'thal_description']);
      expect(r.body.total).toBe(3);
      const [first, second, third] = r.body.items;
      expect(first.highlight.title).toBe('<mark>Thalamocortical</mark> projections of the mouse');
      expect(third.highlight.snippet).toContain('<mark>thalamocortical</mark> input');
      // The order above is the engine's; the scores only have to agree with it.
      expect(first.score).toBeGreaterThan(0);
      expect(first.score).toBeGreaterThanOrEqual(second.score);
      expect(second.score).toBeGreaterThanOrEqual(third.score);
      // PostgreSQL's score is the rank itself, weighted by field (title A over keywords B); Typesense's measures the
      // match, and the field it matched in only breaks ties, so two of its hits may score the same.
      if (engine.name === 'postgres') expect(first.score).toBeGreaterThan(second.score);
      expect(first).toMatchObject({ version: 1, visibility: 'public', url: `${t.url}/v1/neurodata/datasets/${first.dataset_id}` });
      expect(first.species.map((s: Hit) => s.code)).toEqual(['NCBITaxon:10090']);
      expect(first.microscopy[0].label).toMatch(/FIB-SEM/);
    });

    it('finds a dataset annotated with a subregion when searching for the region, by word or by filter', async () => {
      const byWord = await search('q=hippocampus');
      expect(slugs(byWord.body)).toEqual(['ca1_pyramidal']);
      expect(byWord.body.interpreted[0]).toMatchObject({ text: 'hippocampus', code: 'MBA:1080', vocabulary: 'brain_region' });
      expect(byWord.body.interpreted[0].matched_terms).toBeGreaterThan(10);
      expect(byWord.body.items[0].matched_terms[0]).toMatchObject({ matched: 'hippocampus', term_code: 'MBA:1080', annotation: { code: 'MBA:382', label: 'Field CA1' } });

      const byFilter = await search(`brain_region=${encodeURIComponent('Hippocampal formation')}`);
      expect(slugs(byFilter.body)).toEqual(['ca1_pyramidal']);
      const byCode = await search('brain_region=MBA:1080');
      expect(slugs(byCode.body)).toEqual(['ca1_pyramidal']);
      // Isocortex holds the barrel field and is annotated directly on two datasets (one restricted).
      const cortex = await search('q=neocortex');
      expect(slugs(cortex.body).sort()).toEqual(['songbird_restricted', 'thal_description', 'thal_keyword']);
    });

    it('matches species by code, label, synonym or everyday name', async () => {
      for (const value of ['worm', 'C. elegans', 'NCBITaxon:6239', 'caenorhabditis elegans']) {
        const r = await search(`species=${encodeURIComponent(value)}`);
        expect(slugs(r.body), value).toEqual(['worm_ring']);
      }
      expect(slugs((await search('q=worm')).body)).toEqual(['worm_ring']);
      expect(slugs((await search(`q=${encodeURIComponent('C. elegans nerve ring')}`)).body)).toEqual(['worm_ring']);
      expect((await search('species=mouse')).body.total).toBe(5);
      // A filter given several times matches any of its values.
      expect((await search('species=worm&species=mouse')).body.total).toBe(6);
    });

    it('still finds a dataset when a word is misspelled, and says how it read the query', async () => {
      const r = await search('q=thalamocortikal');
      expect(r.status).toBe(200);
      expect(slugs(r.body).sort()).toEqual(['thal_description', 'thal_keyword', 'thal_title']);
      // PostgreSQL matches words as spelled, so it corrects the word first and then ranks as for the right spelling;
      // Typesense forgives a typo or two itself, finds the word as typed, and ranks typo matches its own way.
      if (engine.name === 'postgres') {
        expect(r.body.corrected_query).toBe('thalamocortical');
        expect(slugs(r.body)).toEqual(['thal_title', 'thal_keyword', 'thal_description']);
      }
      const region = await search('q=hipocampus');
      expect(region.body.corrected_query).toBe('hippocampus');
      expect(slugs(region.body)).toEqual(['ca1_pyramidal']);
      const exact = await search('q=thalamocortical');
      expect(exact.body.corrected_query).toBeNull();
    });

    it('takes quoted phrases, or, and -exclusions', async () => {
      expect(slugs((await search(`q=${encodeURIComponent('"spiny stellate"')}`)).body)).toEqual(['thal_description']);
      expect(slugs((await search(`q=${encodeURIComponent('"stellate spiny"')}`)).body)).toEqual([]);
      expect(slugs((await search(`q=${encodeURIComponent('thalamocortical -barrel')}`)).body)).toEqual(['thal_title', 'thal_description']);
      expect(slugs((await search(`q=${encodeURIComponent('songbird or nematode')}`)).body).sort()).toEqual(['songbird_restricted', 'worm_ring']);
    });

    it('keeps user text out of the filter structure', async () => {
      // Read as Typesense filter syntax, the first would find every public dataset.
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
      const noFacets = await search('limit=1&facets=false');
      expect(noFacets.body.facets).toBeNull();
      expect(noFacets.body.total).toBe(6);
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
      for (const user of [undefined, regular, outsider]) {
        const r = await search('q=songbird', user);
        expect(r.status).toBe(200);
        expect(slugs(r.body)).toEqual(['songbird_restricted']);
        const hit = r.body.items[0];
        expect(hit).toMatchObject({ slug: 'songbird_restricted', visibility: 'restricted', title: 'Songbird nucleus HVC microcircuit', counts: null });
        expect(JSON.stringify(hit)).not.toMatch(/neurons\.csv|A1|B1|sha256/);
      }
      for (const user of [owner, admin]) {
        const hit = (await search('q=songbird', user)).body.items[0];
        expect(hit.counts).toMatchObject({ neurons: 3, connections: 3 });
      }
      const publicHit = (await search('q=nematode')).body.items[0];
      expect(publicHit.counts).toMatchObject({ neurons: 3, chemical_connections: 2, electrical_connections: 1 });
      // An approved requester reads the data, so sees the counts.
      await call(t.url, 'POST', `/v1/neurodata/datasets/${restrictedId}/access/request`, { token: outsider.accessToken, body: {} });
      const requests = await call(t.url, 'GET', `/v1/neurodata/datasets/${restrictedId}/access`, { token: owner.accessToken });
      const requestId = requests.body.requests[0].id;
      expect((await call(t.url, 'POST', `/v1/neurodata/datasets/${restrictedId}/access/requests/${requestId}/approve`, { token: owner.accessToken, body: {} })).status).toBe(200);
      expect((await search('q=songbird', outsider)).body.items[0].counts).toMatchObject({ neurons: 3 });
    });

    it('never shows a draft that was not published', async () => {
      for (const user of [undefined, owner, admin]) expect((await search('q=unpublishedword', user)).body.total).toBe(0);
    });

    it(`follows dataset writes ${engine.showsWrites}: visibility, a new version, deletion`, async () => {
      const d = await createTinyDataset(t, owner, { slug: 'moving_target', title: 'Quokka retina wiring', description: 'A dataset that changes while we search it.' });
      expect(slugs((await until('q=quokka', (b) => b.total === 1)).body)).toEqual(['moving_target']);

      await call(t.url, 'PATCH', `/v1/neurodata/datasets/${d.id}`, { token: owner.accessToken, body: { visibility: 'restricted', title: 'Wombat retina wiring' } });
      const restricted = await until('q=quokka&visibility=restricted', (b) => b.total === 1);
      // Visibility changes at once; the title waits for the next publication.
      expect(restricted.body.items[0]).toMatchObject({ slug: 'moving_target', visibility: 'restricted', title: 'Quokka retina wiring', version: 1 });
      expect((await search('q=quokka')).body.items[0]).toMatchObject({ visibility: 'restricted', title: 'Quokka retina wiring', version: 1 });
      expect((await search('q=wombat')).body.total).toBe(0);

      expect((await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/publish`, { token: owner.accessToken })).status).toBe(201);
      expect((await until('q=wombat', (b) => b.total === 1)).body.items[0]).toMatchObject({ slug: 'moving_target', version: 2 });
      expect((await until('q=quokka', (b) => b.total === 0)).body.total).toBe(0);

      expect((await call(t.url, 'DELETE', `/v1/neurodata/datasets/${d.id}`, { token: owner.accessToken })).status).toBe(200);
      expect((await until('q=wombat', (b) => b.total === 0)).body.total).toBe(0);
    });

    it('reads a deprecated term as its replacement, and finds datasets annotated before the deprecation', async () => {
      const as = (method: string, url: string, body?: unknown) => call(t.url, method, url, { token: admin.accessToken, body });
      const ring = (await as('GET', '/v1/ontology/terms?vocabulary=brain_region&q=WBbt:0006749')).body.items[0];
      const old = await createTerm(t, admin, { vocabulary: 'brain_region', code: 'TEST:0001', label: 'old ring neuropil', parent_id: ring.id });
      const successor = await createTerm(t, admin, { vocabulary: 'brain_region', code: 'TEST:0002', label: 'new ring neuropil', parent_id: ring.id });
      await createTinyDataset(t, owner, { slug: 'old_annotation', title: 'Annotated with a term deprecated later', brain_regions: ['TEST:0001'] });
      expect((await as('DELETE', `/v1/ontology/terms/${old.id}?replaced_by=${successor.id}`)).status).toBe(200);
      const byNew = await until('brain_region=TEST:0002', (b) => b.total === 1);
      expect(slugs(byNew.body)).toEqual(['old_annotation']);
      const byOld = await search('brain_region=TEST:0001');
      expect(byOld.body.interpreted[0]).toMatchObject({ text: 'TEST:0001', code: 'TEST:0002' });
      expect(slugs(byOld.body)).toEqual(['old_annotation']);
    });

    it(`rebuilds a lost ${engine.index} with the re-index, reporting progress`, async () => {
      const before = (await search('limit=100&facets=false')).body;
      // The catalogue, and the dataset annotated with a term deprecated since.
      expect(before.total).toBe(7);
      await engine.loseIndex(t);
      // Lost: the engine answers with no hits rather than failing.
      const lost = await search('limit=100');
      expect(lost.status).toBe(200);
      expect(lost.body.total).toBe(0);

      const progress: Array<[number, number]> = [];
      const r = await neurodata.use(t.app.deps).reindexSearch((done, total) => progress.push([done, total]));
      expect(r).toMatchObject({ engine: engine.name, indexed: before.total, removed: 0 });
      expect(progress.at(-1)).toEqual([before.total, before.total]);
      expect((await search('limit=100&facets=false')).body).toEqual(before);
      expect(slugs((await search('q=thalamocortical')).body)).toEqual(['thal_title', 'thal_keyword', 'thal_description']);
    });

    it('answers GraphQL with the same search, terms resolved by the ontology subgraph', async () => {
      const r = await gql(
        t.url,
        `query ($q: String, $regions: [String!]) { searchDatasets(q: $q, brain_region: $regions, facets: false) {
          total items { slug highlight { title } brain_regions { code term { label parent_id } } counts { neurons } } facets { year { value } } } }`,
        { q: 'pyramidal', regions: ['HIP'] },
      );
      expect(r.status).toBe(200);
      const found = r.body.data.searchDatasets;
      expect(found).toMatchObject({ total: 1, facets: null });
      expect(found.items[0]).toMatchObject({ slug: 'ca1_pyramidal', highlight: { title: '<mark>Pyramidal</mark> cell wiring of field CA1' }, counts: { neurons: 3 } });
      expect(found.items[0].brain_regions[0]).toMatchObject({ code: 'MBA:382', term: { label: 'Field CA1' } });
      expect(found.items[0].brain_regions[0].term.parent_id).toBeTruthy();
    });

    it('answers the older route the same way', async () => {
      const a = await search('q=thalamocortical&limit=2');
      const b = await call(t.url, 'GET', '/v1/search?q=thalamocortical&limit=2');
      expect(b.status).toBe(200);
      expect(b.body).toEqual(a.body);
    });

    it('names this cluster on every local hit, and says the scope', async () => {
      const r = await search('q=thalamocortical');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ scope: 'local', clusters: null });
      for (const hit of r.body.items) expect(hit.cluster).toEqual({ id: null, name: CLUSTER, base_url: t.url });
    });

    it('searches the federation: with no other cluster registered, this cluster alone answers, as a local search', async () => {
      const local = await search('q=thalamocortical&limit=2&offset=1', owner);
      const fed = await search('q=thalamocortical&limit=2&offset=1&scope=federation', owner);
      expect(fed.status, JSON.stringify(fed.body)).toBe(200);
      expect(fed.body).toMatchObject({ scope: 'federation', total: local.body.total, limit: 2, offset: 1, engine: local.body.engine, interpreted: local.body.interpreted });
      expect(fed.body.items).toEqual(local.body.items);
      expect(fed.body.clusters).toHaveLength(1);
      expect(fed.body.clusters[0]).toMatchObject({ cluster_id: null, name: CLUSTER, base_url: t.url, status: 'ok', hits: local.body.total, error: null });
      const facetCounts = (f: Record<string, Hit[]>) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, Object.fromEntries(v.map((x) => [x.value, x.count]))]));
      expect(facetCounts(fed.body.facets)).toEqual(facetCounts(local.body.facets));

      const browse = await search('scope=federation&limit=100');
      expect(browse.status).toBe(200);
      expect(slugs(browse.body)).toEqual(slugs((await search('limit=100')).body));
      const noFacets = await gql(t.url, '{ searchDatasets(scope: "federation", facets: false) { scope facets { year { value } } clusters { name status } } }');
      expect(noFacets.body.data.searchDatasets).toEqual({ scope: 'federation', facets: null, clusters: [{ name: CLUSTER, status: 'ok' }] });
    });

    it('sends other clusters a document that this cluster answers (every hit field but cluster)', async () => {
      const r = await gql(t.url, FEDERATED_SEARCH_DOCUMENT, { q: 'pyramidal', brain_region: ['HIP'], limit: 5, offset: 0, facets: true });
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.searchDatasets.total).toBe(1);
      expect(r.body.data.searchDatasets.items[0]).toMatchObject({ slug: 'ca1_pyramidal', highlight: { title: '<mark>Pyramidal</mark> cell wiring of field CA1' } });
      expect(r.body.data.searchDatasets.facets.brain_region.length).toBeGreaterThan(0);
    });

    it('refuses an unknown scope and federated pages deeper than 100 hits', async () => {
      expectError(await search('scope=bogus'), 400, /scope: local or federation/);
      expectError(await search('scope=federation&offset=95&limit=10'), 400, /federated search pages reach at most 100 hits deep/);
      expectError(await search('scope=federation&limit=0'), 400, /limit: 1\.\.100/);
      expect((await search('scope=federation&offset=90&limit=10')).status).toBe(200);
      expect((await search('offset=95&limit=10')).status).toBe(200);
    });

    it('refuses bad input with a clear 400', async () => {
      expectError(await search('limit=0'), 400, /limit: 1\.\.100/);
      expectError(await search('limit=101'), 400, /limit: 1\.\.100/);
      expectError(await search('offset=-1'), 400, /offset/);
      expectError(await search(`q=${'a'.repeat(10_000)}`), 400, /q: at most 500 characters \(got 10000\)/);
      expectError(await search('q=mouse%00'), 400, /q: contains a NUL/);
      expectError(await search('species=wrom'), 400, /species: "wrom" is not a term of vocabulary species; closest terms: .*"worm"|species: "wrom" is not a term/);
      expectError(await search('brain_region=hipocampus'), 400, /brain_region: "hipocampus" is not a term of vocabulary brain_region; closest terms: .*hippocampus|Hippocampal/i);
      expectError(await search('license=not-a-licence'), 400, /license: "not-a-licence" is not an SPDX/);
      expectError(await search('visibility=secret'), 400, /visibility: public or restricted/);
      expectError(await search('year=last'), 400, /year: a year \(2019\) or a range/);
      expectError(await search('year=2020-2010'), 400, /runs backwards/);
      const badYear = await call(t.url, 'POST', '/v1/neurodata/datasets', { token: owner.accessToken, body: { title: 'Bad year', related_publication: { citation: 'X (99)', year: 99 } } });
      expectError(badYear, 400, /related_publication.year: a year from 1600 to 2200 \(got 99\)/);
    });
  });
}

// On the default engine: the correction asserted below is PostgreSQL's (Typesense forgives such a typo itself).
describe('dataset search over the shipped connectomes and morphologies', () => {
  let t: TestApp;
  const search = async (query: string) => {
    const r = await call(t.url, 'GET', `/v1/search/fulltext?${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    t = await startTestApp({ SEED_DATASETS: 'true' }, { listen: true });
  });
  afterAll(async () => t?.close());

  it('lists the whole catalogue with facets when the query is empty', async () => {
    const all = await search('limit=100');
    expect(all.total).toBe(12);
    expect(all.facets.species[0]).toEqual({ value: 'NCBITaxon:6239', label: 'Caenorhabditis elegans', count: 11 });
    // Years are the papers': Varshney 2011, Cook 2019 (two), Witvliet 2021 (eight), NeuroMorpho.Org 2024.
    expect(all.facets.year).toEqual([
      { value: '2024', label: '2024', count: 1 },
      { value: '2021', label: '2021', count: 8 },
      { value: '2019', label: '2019', count: 2 },
      { value: '2011', label: '2011', count: 1 },
    ]);
    expect(all.items.every((h: Hit) => h.counts !== null && h.visibility === 'public')).toBe(true);
  });

  it('finds the connectomes by word, author, year and species, best match first', async () => {
    const male = await search('q=male');
    expect(slugs(male)).toEqual(['celegans_cook_2019_male']);
    expect(male.items[0].highlight.title).toContain('adult <mark>male</mark>');
    expect(male.items[0].counts.neurons).toBeGreaterThan(500);
    const series = await search('q=witvliet&limit=20');
    expect(series.total).toBe(8);
    expect(slugs(series).every((s: string) => s.startsWith('celegans_witvliet_2021_'))).toBe(true);
    expect(slugs(await search('year=2019')).sort()).toEqual(['celegans_cook_2019_hermaphrodite', 'celegans_cook_2019_male']);
    expect((await search('species=worm&q=connectome')).total).toBe(11);
    expect((await search(`q=${encodeURIComponent('connectome -witvliet')}`)).total).toBe(3);
  });

  it('matches regions through the hierarchy: the worm nervous system holds every annotated worm region', async () => {
    const r = await search(`brain_region=${encodeURIComponent('WBbt:0005735')}&limit=50`);
    expect(r.total).toBe(11);
    const cerebellum = await search('q=cerebellum');
    expect(slugs(cerebellum)).toEqual(['neuron_morphologies']);
    expect(cerebellum.interpreted[0]).toMatchObject({ code: 'MBA:512', label: 'Cerebellum' });
  });

  it('corrects a misspelled word', async () => {
    const r = await search('q=conectome&limit=1');
    expect(r.corrected_query).toBe('connectome');
    expect(r.total).toBe(11);
  });
});
