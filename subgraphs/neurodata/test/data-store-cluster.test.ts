import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openColumn } from '../../../lib/column/column.js';
import { ch, ident, quoteString } from '../../../lib/column/sql.js';
import { configFrom } from '../../../lib/config.js';
import { testClickhouseCluster } from '../../../test/kit/settings.js';
import { connectionRow, dataStoreSuite, dropDatabase, neuronRow, tsv } from './data-store.suite.js';
import { derivedRows } from './data-store-synapses.suite.js';
import { expectedConnections, expectedNeuronRois, expectedRoiConnections, HEMIBRAIN_BODIES, hemibrainSynapses, pairedSynapses, synapseTsvRows, type TestSynapse } from './synapse-rows.js';

// A two-shard cluster (scripts/clickhouse-cluster.sh, started by scripts/test.sh for the server run): the URL of one
// of its nodes and the cluster's name. Without them this file is skipped.
const { url, cluster } = testClickhouseCluster();

describe.skipIf(!url)('the data store on a two-shard ClickHouse cluster', () => {
  const suite = dataStoreSuite(`the cluster ${cluster}`, {
    open: () =>
      openColumn(
        configFrom({
          LOG_LEVEL: 'silent',
          CLICKHOUSE_URL: url,
          CLICKHOUSE_CLUSTER: cluster,
          CLICKHOUSE_DATABASE: `nd_test_cluster_${process.pid}_${Date.now().toString(36)}`,
        }).column,
      ),
    async cleanup(column) {
      await dropDatabase(column);
      await column.close();
    },
  });

  it('keeps each dataset on one shard and spreads several datasets over both, read back whole through the Distributed tables', async () => {
    const column = suite.column();
    const store = suite.store();
    const datasets = Array.from({ length: 12 }, () => randomUUID());
    for (const d of datasets) {
      await store.insertTsv('neurons', [tsv([neuronRow(d, 1, 'AVAL'), neuronRow(d, 1, 'AVAR')])]);
      await store.insertTsv('connections', [tsv([connectionRow(d, 1, 'AVAL', 'AVAR', 'chemical', 2), connectionRow(d, 1, 'AVAL', 'AVAR', 'electrical', 1)])]);
    }
    const shards = await column.query<{ shard_num: number; host_address: string; port: number }>(
      ch`SELECT shard_num, host_address, port FROM system.clusters WHERE cluster = ${cluster} ORDER BY shard_num`,
      { name: 'test.shards' },
    );
    expect(shards).toHaveLength(2);
    const ids = datasets.map(quoteString).join(', ');
    const perShard: string[][] = [];
    for (const s of shards) {
      // Each shard's own table, over the native protocol: the addresses come from the server's configuration.
      const remote = `remote(${quoteString(`${s.host_address}:${s.port}`)}, ${ident(column.database).text}, neurons_local)`;
      const rows = await column.query<{ dataset_id: string; n: number }>(
        { sql: `SELECT dataset_id, count() AS n FROM ${remote} WHERE dataset_id IN (${ids}) GROUP BY dataset_id`, params: {} },
        { name: 'test.shardRows' },
      );
      expect(rows.every((r) => Number(r.n) === 2)).toBe(true);
      perShard.push(rows.map((r) => r.dataset_id));
    }
    expect(perShard[0].length).toBeGreaterThan(0);
    expect(perShard[1].length).toBeGreaterThan(0);
    expect([...perShard[0], ...perShard[1]].sort()).toEqual([...datasets].sort());
    for (const d of datasets) expect(await store.rowCounts(d, 1)).toMatchObject({ neurons: 2, connections: 2 });

    // Dropping a version reaches the shard that holds it.
    await store.dropVersion(datasets[0], 1);
    expect(await store.rowCounts(datasets[0], 1)).toMatchObject({ neurons: 0, connections: 0 });
    expect(await store.rowCounts(datasets[1], 1)).toMatchObject({ neurons: 2, connections: 2 });
  });

  it("spreads one dataset's synapses over both shards by neuron, and derives from them what one node derives", async () => {
    const column = suite.column();
    const store = suite.store();
    const d = randomUUID();
    // The two real neurons, the hand-made pairs, and pairs of 80 more neurons so that both shards get some, on both sides.
    const more: TestSynapse[] = Array.from({ length: 40 }, (_, i) => ({
      pre: `7205759406300000${String(i).padStart(2, '0')}`,
      post: i % 4 ? `7205759406310000${String(i).padStart(2, '0')}` : HEMIBRAIN_BODIES[i % 2],
      synapseId: `more.csv:${i + 1}`,
      x: i,
      y: i,
      z: i,
      roi: i % 3 ? 'AL(R)' : '',
      confidence: null,
      transmitter: i % 2 ? 'ach' : 'gaba',
    }));
    const rows = [...HEMIBRAIN_BODIES.flatMap(hemibrainSynapses), ...pairedSynapses(), ...more];
    await store.insertTsv('synapses', [tsv(synapseTsvRows(d, 1, rows))]);
    const neurons = new Set<string>([...HEMIBRAIN_BODIES, ...more.flatMap((s) => [s.pre, s.post])]);
    await store.insertTsv('neurons', [tsv([...neurons].map((id) => [d, 1, id, '', '', '', '', 1, '', null, null, null]))]);
    await store.deriveSynapseTables({ datasetId: d, version: 1 });

    const shards = await column.query<{ host_address: string; port: number }>(
      ch`SELECT host_address, port FROM system.clusters WHERE cluster = ${cluster} ORDER BY shard_num`,
      { name: 'test.shards' },
    );
    expect(shards).toHaveLength(2);
    // A point without its leading side is sharded by its neuron on the other side.
    for (const [table, side] of [['synapses_local', "if(pre = '', post, pre)"], ['synapses_by_post_local', "if(post = '', pre, post)"]] as const) {
      const perShard: Map<string, number>[] = [];
      for (const s of shards) {
        const remote = `remote(${quoteString(`${s.host_address}:${s.port}`)}, ${ident(column.database).text}, ${table})`;
        const got = await column.query<{ id: string; n: number }>(
          { sql: `SELECT ${side} AS id, count() AS n FROM ${remote} WHERE dataset_id = ${quoteString(d)} GROUP BY id`, params: {} },
          { name: 'test.shardRows' },
        );
        perShard.push(new Map(got.map((r) => [r.id, Number(r.n)])));
      }
      // Both shards hold some of the dataset; each neuron's rows (on the table's leading side) are on one of them.
      expect(perShard[0].size, table).toBeGreaterThan(0);
      expect(perShard[1].size, table).toBeGreaterThan(0);
      expect([...perShard[0].keys()].filter((id) => perShard[1].has(id)), table).toEqual([]);
      const total = [...perShard[0].values(), ...perShard[1].values()].reduce((a, b) => a + b, 0);
      expect(total, table).toBe(rows.length);
    }

    const perRoi = expectedRoiConnections(rows, neurons);
    const got = await derivedRows(column, d, 1);
    expect(got.roiConnections).toEqual(perRoi);
    expect(got.connections).toEqual(expectedConnections(perRoi, neurons).map((p) => ({ ...p, synapseType: 'chemical' })));
    expect(got.neuronRois).toEqual(expectedNeuronRois(rows, neurons));
    expect(got.byPost).toHaveLength(rows.length);
    expect(await store.checkSynapseIds({ datasetId: d, version: 1 })).toBeNull();
    // Every id but FLYWIRE_ID is a neuron of the version.
    const named = new Set(rows.flatMap((s) => [s.pre, s.post]).filter(Boolean));
    expect(await store.synapseSummary({ datasetId: d, version: 1 })).toMatchObject({ synapses: rows.length, neurons: named.size, partnersNotNeurons: 1 });
  });
});
