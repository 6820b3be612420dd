import { readFileSync } from 'node:fs';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { tableFromIPC, Type } from 'apache-arrow';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { createApiToken, createUser, type TestUser } from '../kit/users.js';
import { createDataset, uploadFile } from '../kit/datasets.js';
import { DataStore } from '../../subgraphs/neurodata/store/data.store.js';
import type { DataTable } from '../../subgraphs/neurodata/store/clickhouse/columns.js';

// Real hemibrain synapses of two DA1 lPNs (seed/synapse-level/hemibrain_da1_lpn/README.md): per-neuron points without partners,
// in 8 nm voxels. Every expected number below is computed from the files here, not by the service.
const FIXTURES = new URL('../../seed/synapse-level/hemibrain_da1_lpn/', import.meta.url);
const ROIS = new URL('../../seed/synapse-level/rois/', import.meta.url);
const BODIES = ['1734350788', '722817260'];
const META = JSON.parse(readFileSync(new URL('meta.json', FIXTURES), 'utf8')) as Record<string, Record<string, string>>;
const ROI_INFO = JSON.parse(readFileSync(new URL('hemibrain_roi_info.json', ROIS), 'utf8')) as Record<string, { parent?: string; isPrimary?: boolean; description?: string }>;

interface Point {
  id: string;
  pre: string;
  post: string;
  x: number;
  y: number;
  z: number;
  roi: string;
  confidence: number;
}
const POINTS: Point[] = BODIES.flatMap((body) => {
  const [header, ...lines] = readFileSync(new URL(`${body}.csv`, FIXTURES), 'utf8').trim().split('\n');
  const cols = header.split(',');
  return lines.map((line, row) => {
    const v = Object.fromEntries(line.split(',').map((x, i) => [cols[i], x]));
    return {
      id: `${body}.csv:${row}`,
      pre: v.type === 'pre' ? body : '',
      post: v.type === 'post' ? body : '',
      x: Number(v.x),
      y: Number(v.y),
      z: Number(v.z),
      roi: v.roi,
      confidence: Number(v.confidence),
    };
  });
});
// ClickHouse orders String by bytes; these ids are ASCII, so JavaScript's code-unit order is the same.
const key = (p: { pre: string | null; post: string | null; synapse_id?: string; id?: string }) => [p.pre ?? '', p.post ?? '', p.synapse_id ?? p.id ?? ''];
const byKey = (a: Point, b: Point) => {
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
  return 0;
};

const tsv = (rows: unknown[][]) => rows.map((r) => r.map((v) => (v === null ? '\\N' : String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t'))).join('\t')).join('\n') + '\n';

/** The rows of the synapse-level tables of one version, as the ingest would write them (columns.ts order). */
function tables(datasetId: string, version: number): Partial<Record<DataTable, unknown[][]>> {
  const v = [datasetId, version];
  const synapses = POINTS.map((p) => [...v, p.pre, p.post, p.id, p.x, p.y, p.z, p.roi, p.confidence, null, null, null, '', null, null, null, null, null, null]);
  const counts = new Map<string, { pre: number; post: number }>();
  for (const p of POINTS) {
    const k = `${p.pre || p.post}\t${p.roi}`;
    const c = counts.get(k) ?? { pre: 0, post: 0 };
    if (p.pre) c.pre++;
    else c.post++;
    counts.set(k, c);
  }
  const neuronRois = [...counts].map(([k, c]) => [...v, ...k.split('\t'), c.pre, c.post, c.post, null]);
  const rois = Object.entries(ROI_INFO).map(([name, r]) => [...v, name, r.parent ?? '', r.isPrimary ? 1 : 0, r.description ?? '', '']);
  const annotations = BODIES.map((b) => [...v, b, META[b].instance, META[b].type, '', '', '', '', 'R', META[b].status, '', null, null, null, null, JSON.stringify({ cellBodyFiber: META[b].cellBodyFiber })]);
  // Per-ROI connections between the two neurons (the point files give no partners: a small made-up table).
  const roiConnections = [
    [...v, BODIES[0], BODIES[1], 'AL(R)', 3, ''],
    [...v, BODIES[0], BODIES[1], 'CA(R)', 2, ''],
    [...v, BODIES[0], BODIES[1], '', 1, ''],
    [...v, BODIES[1], BODIES[0], 'LH(R)', 4, ''],
  ];
  return { synapses, synapses_by_post: synapses, neuron_rois: neuronRois, rois, neuron_annotations: annotations, roi_connections: roiConnections, roi_connections_by_roi: roiConnections };
}

const NEURONS_CSV = ['neuron_id,cell_class,cell_type,neurotransmitter,is_neuron,name,region,x,y,z', ...BODIES.map((b) => `${b},DA1_lPN,interneuron,acetylcholine,1,DA1_lPN_R,,,,`)].join('\n');
const CONNECTIONS_CSV = ['pre,post,synapse_type,weight', `${BODIES[0]},${BODIES[1]},chemical,6`, `${BODIES[1]},${BODIES[0]},chemical,4`].join('\n');

async function expectStatus(res: { status: number; body: unknown }, status: number, what: string): Promise<void> {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
}

describe('GET /v1/neurodata/datasets/{dataset_id}/synapses, /rois, /neurons/{neuron_id}', () => {
  let t: TestApp;
  let owner: TestUser, reader: TestUser, regular: TestUser;
  let readToken: string;
  let hemi: { id: string; slug: string };
  let embargoed: { id: string; slug: string };
  let bare: { id: string; slug: string };
  const ds = (id: string) => `/v1/neurodata/datasets/${id}`;
  const get = (path: string, token = reader.accessToken) => call(t.url, 'GET', path, { token });
  const arrow = async (url: string) => {
    const res = await fetch(`${t.url}${url}`, { headers: { authorization: `Bearer ${readToken}` } });
    return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
  };

  /** A dataset with the two neurons' files and, in its draft, the synapse tables; published as v1. */
  async function synapseDataset(fields: Record<string, unknown>, withSynapses = true) {
    const d = await createDataset(t, owner, fields);
    await expectStatus(await uploadFile(t, owner, d.id, 'neurons.csv', NEURONS_CSV), 201, 'upload neurons.csv');
    await expectStatus(await uploadFile(t, owner, d.id, 'connections.csv', CONNECTIONS_CSV), 201, 'upload connections.csv');
    const draft = (await get(ds(d.id), owner.accessToken)).body.draft_version as number;
    if (withSynapses) {
      const store = new DataStore(t.app.stores.column);
      for (const [table, rows] of Object.entries(tables(d.id, draft))) await store.insertTsv(table as DataTable, [tsv(rows!)]);
    }
    await expectStatus(await call(t.url, 'POST', `${ds(d.id)}/publish`, { token: owner.accessToken }), 201, 'publish');
    return d;
  }

  /** Every synapse of a query, page by page through `next`. */
  async function allPages(query: string, limit = 1000) {
    const items: Array<Record<string, unknown>> = [];
    let after: string | null = null;
    let total = -1;
    for (let pages = 0; pages < 100; pages++) {
      const r = await get(`${ds(hemi.id)}/synapses?${query}&limit=${limit}${after ? `&after=${after}` : ''}`);
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
      total = r.body.total;
      items.push(...r.body.items);
      after = r.body.next;
      if (!after) break;
    }
    return { items, total };
  }

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_BURST: '100000', RATE_LIMIT_REFILL_PER_SEC: '100000' }, { listen: true });
    [owner, reader, regular] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'REGULAR' })]);
    readToken = (await createApiToken(t, reader, 'read')).token;
    hemi = await synapseDataset({ title: 'Two DA1 lPNs', coordinate_unit: 'voxel', voxel_size: [8, 8, 8], bounds: { min: [0, 0, 0], max: [40000, 40000, 40000] } });
    embargoed = await synapseDataset({ title: 'Two embargoed lPNs', visibility: 'restricted', coordinate_unit: 'nm' });
    bare = await synapseDataset({ title: 'No synapse tables', coordinate_unit: 'nm' }, false);
  });
  afterAll(async () => t?.close());

  it('shows the coordinate declaration on the dataset and its version, and refuses a bad one', async () => {
    const d = await get(ds(hemi.id));
    expect(d.body).toMatchObject({ coordinate_unit: 'voxel', voxel_size: [8, 8, 8], bounds: { min: [0, 0, 0], max: [40000, 40000, 40000] } });
    expect((await get(`${ds(hemi.id)}/versions/1`)).body.metadata).toMatchObject({ coordinate_unit: 'voxel', voxel_size: [8, 8, 8] });
    expect((await get(ds(bare.id))).body).toMatchObject({ coordinate_unit: 'nm', voxel_size: null, bounds: null });
    for (const [body, says] of [
      [{ coordinate_unit: 'parsec' }, /coordinate_unit/],
      [{ coordinate_unit: 'voxel' }, /voxel_size: required when coordinate_unit is voxel/],
      [{ voxel_size: [8, 0, 8] }, /voxel_size/],
      [{ voxel_size: [8, 8] }, /voxel_size/],
      [{ bounds: { min: [0, 0, 10], max: [1, 1, 1] } }, /bounds: min z/],
    ] as const) {
      const r = await call(t.url, 'PATCH', ds(bare.id), { token: owner.accessToken, body: body as Record<string, unknown> });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toMatch(says);
    }
  });

  it('lists the ROI tree with counts: primary ROIs their own, others the sum of their primary descendants, and the outside bucket', async () => {
    const r = await get(`${ds(hemi.slug)}/rois`);
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body.items).toHaveLength(Object.keys(ROI_INFO).length);
    const count = (rois: string[], side: 'pre' | 'post') => POINTS.filter((p) => rois.includes(p.roi) && (side === 'pre' ? p.pre : p.post)).length;
    const by = new Map(r.body.items.map((x: { roi: string }) => [x.roi, x]));
    expect(by.get('CA(R)')).toEqual({ roi: 'CA(R)', parent: 'MB(R)', primary: true, description: 'calyx(right)', term: null, pre: count(['CA(R)'], 'pre'), post: count(['CA(R)'], 'post') });
    // MB(R) is not primary: its synapses are those of its primary descendants, CA(R) the only one these neurons reach.
    expect(by.get('MB(R)')).toMatchObject({ primary: false, pre: count(['CA(R)'], 'pre'), post: count(['CA(R)'], 'post') });
    const primaries = Object.entries(ROI_INFO).filter(([, v]) => v.isPrimary).map(([k]) => k);
    expect(by.get('hemibrain')).toMatchObject({ parent: null, pre: count(primaries, 'pre'), post: count(primaries, 'post') });
    expect(r.body.outside_rois).toEqual({ pre: count([''], 'pre'), post: count([''], 'post') });
    expect(count([''], 'pre') + count([''], 'post')).toBeGreaterThan(0);
  });

  it('pages every synapse exactly once in (pre, post, synapse_id) order, its total the count', async () => {
    const { items, total } = await allPages('version=v1', 997);
    expect(total).toBe(POINTS.length);
    expect(items).toHaveLength(POINTS.length);
    expect(new Set(items.map((i) => i.synapse_id)).size).toBe(POINTS.length);
    expect(items.map((i) => i.synapse_id)).toEqual([...POINTS].sort(byKey).map((p) => p.id));
    const first = POINTS.find((p) => p.id === `${BODIES[0]}.csv:0`)!;
    expect(items.find((i) => i.synapse_id === first.id)).toEqual({
      synapse_id: first.id,
      pre: BODIES[0],
      post: null,
      x: first.x,
      y: first.y,
      z: first.z,
      roi: first.roi,
      confidence: first.confidence,
      cleft_score: null,
      connection_score: null,
      size: null,
      transmitter: null,
      gaba: null,
      ach: null,
      glut: null,
      oct: null,
      ser: null,
      da: null,
    });
  });

  it('filters by neuron on either side, by side, ROI tree, outside every ROI and confidence', async () => {
    const total = async (query: string) => {
      const r = await get(`${ds(hemi.id)}/synapses?${query}&limit=1`);
      expect(r.status, `${query}: ${JSON.stringify(r.body).slice(0, 200)}`).toBe(200);
      return r.body.total as number;
    };
    const n = (f: (p: Point) => boolean) => POINTS.filter(f).length;
    expect(await total(`neuron=${BODIES[0]}`)).toBe(n((p) => p.pre === BODIES[0] || p.post === BODIES[0]));
    expect(await total(`neuron=${BODIES[0]},${BODIES[1]}`)).toBe(POINTS.length);
    expect(await total(`pre=${BODIES[1]}`)).toBe(n((p) => p.pre === BODIES[1]));
    expect(await total(`post=${BODIES[1]}`)).toBe(n((p) => p.post === BODIES[1]));
    expect(await total('roi=MB(R)')).toBe(n((p) => p.roi === 'CA(R)'));
    expect(await total('roi=AL(R)')).toBe(n((p) => p.roi === 'AL(R)'));
    expect(await total('roi=none')).toBe(n((p) => p.roi === ''));
    expect(await total('roi=INP')).toBe(n((p) => p.roi === 'SCL(R)'));
    // Confidences are stored as Float32: the comparison is on that value.
    expect(await total('min_confidence=0.99')).toBe(n((p) => Math.fround(p.confidence) >= 0.99));
    expect(await total(`min_confidence=0.9&roi=LH(R)&pre=${BODIES[0]}`)).toBe(n((p) => Math.fround(p.confidence) >= 0.9 && p.roi === 'LH(R)' && p.pre === BODIES[0]));
    const none = await get(`${ds(hemi.id)}/synapses?roi=none&limit=5`);
    expect(none.body.items.every((i: { roi: string | null }) => i.roi === null)).toBe(true);
  });

  it('finds the synapses in a box given in voxels, nm or um, converted by the voxel size', async () => {
    // Corners off the integer grid, so that no point lies on a face whatever the rounding of a unit conversion.
    const min = [4500.5, 21000.5, 14000.5];
    const max = [6000.5, 23000.5, 15500.5];
    const expected = POINTS.filter((p) => [p.x, p.y, p.z].every((v, i) => v >= min[i] && v <= max[i])).length;
    expect(expected).toBeGreaterThan(100);
    expect(expected).toBeLessThan(POINTS.length);
    const box = (scale: number) => [...min, ...max].map((v) => v * scale).join(',');
    for (const [unit, scale] of [['voxel', 1], ['nm', 8], ['um', 0.008]] as const) {
      const r = await get(`${ds(hemi.id)}/synapses?bbox=${box(scale)}&unit=${unit}&limit=1`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.total, unit).toBe(expected);
    }
    // Corners in either order.
    const swapped = [...max, ...min].join(',');
    expect((await get(`${ds(hemi.id)}/synapses?bbox=${swapped}&unit=voxel&limit=1`)).body.total).toBe(expected);
  });

  it('answers every matching synapse as Apache Arrow, equal to the JSON pages, ids exact as text', async () => {
    const query = `neuron=${BODIES[1]}&min_confidence=0.5`;
    const { items } = await allPages(query);
    for (const url of [`${ds(hemi.id)}/synapses.arrow?${query}`, `${ds(hemi.id)}/synapses?format=arrow&${query}`]) {
      const { res, bytes } = await arrow(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.apache\.arrow\.stream/);
      const table = tableFromIPC(bytes);
      expect(table.numRows).toBe(items.length);
      expect(Number(res.headers.get('x-row-count'))).toBe(items.length);
      const names = table.schema.fields.map((f) => f.name);
      expect(names).toEqual(Object.keys(items[0]));
      expect(table.schema.fields[1].typeId).toBe(Type.Utf8);
      const rows = Array.from({ length: table.numRows }, (_, i) => Object.fromEntries(names.map((k) => [k, table.getChild(k)!.get(i)])));
      expect(rows).toEqual(items);
      expect(Object.fromEntries(table.schema.metadata)).toMatchObject({ dataset_id: hemi.id, version: '1', table: 'synapses' });
    }
  });

  it('shows one neuron with its annotations, extra columns and per-ROI counts; 404 for an unknown one', async () => {
    const body = BODIES[0];
    const r = await get(`${ds(hemi.id)}/neurons/${body}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ dataset_id: hemi.id, version: 1, neuron_id: body, name: 'DA1_lPN_R', instance: META[body].instance, type: META[body].type, status: 'Traced', side: 'R', class: null, soma: null });
    expect(r.body.extra).toEqual({ cellBodyFiber: 'AVM02' });
    const mine = POINTS.filter((p) => p.pre === body || p.post === body);
    const rois = [...new Set(mine.map((p) => p.roi).filter(Boolean))].sort();
    expect(r.body.rois.map((x: { roi: string }) => x.roi)).toEqual(rois);
    for (const x of r.body.rois) {
      const here = mine.filter((p) => p.roi === x.roi);
      expect(x).toEqual({ roi: x.roi, pre: here.filter((p) => p.pre).length, post: here.filter((p) => p.post).length, upstream: here.filter((p) => p.post).length, downstream: null });
    }
    const outside = mine.filter((p) => p.roi === '');
    expect(r.body.outside_rois).toMatchObject({ pre: outside.filter((p) => p.pre).length, post: outside.filter((p) => p.post).length });
    const missing = await get(`${ds(hemi.id)}/neurons/123`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/no neuron "123"/);
  });

  it('sums connections over an ROI tree and groups them by ROI, also as Arrow; 400 where the version has no per-ROI connections', async () => {
    const inMb = await get(`${ds(hemi.id)}/connections?roi=MB(R)`);
    expect(inMb.status, JSON.stringify(inMb.body)).toBe(200);
    expect(inMb.body).toMatchObject({ total: 1, items: [{ pre: BODIES[0], post: BODIES[1], synapse_type: 'chemical', weight: 2, roi: null }] });
    const outside = await get(`${ds(hemi.id)}/connections?roi=none`);
    expect(outside.body.items).toEqual([{ pre: BODIES[0], post: BODIES[1], synapse_type: 'chemical', weight: 1, roi: null }]);
    const grouped = await get(`${ds(hemi.id)}/connections?group_by=roi`);
    expect(grouped.body.total).toBe(4);
    expect(grouped.body.items.map((c: { roi: string; weight: number }) => [c.roi, c.weight])).toEqual([['', 1], ['AL(R)', 3], ['CA(R)', 2], ['LH(R)', 4]]);
    const heavy = await get(`${ds(hemi.id)}/connections?roi=hemibrain&min_weight=5`);
    expect(heavy.body.items).toEqual([{ pre: BODIES[0], post: BODIES[1], synapse_type: 'chemical', weight: 5, roi: null }]);
    // Without roi the stored connections answer as before.
    expect((await get(`${ds(hemi.id)}/connections`)).body.items.map((c: { weight: number }) => c.weight)).toEqual([6, 4]);
    const { res, bytes } = await arrow(`${ds(hemi.id)}/connections?format=arrow&group_by=roi`);
    expect(res.status).toBe(200);
    const table = tableFromIPC(bytes);
    expect(table.schema.fields.map((f) => f.name)).toEqual(['pre', 'post', 'roi', 'synapse_type', 'weight']);
    expect(table.getChild('roi')!.toArray()).toEqual(['', 'AL(R)', 'CA(R)', 'LH(R)']);
    for (const path of ['connections?roi=AL(R)', 'connections?group_by=roi', 'connections.arrow?group_by=roi']) {
      const r = await get(`${ds(bare.id)}/${path}`);
      expect(r.status, path).toBe(400);
      expect(r.body.error).toMatch(/no per-ROI connections/);
    }
  });

  it('keeps the rules of every data route: 401 anonymous, 403 Regular, 403 restricted without leaking its rows', async () => {
    for (const path of ['synapses', 'synapses.arrow', 'rois', `neurons/${BODIES[0]}`, 'connections?group_by=roi']) {
      expect((await call(t.url, 'GET', `${ds(hemi.id)}/${path}`)).status, path).toBe(401);
      expect((await get(`${ds(hemi.id)}/${path}`, regular.accessToken)).status, path).toBe(403);
      const refused = await get(`${ds(embargoed.id)}/${path}`);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error).toMatch(/restricted/);
      for (const secret of [`${BODIES[0]}.csv`, 'AL(R)', 'AVM02']) expect(JSON.stringify(refused.body), path).not.toContain(secret);
    }
    expect((await get(`${ds(embargoed.id)}/synapses?limit=1`, owner.accessToken)).body.total).toBe(POINTS.length);
  });

  it('places a box by the coordinates frozen with each version: a changed voxel size applies to the draft only', async () => {
    const min = [4500.5, 21000.5, 14000.5];
    const max = [6000.5, 23000.5, 15500.5];
    const inBox = (scale: number) => POINTS.filter((p) => [p.x, p.y, p.z].every((v, i) => v * scale >= min[i] * 8 && v * scale <= max[i] * 8)).length;
    const box = [...min, ...max].map((v) => v * 8).join(',');
    const changed = await call(t.url, 'PATCH', ds(hemi.id), { token: owner.accessToken, body: { voxel_size: [4, 4, 4] } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const published = await get(`${ds(hemi.id)}/synapses?bbox=${box}&unit=nm&limit=1&version=v1`, owner.accessToken);
    expect(published.body.total).toBe(inBox(8));
    // The draft (its rows copied from v1) reads its voxels as 4 nm: the same box in nm holds other synapses.
    const draft = await get(`${ds(hemi.id)}/synapses?bbox=${box}&unit=nm&limit=1&version=draft`, owner.accessToken);
    expect(draft.body).toMatchObject({ draft: true, total: inBox(4) });
    expect(inBox(4)).not.toBe(inBox(8));
    expect((await get(`${ds(hemi.id)}/synapses?version=draft`)).status).toBe(404);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const tooMany = `neuron=${Array.from({ length: 1001 }, (_, i) => `n${i}`).join(',')}`;
    for (const [path, says] of [
      ['synapses?bbox=0,0,0,1,1,1', /unit: required with bbox/],
      ['synapses.arrow?bbox=0,0,0,1,1,1', /unit: required with bbox/],
      ['synapses?unit=nm', /unit: only with bbox/],
      ['synapses?bbox=0,0,0,1,1&unit=nm', /bbox: six numbers/],
      ['synapses?bbox=a,0,0,1,1,1&unit=nm', /bbox: six numbers/],
      ['synapses?bbox=0,0,0,1,1,1&unit=parsec', /unit/],
      ['synapses?roi=NOPE', /roi: "NOPE" is not an ROI of this version; known ROIs include/],
      ['synapses.arrow?roi=NOPE', /known ROIs include/],
      ['synapses?after=xyz', /after: not a cursor/],
      ['synapses?roi=PB(R6)', /inside the primary ROI PB/],
      ['synapses?limit=1001', /limit/],
      ['synapses?limit=0', /limit/],
      ['synapses?min_confidence=high', /min_confidence/],
      [`synapses?${tooMany}`, /neuron: at most 1000 values/],
      ['synapses?format=csv', /format/],
      ['connections?group_by=neuron', /group_by/],
      ['connections?roi=NOPE', /known ROIs include/],
    ] as const) {
      const r = await get(`${ds(hemi.id)}/${path}`);
      expect(r.status, path.slice(0, 60)).toBe(400);
      expect(r.body.error, path.slice(0, 60)).toMatch(says);
    }
    // A box in voxels needs the voxel size of a dataset stored in nm.
    const r = await get(`${ds(bare.id)}/synapses?bbox=0,0,0,1,1,1&unit=voxel`);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/voxel_size/);
    expect((await get(`${ds(bare.id)}/synapses?bbox=0,0,0,1,1,1&unit=um`)).body.total).toBe(0);
  });
});
