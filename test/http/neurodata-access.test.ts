import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { createUser, type TestUser } from '../kit/users.js';
import { connectomeFile, createConnectome, createDataset, uploadFile } from '../kit/datasets.js';
import { neurodata } from '../../subgraphs/neurodata/index.js';

type Kind = 'metadata' | 'data' | 'modify' | 'administer';

/**
 * Every route that takes a dataset id, with what it needs: metadata (any academic caller, for a published
 * dataset), data (public, or an approved request), modify (owner, maintainers), administer (owner).
 */
function sweep(id: string, assetId: string): Array<{ kind: Kind; method: string; url: string; body?: unknown; ok: number[] }> {
  const ds = `/v1/neurodata/datasets/${id}`;
  return [
    { kind: 'metadata', method: 'GET', url: ds, ok: [200] },
    { kind: 'metadata', method: 'GET', url: `${ds}/versions`, ok: [200] },
    { kind: 'metadata', method: 'GET', url: `${ds}/versions/1`, ok: [200] },
    { kind: 'metadata', method: 'GET', url: `${ds}/provenance`, ok: [200] },
    { kind: 'metadata', method: 'GET', url: `${ds}/lineage`, ok: [200] },
    { kind: 'metadata', method: 'GET', url: `${ds}/citation`, ok: [200] },
    { kind: 'metadata', method: 'GET', url: `${ds}/metadata.jsonld`, ok: [200] },
    { kind: 'metadata', method: 'GET', url: `${ds}/access`, ok: [200] },
    { kind: 'data', method: 'GET', url: `${ds}/assets`, ok: [200] },
    { kind: 'data', method: 'GET', url: `${ds}/assets/${assetId}/content`, ok: [302] },
    { kind: 'data', method: 'GET', url: `${ds}/neurons`, ok: [200] },
    { kind: 'data', method: 'GET', url: `${ds}/connections?synapse_type=chemical`, ok: [200] },
    { kind: 'data', method: 'GET', url: `${ds}/neurons.arrow`, ok: [200] },
    { kind: 'data', method: 'GET', url: `${ds}/connections.arrow`, ok: [200] },
    { kind: 'data', method: 'POST', url: '/v1/neurodata/download-urls', body: { dataset_id: id }, ok: [200] },
    { kind: 'modify', method: 'PATCH', url: ds, body: { keywords: ['swept'] }, ok: [200] },
    { kind: 'modify', method: 'POST', url: `${ds}/assets?filename=notes.txt`, body: 'a note', ok: [201] },
    { kind: 'modify', method: 'POST', url: `${ds}/publish`, ok: [201] },
    { kind: 'modify', method: 'POST', url: `${ds}/lineage`, body: { derived_from: 'nope_nope' }, ok: [404] },
    { kind: 'modify', method: 'DELETE', url: `${ds}/assets/01a20000-0000-7000-8000-000000000000`, ok: [404] },
    { kind: 'modify', method: 'POST', url: `${ds}/access/requests/01a20000-0000-7000-8000-000000000000/approve`, ok: [404] },
    { kind: 'administer', method: 'PATCH', url: ds, body: { maintainer_ids: [] }, ok: [200] },
  ];
}

/** Everything a restricted dataset must not reveal to a caller without access to its data. */
function leaks(body: unknown, secrets: string[]): string[] {
  const text = JSON.stringify(body);
  return secrets.filter((s) => text.includes(s));
}

describe('who may see what of a dataset', () => {
  let t: TestApp;
  let owner: TestUser, maintainer: TestUser, outsider: TestUser, requester: TestUser, regular: TestUser, superuser: TestUser;
  let restricted: { id: string; slug: string };
  let assetId: string;
  let secrets: string[];
  const as = (u: TestUser | null, method: string, url: string, body?: unknown) =>
    fetch(`${t.url}${url}`, {
      method,
      redirect: 'manual',
      headers: { ...(u ? { authorization: `Bearer ${u.accessToken}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, text: await r.text() }));

  beforeAll(async () => {
    // On a port: the answers are read as the raw text a client receives, redirects unfollowed, to look for leaks.
    t = await startTestApp({}, { listen: true });
    [owner, maintainer, outsider, requester, regular, superuser] = await Promise.all([
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'ACADEMIC' }),
      createUser(t, { accountType: 'REGULAR' }),
      createUser(t, { accountType: 'SUPERUSER' }),
    ]);
    restricted = await createConnectome(t, owner, { visibility: 'restricted', fields: { title: 'Embargoed worm wiring', maintainer_ids: [maintainer.id] } });
    const files = await call(t.url, 'GET', `/v1/neurodata/datasets/${restricted.id}/assets`, { token: owner.accessToken });
    assetId = files.body.items.find((a: { filename: string }) => a.filename === 'neurons.csv').id;
    // What only readers of the data may learn: file names and checksums, row counts, the neuron names inside.
    secrets = [...files.body.items.map((a: { sha256: string }) => a.sha256), 'neurons.csv', 'connections.csv', '"row_counts":{', 'AVAL', '/v1/neurodata/files'];
  });
  afterAll(async () => t?.close());

  it('refuses Regular accounts and anonymous callers on every route', async () => {
    for (const r of sweep(restricted.id, assetId)) {
      expect((await as(regular, r.method, r.url, r.body)).status, `${r.method} ${r.url}`).toBe(403);
      expect((await as(null, r.method, r.url, r.body)).status, `${r.method} ${r.url}`).toBe(401);
    }
  });

  it('shows an outsider the metadata of a restricted dataset and nothing of its data, with how to ask for it', async () => {
    for (const r of sweep(restricted.id, assetId)) {
      const res = await as(outsider, r.method, r.url, r.body);
      const expected = r.kind === 'metadata' ? r.ok : [403];
      expect(expected, `${r.method} ${r.url}: ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
      expect(leaks(res.text, secrets), `${r.method} ${r.url}`).toEqual([]);
      if (r.kind === 'data') expect(JSON.parse(res.text).error).toMatch(new RegExp(`POST /v1/neurodata/datasets/${restricted.id}/access/request`));
    }
    const list = await as(outsider, 'GET', '/v1/neurodata/datasets');
    expect(JSON.parse(list.text).items.map((d: { id: string }) => d.id)).toContain(restricted.id);
    expect(leaks(list.text, secrets)).toEqual([]);
    await expect(neurodata.use(t.app.deps).resolveDatasetVersion({ viewer: viewerOf(outsider), log: console as never }, restricted.slug)).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN' } });
  });

  it('opens the data to a requester once the owner or a maintainer approves, and closes it again on denial', async () => {
    const asked = await as(requester, 'POST', `/v1/neurodata/datasets/${restricted.id}/access/request`, { message: 'for a meta-analysis' });
    expect(asked.status).toBe(201);
    const request = JSON.parse(asked.text);
    expect(request).toMatchObject({ status: 'pending', requester_id: requester.id });
    const pending = await as(requester, 'GET', `/v1/neurodata/datasets/${restricted.id}/assets`);
    expect(pending.status).toBe(403);
    expect(JSON.parse(pending.text).error).toMatch(/pending/);
    // The requester cannot approve their own request; an outsider cannot see who asked.
    expect((await as(requester, 'POST', `/v1/neurodata/datasets/${restricted.id}/access/requests/${request.id}/approve`)).status).toBe(403);
    expect(JSON.parse((await as(outsider, 'GET', `/v1/neurodata/datasets/${restricted.id}/access`)).text).requests).toEqual([]);
    const seen = JSON.parse((await as(maintainer, 'GET', `/v1/neurodata/datasets/${restricted.id}/access`)).text);
    expect(seen.requests.map((r: { id: string }) => r.id)).toEqual([request.id]);
    expect((await as(maintainer, 'POST', `/v1/neurodata/datasets/${restricted.id}/access/requests/${request.id}/approve`, { message: 'welcome' })).status).toBe(200);

    for (const r of sweep(restricted.id, assetId).filter((x) => x.kind === 'data' || x.kind === 'metadata')) {
      const res = await as(requester, r.method, r.url, r.body);
      expect(r.ok, `${r.method} ${r.url}: ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
    }
    const granted = await neurodata.use(t.app.deps).resolveDatasetVersion({ viewer: viewerOf(requester), log: console as never }, `${restricted.slug}@v1`);
    expect(granted).toMatchObject({ datasetId: restricted.id, version: 1, isDraft: false, visibility: 'restricted' });
    expect(granted.rowCounts.connections).toBeGreaterThan(0);
    for (const r of sweep(restricted.id, assetId).filter((x) => x.kind === 'modify' || x.kind === 'administer')) {
      expect((await as(requester, r.method, r.url, r.body)).status, `${r.method} ${r.url}`).toBe(403);
    }

    expect((await as(owner, 'POST', `/v1/neurodata/datasets/${restricted.id}/access/requests/${request.id}/deny`)).status).toBe(200);
    const denied = await as(requester, 'GET', `/v1/neurodata/datasets/${restricted.id}/assets`);
    expect(denied.status).toBe(403);
    expect(JSON.parse(denied.text).error).toMatch(/denied/);
  });

  it('lets maintainers change the dataset but not administer it, and the owner and SuperUsers do everything', async () => {
    for (const who of [maintainer, owner, superuser]) {
      for (const r of sweep(restricted.id, assetId)) {
        const res = await as(who, r.method, r.url, r.body);
        const expected = r.kind === 'administer' && who === maintainer ? [403] : r.kind === 'modify' && r.url.endsWith('/publish') ? [201, 409] : r.ok;
        expect(expected, `${r.method} ${r.url}: ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
      }
    }
  });

  it('keeps an unpublished draft invisible: every route answers 404, as for a dataset that does not exist', async () => {
    const draft = await createDataset(t, owner, { title: 'Secret draft', visibility: 'public' });
    await uploadFile(t, owner, draft.id, 'neurons.csv', await connectomeFile('celegans_witvliet_2021_5', 'neurons.csv'));
    const missing = '01a20000-0000-7000-8000-00000000abcd';
    for (const r of sweep(draft.id, missing)) {
      const res = await as(outsider, r.method, r.url, r.body);
      const none = await as(outsider, r.method, r.url.replace(draft.id, missing), r.body === undefined ? undefined : JSON.parse(JSON.stringify(r.body).replace(draft.id, missing)));
      expect(res.status, `${r.method} ${r.url}`).toBe(404);
      expect(JSON.parse(res.text).error.replace(draft.id, 'X')).toBe(JSON.parse(none.text).error.replace(missing, 'X'));
    }
    expect((await as(outsider, 'POST', `/v1/neurodata/datasets/${draft.id}/access/request`)).status).toBe(404);
    const list = await as(outsider, 'GET', '/v1/neurodata/datasets');
    expect(list.text).not.toContain(draft.id);
  });
});

function viewerOf(u: TestUser) {
  return { id: u.id, accountType: 'ACADEMIC' as const, verified: true, tokenId: 'test' };
}
