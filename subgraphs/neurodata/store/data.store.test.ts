import { describe, expect, it } from 'vitest';
import type { ColumnQueryOptions, ColumnStore, TsvInsertOptions } from '../../../lib/column/column.js';
import { inline, type ChQuery } from '../../../lib/column/sql.js';
import { COLUMN_MIGRATIONS, migrateColumnTables } from './clickhouse/migrations.js';
import type { ObjectStore } from '../../../lib/objects/objects.js';
import { DataStore } from './data.store.js';

const ID = '0190f3a4-5b6c-7d8e-9f00-112233445566';

/**
 * A column store that answers every query with `rows` (none by default) and keeps each statement as sent to a server
 * without query parameters.
 */
function recorder(cluster?: string, rows: unknown[] = []): { column: ColumnStore; statements: string[]; names: string[] } {
  const statements: string[] = [];
  const names: string[] = [];
  const keep = (q: ChQuery, opts: ColumnQueryOptions) => {
    statements.push(`/* ${opts.name} */ ${inline(q).replace(/\n\s+/g, '\n  ')}`);
    names.push(opts.name);
  };
  const column: ColumnStore = {
    kind: 'clickhouse',
    database: 'neurodata',
    cluster,
    async query<T>(q: ChQuery, opts: ColumnQueryOptions) {
      keep(q, opts);
      return rows as T[];
    },
    async command(q, opts) {
      keep(q, opts);
    },
    async insert() {},
    async kill() {
      return false;
    },
    async insertTsv(table: string, _chunks: unknown, opts: TsvInsertOptions) {
      statements.push(`/* ${opts.name} */ INSERT INTO ${table} (${opts.columns?.join(', ')}) FORMAT TabSeparated`);
      names.push(opts.name);
    },
    queryTsv(q, opts) {
      keep(q, opts);
      return (async function* () {})();
    },
    async ping() {},
    async close() {},
  };
  return { column, statements, names };
}

/** An object store that reads what it is given and keeps nothing: the exports' SQL is what is recorded. */
const discard = {
  async putStream(_key: string, stream: AsyncIterable<unknown>) {
    for await (const _ of stream) void _;
    return { size: 0, sha256: '' };
  },
} as unknown as ObjectStore;

describe(DataStore.name, () => {
  it('keeps the SQL of its queries and of the migrations as reviewed (store/__sql__/data.store.sql; vitest -u rewrites it)', async () => {
    const one = recorder();
    const store = new DataStore(one.column);
    await store.insertTsv('connections', []);
    await store.rowCounts(ID, 2);
    await store.connectionStats(ID, 2);
    await store.neuronIds(ID, 2);
    await store.readNeurons(ID, 2, { limit: 100 });
    await store.readConnections(ID, 2, { limit: 100 });
    for await (const _ of store.scanConnections(ID, 2)) void _;
    // The neurons and connections routes: a filtered page, its count, and every row of it.
    const neurons = { neuronIds: ['AVAL', '720575940621039145'], cellClasses: ['AVA'], isNeuron: true };
    const connections = { neuronIds: ['AVAL'], synapseType: 'chemical' as const, minWeight: 2.5 };
    await store.readNeurons(ID, 2, { limit: 100, offset: 200, filter: neurons });
    await store.countNeurons(ID, 2, neurons);
    await store.exportRows(discard, 'tmp/rows/n.arrows', 'neurons', { datasetId: ID, version: 2 }, neurons, {});
    await store.readConnections(ID, 2, { limit: 100, offset: 200, filter: connections });
    await store.countConnections(ID, 2, connections);
    await store.exportRows(discard, 'tmp/rows/c.arrows', 'connections', { datasetId: ID, version: 2 }, connections, {});
    await store.morphologies(ID, 2);
    await store.copyVersion(ID, 2, 3);
    await store.checkSynapseIds({ datasetId: ID, version: 2 });
    await store.synapseSummary({ datasetId: ID, version: 2 });
    await store.deriveFromRoiConnections({ datasetId: ID, version: 2 });
    // The derive step of a version with synapse pairs (every "is there any" query answered yes, and the counts with a row).
    const derive = recorder(undefined, [{ x: 1, t: 'synapses', n: 1 }]);
    await new DataStore(derive.column).deriveSynapseTables({ datasetId: ID, version: 2 });
    const cluster = recorder('neurodata');
    await new DataStore(cluster.column).dropTableVersion('connections', ID, 3);

    const ddl = (c?: string) => COLUMN_MIGRATIONS.flatMap((m) => m.statements({ database: 'neurodata', cluster: c })).map((q) => `${inline(q)};`);
    const text = [
      '-- DataStore on one server (values as sent to ClickHouse 18.16, which has no query parameters)',
      ...one.statements.map((s) => `${s};`),
      '-- DataStore.deriveSynapseTables of a version with synapse pairs',
      ...derive.statements.map((s) => `${s};`),
      '-- DataStore on a cluster: dropping a version',
      ...cluster.statements.map((s) => `${s};`),
      '-- migrations, one server',
      ...ddl(),
      '-- migrations, cluster neurodata',
      ...ddl('neurodata'),
    ].join('\n\n');
    await expect(`${text}\n`).toMatchFileSnapshot('./__sql__/data.store.sql');
  });

  it('starts a compaction again when ClickHouse cancelled its merge (18.16 does while another partition of the table is dropped), and only then', async () => {
    const cancelledOnce = (error: Error) => {
      const r = recorder();
      let failed = false;
      const command = r.column.command.bind(r.column);
      r.column.command = async (q, opts) => {
        await command(q, opts);
        if (!failed && q.sql.startsWith('OPTIMIZE')) {
          failed = true;
          throw error;
        }
      };
      return r;
    };
    const cancelled = cancelledOnce(Object.assign(new Error('Code: 236. DB::Exception: Cancelled merging parts'), { code: '236' }));
    await new DataStore(cancelled.column).compactVersion({ datasetId: ID, version: 1 });
    const optimizes = cancelled.statements.filter((s) => s.includes('OPTIMIZE'));
    // The first table's statement twice, then each other table's once.
    expect(optimizes[0]).toBe(optimizes[1]);
    expect(new Set(optimizes).size).toBe(optimizes.length - 1);

    const other = cancelledOnce(Object.assign(new Error('Code: 241. DB::Exception: Memory limit exceeded'), { code: '241' }));
    await expect(new DataStore(other.column).compactVersion({ datasetId: ID, version: 1 })).rejects.toThrow(/compactVersion failed: Code: 241/);
    expect(other.statements.filter((s) => s.includes('OPTIMIZE'))).toHaveLength(1);
  });

  it('names every statement after its method', async () => {
    const { column, names } = recorder();
    const store = new DataStore(column);
    await store.neuronIds(ID, 1);
    await store.dropTableVersion('neurons', ID, 1);
    expect(names).toEqual(['DataStore.neuronIds', 'DataStore.dropTableVersion']);
  });

  it('writes only DDL a second start finds already applied', async () => {
    const { column, statements } = recorder();
    // The recorder answers every query with no rows: a store where nothing has been applied yet.
    expect(await migrateColumnTables(column)).toEqual({ applied: ['1_data_tables', '2_synapse_tables', '3_roi_connections_by_roi'] });
    expect(statements.filter((s) => /^\/\* [^*]+ \*\/ CREATE/.test(s)).every((s) => s.includes('IF NOT EXISTS'))).toBe(true);
  });
});
