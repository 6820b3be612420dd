import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, gql, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { createDataset, createTinyDataset, uploadFile } from '../../../test/kit/datasets.js';

const RECORD = `query publishedDataset($slug: String!) { publishedDataset(slug: $slug) {
  dataset_id slug title version visibility year counts { neurons connections } can_read_data page_url url
  creators { name orcid } versions { version published_at note } citation citations { format media_type filename text } json_ld } }`;

describe('publishedDataset (GET /v1/search/datasets/{slug}): the public record of a published dataset', () => {
  let t: TestApp;
  let owner: TestUser;
  let outsider: TestUser;
  let requester: TestUser;
  let regular: TestUser;
  let open: { id: string; slug: string };
  let restricted: { id: string; slug: string };
  /** What the restricted dataset's record must never show to a caller without access to its data. */
  let secrets: string[];

  const record = (slug: string, user?: TestUser) => call(t.url, 'GET', `/v1/search/datasets/${encodeURIComponent(slug)}`, { token: user?.accessToken });

  beforeAll(async () => {
    t = await startTestApp();
    [owner, outsider, requester, regular] = await Promise.all([
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'REGULAR' }),
    ]);
    open = await createTinyDataset(t, owner, { slug: 'public_ring', title: 'Public nerve ring wiring', keywords: ['nerve ring'], doi: '10.5555/ring.2024' });
    restricted = await createTinyDataset(t, owner, { slug: 'embargoed_ring', title: 'Embargoed nerve ring wiring', visibility: 'restricted' });
    const files = await call(t.url, 'GET', `/v1/neurodata/datasets/${restricted.id}/assets`, { token: owner.accessToken });
    secrets = files.body.items.flatMap((a: { id: string; sha256: string; filename: string }) => [a.id, a.sha256, a.filename]);
    expect(secrets.length).toBeGreaterThan(0);
  });
  afterAll(async () => t?.close());

  it('shows anyone the metadata, versions, citations in three forms and the JSON-LD without files of a public dataset', async () => {
    const r = await record(open.slug);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const d = r.body;
    // Anonymous: the data routes would answer 401, so the record says the data are not readable (counts stay public).
    expect(d).toMatchObject({ dataset_id: open.id, slug: 'public_ring', title: 'Public nerve ring wiring', version: 1, visibility: 'public', can_read_data: false });
    expect(d.counts).toMatchObject({ neurons: 3, connections: 3 });
    expect(d.page_url).toBe(`${t.url}/datasets/public_ring`);
    expect(d.url).toBe(`${t.url}/v1/neurodata/datasets/${open.id}`);
    expect(d.creators[0]).toMatchObject({ name: 'Ada Lovelace', orcid: '0000-0002-1825-0097' });
    expect(d.versions).toEqual([{ version: 1, published_at: expect.any(String), note: null }]);
    expect(d.citation).toMatch(/^Lovelace, A\. \(\d{4}\)\. Public nerve ring wiring \(Version 1\) \[Data set\]\. Neuroscience Data Service .*\. https:\/\/doi\.org\/10\.5555\/ring\.2024$/);
    const bib = d.citations.find((c: { format: string }) => c.format === 'bibtex');
    expect(bib).toMatchObject({ filename: 'public_ring_v1.bib', media_type: 'application/x-bibtex; charset=utf-8' });
    expect(bib.text).toContain('title = {{Public nerve ring wiring}}');
    expect(bib.text).toContain(`url = {${t.url}/datasets/public_ring}`);
    const ris = d.citations.find((c: { format: string }) => c.format === 'ris');
    expect(ris).toMatchObject({ filename: 'public_ring_v1.ris' });
    expect(ris.text).toContain('TI  - Public nerve ring wiring\r\n');
    expect(d.json_ld).toMatchObject({ '@type': 'Dataset', name: 'Public nerve ring wiring', url: `${t.url}/datasets/public_ring`, version: 1 });
    expect(d.json_ld).not.toHaveProperty('distribution');
    expect(d.json_ld.includedInDataCatalog).toMatchObject({ url: `${t.url}/datasets` });
    expect(d.json_ld.variableMeasured.length).toBeGreaterThan(0);

    // The same record through GraphQL, for a Regular account too (whom the data routes answer 403).
    const g = await gql(t.url, RECORD, { slug: 'public_ring' }, regular.accessToken);
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.publishedDataset).toMatchObject({ dataset_id: open.id, can_read_data: false });
  });

  it('shows a restricted dataset to everyone as metadata only; counts to its owner and to an approved requester', async () => {
    for (const user of [undefined, regular, outsider, requester]) {
      const r = await record(restricted.slug, user);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ title: 'Embargoed nerve ring wiring', visibility: 'restricted', counts: null, can_read_data: false });
      expect(r.body.json_ld).not.toHaveProperty('distribution');
      expect(r.body.json_ld.variableMeasured).toEqual([]);
      expect(secrets.filter((s) => JSON.stringify(r.body).includes(s))).toEqual([]);
    }
    expect((await record(restricted.slug, owner)).body).toMatchObject({ can_read_data: true, counts: { neurons: 3 } });

    const asked = await call(t.url, 'POST', `/v1/neurodata/datasets/${restricted.id}/access/request`, { token: requester.accessToken });
    expect(asked.status).toBe(201);
    expect((await record(restricted.slug, requester)).body.counts).toBeNull();
    const approved = await call(t.url, 'POST', `/v1/neurodata/datasets/${restricted.id}/access/requests/${asked.body.id}/approve`, { token: owner.accessToken });
    expect(approved.status).toBe(200);
    const granted = await record(restricted.slug, requester);
    expect(granted.body).toMatchObject({ can_read_data: true, counts: { neurons: 3 } });
    // Still no files: the public record never names them.
    expect(secrets.filter((s) => JSON.stringify(granted.body).includes(s))).toEqual([]);
  });

  it('says can_read_data exactly when the data routes answer the caller: Academic, and for a restricted dataset a grant or ownership', async () => {
    const files = (id: string, user?: TestUser) => call(t.url, 'GET', `/v1/neurodata/datasets/${id}/assets`, { token: user?.accessToken });
    const seen: Record<string, [boolean, number]> = {};
    for (const [who, user] of [['anonymous', undefined], ['regular', regular], ['academic', outsider], ['owner', owner]] as const) {
      for (const d of [open, restricted]) {
        const r = await record(d.slug, user);
        expect(r.status).toBe(200);
        const data = await files(d.id, user);
        seen[`${who} ${d.slug}`] = [r.body.can_read_data, data.status];
        expect(r.body.can_read_data, `${who} ${d.slug}`).toBe(data.status === 200);
      }
    }
    expect(seen).toEqual({
      'anonymous public_ring': [false, 401],
      'anonymous embargoed_ring': [false, 401],
      'regular public_ring': [false, 403],
      'regular embargoed_ring': [false, 403],
      'academic public_ring': [true, 200],
      'academic embargoed_ring': [false, 403],
      'owner public_ring': [true, 200],
      'owner embargoed_ring': [true, 200],
    });
  });

  it('names the landing page as the URL and @id of every citation and JSON-LD, the API\'s and the public record\'s alike', async () => {
    const page = `${t.url}/datasets/public_ring`;
    const as = { token: outsider.accessToken };
    const bib = await call(t.url, 'GET', `/v1/neurodata/datasets/${open.id}/citation`, as);
    expect(bib.status).toBe(200);
    expect(bib.body).toContain(`url = {${page}}`);
    const ris = await call(t.url, 'GET', `/v1/neurodata/datasets/${open.id}/citation?format=ris`, as);
    expect(ris.body).toContain(`UR  - ${page}\r\n`);
    const apiLd = await call(t.url, 'GET', `/v1/neurodata/datasets/${open.id}/metadata.jsonld`, as);
    expect(apiLd.status).toBe(200);
    const g = await gql(t.url, 'query c($id: String!) { datasetCitation(dataset_id: $id) { text } }', { id: open.id }, outsider.accessToken);
    expect(g.body.data.datasetCitation.text).toContain(`url = {${page}}`);
    const pub = (await record(open.slug)).body;
    expect(pub.page_url).toBe(page);
    const publicLd = pub.json_ld;
    for (const ld of [apiLd.body, publicLd]) {
      expect([ld['@id'], ld.url]).toEqual([page, page]);
      expect(ld.includedInDataCatalog.url).toBe(`${t.url}/datasets`);
    }
    // Neither names the install's id in its URL, nor a route that needs an account.
    for (const text of [bib.body, ris.body, g.body.data.datasetCitation.text, ...pub.citations.map((c: { text: string }) => c.text)]) {
      expect(text).not.toContain('/v1/neurodata/');
    }
    // The API's JSON-LD lists the files for a caller who may read them; the public one has none and leaves the key out.
    expect(apiLd.body.distribution.length).toBeGreaterThan(0);
  });

  it('states the conditions of access in the JSON-LD: free of charge, with an academic account, and a grant when restricted', async () => {
    const open_ = (await record(open.slug)).body.json_ld;
    expect(open_).toMatchObject({ isAccessibleForFree: true, conditionsOfAccess: expect.stringMatching(/verified academic account/) });
    expect(open_.conditionsOfAccess).not.toMatch(/grant/);
    const closed = (await record(restricted.slug)).body.json_ld;
    expect(closed).toMatchObject({ isAccessibleForFree: true, conditionsOfAccess: expect.stringMatching(/verified academic account.*owner's grant/) });
    const apiLd = await call(t.url, 'GET', `/v1/neurodata/datasets/${restricted.id}/metadata.jsonld`, { token: outsider.accessToken });
    expect(apiLd.body.conditionsOfAccess).toBe(closed.conditionsOfAccess);
  });

  it('cites an organization creator by its whole name and types it as an Organization; a bad kind is a 400', async () => {
    const d = await createTinyDataset(t, owner, {
      slug: 'morphology_org',
      title: 'Morphologies by an organisation',
      creators: [{ name: 'NeuroMorpho.Org', kind: 'organization' }, { name: 'Ada Lovelace', kind: 'person', orcid: '0000-0002-1825-0097' }],
    });
    const r = await record(d.slug);
    expect(r.body.creators).toEqual([
      { name: 'NeuroMorpho.Org', kind: 'organization', orcid: null, affiliation: null },
      { name: 'Ada Lovelace', kind: 'person', orcid: '0000-0002-1825-0097', affiliation: null },
    ]);
    const g = await gql(t.url, 'query p($slug: String!) { publishedDataset(slug: $slug) { creators { name kind } } }', { slug: d.slug });
    expect(g.body.data.publishedDataset.creators).toEqual([
      { name: 'NeuroMorpho.Org', kind: 'organization' },
      { name: 'Ada Lovelace', kind: 'person' },
    ]);
    const text = (format: string) => r.body.citations.find((c: { format: string }) => c.format === format).text as string;
    expect(text('bibtex')).toContain('author = {{NeuroMorpho.Org} and Lovelace, Ada}');
    expect(text('ris')).toContain('AU  - NeuroMorpho.Org\r\nAU  - Lovelace, Ada\r\n');
    expect(r.body.json_ld.creator[0]).toEqual({ '@type': 'Organization', name: 'NeuroMorpho.Org' });
    expect(r.body.json_ld.creator[1]).toMatchObject({ '@type': 'Person', familyName: 'Lovelace' });

    const bad = await call(t.url, 'PATCH', `/v1/neurodata/datasets/${d.id}`, { token: owner.accessToken, body: { creators: [{ name: 'X', kind: 'robot' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/creators\[0\]\.kind/);
  });

  it('answers 404 for a dataset never published (its owner included) and for an unknown slug, by REST and GraphQL alike', async () => {
    const draft = await createDataset(t, owner, { slug: 'draft_ring', title: 'Draft nerve ring' });
    for (const user of [undefined, owner]) expect((await record(draft.slug, user)).status).toBe(404);
    expect((await record('no_such_dataset')).status).toBe(404);
    const g = await gql(t.url, RECORD, { slug: 'draft_ring' });
    expect(g.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await gql(t.url, RECORD, { slug: 'x'.repeat(201) })).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('lists every published version, newest first, with the current one cited; unpublished edits stay out', async () => {
    const d = await createTinyDataset(t, owner, { slug: 'versioned_ring', title: 'Versioned ring, first title' });
    const edited = await call(t.url, 'PATCH', `/v1/neurodata/datasets/${d.id}`, { token: owner.accessToken, body: { title: 'Versioned ring, second title' } });
    expect(edited.status).toBe(200);
    // The open draft's title is not public yet.
    expect((await record(d.slug, owner)).body).toMatchObject({ title: 'Versioned ring, first title', version: 1 });
    await uploadFile(t, owner, d.id, 'notes.txt', 'a note', 'text/plain');
    const published = await call(t.url, 'POST', `/v1/neurodata/datasets/${d.id}/publish`, { token: owner.accessToken, body: { note: 'new title' } });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const r = await record(d.slug);
    expect(r.body).toMatchObject({ title: 'Versioned ring, second title', version: 2 });
    expect(r.body.versions.map((v: { version: number; note: string | null }) => [v.version, v.note])).toEqual([
      [2, 'new title'],
      [1, null],
    ]);
    expect(r.body.citations[0].filename).toBe('versioned_ring_v2.bib');
    // By id as well as by slug.
    expect((await record(d.id)).body.slug).toBe('versioned_ring');
  });
});
