import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ColumnStore } from '../../../lib/column/column.js';
import { ch, ident } from '../../../lib/column/sql.js';
import type { DataStore } from '../store/data.store.js';
import {
  expectedConnections,
  expectedNeuronRois,
  expectedNeuronRoisFromConnections,
  expectedRoiConnections,
  FLYWIRE_ID,
  HEMIBRAIN_BODIES,
  hemibrainSynapses,
  pairedSynapses,
  synapseTsvRows,
} from './synapse-rows.js';

/** A tiny TabSeparated encoder (the suite's), passed in to keep one. */
type Tsv = (rows: readonly (readonly unknown[])[]) => string;

/** The rows every synapse-level table holds for a version with none (what rowCounts adds to the cell tables). */
export const NO_SYNAPSE_ROWS = { synapses: 0, roiConnections: 0, neuronAnnotations: 0, rois: 0, neuronRois: 0 } as const;

/** Reads a derived table of a version back in its key's order (the store's read side is not what is tested here). */
export async function derivedRows(column: ColumnStore, datasetId: string, version: number) {
  const where = ch`dataset_id = ${datasetId} AND version = toUInt32(${version})`;
  const read = <T>(q: ReturnType<typeof ch>) => column.query<T>(q, { name: 'test.derived' });
  const roi = await read<{ pre: string; post: string; roi: string; weight: number; transmitter: string }>(
    ch`SELECT pre, post, roi, weight, transmitter FROM roi_connections WHERE ${where} ORDER BY pre, post, roi`,
  );
  // Its copy in ROI order holds the same rows, in every test that reads the derived tables.
  const byRoi = await read<typeof roi[number]>(ch`SELECT pre, post, roi, weight, transmitter FROM roi_connections_by_roi WHERE ${where} ORDER BY pre, post, roi`);
  expect(byRoi).toEqual(roi);
  const connections = await read<{ pre: string; post: string; synapse_type: string; weight: number }>(
    ch`SELECT pre, post, toString(synapse_type) AS synapse_type, weight FROM connections WHERE ${where} ORDER BY pre, post`,
  );
  const neuronRois = await read<{ neuron_id: string; roi: string; pre: number; post: number; upstream: number; downstream: number | null }>(
    ch`SELECT neuron_id, roi, pre, post, upstream, downstream FROM neuron_rois WHERE ${where} ORDER BY neuron_id, roi`,
  );
  const byPost = await read<{ post: string; pre: string; synapse_id: string; x: number; roi: string; confidence: number | null }>(
    ch`SELECT post, pre, synapse_id, x, roi, confidence FROM synapses_by_post WHERE ${where} ORDER BY post, pre, synapse_id`,
  );
  return {
    roiConnections: roi.map((r) => ({ pre: r.pre, post: r.post, roi: r.roi, weight: Number(r.weight), transmitter: r.transmitter })),
    connections: connections.map((r) => ({ pre: r.pre, post: r.post, synapseType: r.synapse_type, weight: Number(r.weight) })),
    neuronRois: neuronRois.map((r) => ({
      neuronId: r.neuron_id,
      roi: r.roi,
      pre: Number(r.pre),
      post: Number(r.post),
      upstream: Number(r.upstream),
      downstream: r.downstream === null ? null : Number(r.downstream),
    })),
    byPost,
  };
}

/** Two real hemibrain neurons' synapses (points without partners) and a few hand-made pairs, as one version. */
export async function insertSynapseVersion(store: DataStore, tsv: Tsv, datasetId: string, version: number) {
  const rows = [...HEMIBRAIN_BODIES.flatMap(hemibrainSynapses), ...pairedSynapses()];
  // Two chunks, as an ingest hands part files over.
  const encoded = synapseTsvRows(datasetId, version, rows);
  await store.insertTsv('synapses', [tsv(encoded.slice(0, 4000)), tsv(encoded.slice(4000))]);
  return rows;
}

/** The synapse-level half of the DataStore contract: the derive step, its checks and the tables' version lifecycle. */
export function synapseTablesSuite(deps: { store: () => DataStore; column: () => ColumnStore; tsv: Tsv; neuronRow: (d: string, v: number, id: string) => unknown[] }) {
  describe('synapse-level tables', () => {
    it('derives per-ROI connections, per-neuron ROI counts, connections and the by-post copy from synapses, as counted from the rows', async () => {
      const store = deps.store();
      const d = randomUUID();
      const rows = await insertSynapseVersion(store, deps.tsv, d, 1);
      await store.insertTsv('neurons', [deps.tsv(HEMIBRAIN_BODIES.map((b) => deps.neuronRow(d, 1, b)))]);
      // FLYWIRE_ID has synapses but is no neuron of the version: its pairs stay out of the derived tables.
      const neurons = new Set<string>(HEMIBRAIN_BODIES);

      const perRoi = expectedRoiConnections(rows, neurons);
      const pairs = expectedConnections(perRoi, neurons);
      const counts = await store.deriveSynapseTables({ datasetId: d, version: 1 });
      expect(counts).toEqual({ synapses: rows.length, roiConnections: perRoi.length, connections: pairs.length, neuronRois: expectedNeuronRois(rows, neurons).length });

      const got = await derivedRows(deps.column(), d, 1);
      expect(got.roiConnections).toEqual(perRoi);
      // The transmitter rules, spelled out: the most frequent wins, a tie goes to the name first in byte order.
      const [a, b] = HEMIBRAIN_BODIES;
      expect(got.roiConnections.filter((r) => r.pre === a && r.post === b).map((r) => [r.roi, r.weight, r.transmitter])).toEqual([
        ['', 1, ''],
        ['CA(R)', 2, 'gaba'],
        ['LH(R)', 4, 'ach'],
      ]);
      expect(got.connections).toEqual(pairs.map((p) => ({ ...p, synapseType: 'chemical' })));
      expect(got.connections.find((c) => c.pre === a && c.post === b)?.weight).toBe(7);

      const neuronRois = expectedNeuronRois(rows, neurons);
      expect(got.neuronRois).toEqual(neuronRois);
      // The bodies' T-bars have no partner: their outputs are unknown. The FlyWire-sized id's are all paired.
      expect(got.neuronRois.filter((r) => r.neuronId === a).every((r) => r.downstream === null)).toBe(true);
      expect(got.neuronRois.filter((r) => r.neuronId === FLYWIRE_ID)).toEqual([]);
      expect(got.roiConnections.some((r) => r.pre === FLYWIRE_ID || r.post === FLYWIRE_ID)).toBe(false);
      // Per-ROI counts of a real neuron, counted from its file alone (the hand-made rows added on top).
      const fileRows = hemibrainSynapses(a);
      const inAl = got.neuronRois.find((r) => r.neuronId === a && r.roi === 'AL(R)');
      expect(inAl?.post).toBe(fileRows.filter((s) => s.post === a && s.roi === 'AL(R)').length);
      expect(inAl?.pre).toBe(fileRows.filter((s) => s.pre === a && s.roi === 'AL(R)').length);

      expect(got.byPost).toHaveLength(rows.length);
      const keyed = [...rows].sort((x, y) => (x.post + '\u0000' + x.pre + '\u0000' + x.synapseId < y.post + '\u0000' + y.pre + '\u0000' + y.synapseId ? -1 : 1));
      expect(got.byPost.map((r) => r.synapse_id)).toEqual(keyed.map((s) => s.synapseId));

      expect(await store.synapseSummary({ datasetId: d, version: 1 })).toEqual({
        synapses: rows.length,
        withBothPartners: rows.filter((s) => s.pre && s.post).length,
        pointsOnly: rows.filter((s) => !s.pre || !s.post).length,
        partnersNotNeurons: 1,
        neurons: 3,
        rois: new Set(rows.map((s) => s.roi).filter(Boolean)).size,
      });
      expect(await store.checkSynapseIds({ datasetId: d, version: 1 })).toBeNull();
      expect(await store.rowCounts(d, 1)).toMatchObject({ synapses: rows.length, roiConnections: perRoi.length, neuronRois: neuronRois.length, connections: pairs.length });

      // A second derive replaces what the first wrote.
      expect(await store.deriveSynapseTables({ datasetId: d, version: 1 })).toEqual(counts);
      expect(await derivedRows(deps.column(), d, 1)).toEqual(got);
    });

    it('leaves each table of a derived version in one part (per shard), whatever number of inserts wrote it', async () => {
      const store = deps.store();
      const column = deps.column();
      const d = randomUUID();
      const rows = [...HEMIBRAIN_BODIES.flatMap(hemibrainSynapses), ...pairedSynapses()];
      const encoded = synapseTsvRows(d, 1, rows);
      // Three inserts, as three part files of an upload make three parts at least.
      for (const slice of [encoded.slice(0, 3000), encoded.slice(3000, 6000), encoded.slice(6000)]) await store.insertTsv('synapses', [deps.tsv(slice)]);
      await store.insertTsv('neurons', [deps.tsv(HEMIBRAIN_BODIES.map((b) => deps.neuronRow(d, 1, b)))]);
      // The parts this node holds: on a cluster, the shard tables behind the Distributed ones.
      const parts = async (table: string) => {
        const local = column.cluster ? `${table}_local` : table;
        const [r] = await column.query<{ n: number | string }>(ch`SELECT uniqExact(_part) AS n FROM ${ident(local)} WHERE dataset_id = ${d} AND version = toUInt32(1)`, { name: 'test.parts' });
        return Number(r.n);
      };
      const before = await parts('synapses');
      if (!column.cluster) expect(before).toBeGreaterThan(1);
      await store.deriveSynapseTables({ datasetId: d, version: 1 });
      // On a cluster this node's shard may hold none of a small table's rows: one part at most.
      for (const table of ['synapses', 'synapses_by_post', 'roi_connections', 'roi_connections_by_roi', 'neuron_rois', 'connections']) {
        const n = await parts(table);
        expect({ table, parts: n }).toEqual({ table, parts: column.cluster && n === 0 ? 0 : 1 });
      }
      expect(await store.rowCounts(d, 1)).toMatchObject({ synapses: rows.length });
    });

    it('copies and drops a version with every synapse-level table', async () => {
      const store = deps.store();
      const d = randomUUID();
      await insertSynapseVersion(store, deps.tsv, d, 1);
      await store.insertTsv('neuron_annotations', [deps.tsv([[d, 1, HEMIBRAIN_BODIES[0], 'DA1_lPN_R', 'DA1_lPN', '', '', '', '', 'R', 'Traced', '', null, null, null, null, '{}']])]);
      await store.insertTsv('rois', [deps.tsv([[d, 1, 'AL(R)', 'AL', 1, 'antennal lobe', ''], [d, 1, 'AL', '', 0, '', '']])]);
      await store.deriveSynapseTables({ datasetId: d, version: 1 });
      const v1 = await store.rowCounts(d, 1);
      expect(v1).toMatchObject({ neuronAnnotations: 1, rois: 2 });

      await store.copyVersion(d, 1, 2);
      expect(await store.rowCounts(d, 2)).toEqual(v1);
      expect(await derivedRows(deps.column(), d, 2)).toEqual(await derivedRows(deps.column(), d, 1));
      const byPost = await deps.column().query<{ n: number }>(ch`SELECT count() AS n FROM synapses_by_post WHERE dataset_id = ${d} AND version = toUInt32(2)`, { name: 'test.byPost' });
      expect(Number(byPost[0].n)).toBe(v1.synapses);

      await store.dropVersion(d, 1);
      expect(await store.rowCounts(d, 1)).toEqual({ neurons: 0, connections: 0, chemicalConnections: 0, electricalConnections: 0, morphologies: 0, ...NO_SYNAPSE_ROWS });
      expect(await store.rowCounts(d, 2)).toEqual(v1);
      const left = await deps.column().query<{ n: number }>(ch`SELECT count() AS n FROM synapses_by_post WHERE dataset_id = ${d} AND version = toUInt32(1)`, { name: 'test.byPost' });
      expect(Number(left[0].n)).toBe(0);
    });

    it('finds a synapse id used twice in a version, across the part files of an upload', async () => {
      const store = deps.store();
      const d = randomUUID();
      const rows = pairedSynapses();
      await store.insertTsv('synapses', [deps.tsv(synapseTsvRows(d, 1, rows))]);
      // Another version's ids are no duplicates of this one's; empty ids are never compared.
      await store.insertTsv('synapses', [deps.tsv(synapseTsvRows(d, 2, rows))]);
      await store.insertTsv('synapses', [deps.tsv(synapseTsvRows(d, 1, [{ ...rows[0], synapseId: '' }, { ...rows[1], synapseId: '' }]))]);
      expect(await store.checkSynapseIds({ datasetId: d, version: 1 })).toBeNull();
      await store.insertTsv('synapses', [deps.tsv(synapseTsvRows(d, 1, [rows[7], rows[3]]))]);
      expect(await store.checkSynapseIds({ datasetId: d, version: 1 })).toBe(rows[3].synapseId);
    });

    it('derives connections and per-neuron ROI counts of a version that has only per-ROI connections', async () => {
      const store = deps.store();
      const d = randomUUID();
      const perRoi = [
        { pre: FLYWIRE_ID, post: '720575940630000001', roi: 'GNG', weight: 12, transmitter: 'ach' },
        { pre: FLYWIRE_ID, post: '720575940630000001', roi: 'SAD', weight: 3, transmitter: 'ach' },
        { pre: FLYWIRE_ID, post: '720575940630000002', roi: 'GNG', weight: 5, transmitter: 'gaba' },
        { pre: '720575940630000002', post: FLYWIRE_ID, roi: 'GNG', weight: 7, transmitter: '' },
        { pre: '720575940630000002', post: '720575940630000002', roi: '', weight: 1, transmitter: '' },
      ];
      await store.insertTsv('roi_connections', [deps.tsv(perRoi.map((r) => [d, 3, r.pre, r.post, r.roi, r.weight, r.transmitter]))]);
      // Every id but one is a neuron of the version: the rows naming that one stay per-ROI only.
      const neurons = new Set([FLYWIRE_ID, '720575940630000002']);
      await store.insertTsv('neurons', [deps.tsv([...neurons].map((id) => deps.neuronRow(d, 3, id)))]);
      // What an earlier upload left is replaced.
      await store.insertTsv('connections', [deps.tsv([[d, 3, 'stale', 'stale', 'chemical', 1]])]);
      expect(await store.deriveFromRoiConnections({ datasetId: d, version: 3 })).toEqual({
        synapses: 0,
        roiConnections: perRoi.length,
        connections: 3,
        neuronRois: expectedNeuronRoisFromConnections(perRoi, neurons).length,
      });
      const got = await derivedRows(deps.column(), d, 3);
      expect(got.connections).toEqual(expectedConnections(perRoi, neurons).map((p) => ({ ...p, synapseType: 'chemical' })));
      expect(got.connections[0]).toEqual({ pre: FLYWIRE_ID, post: '720575940630000002', synapseType: 'chemical', weight: 5 });
      expect(got.neuronRois).toEqual(expectedNeuronRoisFromConnections(perRoi, neurons));
      expect(got.roiConnections).toEqual(perRoi);
    });

    it('keeps per-ROI connections from a file when the synapses have no pairs, and derives connections from them', async () => {
      const store = deps.store();
      const d = randomUUID();
      const points = hemibrainSynapses(HEMIBRAIN_BODIES[1]);
      await store.insertTsv('synapses', [deps.tsv(synapseTsvRows(d, 1, points))]);
      const perRoi = [{ pre: HEMIBRAIN_BODIES[1], post: HEMIBRAIN_BODIES[0], roi: 'LH(R)', weight: 4, transmitter: 'ach' }];
      await store.insertTsv('roi_connections', [deps.tsv(perRoi.map((r) => [d, 1, r.pre, r.post, r.roi, r.weight, r.transmitter]))]);
      const neurons = new Set<string>(HEMIBRAIN_BODIES);
      await store.insertTsv('neurons', [deps.tsv(HEMIBRAIN_BODIES.map((b) => deps.neuronRow(d, 1, b)))]);
      expect(await store.deriveSynapseTables({ datasetId: d, version: 1 })).toEqual({
        synapses: points.length,
        roiConnections: 1,
        connections: 1,
        neuronRois: expectedNeuronRois(points, neurons).length,
      });
      const got = await derivedRows(deps.column(), d, 1);
      expect(got.roiConnections).toEqual(perRoi);
      expect(got.neuronRois).toEqual(expectedNeuronRois(points, neurons));
      expect(await store.synapseSummary({ datasetId: d, version: 1 })).toMatchObject({ withBothPartners: 0, pointsOnly: points.length, neurons: 1, partnersNotNeurons: 0 });
    });

    it('stops a derive whose signal was aborted before it wrote anything', async () => {
      const store = deps.store();
      const d = randomUUID();
      await store.insertTsv('synapses', [deps.tsv(synapseTsvRows(d, 1, pairedSynapses()))]);
      const abort = new AbortController();
      abort.abort(new Error('the job was cancelled'));
      await expect(store.deriveSynapseTables({ datasetId: d, version: 1 }, { signal: abort.signal })).rejects.toMatchObject({ extensions: { code: 'TIMEOUT' } });
      expect((await store.rowCounts(d, 1)).roiConnections).toBe(0);
    });
  });
}
