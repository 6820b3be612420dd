import { createHash } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { tableFromIPC, Type } from 'apache-arrow';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { createApiToken, createUser, type TestUser } from '../kit/users.js';
import { createConnectome, createDataset, uploadFile } from '../kit/datasets.js';

// FlyWire's root ids are 18 digits, beyond 2^53 (9007199254740992): a JSON number would round them.
const KC = '720575940621039145';
const PN = '720575940621039146';
const MBON = '720575940628934001';
const NEURONS = [
  'neuron_id,cell_class,cell_type,neurotransmitter,is_neuron,name,region,x,y,z',
  `${PN},PN,sensory,acetylcholine,1,PN_a,,1.5,2,3`,
  `${KC},KC,interneuron,acetylcholine,1,KC_a,,,,`,
  `${MBON},MBON,motor,glutamate,1,MBON_a,,4,5,6`,
  'M1,muscle,muscle,,0,M1,,,,',
].join('\n');
async function expectStatus(res: { status: number; body: unknown }, status: number, what: string): Promise<void> {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
}

const CONNECTIONS = ['pre,post,synapse_type,weight', `${PN},${KC},chemical,12`, `${KC},${MBON},chemical,2`, `${KC},${PN},electrical,3`, `${MBON},M1,chemical,5`].join('\n');

describe('GET /v1/neurodata/datasets/{dataset_id}/neurons and /connections', () => {
  let t: TestApp;
  let owner: TestUser, reader: TestUser, regular: TestUser;
  let readToken: string;
  let fly: { id: string; slug: string };
  const ds = (id: string) => `/v1/neurodata/datasets/${id}`;
  const arrow = async (url: string, token: string) => {
    const res = await fetch(`${t.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { res, bytes, text: new TextDecoder().decode(bytes) };
  };

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_BURST: '100000', RATE_LIMIT_REFILL_PER_SEC: '100000' }, { listen: true });
    [owner, reader, regular] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'REGULAR' })]);
    readToken = (await createApiToken(t, reader, 'read')).token;
    fly = await createDataset(t, owner, { title: 'A mushroom body fragment', visibility: 'public' });
    await expectStatus(await uploadFile(t, owner, fly.id, 'neurons.csv', NEURONS), 201, 'upload neurons.csv');
    await expectStatus(await uploadFile(t, owner, fly.id, 'connections.csv', CONNECTIONS), 201, 'upload connections.csv');
    await expectStatus(await call(t.url, 'POST', `${ds(fly.id)}/publish`, { token: owner.accessToken }), 201, 'publish');
  });
  afterAll(async () => t?.close());

  it('pages the neurons by neuron_id with their total, and answers an empty page past the end', async () => {
    const first = await call(t.url, 'GET', `${ds(fly.slug)}/neurons?limit=2`, { token: reader.accessToken });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ dataset_id: fly.id, version: 1, draft: false, total: 4, limit: 2, offset: 0 });
    expect(first.body.items.map((n: { neuron_id: string }) => n.neuron_id)).toEqual([KC, PN]);
    expect(first.body.items[1]).toEqual({ neuron_id: PN, name: 'PN_a', cell_class: 'PN', cell_type: 'sensory', neurotransmitter: 'acetylcholine', is_neuron: true, region: '', x: 1.5, y: 2, z: 3 });
    expect(first.body.items[0]).toMatchObject({ x: null, y: null, z: null });
    const second = await call(t.url, 'GET', `${ds(fly.id)}/neurons?limit=2&offset=2&version=v1`, { token: reader.accessToken });
    expect(second.body.items.map((n: { neuron_id: string }) => n.neuron_id)).toEqual([MBON, 'M1']);
    const past = await call(t.url, 'GET', `${ds(fly.id)}/neurons?offset=10`, { token: reader.accessToken });
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ items: [], total: 4, offset: 10, limit: 100 });
  });

  it('filters neurons by ids, class and kind of cell', async () => {
    const byIds = await call(t.url, 'GET', `${ds(fly.id)}/neurons?neuron_ids=${MBON}&neuron_ids=${KC},nobody`, { token: reader.accessToken });
    expect(byIds.body.items.map((n: { neuron_id: string }) => n.neuron_id)).toEqual([KC, MBON]);
    expect(byIds.body.total).toBe(2);
    const one = await call(t.url, 'GET', `${ds(fly.id)}/neurons?neuron_ids=${PN}`, { token: reader.accessToken });
    expect(one.body.items.map((n: { neuron_id: string }) => n.neuron_id)).toEqual([PN]);
    const others = await call(t.url, 'GET', `${ds(fly.id)}/neurons?is_neuron=false`, { token: reader.accessToken });
    expect(others.body.items.map((n: { neuron_id: string }) => n.neuron_id)).toEqual(['M1']);
    const byClass = await call(t.url, 'GET', `${ds(fly.id)}/neurons?cell_class=KC&cell_class=PN`, { token: reader.accessToken });
    expect(byClass.body.total).toBe(2);
  });

  it('pages the connections by pre, post and synapse type, filtered by type, weight and ids', async () => {
    const all = await call(t.url, 'GET', `${ds(fly.id)}/connections`, { token: reader.accessToken });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.total).toBe(4);
    // The electrical row is stored once with pre <= post.
    expect(all.body.items).toEqual([
      { pre: KC, post: PN, synapse_type: 'electrical', weight: 3, roi: null },
      { pre: KC, post: MBON, synapse_type: 'chemical', weight: 2, roi: null },
      { pre: PN, post: KC, synapse_type: 'chemical', weight: 12, roi: null },
      { pre: MBON, post: 'M1', synapse_type: 'chemical', weight: 5, roi: null },
    ]);
    const chemical = await call(t.url, 'GET', `${ds(fly.id)}/connections?synapse_type=chemical&min_weight=3`, { token: reader.accessToken });
    expect(chemical.body.items.map((c: { weight: number }) => c.weight)).toEqual([12, 5]);
    expect(chemical.body.total).toBe(2);
    const touching = await call(t.url, 'GET', `${ds(fly.id)}/connections?neuron_ids=M1&limit=1`, { token: reader.accessToken });
    expect(touching.body).toMatchObject({ total: 1, items: [{ pre: MBON, post: 'M1' }] });
    const page = await call(t.url, 'GET', `${ds(fly.id)}/connections?limit=1&offset=1`, { token: reader.accessToken });
    expect(page.body).toMatchObject({ total: 4, limit: 1, offset: 1, items: [{ pre: KC, post: MBON }] });
  });

  it('answers every matching row as Apache Arrow, ids exact as text, with where they came from', async () => {
    const { res, bytes } = await arrow(`${ds(fly.slug)}/neurons.arrow`, readToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.apache\.arrow\.stream/);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(res.headers.get('x-checksum-sha256')).toBe(createHash('sha256').update(bytes).digest('hex'));
    const neurons = tableFromIPC(bytes);
    expect(neurons.numRows).toBe(4);
    expect(neurons.schema.fields.map((f) => f.name)).toEqual(['neuron_id', 'name', 'cell_class', 'cell_type', 'neurotransmitter', 'is_neuron', 'region', 'x', 'y', 'z']);
    expect(neurons.schema.fields[0].typeId).toBe(Type.Utf8);
    expect(neurons.schema.fields[5].typeId).toBe(Type.Bool);
    expect(neurons.getChild('neuron_id')!.toArray()).toEqual([KC, PN, MBON, 'M1']);
    expect(neurons.getChild('x')!.get(0)).toBeNull();
    expect(neurons.getChild('is_neuron')!.get(3)).toBe(false);
    const meta = Object.fromEntries(neurons.schema.metadata);
    expect(meta).toMatchObject({ dataset: fly.slug, dataset_id: fly.id, version: '1', table: 'neurons', service: 'neurodata-service' });
    expect(meta.query).toBe(`GET /v1/neurodata/datasets/${fly.slug}/neurons.arrow?version=v1`);
    expect(JSON.parse(meta.datasets)).toEqual([{ dataset_id: fly.id, slug: fly.slug, version: 1, is_draft: false, label: `${fly.slug}@v1` }]);

    const edges = tableFromIPC((await arrow(`${ds(fly.id)}/connections.arrow?synapse_type=chemical&min_weight=2.5`, readToken)).bytes);
    expect(edges.numRows).toBe(2);
    expect(edges.getChild('pre')!.toArray()).toEqual([PN, MBON]);
    expect(edges.getChild('post')!.toArray()).toEqual([KC, 'M1']);
    expect(edges.schema.fields[0].typeId).toBe(Type.Utf8);
    expect(JSON.parse(Object.fromEntries(edges.schema.metadata).parameters)).toEqual({ synapse_type: 'chemical', min_weight: 2.5 });
    // format=arrow on the JSON route is the .arrow route's answer.
    const aliased = tableFromIPC((await arrow(`${ds(fly.id)}/connections?format=arrow&synapse_type=chemical&min_weight=2.5`, readToken)).bytes);
    expect(aliased.getChild('pre')!.toArray()).toEqual([PN, MBON]);
    expect(tableFromIPC((await arrow(`${ds(fly.id)}/neurons?format=arrow`, readToken)).bytes).numRows).toBe(4);
    const none = tableFromIPC((await arrow(`${ds(fly.id)}/connections.arrow?neuron_ids=nobody`, readToken)).bytes);
    expect(none.numRows).toBe(0);
    expect(none.schema.fields.map((f) => f.name)).toEqual(['pre', 'post', 'synapse_type', 'weight']);
  });

  it('streams a whole connectome as Arrow, equal to its pages', async () => {
    const worm = await createConnectome(t, owner);
    const whole = tableFromIPC((await arrow(`${ds(worm.id)}/connections.arrow`, readToken)).bytes);
    const first = await call(t.url, 'GET', `${ds(worm.id)}/connections?limit=1000`, { token: readToken });
    expect(whole.numRows).toBe(first.body.total);
    const rows = [];
    for (let offset = 0; offset < first.body.total; offset += 1000) {
      const page = await call(t.url, 'GET', `${ds(worm.id)}/connections?limit=1000&offset=${offset}`, { token: readToken });
      rows.push(...page.body.items.map((c: { pre: string; post: string; synapse_type: string; weight: number }) => [c.pre, c.post, c.synapse_type, c.weight]));
    }
    const streamed = Array.from({ length: whole.numRows }, (_, i) => ['pre', 'post', 'synapse_type', 'weight'].map((k) => whole.getChild(k)!.get(i)));
    expect(streamed).toEqual(rows);
  });

  it('a read-scoped API token reads both answers', async () => {
    expect((await call(t.url, 'GET', `${ds(fly.id)}/neurons`, { token: readToken })).status).toBe(200);
    expect((await call(t.url, 'GET', `${ds(fly.id)}/connections?synapse_type=electrical`, { token: readToken })).body.total).toBe(1);
    expect((await arrow(`${ds(fly.id)}/connections.arrow`, readToken)).res.status).toBe(200);
  });

  it('keeps the rules of every data route: 401 anonymous, 403 Regular, 403 restricted without access, 404 for a draft of others', async () => {
    const restricted = await createDataset(t, owner, { title: 'Embargoed fragment', visibility: 'restricted' });
    await expectStatus(await uploadFile(t, owner, restricted.id, 'neurons.csv', NEURONS), 201, 'upload neurons.csv');
    await expectStatus(await uploadFile(t, owner, restricted.id, 'connections.csv', CONNECTIONS), 201, 'upload connections.csv');
    await expectStatus(await call(t.url, 'POST', `${ds(restricted.id)}/publish`, { token: owner.accessToken }), 201, 'publish');
    const draft = await createDataset(t, owner, { title: 'Unpublished fragment' });
    await expectStatus(await uploadFile(t, owner, draft.id, 'neurons.csv', NEURONS), 201, 'upload neurons.csv');
    for (const path of ['neurons', 'connections', 'neurons.arrow', 'connections.arrow']) {
      expect((await call(t.url, 'GET', `${ds(fly.id)}/${path}`)).status, path).toBe(401);
      const low = await call(t.url, 'GET', `${ds(fly.id)}/${path}`, { token: regular.accessToken });
      expect(low.status, path).toBe(403);
      expect(low.body.error).toMatch(/verified academic account|access class/);
      const refused = await call(t.url, 'GET', `${ds(restricted.id)}/${path}`, { token: reader.accessToken });
      expect(refused.status, path).toBe(403);
      expect(refused.body.error).toMatch(/restricted/);
      expect(JSON.stringify(refused.body)).not.toContain(KC);
      expect((await call(t.url, 'GET', `${ds(draft.id)}/${path}?version=draft`, { token: reader.accessToken })).status, path).toBe(404);
      expect((await call(t.url, 'GET', `${ds(draft.id)}/${path}`, { token: reader.accessToken })).status, path).toBe(404);
    }
    const own = await call(t.url, 'GET', `${ds(draft.id)}/neurons?version=draft`, { token: owner.accessToken });
    expect(own.body).toMatchObject({ draft: true, total: 4 });
    expect((await call(t.url, 'GET', `${ds(restricted.id)}/neurons`, { token: owner.accessToken })).body.total).toBe(4);
  });

  it('refuses bad input with 400 naming the field', async () => {
    // Short values: a list of 1001 FlyWire ids would not fit in a request line (431) in the first place.
    const tooMany = `neuron_ids=${Array.from({ length: 1001 }, (_, i) => `n${i}`).join(',')}`;
    const repeated = Array.from({ length: 21 }, (_, i) => `neuron_ids=n${i}`).join('&');
    for (const [path, says] of [
      ['connections?synapse_type=gap_junction', /synapse_type/],
      ['connections.arrow?synapse_type=gap_junction', /synapse_type/],
      ['connections?min_weight=-1', /min_weight/],
      ['connections.arrow?min_weight=-1', /min_weight/],
      ['connections.arrow?min_weight=heavy', /min_weight/],
      [`neurons?${tooMany}`, /neuron_ids/],
      [`neurons.arrow?${tooMany}`, /neuron_ids/],
      [`neurons?${repeated}`, /neuron_ids was given 21 times; repeat it at most 20 times/],
      ['neurons?limit=1001', /limit/],
      ['neurons?offset=-1', /offset/],
      ['neurons.arrow?is_neuron=maybe', /is_neuron/],
      ['neurons?version=v99', /v99|version/],
      ['neurons?format=csv', /format: "csv" is not json or arrow/],
    ] as const) {
      const r = await call(t.url, 'GET', `${ds(fly.id)}/${path}`, { token: reader.accessToken });
      expect([400, 404], path.slice(0, 60)).toContain(r.status);
      if (!path.includes('v99')) expect(r.status, path.slice(0, 60)).toBe(400);
      expect(r.body.error, path.slice(0, 60)).toMatch(says);
    }
    const ids = Array.from({ length: 1001 }, (_, i) => `${KC}${i}`);
    const viaGraphql = await call(t.url, 'POST', '/graphql', {
      token: reader.accessToken,
      body: { query: 'query($id: String!, $ids: [String!]) { datasetConnections(dataset_id: $id, neuron_ids: $ids) { total } }', variables: { id: fly.id, ids } },
    });
    expect(viaGraphql.body.errors[0].message).toMatch(/neuron_ids: at most 1000 values/);
  });
});
