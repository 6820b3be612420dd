import type { ArrowColumn } from '../../../lib/column/arrow.task.js';
import { ch, ident, join, typed, type ChQuery } from '../../../lib/column/sql.js';
import { and, finite, inList, raw, version, type VersionRef } from './clickhouse/version-sql.js';

/**
 * The SQL of neurons by criteria (neuprint-python's NeuronCriteria) over one version. The neurons searched are the
 * version's annotated neurons (`neuron_annotations`) when it has annotations, else its `neurons` rows; ROI counts
 * come from `neuron_rois`. Within ClickHouse 18.16: conditions are `IN` subqueries, no window functions; `GLOBAL`
 * IN and JOIN, so that on a cluster the subquery over one Distributed table runs once and is sent to the shards.
 */

/** Where a condition reads its value: a column of the searched table, or a key of the annotations' `extra`. */
export type FieldSource = { column: string } | { extraKey: string };

/** A condition on a field: any of these exact values, or a regular expression (RE2) the whole value matches. */
export type FieldMatch = FieldSource & ({ values: readonly string[] } | { regex: string });

export interface NeuronQuery {
  /** Whether the version's annotations are searched (else its neurons table). */
  annotated: boolean;
  ids?: readonly string[];
  fields: readonly FieldMatch[];
  /** Each: the primary ROIs of one named ROI, the side counted and the least count; held all (or any) at once. */
  roiTerms: readonly { rois: readonly string[]; side: 'any' | 'pre' | 'post'; min: number }[];
  roiRequirement: 'all' | 'any';
  minPre?: number;
  minPost?: number;
  /** In the version's stored unit, corners inclusive. */
  somaBox?: { min: [number, number, number]; max: [number, number, number] };
}

export const searchedTable = (q: Pick<NeuronQuery, 'annotated'>) => (q.annotated ? 'neuron_annotations' : 'neurons');

/** The text a field condition reads. */
export function fieldValue(f: FieldSource): ChQuery {
  return 'column' in f ? ch`${ident(f.column)}` : ch`visitParamExtractString(extra, ${f.extraKey})`;
}

function fieldCondition(f: FieldMatch): ChQuery {
  const value = fieldValue(f);
  if ('regex' in f) return ch`match(${value}, ${`^(?:${f.regex})$`})`;
  if (!f.values.length) return raw('0');
  return ch`${value} IN (${join(f.values.map((v) => ch`${v}`))})`;
}

/** Neurons with at least `min` of `side` summed over these ROIs' rows (all ROIs when `rois` is absent). */
function roiCount(at: VersionRef, side: 'any' | 'pre' | 'post', min: number, rois?: readonly string[]): ChQuery {
  const sum = side === 'any' ? 'sum(pre) + sum(post)' : `sum(${side})`;
  const where = rois ? and([inList('roi', rois)]) : raw('');
  return ch`neuron_id GLOBAL IN (SELECT neuron_id FROM neuron_rois WHERE ${version(at)}${where} GROUP BY neuron_id HAVING ${raw(sum)} >= ${typed(min, 'UInt64')})`;
}

/** Every condition of `q` on the searched table's rows of the version (the version's own condition not included). */
export function neuronConditions(at: VersionRef, q: NeuronQuery): ChQuery[] {
  const parts: ChQuery[] = [];
  if (q.ids) parts.push(inList('neuron_id', q.ids));
  for (const f of q.fields) parts.push(fieldCondition(f));
  if (q.roiTerms.length) {
    const terms = q.roiTerms.map((t) => roiCount(at, t.side, t.min, t.rois));
    parts.push(q.roiRequirement === 'all' ? join(terms, ' AND ') : ch`(${join(terms, ' OR ')})`);
  }
  if (q.minPre) parts.push(roiCount(at, 'pre', q.minPre));
  if (q.minPost) parts.push(roiCount(at, 'post', q.minPost));
  if (q.somaBox) {
    const axes = q.annotated ? ['soma_x', 'soma_y', 'soma_z'] : ['x', 'y', 'z'];
    axes.forEach((axis, i) => {
      parts.push(ch`${ident(axis)} >= ${typed(finite('soma_bbox', q.somaBox!.min[i]), 'Float64')} AND ${ident(axis)} <= ${typed(finite('soma_bbox', q.somaBox!.max[i]), 'Float64')}`);
    });
  }
  return parts;
}

/** The ids of the matching neurons, `SELECT neuron_id FROM ... WHERE ...` (unordered), after `after` when given. */
export function matchingIds(at: VersionRef, q: NeuronQuery, after?: string): ChQuery {
  const cursor = after === undefined ? [] : [ch`neuron_id > ${after}`];
  return ch`SELECT neuron_id FROM ${ident(searchedTable(q))} WHERE ${version(at)}${and([...neuronConditions(at, q), ...cursor])}`;
}

const text = (name: string): ArrowColumn => ({ name, type: 'string', nullable: false, chType: 'String' });
const nullableFloat = (name: string): ArrowColumn => ({ name, type: 'float', nullable: true, chType: 'Nullable(Float64)' });
const integer = (name: string): ArrowColumn => ({ name, type: 'integer', nullable: false, chType: 'Int64' });

/** The Arrow answer of the matching neurons: the searched table's columns, then the synapse totals. */
export function neuronExportColumns(annotated: boolean): ArrowColumn[] {
  const own = annotated
    ? [
        text('neuron_id'),
        ...['instance', 'type', 'class', 'super_class', 'sub_class', 'hemilineage', 'side', 'status', 'transmitter'].map(text),
        nullableFloat('transmitter_confidence'),
        ...['soma_x', 'soma_y', 'soma_z'].map(nullableFloat),
        text('extra'),
      ]
    : [text('neuron_id'), ...['name', 'cell_class', 'cell_type', 'neurotransmitter'].map(text), { name: 'is_neuron', type: 'boolean', nullable: false, chType: 'UInt8' } as ArrowColumn, text('region'), ...['x', 'y', 'z'].map(nullableFloat)];
  return [...own, integer('pre'), integer('post')];
}

/** The matching neurons in id order with NEURON_EXPORT columns: each with its synapses summed over every ROI row. */
export function neuronExportSql(at: VersionRef, q: NeuronQuery): ChQuery {
  const own = q.annotated
    ? 'neuron_id, instance, type, class, super_class, sub_class, hemilineage, side, status, transmitter, toFloat64(toString(transmitter_confidence)) AS confidence_out, soma_x, soma_y, soma_z, extra'
    : 'neuron_id, name, cell_class, cell_type, neurotransmitter, is_neuron, region_code, x, y, z';
  const names = q.annotated
    ? 'neuron_id, instance, type, class, super_class, sub_class, hemilineage, side, status, transmitter, confidence_out, soma_x, soma_y, soma_z, extra'
    : 'neuron_id, name, cell_class, cell_type, neurotransmitter, is_neuron, region_code, x, y, z';
  return ch`SELECT ${raw(names)}, toInt64(pre_total) AS pre_out, toInt64(post_total) AS post_out FROM
      (SELECT ${raw(own)} FROM ${ident(searchedTable(q))} WHERE ${version(at)}${and(neuronConditions(at, q))}) AS m
    GLOBAL ALL LEFT JOIN (SELECT neuron_id, sum(pre) AS pre_total, sum(post) AS post_total FROM neuron_rois WHERE ${version(at)} AND neuron_id GLOBAL IN (${matchingIds(at, q)}) GROUP BY neuron_id) AS t
    USING (neuron_id) ORDER BY neuron_id`;
}

/** The Arrow answer of the matching neurons' per-ROI counts (neuprint-python's roi_counts). */
export const ROI_COUNT_EXPORT_COLUMNS: ArrowColumn[] = [
  text('neuron_id'),
  text('roi'),
  integer('pre'),
  integer('post'),
  integer('upstream'),
  { name: 'downstream', type: 'integer', nullable: true, chType: 'Nullable(Int64)' },
];

export function roiCountExportSql(at: VersionRef, q: NeuronQuery): ChQuery {
  return ch`SELECT neuron_id, roi, toInt64(pre) AS pre_out, toInt64(post) AS post_out, toInt64(upstream) AS up_out, CAST(downstream AS Nullable(Int64)) AS down_out
    FROM neuron_rois WHERE ${version(at)} AND neuron_id GLOBAL IN (${matchingIds(at, q)}) ORDER BY neuron_id, roi`;
}

/** The searched table's fields as (field, value) rows, one per neuron and field, for the catalogue of values. */
export function fieldValueRows(at: VersionRef, annotated: boolean, fields: readonly { name: string; source: FieldSource }[]): ChQuery {
  const pairs = join(fields.map((f) => ch`(${f.name}, ${fieldValue(f.source)})`));
  return ch`SELECT tupleElement(fv, 1) AS field, tupleElement(fv, 2) AS value FROM
    (SELECT arrayJoin([${pairs}]) AS fv FROM ${ident(annotated ? 'neuron_annotations' : 'neurons')} WHERE ${version(at)})`;
}

/**
 * The keys of the annotations' `extra` objects: JSON objects of text values, so every unescaped `"` opening a key
 * follows `{` or `,`, and no value can be mistaken for a key.
 */
export const EXTRA_KEY_PATTERN = '[{,]"((?:[^"\\\\]|\\\\.)*)":';
