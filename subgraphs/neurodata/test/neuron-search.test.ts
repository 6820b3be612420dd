import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../../lib/package-root.js';
import { call, startTestApp, type TestApp } from '../../../test/kit/app.js';
import { createConnectome, createDataset, createTinyDataset } from '../../../test/kit/datasets.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';

/**
 * Neurons by criteria, as a neuPrint user asks for them: FlyWire annotations (a subset of v783 with its GNG
 * per-neuropil connections) and four hemibrain DA1 lPNs with their synapse points and neuPrint's ROI hierarchy.
 * Every expected answer is pandas' (fixtures/neuron-search/make_reference.py, on the same files).
 */

const SEED = packagePath('seed', 'synapse-level');
const FIXTURE = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'neuron-search', 'reference.json');
const BODIES = ['722817260', '754534424', '1734350788', '1734350908'];
/** The rule of make_reference.py: the GNG sample's neurons and the first rows of the classification table. */
const FIRST_ROWS = 1500;
const FLY_METADATA = { species: ['Drosophila melanogaster'], brain_regions: ['adult brain'], microscopy: ['focussed ion beam scanning electron microscopy (FIB-SEM)'] };

interface Case {
  dataset: 'flywire' | 'hemibrain';
  name: string;
  criteria: Record<string, unknown>;
  ids: string[];
}
interface Reference {
  flywire_ids: string[];
  flywire_fields: Record<string, { neurons: number; distinct: number }>;
  flywire_extra_fields: string[];
  flywire_top_types: { value: string; count: number }[];
  flywire_roi_counts: Record<string, Record<string, { pre: number; post: number }>>;
  cases: Case[];
  adjacencies: { name: string; input: Record<string, unknown>; rows: [string, string, string | null, number][] }[];
  common_partners: { criteria: Record<string, unknown>; direction: string; min_weight: number; partners: [string, number][] }[];
  by_field: { input: Record<string, unknown>; rows: [string, string, number, number][] }[];
  worm_by_field: { input: Record<string, unknown>; rows: [string, string, number, number][] }[];
}

/** The lines of a CSV whose first column is one of `ids`, with the header. */
function rowsOf(text: string, ids: Set<string>): string {
  const [header, ...lines] = text.trim().split('\n');
  return [header, ...lines.filter((l) => ids.has(l.slice(0, l.indexOf(','))))].join('\n') + '\n';
}

/** Text order by code point, as the service pages (JavaScript's default sort compares UTF-16 units: the same for these ids). */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('neurons by criteria', () => {
  let t: TestApp;
  let owner: TestUser, reader: TestUser, regular: TestUser;
  let reference: Reference;
  const datasets: Record<Case['dataset'], { id: string; slug: string }> = {} as never;
  let worm: { id: string; slug: string };
  let varshney: { id: string; slug: string };
  const ds = (id: string) => `/v1/neurodata/datasets/${id}`;
  const upload = (id: string, filename: string, body: Buffer | string) =>
    call(t.url, 'POST', `${ds(id)}/assets?filename=${encodeURIComponent(filename)}`, { token: owner.accessToken, body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'content-type': 'application/octet-stream' } });
  const ok = async <T extends { status: number; body: any }>(res: Promise<T>, status: number, what: string): Promise<T> => {
    const r = await res;
    if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`);
    return r;
  };
  const search = (id: string, body: Record<string, unknown>, token = reader.accessToken) => call(t.url, 'POST', `${ds(id)}/neurons/search`, { token, body });
  /** Every match, page after page. */
  async function allMatches(id: string, criteria: Record<string, unknown>, limit = 1000): Promise<{ ids: string[]; totals: number[]; pages: any[] }> {
    const ids: string[] = [];
    const totals: number[] = [];
    const pages: any[] = [];
    let after: string | null = null;
    do {
      const res: { body: any } = await ok(search(id, { criteria, limit, ...(after ? { after } : {}) }), 200, `search ${JSON.stringify(criteria)}`);
      pages.push(res.body);
      ids.push(...res.body.items.map((n: { neuron_id: string }) => n.neuron_id));
      totals.push(res.body.total);
      after = res.body.next;
    } while (after);
    return { ids, totals, pages };
  }

  beforeAll(async () => {
    reference = JSON.parse(await readFile(FIXTURE, 'utf8'));
    t = await startTestApp({ RATE_LIMIT_BURST: '100000', RATE_LIMIT_REFILL_PER_SEC: '100000' }, { listen: true });
    [owner, reader, regular] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'REGULAR' })]);

    const fly = await createDataset(t, owner, { title: 'FlyWire v783, a subset', ...FLY_METADATA, license: 'CC-BY-NC-4.0', coordinate_unit: 'nm', visibility: 'public' });
    const classification = gunzipSync(await readFile(path.join(SEED, 'flywire_783', 'classification.csv.gz'))).toString('utf8');
    const gng = await readFile(path.join(SEED, 'flywire_783', 'codex_connections_GNG_sample.csv'), 'utf8');
    const ids = new Set(classification.trim().split('\n').slice(1, FIRST_ROWS + 1).map((l) => l.slice(0, l.indexOf(','))));
    for (const line of gng.trim().split('\n').slice(1)) for (const id of line.split(',').slice(0, 2)) ids.add(id);
    await ok(upload(fly.id, 'rois.csv', await readFile(path.join(SEED, 'rois', 'flywire_783_neuropils.csv'))), 201, 'neuropils');
    await ok(upload(fly.id, 'classification.csv', rowsOf(classification, ids)), 201, 'classification');
    await ok(upload(fly.id, 'neurons.csv', rowsOf(gunzipSync(await readFile(path.join(SEED, 'flywire_783', 'neurons.csv.gz'))).toString('utf8'), ids)), 201, 'transmitters');
    await ok(upload(fly.id, 'connections_gng.csv', gng), 201, 'connections');
    await ok(call(t.url, 'POST', `${ds(fly.id)}/publish`, { token: owner.accessToken }), 201, 'publish FlyWire');
    datasets.flywire = fly;

    const hb = await createDataset(t, owner, { title: 'Four DA1 lateral projection neurons', ...FLY_METADATA, coordinate_unit: 'voxel', voxel_size: [8, 8, 8], visibility: 'public' });
    await ok(upload(hb.id, 'rois.json', await readFile(path.join(SEED, 'rois', 'hemibrain_roi_info.json'))), 201, 'rois.json');
    const meta = JSON.parse(await readFile(path.join(SEED, 'hemibrain_da1_lpn', 'meta.json'), 'utf8')) as Record<string, Record<string, string>>;
    await ok(upload(hb.id, 'neurons.csv', ['bodyId,instance,type,status,cellBodyFiber', ...Object.entries(meta).map(([id, m]) => `${id},${m.instance},${m.type},${m.status},${m.cellBodyFiber}`)].join('\n')), 201, 'neurons.csv');
    for (const body of BODIES) await ok(upload(hb.id, `synapses_${body}.csv`, await readFile(path.join(SEED, 'hemibrain_da1_lpn', `${body}.csv`))), 201, `synapses of ${body}`);
    await ok(call(t.url, 'POST', `${ds(hb.id)}/publish`, { token: owner.accessToken }), 201, 'publish hemibrain');
    datasets.hemibrain = hb;

    worm = await createTinyDataset(t, owner, { visibility: 'public' });
    varshney = await createConnectome(t, owner);
  }, 300_000);
  afterAll(async () => t?.close());

  it('answers each criteria set with the neurons pandas finds in the same files, in id order, with their total', async () => {
    for (const c of reference.cases) {
      const got = await allMatches(datasets[c.dataset].id, c.criteria);
      expect(got.ids, `${c.dataset}: ${c.name}`).toEqual([...c.ids].sort(byCodePoint));
      expect(new Set(got.totals), `${c.dataset}: ${c.name}`).toEqual(new Set([c.ids.length]));
    }
  });

  it('pages by keyset: every neuron exactly once, truncated on every page but the last', async () => {
    const got = await allMatches(datasets.flywire.id, {}, 250);
    expect(got.ids).toEqual([...reference.flywire_ids].sort(byCodePoint));
    expect(got.pages.map((p) => p.truncated)).toEqual(got.pages.map((_, i) => i < got.pages.length - 1));
    expect(got.pages.every((p) => p.limit === 250 && p.total === reference.flywire_ids.length)).toBe(true);
  });

  it('answers each neuron in full, as GET .../neurons/{id} does, with exact root ids and per-neuropil counts', async () => {
    const [id, counts] = Object.entries(reference.flywire_roi_counts).find(([n]) => reference.flywire_ids.includes(n))!;
    expect(BigInt(id) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    const res = await ok(search(datasets.flywire.id, { criteria: { ids: [id] } }), 200, 'one id');
    expect(res.body.items).toHaveLength(1);
    const one = await ok(call(t.url, 'GET', `${ds(datasets.flywire.id)}/neurons/${id}`, { token: reader.accessToken }), 200, 'the neuron');
    expect(res.body.items[0]).toEqual(one.body);
    expect(res.body.items[0].neuron_id).toBe(id);
    expect(Object.fromEntries(res.body.items[0].rois.map((r: { roi: string; pre: number; post: number }) => [r.roi, { pre: r.pre, post: r.post }]))).toEqual(counts);
  });

  it('takes a long id list in the body, up to the values one operation may send', async () => {
    // GRAPHQL_MAX_LIST_VALUES (20,000 by default) bounds every operation's list values; the Python client splits longer lists.
    const ids = [...reference.flywire_ids, ...Array.from({ length: 18_000 }, (_, i) => String(9_000_000_000_000_000_000n + BigInt(i)))];
    const res = await ok(search(datasets.flywire.id, { criteria: { ids }, limit: 1 }), 200, 'long list');
    expect(res.body.total).toBe(reference.flywire_ids.length);
  });

  it('streams every match as Arrow, the neurons with their totals and their per-ROI counts', async () => {
    const c = reference.cases.find((x) => x.dataset === 'flywire' && x.name === 'inputs in a neuropil')!;
    const arrow = async (query: string) => {
      const res = await fetch(`${t.url}${ds(datasets.flywire.id)}/neurons/search${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${reader.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ criteria: c.criteria }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/vnd.apache.arrow.stream');
      return tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    };
    const neurons = await arrow('?format=arrow');
    expect(neurons.getChild('neuron_id')!.toArray()).toEqual([...c.ids].sort(byCodePoint));
    expect(neurons.schema.fields.map((f) => f.name)).toEqual([
      'neuron_id', 'instance', 'type', 'class', 'super_class', 'sub_class', 'hemilineage', 'side', 'status', 'transmitter', 'transmitter_confidence', 'soma_x', 'soma_y', 'soma_z', 'extra', 'pre', 'post',
    ]);
    const post = neurons.getChild('post')!.toArray() as BigInt64Array;
    c.ids.forEach((id) => {
      const row = [...c.ids].sort(byCodePoint).indexOf(id);
      expect(Number(post[row])).toBe(Object.values(reference.flywire_roi_counts[id]).reduce((s, v) => s + v.post, 0));
    });
    const rois = await arrow('.arrow?part=roi_counts');
    const expected = c.ids.flatMap((id) => Object.entries(reference.flywire_roi_counts[id]).map(([roi, v]) => `${id} ${roi} ${v.pre} ${v.post}`)).sort();
    const got = Array.from({ length: rois.numRows }, (_, i) => {
      const r = rois.get(i)!;
      return `${r.neuron_id} ${r.roi} ${r.pre} ${r.post}`;
    }).sort();
    expect(got).toEqual(expected);
  });

  it('lists the fields a version can be searched by, from its own annotations, with counts and the commonest values', async () => {
    const res = await ok(call(t.url, 'GET', `${ds(datasets.flywire.id)}/neurons/fields`, { token: reader.accessToken }), 200, 'fields');
    expect(res.body).toMatchObject({ annotated: true, roi_counts: true });
    const byName = new Map(res.body.items.map((f: { field: string }) => [f.field, f]));
    expect([...byName.keys()].sort()).toEqual(Object.keys(reference.flywire_fields).sort());
    for (const [name, want] of Object.entries(reference.flywire_fields)) expect(byName.get(name), name).toMatchObject(want);
    expect((byName.get('flow') as { source: string }).source).toBe('extra');
    expect((byName.get('type') as { top: unknown }).top).toEqual(reference.flywire_top_types);
    const cells = await ok(call(t.url, 'GET', `${ds(worm.id)}/neurons/fields`, { token: reader.accessToken }), 200, 'cell fields');
    expect(cells.body).toMatchObject({ annotated: false, roi_counts: false });
    expect(cells.body.items.map((f: { field: string }) => f.field)).toEqual(['name', 'cell_class', 'cell_type', 'neurotransmitter', 'region']);
    const bc = await ok(search(worm.id, { criteria: { where: [{ field: 'cell_class', values: ['A', 'C'] }] } }), 200, 'by class');
    expect(bc.body.items.map((n: { neuron_id: string }) => n.neuron_id)).toEqual(['A1', 'C1']);
  });

  it('refuses bad criteria with a 400 naming the field, before reading anything it cannot answer', async () => {
    const fly = datasets.flywire.id;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ where: [{ field: 'not_a_field', values: ['x'] }] }, /criteria\.where\[0\]\.field: "not_a_field" is not a field.*super_class/],
      [{ where: [{ field: 'type', regex: 'T4(' }] }, /criteria\.where\[0\]\.regex/],
      [{ where: [{ field: 'type', values: ['T4a'], regex: 'T4.*' }] }, /criteria\.where\[0\]: give values or regex, not both/],
      [{ input_rois: ['NOT_AN_ROI'] }, /roi: "NOT_AN_ROI" is not an ROI/],
      [{ soma_bbox: '0,0,0,1,1,1' }, /criteria\.unit: required with soma_bbox/],
      [{ soma_bbox: '0,0,0,1,1,1', unit: 'parsec' }, /unit: "parsec" is not one of/],
      [{ roi_req: 'most' }, /criteria\.roi_req: all or any/],
      [{ min_pre: -1 }, /criteria\.min_pre/],
    ];
    for (const [criteria, message] of cases) {
      const res = await search(fly, { criteria });
      expect(res.status, JSON.stringify(criteria)).toBe(400);
      expect(res.body.error, JSON.stringify(criteria)).toMatch(message);
    }
    const noCounts = await search(worm.id, { criteria: { rois: ['nerve ring'] } });
    expect(noCounts.status).toBe(400);
    expect(noCounts.body.error).toMatch(/per-ROI synapse counts/);
    const unknownCell = await search(worm.id, { criteria: { where: [{ field: 'type', values: ['x'] }] } });
    expect(unknownCell.body.error).toMatch(/its fields are name, cell_class, cell_type, neurotransmitter, region/);
    const badLimit = await search(fly, { limit: 5000 });
    expect(badLimit.status).toBe(400);
    const badCursor = await search(fly, { after: 'bm90IGEgY3Vyc29y' });
    expect(badCursor.status).toBe(400);
  });

  it('answers the connections between two criteria sets as pandas sums the per-neuropil file, paged and as Arrow', async () => {
    const fly = datasets.flywire.id;
    for (const a of reference.adjacencies) {
      const rows: [string, string, string | null, number][] = [];
      let after: string | null = null;
      let total = -1;
      do {
        const res: { body: any } = await ok(call(t.url, 'POST', `${ds(fly)}/connectivity/adjacency`, { token: reader.accessToken, body: { ...a.input, limit: 20, ...(after ? { after } : {}) } }), 200, a.name);
        rows.push(...res.body.items.map((r: { pre: string; post: string; roi: string | null; weight: number }) => [r.pre, r.post, r.roi, r.weight] as [string, string, string | null, number]));
        total = res.body.total;
        expect(res.body.total_weight, a.name).toBe(a.rows.reduce((sum, r) => sum + r[3], 0));
        after = res.body.next;
      } while (after);
      expect(rows, a.name).toEqual(a.rows.map((r) => [r[0], r[1], r[2], r[3]]));
      expect(total, a.name).toBe(a.rows.length);
    }
    const every = reference.adjacencies.find((a) => a.name === 'sensory neurons to anyone')!;
    const res = await fetch(`${t.url}${ds(fly)}/connectivity/adjacency.arrow`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reader.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(every.input),
    });
    expect(res.status).toBe(200);
    const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    expect(Array.from({ length: table.numRows }, (_, i) => { const r = table.get(i)!; return [r.pre, r.post, r.roi, r.weight]; })).toEqual(every.rows);
  });

  it("adds up each pair's per-ROI rows to its weight in the connections every other route reads", async () => {
    const fly = datasets.flywire.id;
    const perRoi = await ok(call(t.url, 'POST', `${ds(fly)}/connectivity/adjacency`, { token: reader.accessToken, body: { limit: 1000 } }), 200, 'per ROI');
    const sums = new Map<string, number>();
    for (const r of perRoi.body.items as { pre: string; post: string; weight: number }[]) sums.set(`${r.pre}>${r.post}`, (sums.get(`${r.pre}>${r.post}`) ?? 0) + r.weight);
    const pairs = await ok(call(t.url, 'GET', `${ds(fly)}/connections?limit=1000`, { token: reader.accessToken }), 200, 'connections');
    expect(pairs.body.items.length).toBeGreaterThan(40);
    for (const c of pairs.body.items as { pre: string; post: string; weight: number }[]) expect(sums.get(`${c.pre}>${c.post}`)).toBe(c.weight);
  });

  it('refuses a bad adjacency with a 400 naming the side and field', async () => {
    const fly = datasets.flywire.id;
    const bad = async (body: Record<string, unknown>, message: RegExp) => {
      const res = await call(t.url, 'POST', `${ds(fly)}/connectivity/adjacency`, { token: reader.accessToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toMatch(message);
    };
    await bad({ targets: { where: [{ field: 'nope', values: ['x'] }] } }, /^targets\.where\[0\]\.field/);
    await bad({ sources: { roi_req: 'most' } }, /^sources\.roi_req/);
    await bad({ rois: ['NOT_AN_ROI'] }, /NOT_AN_ROI/);
    await bad({ min_total_weight: -1 }, /min_total_weight/);
    await bad({ group_by_roi: false, min_roi_weight: 2 }, /min_roi_weight: only with group_by_roi/);
  });

  it('reads a version without per-ROI connections from its chemical connections, all outside every ROI', async () => {
    const worm_ = await ok(call(t.url, 'POST', `${ds(worm.id)}/connectivity/adjacency`, { token: reader.accessToken, body: {} }), 200, 'worm');
    // The tiny connectome: A1->B1 (3) and B1->C1 (2) chemical, A1-C1 electrical (not a directed connection).
    expect(worm_.body.items).toEqual([
      { pre: 'A1', post: 'B1', roi: '', weight: 3 },
      { pre: 'B1', post: 'C1', roi: '', weight: 2 },
    ]);
    const common = await ok(call(t.url, 'POST', `${ds(worm.id)}/connectivity/common-partners`, { token: reader.accessToken, body: { criteria: { ids: ['B1'] }, direction: 'upstream' } }), 200, 'common');
    expect(common.body).toMatchObject({ members: 1, total: 1, items: [{ neuron_id: 'A1', weight: 3 }] });
    const noRois = await call(t.url, 'POST', `${ds(worm.id)}/connectivity/adjacency`, { token: reader.accessToken, body: { rois: ['nerve ring'] } });
    expect(noRois.status).toBe(400);
    expect(noRois.body.error).toMatch(/this version has no ROIs/);
    // Synapse points without partners: no connection is known.
    const points = await ok(call(t.url, 'POST', `${ds(datasets.hemibrain.id)}/connectivity/adjacency`, { token: reader.accessToken, body: {} }), 200, 'points');
    expect(points.body).toMatchObject({ total: 0, items: [], truncated: false });
  });

  it('finds the partners common to every neuron of a set, upstream and downstream, as pandas does', async () => {
    for (const c of reference.common_partners) {
      const what = `${c.direction} of ${JSON.stringify(c.criteria)} at ${c.min_weight}`;
      const res = await ok(call(t.url, 'POST', `${ds(datasets.flywire.id)}/connectivity/common-partners`, { token: reader.accessToken, body: { criteria: c.criteria, direction: c.direction, min_weight: c.min_weight, limit: 1 } }), 200, what);
      expect(res.body.members, what).toBe((c.criteria.ids as string[]).length);
      expect(res.body.total, what).toBe(c.partners.length);
      const all: [string, number][] = [];
      let after: string | null = null;
      do {
        const page: { body: any } = await ok(call(t.url, 'POST', `${ds(datasets.flywire.id)}/connectivity/common-partners`, { token: reader.accessToken, body: { criteria: c.criteria, direction: c.direction, min_weight: c.min_weight, limit: 1, ...(after ? { after } : {}) } }), 200, what);
        all.push(...page.body.items.map((p: { neuron_id: string; weight: number }) => [p.neuron_id, p.weight] as [string, number]));
        after = page.body.next;
      } while (after);
      expect(all, what).toEqual(c.partners);
    }
    const bad = await call(t.url, 'POST', `${ds(datasets.flywire.id)}/connectivity/common-partners`, { token: reader.accessToken, body: { direction: 'sideways' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/direction: upstream or downstream/);
  });

  it('aggregates connectivity by a field on each side (type × type, class × class) as pandas groups the same files', async () => {
    const tables: [string, { input: Record<string, unknown>; rows: [string, string, number, number][] }[]][] = [
      [datasets.flywire.id, reference.by_field],
      [varshney.id, reference.worm_by_field],
    ];
    for (const [id, cases] of tables) {
      for (const c of cases) {
        const what = `${id}: ${JSON.stringify(c.input)}`;
        const rows: [string, string, number, number][] = [];
        let after: string | null = null;
        let total = -1;
        do {
          const res: { body: any } = await ok(call(t.url, 'POST', `${ds(id)}/connectivity/by-field`, { token: reader.accessToken, body: { ...c.input, limit: 1000, ...(after ? { after } : {}) } }), 200, what);
          rows.push(...res.body.items.map((r: { pre_value: string; post_value: string; weight: number; pairs: number }) => [r.pre_value, r.post_value, r.weight, r.pairs] as [string, string, number, number]));
          total = res.body.total;
          after = res.body.next;
        } while (after);
        expect(rows, what).toEqual(c.rows);
        expect(total, what).toBe(c.rows.length);
      }
    }
    const bad = await call(t.url, 'POST', `${ds(varshney.id)}/connectivity/by-field`, { token: reader.accessToken, body: { row_field: 'type' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^row_field: "type" is not a field.*cell_class/);
    const perRoi = await call(t.url, 'POST', `${ds(varshney.id)}/connectivity/by-field`, { token: reader.accessToken, body: { group_by_roi: true } });
    expect(perRoi.status).toBe(400);
  });

  it('keeps the data to Academic accounts, as every data read', async () => {
    expect((await search(datasets.flywire.id, {}, regular.accessToken)).status).toBe(403);
    expect((await call(t.url, 'POST', `${ds(datasets.flywire.id)}/neurons/search`, { body: {} })).status).toBe(401);
    expect((await call(t.url, 'GET', `${ds(datasets.flywire.id)}/neurons/fields`, { token: regular.accessToken })).status).toBe(403);
  });
});
