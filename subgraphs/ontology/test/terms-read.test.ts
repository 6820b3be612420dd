import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { startTestApp, call, gql, type TestApp } from '../../../test/kit/app.js';
import { runInRequestScope } from '../../../lib/request-scope.js';
import { ontology } from '../index.js';
import { isUuidV7 } from '../../../lib/ids.js';
import { LocalGraphQLDataSource } from '@apollo/gateway';
import { expectError } from '../../../test/kit/expect.js';
import { withResolvers } from '../../../schema/federation.js';


/** Reads run against the vocabularies the service seeds on its first start (seed/ontology). */
describe('ontology reads on the seeded vocabularies', () => {
  let t: TestApp;
  const byCode = async (vocabulary: string, code: string) => {
    const r = await call(t.url, 'GET', `/v1/ontology/terms?vocabulary=${vocabulary}&q=${encodeURIComponent(code)}&limit=1`);
    expect(r.body.items[0]?.code).toBe(code);
    return r.body.items[0];
  };
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  describe('GET /v1/ontology/vocabularies', () => {
    it('lists the four shipped vocabularies with their term counts', async () => {
      const r = await call(t.url, 'GET', '/v1/ontology/vocabularies');
      expect(r.status).toBe(200);
      const counts = Object.fromEntries(r.body.map((v: { name: string; term_count: number }) => [v.name, v.term_count]));
      expect(counts).toEqual({ brain_region: 1411, microscopy_technique: 57, neurotransmitter: 34, species: 43 });
      expect(r.body[0]).toEqual({ name: 'brain_region', description: expect.stringContaining('Allen Mouse Brain Atlas'), term_count: 1411, deprecated_count: 0 });
    });
  });

  describe('GET /v1/ontology/terms', () => {
    it('answers a newcomer looking for the hippocampus with real Allen atlas terms', async () => {
      const r = await call(t.url, 'GET', '/v1/ontology/terms?vocabulary=brain_region&q=hippocampus');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ limit: 50, offset: 0 });
      expect(r.body.total).toBeGreaterThanOrEqual(5);
      const labels = r.body.items.map((i: { label: string }) => i.label);
      expect(labels[0]).toBe('Hippocampal region');
      expect(labels.slice(0, 5)).toContain('Hippocampal formation');
      expect(labels).toContain('dorsal hippocampal commissure');
      const first = r.body.items[0];
      expect(isUuidV7(first.id)).toBe(true);
      expect(first).toMatchObject({ vocabulary: 'brain_region', status: 'active', deprecated: false, metadata: {} });
      expect(first.uri).toMatch(/^https:\/\/purl\.brain-bican\.org\/ontology\/mbao\/MBA_\d+$/);
    });

    it('ranks an exact label first, then synonym matches, then prefixes, then similar spellings', async () => {
      const exact = await call(t.url, 'GET', '/v1/ontology/terms?vocabulary=brain_region&q=field%20ca1');
      expect(exact.body.items[0]).toMatchObject({ code: 'MBA:382', label: 'Field CA1' });
      expect(exact.body.items.slice(1, 5).map((i: { label: string }) => i.label).every((l: string) => l.startsWith('Field CA1, '))).toBe(true);

      // "CA1" is the Allen acronym of Field CA1: a synonym hit ranks above the layers whose label merely contains it
      const synonym = await call(t.url, 'GET', '/v1/ontology/terms?vocabulary=brain_region&q=CA1');
      expect(synonym.body.items[0]).toMatchObject({ code: 'MBA:382', synonyms: ['CA1'] });
      expect(synonym.body.items[1].label).toMatch(/^Field CA1, /);

      const prefix = await call(t.url, 'GET', '/v1/ontology/terms?vocabulary=brain_region&q=Hippocampal%20f');
      expect(prefix.body.items.slice(0, 2).map((i: { label: string }) => i.label.toLowerCase()).sort()).toEqual(['hippocampal fissure', 'hippocampal formation']);
      expect(prefix.body.items[2].label.toLowerCase().startsWith('hippocampal f')).toBe(false);

      const fuzzy = await call(t.url, 'GET', '/v1/ontology/terms?vocabulary=species&q=Drosophilla%20melanogaster');
      expect(fuzzy.body.items[0]).toMatchObject({ code: 'NCBITaxon:7227', label: 'Drosophila melanogaster' });
    });

    it('matches codes, common names, and ignores case and accents', async () => {
      const code = await call(t.url, 'GET', '/v1/ontology/terms?q=ncbitaxon%3A10090');
      expect(code.body.items[0]).toMatchObject({ code: 'NCBITaxon:10090', label: 'Mus musculus' });
      const common = await call(t.url, 'GET', '/v1/ontology/terms?q=zebrafish');
      expect(common.body.items[0]).toMatchObject({ label: 'Danio rerio' });
      const accented = await call(t.url, 'GET', `/v1/ontology/terms?vocabulary=brain_region&q=${encodeURIComponent('HÎPPOCAMPAL FÖRMATION')}`);
      expect(accented.body.items[0]).toMatchObject({ label: 'Hippocampal formation' });
    });

    it('accepts the older parameter name search, and refuses q and search that disagree', async () => {
      const q = await call(t.url, 'GET', '/v1/ontology/terms?vocabulary=brain_region&q=hippocampus&limit=5');
      const search = await call(t.url, 'GET', '/v1/ontology/terms?vocabulary=brain_region&search=hippocampus&limit=5');
      expect(search.status).toBe(200);
      expect(search.body).toEqual(q.body);
      expectError(await call(t.url, 'GET', '/v1/ontology/terms?q=a&search=b'), 400, /q and search/);
    });

    it('pages through a vocabulary in a stable order with a total', async () => {
      const all = await call(t.url, 'GET', '/v1/ontology/terms?vocabulary=species&limit=1000');
      expect(all.body.total).toBe(43);
      expect(all.body.items).toHaveLength(43);
      const seen: string[] = [];
      for (let offset = 0; offset < 43; offset += 10) {
        const page = await call(t.url, 'GET', `/v1/ontology/terms?vocabulary=species&limit=10&offset=${offset}`);
        expect(page.body).toMatchObject({ total: 43, limit: 10, offset });
        seen.push(...page.body.items.map((i: { id: string }) => i.id));
      }
      expect(seen).toEqual(all.body.items.map((i: { id: string }) => i.id));
      const past = await call(t.url, 'GET', '/v1/ontology/terms?vocabulary=species&limit=10&offset=100');
      expect(past.body).toEqual({ items: [], total: 43, limit: 10, offset: 100 });
    });

    it("answers a query's aliases asking for the same page with one statement", async () => {
      const { store } = await ontology.services(t.app.deps);
      const lists = vi.spyOn(store, 'list');
      try {
        const same = 'terms(vocabulary: "species", limit: 5) { total items { id code label } }';
        const r = await gql(t.url, `{ a: ${same} b: ${same} c: terms(vocabulary: "species", limit: 5, offset: 5) { items { id } } }`);
        expect(r.body.errors).toBeUndefined();
        const { a, b, c } = r.body.data;
        expect(b).toEqual(a);
        expect(a.items).toHaveLength(5);
        expect(c.items.map((i: { id: string }) => i.id)).not.toContain(a.items[0].id);
        expect(lists).toHaveBeenCalledTimes(2);
      } finally {
        lists.mockRestore();
      }
    });

    it('refuses an unknown vocabulary naming the known ones, and bad paging values', async () => {
      expectError(await call(t.url, 'GET', '/v1/ontology/terms?vocabulary=brain_regions'), 400, /unknown vocabulary "brain_regions"; known vocabularies: brain_region, microscopy_technique, neurotransmitter, species/);
      expectError(await call(t.url, 'GET', '/v1/ontology/terms?limit=0'), 400, /^limit:/);
      expectError(await call(t.url, 'GET', '/v1/ontology/terms?limit=5000'), 400, /^limit:/);
      expectError(await call(t.url, 'GET', '/v1/ontology/terms?offset=-1'), 400, /^offset:/);
      expectError(await call(t.url, 'GET', '/v1/ontology/terms?limit=ten'), 400);
    });
  });

  describe('GET /v1/ontology/terms/{id}', () => {
    it('returns one term with its synonyms and parent', async () => {
      const ca1 = await byCode('brain_region', 'MBA:382');
      const r = await call(t.url, 'GET', `/v1/ontology/terms/${ca1.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: ca1.id, code: 'MBA:382', label: 'Field CA1', name: 'Field CA1', synonyms: ['CA1'], parent_id: expect.any(String) });
      expect(new Date(r.body.created_at).toISOString()).toBe(r.body.created_at);
    });

    it('answers 404 for an unknown id and for a malformed one', async () => {
      expectError(await call(t.url, 'GET', '/v1/ontology/terms/0190f3a4-5b6c-7d8e-9f00-112233445566'), 404, /no term/);
      expectError(await call(t.url, 'GET', '/v1/ontology/terms/not-a-uuid'), 404, /no term/);
      expectError(await call(t.url, 'GET', '/v1/ontology/terms/not-a-uuid/children'), 404);
      expectError(await call(t.url, 'GET', '/v1/ontology/terms/0190f3a4-5b6c-7d8e-9f00-112233445566/ancestors'), 404);
    });

    it('answers concurrent requests for different terms each with its own', async () => {
      const page = await call(t.url, 'GET', '/v1/ontology/terms?vocabulary=species&limit=8');
      const items: { id: string; code: string }[] = page.body.items;
      const answers = await Promise.all(items.map((i) => call(t.url, 'GET', `/v1/ontology/terms/${i.id}`)));
      expect(answers.map((r) => r.body.code)).toEqual(items.map((i) => i.code));
    });

    it('reads the terms of concurrent callers with one statement, each caller answered with its own term or NotFound', async () => {
      const ca1 = await byCode('brain_region', 'MBA:382');
      const mouse = await byCode('species', 'NCBITaxon:10090');
      const unknown = '0190f3a4-5b6c-7d8e-9f00-112233445566';
      const { terms, store } = await ontology.services(t.app.deps);
      // Terms read by earlier tests are kept: these reads must reach the store.
      terms.termsChanged();
      const statements = vi.spyOn(store, 'findByIds');
      try {
        const answers = await Promise.allSettled([ca1.id, mouse.id, ca1.id.toUpperCase(), unknown, 'not-a-uuid'].map((id) => terms.get(id)));
        expect(statements).toHaveBeenCalledTimes(1);
        expect([...statements.mock.calls[0][0]].sort()).toEqual([ca1.id, mouse.id, unknown].sort());
        expect(answers.map((a) => (a.status === 'fulfilled' ? a.value.code : (a.reason as { extensions: { code: string } }).extensions.code))).toEqual([
          'MBA:382',
          'NCBITaxon:10090',
          'MBA:382',
          'NOT_FOUND',
          'NOT_FOUND',
        ]);
      } finally {
        statements.mockRestore();
      }
    });

    it('answers a caller whose request is aborted during the shared statement with a Timeout, and the others with their terms', async () => {
      const ca1 = await byCode('brain_region', 'MBA:382');
      const mouse = await byCode('species', 'NCBITaxon:10090');
      const { terms, store } = await ontology.services(t.app.deps);
      terms.termsChanged();
      const findByIds = store.findByIds.bind(store);
      let sent!: () => void;
      const statementSent = new Promise<void>((resolve) => (sent = resolve));
      const statements = vi.spyOn(store, 'findByIds').mockImplementation((ids) => {
        const read = findByIds(ids);
        sent();
        return read;
      });
      try {
        const asRequest = <T>(signal: AbortSignal, fn: () => T) => runInRequestScope({ requestId: 'coalesced-read', signal }, fn);
        const gone = new AbortController();
        const aborted = asRequest(gone.signal, () => terms.get(ca1.id));
        const others = [ca1.id, mouse.id].map((id) => asRequest(new AbortController().signal, () => terms.get(id)));
        await statementSent;
        gone.abort(new Error('the client went away'));
        await expect(aborted).rejects.toMatchObject({ extensions: { code: 'TIMEOUT' } });
        expect((await Promise.all(others)).map((x) => x.code)).toEqual(['MBA:382', 'NCBITaxon:10090']);
        expect(statements).toHaveBeenCalledTimes(1);
      } finally {
        statements.mockRestore();
      }
    });
  });

  describe('GET /v1/ontology/terms/{id}/ancestors and /children', () => {
    it('walks from Field CA1 up to the root of the mouse atlas, parent first', async () => {
      const ca1 = await byCode('brain_region', 'MBA:382');
      const r = await call(t.url, 'GET', `/v1/ontology/terms/${ca1.id}/ancestors`);
      expect(r.status).toBe(200);
      expect(r.body.map((a: { code: string; label: string }) => `${a.code} ${a.label}`)).toEqual([
        "MBA:375 Ammon's horn",
        'MBA:1080 Hippocampal region',
        'MBA:1089 Hippocampal formation',
        'MBA:695 Cortical plate',
        'MBA:688 Cerebral cortex',
        'MBA:567 Cerebrum',
        'MBA:8 Basic cell groups and regions',
        'MBA:997 brain',
      ]);
      expect(r.body[0].id).toBe(ca1.parent_id);
      expect(r.body.at(-1).parent_id).toBeNull();
    });

    it('has no ancestors for a root', async () => {
      const root = await byCode('brain_region', 'MBA:997');
      expect((await call(t.url, 'GET', `/v1/ontology/terms/${root.id}/ancestors`)).body).toEqual([]);
    });

    it('lists the direct children of Field CA1: its four strata', async () => {
      const ca1 = await byCode('brain_region', 'MBA:382');
      const r = await call(t.url, 'GET', `/v1/ontology/terms/${ca1.id}/children`);
      expect(r.status).toBe(200);
      expect(r.body.map((c: { code: string }) => c.code).sort()).toEqual(['MBA:391', 'MBA:399', 'MBA:407', 'MBA:415']);
      expect(r.body.every((c: { parent_id: string }) => c.parent_id === ca1.id)).toBe(true);
    });
  });

  describe('GraphQL', () => {
    it('serves the same reads with the same field names', async () => {
      const r = await gql(
        t.url,
        `query($q: String) { vocabularies { name term_count } terms(vocabulary: "species", q: $q, limit: 1) { total items { code label synonyms deprecated } } }`,
        { q: 'mouse' },
      );
      expect(r.status).toBe(200);
      expect(r.body.data.vocabularies).toHaveLength(4);
      expect(r.body.data.terms.items[0]).toEqual({ code: 'NCBITaxon:10090', label: 'Mus musculus', synonyms: ['house mouse', 'mouse'], deprecated: false });
    });

    it('resolves Term entities by id, as the gateway does for another subgraph that references them', async () => {
      const ca1 = await byCode('brain_region', 'MBA:382');
      const mouse = await byCode('species', 'NCBITaxon:10090');
      const source = new LocalGraphQLDataSource(t.app.composition.schemas.ontology);
      // The schema is shared by the apps of a process; the context says whose resolvers run.
      const context = withResolvers({}, t.app.composition.resolvers);
      const r = await source.process({
        kind: 'incoming operation',
        request: {
          query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Term { code label } } }',
          variables: { r: [{ __typename: 'Term', id: ca1.id }, { __typename: 'Term', id: mouse.id }, { __typename: 'Term', id: 'not-a-uuid' }] },
        },
        context,
        incomingRequestContext: {} as never,
      } as never);
      expect(r.errors).toBeUndefined();
      expect(r.data?._entities).toEqual([{ code: 'MBA:382', label: 'Field CA1' }, { code: 'NCBITaxon:10090', label: 'Mus musculus' }, null]);
    });
  });
});
