import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnStore } from '../../../lib/column/column.js';
import { ch, ident } from '../../../lib/column/sql.js';
import { BadInput } from '../../../lib/errors.js';
import { DATA_TABLES, type DataTable } from '../store/clickhouse/columns.js';
import { COLUMN_MIGRATIONS, migrateColumnTables } from '../store/clickhouse/migrations.js';
import { DataStore } from '../store/data.store.js';
import { NO_SYNAPSE_ROWS, synapseTablesSuite } from './data-store-synapses.suite.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A shipped connectome's seed folder. */
function connectomeDir(name: string): string {
  return path.join(ROOT, 'seed/connectomes', name);
}

/** A tiny TabSeparated encoder for fixtures: ClickHouse's escapes, \N for null, 1/0 for booleans. */
export function tsv(rows: readonly (readonly unknown[])[]): string {
  const field = (v: unknown) =>
    v === null || v === undefined
      ? '\\N'
      : typeof v === 'boolean'
        ? (v ? '1' : '0')
        : String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
  return rows.map((r) => `${r.map(field).join('\t')}\n`).join('');
}

export function neuronRow(datasetId: string, version: number, id: string, extra: Partial<{ name: string; x: number | null; isNeuron: boolean }> = {}) {
  return [datasetId, version, id, extra.name ?? id, id.slice(0, 3), 'interneuron', 'Glutamate', extra.isNeuron ?? true, 'NR', extra.x ?? null, null, null];
}

export function connectionRow(datasetId: string, version: number, pre: string, post: string, type: 'chemical' | 'electrical', weight: number) {
  return [datasetId, version, pre, post, type, weight];
}

function morphologyRow(datasetId: string, version: number, neuron: string, withSoma: boolean) {
  const soma = withSoma ? [1.5, 2.5, 3.5] : [null, null, null];
  return [datasetId, version, neuron, `${neuron}.swc`, `morphology/${neuron}.swc`, 'ab'.repeat(32), 120, withSoma ? 1 : 0, 3, 10, 13, 812.25, ...soma, -1, -2, -3, 4, 5, 6];
}

export interface SuiteTarget {
  /** Opens the store on a fresh, empty database. */
  open(): Promise<ColumnStore>;
  /** Removes what open() created. */
  cleanup(column: ColumnStore): Promise<void>;
}

/** The DataStore contract, run on chDB, on a ClickHouse server, and on a two-shard cluster. */
export function dataStoreSuite(label: string, target: SuiteTarget): { column: () => ColumnStore; store: () => DataStore } {
  let column: ColumnStore;
  let store: DataStore;

  beforeAll(async () => {
    column = await target.open();
    store = new DataStore(column);
  });
  afterAll(async () => {
    if (column) await target.cleanup(column);
  });

  describe(`${DataStore.name} on ${label}`, () => {
    it('creates the data tables once, adds the synapse-level tables to an install that has only the first ones, then the ROI-ordered copy with the versions it holds, and then applies nothing', async () => {
      // An install of the release before the synapse-level tables, then this one starting on it.
      expect(await migrateColumnTables(column, COLUMN_MIGRATIONS.slice(0, 1))).toEqual({ applied: ['1_data_tables'] });
      expect(await migrateColumnTables(column, COLUMN_MIGRATIONS.slice(0, 2))).toEqual({ applied: ['2_synapse_tables'] });
      // A version published before the ROI-ordered copy existed: the migration that adds it copies the version in.
      const before = randomUUID();
      const row = [before, 1, '720575940630000001', '720575940630000002', 'GNG', 4, 'ach'];
      await store.insertTsv('roi_connections', [tsv([row])]);
      expect(await migrateColumnTables(column)).toEqual({ applied: ['3_roi_connections_by_roi'] });
      expect(await migrateColumnTables(column)).toEqual({ applied: [] });
      const copied = await column.query<Record<string, unknown>>(
        ch`SELECT dataset_id, version, pre, post, roi, weight, transmitter FROM roi_connections_by_roi WHERE dataset_id = ${before}`,
        { name: 'test.byRoi' },
      );
      expect(copied.map((r) => Object.values(r).map((v) => (typeof v === 'string' && /^\d+$/.test(v) && v.length < 10 ? Number(v) : v)))).toEqual([row]);
      for (const table of Object.keys(DATA_TABLES) as DataTable[]) {
        const cols = await column.query<{ name: string; type: string }>(
          ch`SELECT name, type FROM system.columns WHERE database = ${column.database} AND table = ${table}`,
          { name: 'test.columns' },
        );
        expect(cols.map((c) => [c.name, c.type])).toEqual(DATA_TABLES[table].map(([n, t]) => [n, t]));
      }
      const recorded = await column.query<{ version: number; name: string }>(ch`SELECT version, name FROM neurodata_schema_migrations`, { name: 'test.migrations' });
      expect(recorded.map((r) => [Number(r.version), r.name]).sort()).toEqual([
        [1, 'data_tables'],
        [2, 'synapse_tables'],
        [3, 'roi_connections_by_roi'],
      ]);
    });

    it('counts what was inserted, drops one table of a version or a whole version, and copies a version', async () => {
      const a = randomUUID();
      const b = randomUUID();
      await store.insertTsv('neurons', [
        tsv([neuronRow(a, 1, 'AVAL', { name: 'tab\there', x: 12.5 }), neuronRow(a, 1, 'AVAR', { name: 'back\\slash' })]),
        tsv([neuronRow(a, 1, 'PVCL', { isNeuron: false }), neuronRow(b, 1, 'AVAL')]),
      ]);
      await store.insertTsv(
        'connections',
        (async function* () {
          yield tsv([connectionRow(a, 1, 'AVAL', 'AVAR', 'chemical', 3), connectionRow(a, 1, 'AVAL', 'AVAR', 'electrical', 2)]);
          yield tsv([connectionRow(a, 1, 'AVAL', 'AVAL', 'electrical', 1), connectionRow(a, 1, 'PVCL', 'AVAL', 'chemical', 0.5)]);
          yield tsv([connectionRow(b, 1, 'AVAL', 'AVAL', 'chemical', 9)]);
        })(),
      );
      await store.insertTsv('morphologies', [tsv([morphologyRow(a, 1, 'AVAL', true), morphologyRow(a, 1, 'AVAR', false)])]);

      expect(await store.rowCounts(a, 1)).toEqual({ neurons: 3, connections: 4, chemicalConnections: 2, electricalConnections: 2, morphologies: 2, ...NO_SYNAPSE_ROWS });
      expect(await store.rowCounts(b, 1)).toEqual({ neurons: 1, connections: 1, chemicalConnections: 1, electricalConnections: 0, morphologies: 0, ...NO_SYNAPSE_ROWS });
      expect(await store.connectionStats(a, 1)).toEqual({
        chemicalConnections: 2,
        electricalConnections: 2,
        totalWeightChemical: 3.5,
        totalWeightElectrical: 3,
        chemicalSelfLoops: 0,
        electricalSelfLoops: 1,
      });
      expect(await store.neuronIds(a, 1)).toEqual(['AVAL', 'AVAR', 'PVCL']);
      const neurons = await store.readNeurons(a, 1);
      expect(neurons[0]).toEqual({
        neuronId: 'AVAL',
        name: 'tab\there',
        cellClass: 'AVA',
        cellType: 'interneuron',
        neurotransmitter: 'Glutamate',
        isNeuron: true,
        regionCode: 'NR',
        x: 12.5,
        y: null,
        z: null,
      });
      expect(neurons.map((n) => [n.name, n.isNeuron])).toEqual([['tab\there', true], ['back\\slash', true], ['PVCL', false]]);
      expect(await store.readNeurons(a, 1, { limit: 1 })).toHaveLength(1);
      expect(await store.readConnections(a, 1, { limit: 2 })).toEqual([
        { pre: 'AVAL', post: 'AVAL', synapseType: 'electrical', weight: 1 },
        { pre: 'AVAL', post: 'AVAR', synapseType: 'chemical', weight: 3 },
      ]);
      const morphologies = await store.morphologies(a, 1);
      expect(morphologies.map((m) => [m.neuron, m.soma, m.nTips, m.totalLength])).toEqual([
        ['AVAL', [1.5, 2.5, 3.5], 13, 812.25],
        ['AVAR', null, 13, 812.25],
      ]);
      expect(morphologies[0].boundingBox).toEqual({ min: [-1, -2, -3], max: [4, 5, 6] });

      // A new draft starts from the published version: version 2 is a copy, and a second copy replaces it.
      await store.copyVersion(a, 1, 2);
      await store.copyVersion(a, 1, 2);
      expect(await store.rowCounts(a, 2)).toEqual(await store.rowCounts(a, 1));
      expect(await store.readConnections(a, 2)).toEqual(await store.readConnections(a, 1));

      // The draft's connections are replaced; the published version and the other dataset keep theirs.
      await store.dropTableVersion('connections', a, 2);
      await store.insertTsv('connections', [tsv([connectionRow(a, 2, 'AVAR', 'PVCL', 'chemical', 7)])]);
      expect(await store.rowCounts(a, 2)).toEqual({ neurons: 3, connections: 1, chemicalConnections: 1, electricalConnections: 0, morphologies: 2, ...NO_SYNAPSE_ROWS });
      expect((await store.rowCounts(a, 1)).connections).toBe(4);

      await store.dropVersion(a, 1);
      expect(await store.rowCounts(a, 1)).toEqual({ neurons: 0, connections: 0, chemicalConnections: 0, electricalConnections: 0, morphologies: 0, ...NO_SYNAPSE_ROWS });
      expect((await store.rowCounts(a, 2)).neurons).toBe(3);
      expect((await store.rowCounts(b, 1)).neurons).toBe(1);
      await store.dropVersion(a, 1); // dropping an empty version is no error
    });

    it('reads a whole version back in column batches, escapes included', async () => {
      const d = randomUUID();
      const rows = Array.from({ length: 70_000 }, (_, i) => connectionRow(d, 3, `n${i % 997}`, i % 5 === 0 ? 'odd\\one\tout' : `n${i}`, i % 3 ? 'chemical' : 'electrical', (i % 11) + 0.25));
      await store.insertTsv('connections', [tsv(rows.slice(0, 35_000)), tsv(rows.slice(35_000))]);
      let n = 0;
      let weight = 0;
      let odd = 0;
      let electrical = 0;
      for await (const batch of store.scanConnections(d, 3)) {
        expect(batch.pre).toHaveLength(batch.weight.length);
        n += batch.weight.length;
        for (let i = 0; i < batch.weight.length; i++) {
          weight += batch.weight[i];
          if (batch.post[i] === 'odd\\one\tout') odd++;
          if (batch.synapseType[i] === 2) electrical++;
        }
      }
      expect(n).toBe(70_000);
      expect(odd).toBe(14_000);
      expect(electrical).toBe(rows.filter((r) => r[4] === 'electrical').length);
      expect(weight).toBeCloseTo(rows.reduce((s, r) => s + (r[5] as number), 0), 6);
    });

    it('matches the published counts of the Varshney et al. 2011 connectome', async () => {
      const dir = connectomeDir('celegans_varshney_2011');
      const meta = JSON.parse(readFileSync(path.join(dir, 'dataset.json'), 'utf8')) as { counts: Record<string, number> };
      const neurons = parse(readFileSync(path.join(dir, 'neurons.csv')), { columns: true }) as Record<string, string>[];
      const connections = parse(readFileSync(path.join(dir, 'connections.csv')), { columns: true }) as Record<string, string>[];
      const id = randomUUID();
      await store.insertTsv('neurons', [
        tsv(neurons.map((r) => [id, 1, r.neuron_id, r.source_name, r.cell_class, r.cell_type, r.neurotransmitter, r.is_neuron === 'true', '', null, null, null])),
      ]);
      // Chunks of whole lines, as an ingest task hands them over.
      const lines = tsv(connections.map((r) => [id, 1, r.pre, r.post, r.synapse_type, Number(r.weight)])).split(/(?<=\n)/);
      const chunks = Array.from({ length: Math.ceil(lines.length / 500) }, (_, i) => lines.slice(i * 500, (i + 1) * 500).join(''));
      await store.insertTsv('connections', chunks);

      const { counts } = meta;
      expect(await store.connectionStats(id, 1)).toEqual({
        chemicalConnections: counts.chemical_connections,
        electricalConnections: counts.electrical_connections,
        totalWeightChemical: counts.total_weight_chemical,
        totalWeightElectrical: counts.total_weight_electrical,
        chemicalSelfLoops: counts.chemical_self_loops,
        electricalSelfLoops: counts.electrical_self_loops,
      });
      expect(await store.rowCounts(id, 1)).toMatchObject({ neurons: counts.neurons, connections: counts.connections });
      expect(await store.neuronIds(id, 1)).toEqual(neurons.map((r) => r.neuron_id).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
      // Electrical pairs are stored once, pre <= post.
      const electrical = (await store.readConnections(id, 1)).filter((c) => c.synapseType === 'electrical');
      expect(electrical.every((c) => c.pre <= c.post)).toBe(true);
    });

    it('refuses dataset ids that are not UUIDs and versions that are not 32-bit unsigned integers before building any SQL', async () => {
      await expect(store.dropVersion("x') OR 1 --", 1)).rejects.toBeInstanceOf(BadInput);
      await expect(store.dropTableVersion('neurons', randomUUID(), -1)).rejects.toThrow(/version: must be an integer/);
      await expect(store.rowCounts(randomUUID(), 1.5)).rejects.toBeInstanceOf(BadInput);
      await expect(store.copyVersion(randomUUID(), 1, 2 ** 32)).rejects.toThrow(/to: must be an integer/);
      await expect(store.readConnections(randomUUID(), 1, { limit: -1 })).rejects.toThrow(/limit/);
      await expect(store.insertTsv('synapse' as DataTable, [''])).rejects.toBeInstanceOf(BadInput);
      await expect(store.deriveSynapseTables({ datasetId: 'nope', version: 1 })).rejects.toBeInstanceOf(BadInput);
      await expect(store.checkSynapseIds({ datasetId: randomUUID(), version: -2 })).rejects.toBeInstanceOf(BadInput);
    });

    it('names the query that failed and keeps the engine error as its cause', async () => {
      const d = randomUUID();
      const error = (await store.insertTsv('connections', [`${d}\t1\tA\tB\tnot-a-type\t1\n`]).then(
        () => new Error('the insert succeeded'),
        (e: unknown) => e,
      )) as Error;
      expect(error).toBeInstanceOf(Error);
      expect(error.message).toMatch(/^DataStore\.insertTsv failed: /);
      expect(error.cause).toBeDefined();
    });
  });

  describe(`${DataStore.name} on ${label}`, () => {
    synapseTablesSuite({ store: () => store, column: () => column, tsv, neuronRow: (d, v, id) => neuronRow(d, v, id) });
  });

  return { column: () => column, store: () => store };
}

/** Drops a test database (on every node of a cluster). */
export async function dropDatabase(column: ColumnStore): Promise<void> {
  const on = column.cluster ? ` ON CLUSTER ${ident(column.cluster).text}` : '';
  await column.command({ sql: `DROP DATABASE IF EXISTS ${ident(column.database).text}${on}`, params: {} }, { name: 'test.dropDatabase' });
}
