import { ch, ident, join, typed, type ChQuery } from '../../../lib/column/sql.js';
import { CONNECTION_COLUMNS, DATA_TABLES, type DataTable } from './clickhouse/columns.js';

/**
 * The SQL that derives a synapse-level version's summary tables from its rows (docs/neurodata-tables.md, "The
 * derive step"). Every statement is an INSERT ... SELECT run by the engine: 54.5 million synapses never pass
 * through this process. `where` is the condition selecting the version (DataStore builds and checks it).
 */

/** A version's dataset id and number, already checked by the caller. */
export interface VersionValues {
  datasetId: string;
  version: number;
}

/**
 * What a derive statement may cost. The settings go in the statement's text (an INSERT's SELECT takes a SETTINGS
 * clause on ClickHouse 18.16 and on chDB alike). A GROUP BY or sort that outgrows its share spills to disk instead
 * of growing: on a 2-core machine with 24 GiB, two such statements at once (a job and a request's count) stay
 * under half of the memory. Two threads: the machine's cores, which the requests share.
 */
export const DERIVE_SETTINGS = {
  max_threads: 2,
  max_memory_usage: 6 * 2 ** 30,
  max_bytes_before_external_group_by: 2 * 2 ** 30,
  max_bytes_before_external_sort: 2 * 2 ** 30,
  // A GROUP BY over a Distributed table merges the shards' partial results bucket by bucket, not all at once.
  distributed_aggregation_memory_efficient: 1,
  max_execution_time: 3600,
} as const;

/**
 * The same limits as the column store's EngineLimits, for the checks (checkSynapseIds, synapseSummary) and sent with
 * the derive statements too: ClickHouse 18.16 takes max_memory_usage from the request only, not from the SETTINGS of
 * an INSERT's SELECT (which it does take the spilling thresholds and max_threads from).
 */
export const DERIVE_LIMITS = {
  maxThreads: DERIVE_SETTINGS.max_threads,
  maxMemoryUsage: DERIVE_SETTINGS.max_memory_usage,
  maxBytesBeforeExternalGroupBy: DERIVE_SETTINGS.max_bytes_before_external_group_by,
} as const;

/** The tables compactVersion merges: those the derive step writes, and the synapses it reads them from. */
export const COMPACTED_TABLES: readonly DataTable[] = ['synapses', 'synapses_by_post', 'roi_connections', 'roi_connections_by_roi', 'neuron_rois', 'connections'];

const raw = (text: string): ChQuery => ({ sql: text, params: {} });
const settings = raw(` SETTINGS ${Object.entries(DERIVE_SETTINGS).map(([k, v]) => `${k} = ${v}`).join(', ')}`);
const columnList = (table: DataTable) => raw(DATA_TABLES[table].map(([name]) => name).join(', '));
/** The version's two leading columns as constants: never aliased, since an alias `version` would shadow the column in WHERE. */
const constants = (at: VersionValues) => ch`${at.datasetId}, ${typed(at.version, 'UInt32')}`;
const CHEMICAL = raw(`CAST('chemical' AS ${CONNECTION_COLUMNS.find(([name]) => name === 'synapse_type')![1]})`);

/**
 * The version's neurons, for `x GLOBAL IN (...)`: derived connections join only neurons of the version (FlyWire's
 * synapse table names unproofread segments too). GLOBAL: on a cluster the initiator builds the set once and sends it
 * to the shards, instead of every shard reading the distributed `neurons` table again.
 */
const neuronsOf = (where: ChQuery) => ch`(SELECT neuron_id FROM neurons WHERE ${where})`;

/** `synapses_by_post`: the same rows as `synapses`, written in the other table's order by the engine. */
export function synapsesByPostSql(where: ChQuery): ChQuery {
  return ch`INSERT INTO synapses_by_post (${columnList('synapses_by_post')}) SELECT ${columnList('synapses')} FROM synapses WHERE ${where}${settings}`;
}

/** `roi_connections_by_roi`: the version's `roi_connections` rows, written in ROI order by the engine. */
export function roiConnectionsByRoiSql(where: ChQuery): ChQuery {
  return ch`INSERT INTO roi_connections_by_roi (${columnList('roi_connections_by_roi')}) SELECT ${columnList('roi_connections')} FROM roi_connections WHERE ${where}${settings}`;
}

/**
 * `roi_connections` from the synapses with both partners, both neurons of the version: weight = synapses of the pair in the ROI. Its transmitter
 * is the most frequent non-empty synapse transmitter of those synapses, '' when none has one; a tie goes to the name
 * first in byte order (argMin over (-count, name)), so a rerun always picks the same one.
 */
export function roiConnectionsSql(at: VersionValues, where: ChQuery): ChQuery {
  return ch`INSERT INTO roi_connections (${columnList('roi_connections')})
    SELECT ${constants(at)}, pre, post, roi, toFloat64(sum(n)), argMinIf(transmitter, (-toInt64(n), transmitter), transmitter != '')
    FROM (
      SELECT pre, post, roi, transmitter, count() AS n FROM synapses
      WHERE ${where} AND pre != '' AND post != '' AND pre GLOBAL IN ${neuronsOf(where)} AND post GLOBAL IN ${neuronsOf(where)}
      GROUP BY pre, post, roi, transmitter
    )
    GROUP BY pre, post, roi${settings}`;
}

/**
 * `neuron_rois` from the synapses, for the version's neurons (every synapse of a neuron counts, whatever its
 * partner): per neuron and ROI, pre = rows with the neuron as pre, post = upstream = rows with
 * it as post, downstream = its pre rows with a known post, NULL in every ROI of a neuron that has a pre row without
 * a partner (a point-only source cannot say where its outputs go). Each side is grouped before the union, so on a
 * cluster the shards send their per-neuron counts rather than their rows.
 */
export function neuronRoisFromSynapsesSql(at: VersionValues, where: ChQuery): ChQuery {
  return ch`INSERT INTO neuron_rois (${columnList('neuron_rois')})
    SELECT ${constants(at)}, neuron_id, tupleElement(r, 1), tupleElement(r, 2), tupleElement(r, 3), tupleElement(r, 3), if(lone > 0, NULL, tupleElement(r, 4))
    FROM (
      SELECT neuron_id, groupArray((roi, s_pre, s_post, s_down)) AS per_roi, sum(s_lone) AS lone
      FROM (
        SELECT neuron_id, roi, sum(n_pre) AS s_pre, sum(n_post) AS s_post, sum(n_down) AS s_down, sum(n_lone) AS s_lone
        FROM (
          SELECT pre AS neuron_id, roi, count() AS n_pre, toUInt64(0) AS n_post, countIf(post != '') AS n_down, countIf(post = '') AS n_lone
          FROM synapses WHERE ${where} AND pre != '' AND pre GLOBAL IN ${neuronsOf(where)} GROUP BY neuron_id, roi
          UNION ALL
          SELECT post AS neuron_id, roi, toUInt64(0), count(), toUInt64(0), toUInt64(0)
          FROM synapses_by_post WHERE ${where} AND post != '' AND post GLOBAL IN ${neuronsOf(where)} GROUP BY neuron_id, roi
        )
        GROUP BY neuron_id, roi
      )
      GROUP BY neuron_id
    )
    ARRAY JOIN per_roi AS r${settings}`;
}

/**
 * `neuron_rois` from `roi_connections` (a version published as a per-neuropil connection file, without synapses):
 * pre = downstream = the neuron's outgoing weight in the ROI, post = upstream = its incoming weight.
 */
export function neuronRoisFromRoiConnectionsSql(at: VersionValues, where: ChQuery): ChQuery {
  return ch`INSERT INTO neuron_rois (${columnList('neuron_rois')})
    SELECT ${constants(at)}, neuron_id, roi, toUInt64(round(s_out)), toUInt64(round(s_in)), toUInt64(round(s_in)), toUInt64(round(s_out))
    FROM (
      SELECT neuron_id, roi, sum(w_out) AS s_out, sum(w_in) AS s_in
      FROM (
        SELECT pre AS neuron_id, roi, sum(weight) AS w_out, toFloat64(0) AS w_in FROM roi_connections WHERE ${where} AND pre GLOBAL IN ${neuronsOf(where)} GROUP BY neuron_id, roi
        UNION ALL
        SELECT post AS neuron_id, roi, toFloat64(0), sum(weight) FROM roi_connections WHERE ${where} AND post GLOBAL IN ${neuronsOf(where)} GROUP BY neuron_id, roi
      )
      GROUP BY neuron_id, roi
    )${settings}`;
}

/**
 * `connections` from `roi_connections`: one chemical row per pair of the version's neurons, weight = the sum over its
 * ROIs (rows of a per-neuropil file naming an id that is not a neuron stay in roi_connections only).
 */
export function connectionsFromRoiConnectionsSql(at: VersionValues, where: ChQuery): ChQuery {
  return ch`INSERT INTO connections (${columnList('connections')})
    SELECT ${constants(at)}, pre, post, ${CHEMICAL}, sum(weight) FROM roi_connections
    WHERE ${where} AND pre GLOBAL IN ${neuronsOf(where)} AND post GLOBAL IN ${neuronsOf(where)} GROUP BY pre, post${settings}`;
}

/** One row (`x` = 1) when the version has a synapse with both partners, none otherwise. */
export function hasPairsSql(where: ChQuery): ChQuery {
  return ch`SELECT toUInt8(1) AS x FROM synapses WHERE ${where} AND pre != '' AND post != '' LIMIT 1`;
}

/** One row when the version has roi_connections. */
export function hasRoiConnectionsSql(where: ChQuery): ChQuery {
  return ch`SELECT toUInt8(1) AS x FROM roi_connections WHERE ${where} LIMIT 1`;
}

/** Rows of the derived tables, by table name (`t`, `n`). */
export function derivedCountsSql(where: ChQuery): ChQuery {
  const tables: DataTable[] = ['synapses', 'roi_connections', 'connections', 'neuron_rois'];
  return join(
    tables.map((t) => ch`SELECT ${t} AS t, count() AS n FROM ${ident(t)} WHERE ${where}`),
    ' UNION ALL ',
  );
}

/**
 * The first duplicated non-empty synapse id of a version (byte order), or no row. Only the duplicates are sorted;
 * the GROUP BY over every id spills to disk past DERIVE_LIMITS.
 */
export function duplicateSynapseIdSql(where: ChQuery): ChQuery {
  return ch`SELECT synapse_id FROM synapses WHERE ${where} AND synapse_id != '' GROUP BY synapse_id HAVING count() > 1 ORDER BY synapse_id LIMIT 1`;
}

/** Row counts of a version's synapses: all, with both partners, with one side unknown, distinct non-empty ROIs. */
export function synapseRowSummarySql(where: ChQuery): ChQuery {
  return ch`SELECT count() AS synapses, countIf(pre != '' AND post != '') AS pairs, countIf(pre = '' OR post = '') AS points,
      uniqExactIf(roi, roi != '') AS rois
    FROM synapses WHERE ${where}`;
}

/**
 * Distinct neurons named by a version's synapses (either side) and how many of them have no `neurons` row. Each side
 * is grouped first (on a cluster, by the shards); the ids of both sides then meet on one node, a few hundred
 * thousand at most.
 */
export function synapseNeuronSummarySql(where: ChQuery): ChQuery {
  return ch`SELECT count() AS neurons, countIf(id NOT IN (SELECT neuron_id FROM neurons WHERE ${where})) AS strangers
    FROM (
      SELECT id FROM (
        SELECT pre AS id FROM synapses WHERE ${where} AND pre != '' GROUP BY id
        UNION ALL
        SELECT post AS id FROM synapses WHERE ${where} AND post != '' GROUP BY id
      )
      GROUP BY id
    )`;
}
