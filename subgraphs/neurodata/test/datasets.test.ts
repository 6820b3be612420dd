import { createHash } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { startTestApp, call, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { COMPLETE_METADATA, connectomeCounts, connectomeFile, createConnectome, createDataset, uploadFile } from '../../../test/kit/datasets.js';
import { expectError } from '../../../test/kit/expect.js';


describe('datasets: create, upload, publish, change, publish again', () => {
  let t: TestApp;
  let owner: TestUser;
  let reader: TestUser;
  let regular: TestUser;
  const as = (u: TestUser, method: string, url: string, body?: unknown) => call(t.url, method, url, { token: u.accessToken, body });

  beforeAll(async () => {
    t = await startTestApp({}, { listen: true });
    owner = await createUser(t, { accountType: 'ACADEMIC' });
    reader = await createUser(t, { accountType: 'ACADEMIC' });
    regular = await createUser(t, { accountType: 'REGULAR' });
  });
  afterAll(async () => t?.close());

  it('rejects misspelled species, regions and techniques with the closest ontology terms, naming each field', async () => {
    const r = await as(owner, 'POST', '/v1/neurodata/datasets', {
      title: 'Misspelled metadata',
      species: ['Drosophilla melanogaster'],
      brain_regions: ['hipocampus'],
      microscopy: ['electon microscopy'],
    });
    expectError(r, 400);
    expect(r.body.error).toMatch(/species: "Drosophilla melanogaster" is not a term of vocabulary species; closest terms: "Drosophila melanogaster"/);
    expect(r.body.error).toMatch(/brain_region: "hipocampus" .*closest terms: .*Hippocampal/i);
    expect(r.body.error).toMatch(/microscopy: "electon microscopy" .*"electron microscopy"/);
    const mine = await as(owner, 'GET', '/v1/neurodata/datasets/owned');
    expect(mine.body.total).toBe(0);
  });

  it('refuses Regular accounts with the way to become Academic', async () => {
    expectError(await as(regular, 'POST', '/v1/neurodata/datasets', { title: 'x y z' }), 403, /academic/);
    expectError(await call(t.url, 'GET', '/v1/neurodata/datasets'), 401);
  });

  it('takes a dataset from draft to v1 and v2, with immutable versions and counts equal to the source', async () => {
    const counts = await connectomeCounts('celegans_varshney_2011');
    const created = await createDataset(t, owner, { title: 'Varshney copy', license: null, slug: 'varshney_copy' });
    expect(created).toMatchObject({ status: 'draft', latest_version: null, draft_version: 1, slug: 'varshney_copy', owner_id: owner.id });
    expect(created.species[0]).toMatchObject({ code: 'NCBITaxon:6239', label: 'Caenorhabditis elegans', vocabulary: 'species' });
    expect(created.species[0].uri).toBe('http://purl.obolibrary.org/obo/NCBITaxon_6239');

    // Connections before neurons: refused with what to do.
    expectError(await uploadFile(t, owner, created.id, 'connections.csv', await connectomeFile('celegans_varshney_2011', 'connections.csv')), 400, /upload the neurons file/);
    const neurons = await uploadFile(t, owner, created.id, 'neurons.csv', await connectomeFile('celegans_varshney_2011', 'neurons.csv'));
    expect(neurons.status, JSON.stringify(neurons.body)).toBe(201);
    expect(neurons.body.items[0]).toMatchObject({ filename: 'neurons.csv', kind: 'neurons', rows: counts.cells });

    // A malformed connections file: 400 naming the file and line, and the draft keeps nothing of it.
    const bad = 'pre,post,synapse_type,weight\nADAL,ADAR,electrical,1\nADAL,NOPE,chemical,2\n';
    expectError(await uploadFile(t, owner, created.id, 'connections.csv', bad), 400, /connections\.csv line 3: .*NOPE/);
    const draftFiles = await as(owner, 'GET', `/v1/neurodata/datasets/${created.id}/assets?version=draft`);
    expect(draftFiles.body.items.map((a: { filename: string }) => a.filename)).toEqual(['neurons.csv']);

    const connections = await connectomeFile('celegans_varshney_2011', 'connections.csv');
    const up = await uploadFile(t, owner, created.id, 'connections.csv', connections);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.items[0]).toMatchObject({ kind: 'connections', rows: counts.connections, sha256: createHash('sha256').update(connections).digest('hex'), size: connections.length });

    // Incomplete: the licence is missing, and publishing says so.
    const incomplete = await as(owner, 'GET', '/v1/neurodata/datasets/incomplete');
    expect(incomplete.body.items).toHaveLength(1);
    expect(incomplete.body.items[0].missing).toEqual(['license: an SPDX identifier']);
    expectError(await as(owner, 'POST', `/v1/neurodata/datasets/${created.id}/publish`), 409, /missing: license/);
    expectError(await as(owner, 'PATCH', `/v1/neurodata/datasets/${created.id}`, { license: 'CC-BY-4.O' }), 400, /license: "CC-BY-4.O" is not an SPDX/);
    expect((await as(owner, 'PATCH', `/v1/neurodata/datasets/${created.id}`, { license: 'cc-by-4.0' })).body.license).toBe('CC-BY-4.0');
    // Drafts are invisible to others.
    expectError(await as(reader, 'GET', `/v1/neurodata/datasets/${created.id}`), 404);

    const v1 = await as(owner, 'POST', `/v1/neurodata/datasets/${created.id}/publish`, { note: 'first release' });
    expect(v1.status, JSON.stringify(v1.body)).toBe(201);
    expect(v1.body).toMatchObject({
      version: 1,
      reference: 'varshney_copy@v1',
      note: 'first release',
      row_counts: { neurons: counts.cells, connections: counts.connections, chemical_connections: counts.chemical_connections, electrical_connections: counts.electrical_connections, morphologies: 0 },
    });
    expect(v1.body.assets.map((a: { filename: string; sha256: string }) => a.filename)).toEqual(['connections.csv', 'neurons.csv']);
    expect((await as(owner, 'GET', '/v1/neurodata/datasets/incomplete')).body.items).toEqual([]);
    expectError(await as(owner, 'POST', `/v1/neurodata/datasets/${created.id}/publish`), 409, /nothing to publish/);

    // An edit opens v2's draft; readers keep seeing v1 until it is published.
    const edited = await as(owner, 'PATCH', `/v1/neurodata/datasets/${created.id}`, { description: 'Second description, long enough to publish.' });
    expect(edited.body).toMatchObject({ draft_version: 2, latest_version: 1, description: 'Second description, long enough to publish.' });
    const seen = await as(reader, 'GET', `/v1/neurodata/datasets/varshney_copy`);
    expect(seen.body).toMatchObject({ id: created.id, description: COMPLETE_METADATA.description, draft_version: null, access: { role: 'reader', can_read_data: true, can_modify: false } });
    const v2 = await as(owner, 'POST', `/v1/neurodata/datasets/${created.id}/publish`);
    expect(v2.body).toMatchObject({ version: 2, row_counts: { connections: counts.connections } });
    const versions = await as(reader, 'GET', `/v1/neurodata/datasets/${created.id}/versions`);
    expect(versions.body.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(versions.body.items[1].metadata.description).toBe(COMPLETE_METADATA.description);
    expect(versions.body.items[0].metadata.description).toBe('Second description, long enough to publish.');
    const one = await as(reader, 'GET', `/v1/neurodata/datasets/${created.id}/versions/1`);
    expect(one.body.metadata.license).toBe('CC-BY-4.0');

    // Provenance: created, uploads, publications, by whom.
    const prov = await as(reader, 'GET', `/v1/neurodata/datasets/${created.id}/provenance`);
    expect(prov.body.events.map((e: { activity: string }) => e.activity)).toEqual(['create', 'upload', 'upload', 'update', 'publish', 'update', 'publish']);
    expect(Object.keys(prov.body.prov.entity)).toContain(`nd:datasets/${created.id}@v2`);
  });

  it('cites a version as BibTeX and RIS that a citation library reads back', async () => {
    const d = await createDataset(t, owner, {
      title: 'Connectome of C. elegans & friends 100%',
      creators: [{ name: 'Dmitri B. Chklovskii' }, { name: 'Žiga Müller', orcid: '0000-0002-1825-0097' }],
      doi: '10.5555/nd.test.1',
    });
    await uploadFile(t, owner, d.id, 'neurons.csv', await connectomeFile('celegans_witvliet_2021_1', 'neurons.csv'));
    await uploadFile(t, owner, d.id, 'connections.csv', await connectomeFile('celegans_witvliet_2021_1', 'connections.csv'));
    expect((await as(owner, 'POST', `/v1/neurodata/datasets/${d.id}/publish`)).status).toBe(201);

    const bib = await fetch(`${t.url}/v1/neurodata/datasets/${d.id}/citation`, { headers: { authorization: `Bearer ${reader.accessToken}` } });
    expect(bib.status).toBe(200);
    expect(bib.headers.get('content-type')).toMatch(/^application\/x-bibtex/);
    const [entry] = new Cite(await bib.text()).data;
    expect(entry.title).toBe('Connectome of C. elegans & friends 100%');
    expect(entry.author.map((a: { family: string }) => a.family)).toEqual(['Chklovskii', 'Müller']);
    expect(entry.DOI).toBe('10.5555/nd.test.1');
    expect(entry.version).toBe('1');

    const ris = await fetch(`${t.url}/v1/neurodata/datasets/${d.id}/citation`, { headers: { authorization: `Bearer ${reader.accessToken}`, accept: 'application/x-research-info-systems' } });
    expect(ris.headers.get('content-type')).toMatch(/^application\/x-research-info-systems/);
    const [risEntry] = new Cite(await ris.text()).data;
    expect(risEntry.title).toBe('Connectome of C. elegans & friends 100%');
    // The dataset's landing page, open to everyone, rather than the API's record of this install's id.
    expect(risEntry.URL).toBe(`${t.url}/datasets/${d.slug}`);
    expect(entry.URL).toBe(`${t.url}/datasets/${d.slug}`);
    expect((await call(t.url, 'GET', `/v1/neurodata/datasets/${d.id}/citation?format=endnote`, { token: reader.accessToken })).status).toBe(400);
  });

  it('hands out download URLs that download the very bytes, and stop working when they expire or are tampered with', async () => {
    const d = await createDataset(t, owner, { title: 'Downloadable' });
    const neurons = await connectomeFile('celegans_witvliet_2021_2', 'neurons.csv');
    await uploadFile(t, owner, d.id, 'neurons.csv', neurons);
    await uploadFile(t, owner, d.id, 'connections.csv', await connectomeFile('celegans_witvliet_2021_2', 'connections.csv'));
    await as(owner, 'POST', `/v1/neurodata/datasets/${d.id}/publish`);
    const r = await as(reader, 'POST', '/v1/neurodata/download-urls', { dataset_id: d.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ dataset_id: d.id, version: 1, signed_by: 'service' });
    const n = r.body.urls.find((u: { filename: string }) => u.filename === 'neurons.csv');
    const got = await fetch(n.url);
    expect(got.status).toBe(200);
    const bytes = Buffer.from(await got.arrayBuffer());
    expect(bytes.equals(neurons)).toBe(true);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(n.sha256);
    const part = await fetch(n.url, { headers: { range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(neurons.subarray(0, 10))).toBe(true);
    const tampered = new URL(n.url);
    const grant = tampered.searchParams.get('grant')!;
    tampered.searchParams.set('grant', grant.slice(0, -3) + (grant.endsWith('AAA') ? 'BBB' : 'AAA'));
    expectError(await call(t.url, 'GET', tampered.pathname + tampered.search), 403, /not valid/);
    // The direct route redirects to such a URL.
    const redirect = await fetch(`${t.url}/v1/neurodata/datasets/${d.id}/assets/${n.asset_id}/content`, { headers: { authorization: `Bearer ${reader.accessToken}` }, redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer()).equals(neurons)).toBe(true);
  });

  it('deletes a dataset with its data: every route answers 404 and lineage shows it as deleted', async () => {
    const source = await createDataset(t, owner, { title: 'Source to delete' });
    await uploadFile(t, owner, source.id, 'neurons.csv', await connectomeFile('celegans_witvliet_2021_3', 'neurons.csv'));
    await uploadFile(t, owner, source.id, 'connections.csv', await connectomeFile('celegans_witvliet_2021_3', 'connections.csv'));
    await as(owner, 'POST', `/v1/neurodata/datasets/${source.id}/publish`);
    const derived = await createConnectome(t, reader, { folder: 'celegans_witvliet_2021_4', fields: { title: 'Derived analysis' } });
    const link = await as(reader, 'POST', `/v1/neurodata/datasets/${derived.id}/lineage`, { derived_from: source.slug, relation: 'reanalysis_of' });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    expect(link.body.upstream[0]).toMatchObject({ dataset_id: source.id, version: 1, relation: 'reanalysis_of', deleted: false });
    // A cycle is refused.
    expectError(await as(owner, 'POST', `/v1/neurodata/datasets/${source.id}/lineage`, { derived_from: derived.id }), 409);
    expectError(await as(reader, 'DELETE', `/v1/neurodata/datasets/${source.id}`), 403);
    const del = await as(owner, 'DELETE', `/v1/neurodata/datasets/${source.id}`);
    expect(del.body).toMatchObject({ id: source.id, deleted: true });
    for (const path of ['', '/versions', '/provenance', '/lineage', '/assets', '/access', '/citation', '/metadata.jsonld']) {
      expectError(await as(owner, 'GET', `/v1/neurodata/datasets/${source.id}${path}`), 404);
    }
    expect((await as(reader, 'POST', '/v1/neurodata/download-urls', { dataset_id: source.id })).status).toBe(404);
    const lineage = await as(reader, 'GET', `/v1/neurodata/datasets/${derived.id}/lineage`);
    expect(lineage.body.upstream[0]).toMatchObject({ dataset_id: source.id, deleted: true, title: 'Source to delete', slug: null });
  });

  it('keeps collections of datasets', async () => {
    const d = await createDataset(t, owner, { title: 'In a collection' });
    const c = await as(owner, 'POST', '/v1/neurodata/collections', { title: 'My worms', dataset_ids: [d.id] });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(c.body).toMatchObject({ title: 'My worms', visibility: 'private', dataset_ids: [d.id] });
    expectError(await as(reader, 'GET', `/v1/neurodata/collections/${c.body.id}`), 404);
    expect((await as(owner, 'DELETE', `/v1/neurodata/collections/${c.body.id}/datasets/${d.id}`)).body.dataset_ids).toEqual([]);
    expect((await as(owner, 'PUT', `/v1/neurodata/collections/${c.body.id}/datasets/${d.id}`)).body.dataset_ids).toEqual([d.id]);
    expect((await as(owner, 'GET', '/v1/neurodata/collections')).body.items.map((x: { id: string }) => x.id)).toEqual([c.body.id]);
    expect((await as(owner, 'DELETE', `/v1/neurodata/collections/${c.body.id}`)).body).toMatchObject({ deleted: true });
    expectError(await as(owner, 'GET', `/v1/neurodata/collections/${c.body.id}`), 404);
  });
});
