import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openColumn } from '../../../lib/column/column.js';
import { ch, ident, quoteString } from '../../../lib/column/sql.js';
import { configFrom, testClickhouseCluster } from '../../../lib/config.js';
import { connectionRow, dataStoreSuite, dropDatabase, neuronRow, tsv } from './data-store.suite.js';

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
});
