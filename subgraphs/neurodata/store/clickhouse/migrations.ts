import type { ColumnStore } from '../../../../lib/column/column.js';
import { ch, ident, typed, type ChQuery } from '../../../../lib/column/sql.js';
import { DATA_TABLES, type DataTable } from './columns.js';

/**
 * The neurodata subgraph's ClickHouse DDL, as versioned migrations applied at start-up on chDB and on a server
 * alike (docs/neurodata-tables.md). Every statement is idempotent (IF NOT EXISTS), so a migration interrupted
 * half-way is simply run again; `neurodata_schema_migrations` records the ones that completed.
 *
 * With a cluster (`column.cluster`, from CLICKHOUSE_CLUSTER) each table is a MergeTree `<table>_local` created
 * ON CLUSTER on every shard, behind a Distributed table `<table>` (sharded by dataset) that reads and inserts go
 * through. ON CLUSTER DDL needs the servers' ZooKeeper (docs/deployment.md, Scaled out).
 */

export const MIGRATIONS_TABLE = 'neurodata_schema_migrations';

interface Layout {
  database: string;
  cluster?: string;
}

export interface ColumnMigration {
  version: number;
  name: string;
  statements(layout: Layout): ChQuery[];
}

/** The sorting key of each data table: one (dataset_id, version) is one contiguous range, then the natural key. */
const ORDER_BY: Record<DataTable, readonly string[]> = {
  neurons: ['dataset_id', 'version', 'neuron_id'],
  connections: ['dataset_id', 'version', 'pre', 'post'],
  morphologies: ['dataset_id', 'version', 'neuron'],
  synapses: ['dataset_id', 'version', 'pre', 'post', 'synapse_id'],
  synapses_by_post: ['dataset_id', 'version', 'post', 'pre', 'synapse_id'],
  roi_connections: ['dataset_id', 'version', 'pre', 'post', 'roi'],
  roi_connections_by_roi: ['dataset_id', 'version', 'roi', 'pre', 'post'],
  neuron_rois: ['dataset_id', 'version', 'neuron_id', 'roi'],
  neuron_annotations: ['dataset_id', 'version', 'neuron_id'],
  rois: ['dataset_id', 'version', 'roi'],
};

/**
 * How a cluster spreads each table's rows over its shards. The cell tables go whole to one shard per dataset; the
 * synapse-level tables, tens of millions of rows for one dataset, are spread within the dataset by the neuron on
 * their leading side (the other side for a point without it), so one dataset is not bound to one machine and one
 * neuron's rows on that side stay on one shard.
 */
const SHARD_BY: Record<DataTable, string> = {
  neurons: 'cityHash64(dataset_id)',
  connections: 'cityHash64(dataset_id)',
  morphologies: 'cityHash64(dataset_id)',
  // A per-neuron synapse point has one side empty: it goes with its neuron, not with every other empty side.
  synapses: "cityHash64(dataset_id, if(pre = '', post, pre))",
  synapses_by_post: "cityHash64(dataset_id, if(post = '', pre, post))",
  roi_connections: 'cityHash64(dataset_id, pre)',
  roi_connections_by_roi: 'cityHash64(dataset_id, pre)',
  neuron_rois: 'cityHash64(dataset_id, neuron_id)',
  neuron_annotations: 'cityHash64(dataset_id)',
  rois: 'cityHash64(dataset_id)',
};

/** One data table's DDL: one partition per (dataset_id, version), sorted by its key, sharded as SHARD_BY says. */
const dataTableDdl = (layout: Layout, table: DataTable) =>
  tableDdl(layout, table, DATA_TABLES[table], `MergeTree PARTITION BY (dataset_id, version) ORDER BY (${ORDER_BY[table].join(', ')})`, SHARD_BY[table]);

const raw = (text: string): ChQuery => ({ sql: text, params: {} });
const qualified = (layout: Layout, table: string) => ident(`${layout.database}.${table}`);
const onCluster = (layout: Layout) => raw(layout.cluster ? ` ON CLUSTER ${ident(layout.cluster).text}` : '');
const columnsDdl = (columns: readonly (readonly [string, string])[]) => raw(columns.map(([name, type]) => `${ident(name).text} ${type}`).join(', '));

/**
 * A MergeTree table, or on a cluster its local shard tables plus the Distributed table in front of them.
 * `shardBy` is the sharding expression: every row of one dataset lands on one shard.
 */
function tableDdl(layout: Layout, table: string, columns: readonly (readonly [string, string])[], engine: string, shardBy: string): ChQuery[] {
  if (!layout.cluster) {
    return [ch`CREATE TABLE IF NOT EXISTS ${qualified(layout, table)} (${columnsDdl(columns)}) ENGINE = ${raw(engine)}`];
  }
  const local = `${table}_local`;
  const distributed = `Distributed(${ident(layout.cluster).text}, ${ident(layout.database).text}, ${ident(local).text}, ${shardBy})`;
  return [
    ch`CREATE TABLE IF NOT EXISTS ${qualified(layout, local)}${onCluster(layout)} (${columnsDdl(columns)}) ENGINE = ${raw(engine)}`,
    ch`CREATE TABLE IF NOT EXISTS ${qualified(layout, table)}${onCluster(layout)} (${columnsDdl(columns)}) ENGINE = ${raw(distributed)}`,
  ];
}

const MIGRATIONS_COLUMNS = [
  ['version', 'UInt32'],
  ['name', 'String'],
  ['applied_at', 'DateTime'],
] as const;

/** The record of applied migrations; created before any migration runs. */
function bootstrap(layout: Layout): ChQuery[] {
  return [
    ...(layout.cluster ? [ch`CREATE DATABASE IF NOT EXISTS ${ident(layout.database)}${onCluster(layout)}`] : []),
    ...tableDdl(layout, MIGRATIONS_TABLE, MIGRATIONS_COLUMNS, 'MergeTree ORDER BY version', 'version'),
  ];
}

/**
 * The versions an install already holds, copied into `roi_connections_by_roi` (every derive writes it from then on):
 * their ROI-only reads go to that table. Versions it already has are left alone, so a second run adds nothing.
 * GLOBAL: on a cluster the set is read once through the Distributed table, not again by every shard.
 */
function copyIntoRoiOrder(layout: Layout): ChQuery {
  const columns = raw(DATA_TABLES.roi_connections.map(([name]) => name).join(', '));
  const target = qualified(layout, 'roi_connections_by_roi');
  return ch`INSERT INTO ${target} (${columns}) SELECT ${columns} FROM ${qualified(layout, 'roi_connections')}
    WHERE (dataset_id, version) GLOBAL NOT IN (SELECT dataset_id, version FROM ${target} GROUP BY dataset_id, version)`;
}

export const COLUMN_MIGRATIONS: readonly ColumnMigration[] = [
  {
    version: 1,
    name: 'data_tables',
    // One partition per (dataset_id, version): a version is written whole and dropped whole, and
    // ALTER TABLE ... DROP PARTITION removes it at once, synchronously, on every engine we run on.
    statements: (layout) => (['neurons', 'connections', 'morphologies'] as const).flatMap((table) => dataTableDdl(layout, table)),
  },
  {
    version: 2,
    name: 'synapse_tables',
    statements: (layout) =>
      (['synapses', 'synapses_by_post', 'roi_connections', 'neuron_rois', 'neuron_annotations', 'rois'] as const).flatMap((table) => dataTableDdl(layout, table)),
  },
  {
    version: 3,
    name: 'roi_connections_by_roi',
    statements: (layout) => [...dataTableDdl(layout, 'roi_connections_by_roi'), copyIntoRoiOrder(layout)],
  },
];

/**
 * The table that holds a data table's partitions: the table itself on one server, or on a cluster its local shard
 * tables, addressed ON CLUSTER (DROP PARTITION cannot go through a Distributed table).
 */
export function partitionTarget(column: Pick<ColumnStore, 'database' | 'cluster'>, table: DataTable): ChQuery {
  const layout = { database: column.database, cluster: column.cluster };
  return layout.cluster ? ch`${qualified(layout, `${table}_local`)}${onCluster(layout)}` : ch`${ident(table)}`;
}

/**
 * Applies the migrations this store has not recorded yet, in order, and returns the names of those it applied
 * (`<version>_<name>`); a second run applies nothing. `migrations` is for tests that start from an older install. Throws the engine's error (the store unreachable, ON CLUSTER
 * DDL timing out because a node or ZooKeeper is down) with nothing recorded for the migration that failed.
 */
export async function migrateColumnTables(column: ColumnStore, migrations: readonly ColumnMigration[] = COLUMN_MIGRATIONS): Promise<{ applied: string[] }> {
  const layout: Layout = { database: column.database, cluster: column.cluster };
  const exists = await column.query<{ n: number | string }>(
    ch`SELECT count() AS n FROM system.tables WHERE database = ${column.database} AND name = ${MIGRATIONS_TABLE}`,
    { name: 'migrateColumnTables.recordExists' },
  );
  // Skipping the bootstrap on later starts spares a cluster three ON CLUSTER round trips through ZooKeeper.
  if (Number(exists[0]?.n ?? 0) === 0) {
    for (const q of bootstrap(layout)) await column.command(q, { name: 'migrateColumnTables.bootstrap' });
  }
  const done = new Set(
    (
      await column.query<{ version: number | string }>(ch`SELECT version FROM ${ident(MIGRATIONS_TABLE)} GROUP BY version`, {
        name: 'migrateColumnTables.appliedVersions',
      })
    ).map((r) => Number(r.version)),
  );
  const applied: string[] = [];
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    const label = `${m.version}_${m.name}`;
    for (const q of m.statements(layout)) await column.command(q, { name: `migrateColumnTables.${label}` });
    // Two processes starting together may both apply (idempotently) and both record: readers group by version.
    await column.command(
      ch`INSERT INTO ${ident(MIGRATIONS_TABLE)} (version, name, applied_at) SELECT ${typed(m.version, 'UInt32')}, ${m.name}, now()`,
      { name: 'migrateColumnTables.record' },
    );
    applied.push(label);
  }
  return { applied };
}
