import type { ArrowColumn } from '../../../lib/column/arrow.task.js';
import { ch, ident, typed, type ChQuery } from '../../../lib/column/sql.js';
import { and, finite, inList, raw, version, type VersionRef } from './clickhouse/version-sql.js';
import { fieldValue, matchingIds, type FieldSource, type NeuronQuery } from './neuron-criteria.sql.js';

/**
 * The SQL of the connections between two neuron sets (neuprint-python's fetch_adjacencies): per-ROI weights from
 * `roi_connections`, whose '' ROI is the bucket outside every primary ROI, so a pair's rows add up to its total.
 */
export interface AdjacencyQuery {
  /**
   * Whether the version has per-ROI connections; otherwise its chemical connections are read, every synapse of
   * them outside every primary ROI (the '' bucket), so the same reads answer on every version.
   */
  perRoi: boolean;
  /** null: any neuron on that side. */
  sources: NeuronQuery | null;
  targets: NeuronQuery | null;
  /** Primary ROIs ('' the outside bucket), expanded by the caller; every ROI when absent. */
  rois?: readonly string[];
  /** On each row's weight (per ROI). */
  minRoiWeight?: number;
  /** On the pair's weight over every ROI, whatever `rois` keeps. */
  minTotalWeight?: number;
  transmitters?: readonly string[];
  /** One row per (pre, post, ROI); otherwise per pair, its weight summed over the ROIs kept. */
  groupByRoi: boolean;
}

export interface AdjacencyAfter {
  pre: string;
  post: string;
  roi: string;
}

function sides(at: VersionRef, q: AdjacencyQuery): ChQuery[] {
  const parts: ChQuery[] = [];
  if (q.sources) parts.push(ch`pre GLOBAL IN (${matchingIds(at, q.sources)})`);
  if (q.targets) parts.push(ch`post GLOBAL IN (${matchingIds(at, q.targets)})`);
  if (q.transmitters) parts.push(inList('transmitter', q.transmitters));
  return parts;
}

/** The version's connections as (pre, post, roi, weight, transmitter) rows: per ROI, or its chemical ones. */
export function edgeSource(at: VersionRef, perRoi: boolean): ChQuery {
  return perRoi
    ? ch`SELECT pre, post, roi, weight, transmitter FROM roi_connections WHERE ${version(at)}`
    : ch`SELECT pre, post, '' AS roi, weight, '' AS transmitter FROM connections WHERE ${version(at)} AND synapse_type = 'chemical'`;
}

/** The adjacency's rows, unordered: pre, post, roi ('' when per pair), w. */
export function adjacencyRows(at: VersionRef, q: AdjacencyQuery): ChQuery {
  const parts = sides(at, q);
  if (q.minTotalWeight !== undefined && q.minTotalWeight > 0) {
    parts.push(ch`(pre, post) GLOBAL IN (SELECT pre, post FROM (${edgeSource(at, q.perRoi)}) WHERE 1${and(sides(at, q))}
      GROUP BY pre, post HAVING sum(weight) >= ${typed(finite('min_total_weight', q.minTotalWeight), 'Float64')})`);
  }
  if (q.rois) parts.push(inList('roi', q.rois));
  const having = q.minRoiWeight === undefined ? raw('') : ch` HAVING w >= ${typed(finite('min_roi_weight', q.minRoiWeight), 'Float64')}`;
  const roi = q.groupByRoi ? 'roi' : "'' AS roi";
  const groupBy = q.groupByRoi ? 'pre, post, roi' : 'pre, post';
  return ch`SELECT pre, post, ${raw(roi)}, sum(weight) AS w FROM (${edgeSource(at, q.perRoi)}) WHERE 1${and(parts)} GROUP BY ${raw(groupBy)}${having}`;
}

/** `(pre, post, roi) > (a, b, c)` written out (no tuple comparison on 18.16). */
export function adjacencyAfter(c: AdjacencyAfter): ChQuery {
  return ch`(pre > ${c.pre} OR (pre = ${c.pre} AND (post > ${c.post} OR (post = ${c.post} AND roi > ${c.roi}))))`;
}

export const ADJACENCY_EXPORT_COLUMNS: ArrowColumn[] = [
  { name: 'pre', type: 'string', nullable: false, chType: 'String' },
  { name: 'post', type: 'string', nullable: false, chType: 'String' },
  { name: 'roi', type: 'string', nullable: false, chType: 'String' },
  { name: 'weight', type: 'float', nullable: false, chType: 'Float64' },
];

/**
 * The partners every neuron of a set connects with (neuprint-python's fetch_common_connectivity): upstream
 * partners (pre) of every member (post), or downstream ones, each pair's weight summed over the ROIs kept and at
 * least `minWeight`. Rows: partner, w (the weight to or from the whole set), unordered.
 */
export function commonPartnerRows(
  at: VersionRef,
  set: NeuronQuery,
  members: number,
  direction: 'upstream' | 'downstream',
  opts: { perRoi: boolean; rois?: readonly string[]; minWeight?: number },
): ChQuery {
  const [member, partner] = direction === 'upstream' ? ['post', 'pre'] : ['pre', 'post'];
  const parts: ChQuery[] = [ch`${raw(member)} GLOBAL IN (${matchingIds(at, set)})`];
  if (opts.rois) parts.push(inList('roi', opts.rois));
  const min = typed(finite('min_weight', opts.minWeight ?? 1), 'Float64');
  return ch`SELECT partner, sum(w) AS w FROM (
      SELECT ${raw(member)} AS member, ${raw(partner)} AS partner, sum(weight) AS w FROM (${edgeSource(at, opts.perRoi)}) WHERE 1${and(parts)}
      GROUP BY member, partner HAVING w >= ${min})
    GROUP BY partner HAVING count() = ${typed(members, 'UInt64')}`;
}

/**
 * Connectivity aggregated by a field of the neurons on each side (type × type, class × class, ...): every pair the
 * adjacency keeps, summed over the ROIs kept, grouped by the pre's value of `rowField` and the post's of
 * `columnField` ('' for a neuron without one). Pairs with a partner that is no searched neuron (FlyWire's
 * unproofread segments) have no value and are left out. Rows: pre_value, post_value, w, pairs.
 */
export function byFieldRows(at: VersionRef, q: AdjacencyQuery, searched: string, rowField: FieldSource, columnField: FieldSource): ChQuery {
  const pairs = adjacencyRows(at, { ...q, groupByRoi: false, minRoiWeight: undefined });
  const valuesOf = (side: 'pre' | 'post', f: FieldSource, alias: string) =>
    ch`SELECT neuron_id AS ${raw(side)}, ${fieldValue(f)} AS ${raw(alias)} FROM ${ident(searched)} WHERE ${version(at)}`;
  return ch`SELECT pre_value, post_value, sum(w) AS w, count() AS pairs FROM (
      SELECT post, pre_value, w FROM (SELECT pre, post, w FROM (${pairs})) AS e GLOBAL ALL INNER JOIN (${valuesOf('pre', rowField, 'pre_value')}) AS a USING (pre)
    ) AS f GLOBAL ALL INNER JOIN (${valuesOf('post', columnField, 'post_value')}) AS b USING (post)
    GROUP BY pre_value, post_value`;
}
