import { exportArrow, type ExportResult } from '../../../lib/column/arrow-export.js';
import type { ArrowColumn } from '../../../lib/column/arrow.task.js';
import type { ColumnQueryOptions, ColumnStore } from '../../../lib/column/column.js';
import { chCol, columnRows } from '../../../lib/column/rows.js';
import { rowOf, type RowShape } from '../../../lib/db/rows.js';
import { z } from 'zod';
import type { ObjectStore } from '../../../lib/objects/objects.js';
import { ch, ident, join, typed, type ChQuery } from '../../../lib/column/sql.js';
import { AppError, BadInput } from '../../../lib/errors.js';
import { abortError, currentRequestScope } from '../../../lib/request-scope.js';
import { TRANSMITTER_COLUMNS } from './clickhouse/columns.js';
import { and, finite, inList, raw, version, type VersionRef } from './clickhouse/version-sql.js';
import {
  EXTRA_KEY_PATTERN,
  fieldValueRows,
  matchingIds,
  neuronExportColumns,
  neuronExportSql,
  ROI_COUNT_EXPORT_COLUMNS,
  roiCountExportSql,
  type FieldSource,
  type NeuronQuery,
} from './neuron-criteria.sql.js';
import { ADJACENCY_EXPORT_COLUMNS, adjacencyAfter, adjacencyRows, byFieldRows, commonPartnerRows, type AdjacencyAfter, type AdjacencyQuery } from './connectivity.sql.js';

export type { VersionRef };

/** Which synapses a read keeps; every condition given must hold. Lists are checked and bounded by the caller. */
export interface SynapseFilter {
  /** Synapses with one of these neurons on either side. */
  neurons?: readonly string[];
  pre?: readonly string[];
  post?: readonly string[];
  /** Primary ROI names, already expanded by the caller; '' is the bucket outside every ROI. */
  rois?: readonly string[];
  /** In the dataset's stored unit, corners inclusive. */
  bbox?: { min: [number, number, number]; max: [number, number, number] };
  minConfidence?: number;
  minCleftScore?: number;
  minConnectionScore?: number;
  transmitters?: readonly string[];
}

export type Transmitter = (typeof TRANSMITTER_COLUMNS)[number];

export interface SynapseRow {
  synapseId: string;
  /** null when the source gives this side unknown (a per-neuron synapse point). */
  pre: string | null;
  post: string | null;
  x: number;
  y: number;
  z: number;
  /** The primary ROI, null outside every ROI. */
  roi: string | null;
  confidence: number | null;
  cleftScore: number | null;
  connectionScore: number | null;
  size: number | null;
  /** The predicted transmitter, null when unknown. */
  transmitter: string | null;
  probabilities: Record<Transmitter, number | null>;
}

/** Where a page of synapses ends: the keyset of the order (pre, post, synapse_id), with '' for an unknown side. */
export interface SynapseCursor {
  pre: string;
  post: string;
  synapseId: string;
}

export interface RoiRow {
  roi: string;
  /** null for a root. */
  parent: string | null;
  primary: boolean;
  description: string;
  /** The brain-region ontology code it maps to, null when none. */
  term: string | null;
}

export interface RoiCount {
  pre: number;
  post: number;
}

export interface NeuronRoiRow {
  neuronId: string;
  /** '' is the bucket outside every primary ROI. */
  roi: string;
  pre: number;
  post: number;
  upstream: number;
  /** null when the neuron's presynaptic sites come without partners. */
  downstream: number | null;
}

export interface NeuronAnnotationRow {
  neuronId: string;
  instance: string;
  type: string;
  class: string;
  superClass: string;
  subClass: string;
  hemilineage: string;
  side: string;
  status: string;
  transmitter: string;
  transmitterConfidence: number | null;
  soma: [number, number, number] | null;
  /** The source's other columns, as text. */
  extra: Record<string, string>;
}

/** Which per-ROI connections a read keeps. */
export interface RoiConnectionFilter {
  neurons?: readonly string[];
  pre?: readonly string[];
  post?: readonly string[];
  /** Primary ROI names ('' the outside bucket); all ROIs when absent. */
  rois?: readonly string[];
  /** On the summed weight of a row (per pair, or per pair and ROI). */
  minWeight?: number;
}

/** Connectivity between the neurons of one field value and those of another. */
export interface ByFieldRow {
  preValue: string;
  postValue: string;
  weight: number;
  /** Connected pairs of neurons. */
  pairs: number;
}

export interface RoiConnectionRow {
  pre: string;
  post: string;
  /** Set when grouped by ROI ('' outside every ROI); null when summed over the ROIs read. */
  roi: string | null;
  weight: number;
}

const nullableFloat = (name: string): ArrowColumn => ({ name, type: 'float', nullable: true, chType: 'Nullable(Float64)' });

/** The columns of the Arrow answer of the synapses routes, in the order of SYNAPSE_EXPORT_SQL. */
export const SYNAPSE_EXPORT_COLUMNS: ArrowColumn[] = [
  { name: 'synapse_id', type: 'string', nullable: false, chType: 'String' },
  { name: 'pre', type: 'string', nullable: true, chType: 'Nullable(String)' },
  { name: 'post', type: 'string', nullable: true, chType: 'Nullable(String)' },
  ...['x', 'y', 'z'].map((name): ArrowColumn => ({ name, type: 'float', nullable: false, chType: 'Float64' })),
  { name: 'roi', type: 'string', nullable: true, chType: 'Nullable(String)' },
  ...['confidence', 'cleft_score', 'connection_score', 'size'].map(nullableFloat),
  { name: 'transmitter', type: 'string', nullable: true, chType: 'Nullable(String)' },
  ...TRANSMITTER_COLUMNS.map(nullableFloat),
];

/** The columns of the Arrow answer of per-ROI connections (group_by=roi). */
export const ROI_CONNECTION_EXPORT_COLUMNS: ArrowColumn[] = [
  { name: 'pre', type: 'string', nullable: false, chType: 'String' },
  { name: 'post', type: 'string', nullable: false, chType: 'String' },
  { name: 'roi', type: 'string', nullable: false, chType: 'String' },
  { name: 'synapse_type', type: 'string', nullable: false, chType: 'String' },
  { name: 'weight', type: 'float', nullable: false, chType: 'Float64' },
];

// Float32 scores leave the engine through their shortest decimal text, so JSON pages and Arrow answers carry the
// same number (0.9, not the 0.8999999761581421 a cast to Float64 would give).
const f32 = (column: string) => `toFloat64(toString(${column})) AS ${column}_out`;
const SYNAPSE_SELECT = [
  'synapse_id',
  "nullIf(pre, '') AS pre_out",
  "nullIf(post, '') AS post_out",
  'x',
  'y',
  'z',
  "nullIf(roi, '') AS roi_out",
  ...['confidence', 'cleft_score', 'connection_score', 'size'].map(f32),
  "nullIf(transmitter, '') AS transmitter_out",
  ...TRANSMITTER_COLUMNS.map(f32),
].join(', ');
/** The columns each side of a union reads (those SYNAPSE_SELECT uses, plus the keys it orders by). */
const SYNAPSE_COLUMNS = ['pre', 'post', 'synapse_id', 'x', 'y', 'z', 'roi', 'confidence', 'cleft_score', 'connection_score', 'size', 'transmitter', ...TRANSMITTER_COLUMNS].join(', ');

/** Seconds a bounded read (a page, a count, a neuron) may run. */
const READ_MAX_EXECUTION_S = 60;

const ROI = rowOf(
  { roi: chCol.text, parent: chCol.text, is_primary: chCol.flag, description: chCol.text, term: chCol.text },
  (r): RoiRow => ({ roi: r.roi, parent: r.parent || null, primary: r.is_primary, description: r.description, term: r.term || null }),
);
const ROI_COUNT = rowOf({ roi: chCol.text, pre: chCol.int, post: chCol.int });

const NEURON_ROI = rowOf(
  { neuron_id: chCol.text, roi: chCol.text, pre: chCol.int, post: chCol.int, upstream: chCol.int, downstream: chCol.int.nullable() },
  (r): NeuronRoiRow => ({ neuronId: r.neuron_id, roi: r.roi, pre: r.pre, post: r.post, upstream: r.upstream, downstream: r.downstream }),
);

const NEURON_ANNOTATION = rowOf(
  {
    neuron_id: chCol.text,
    instance: chCol.text,
    type: chCol.text,
    class: chCol.text,
    super_class: chCol.text,
    sub_class: chCol.text,
    hemilineage: chCol.text,
    side: chCol.text,
    status: chCol.text,
    transmitter: chCol.text,
    confidence_out: chCol.float.nullable(),
    soma_x: chCol.float.nullable(),
    soma_y: chCol.float.nullable(),
    soma_z: chCol.float.nullable(),
    extra: chCol.text,
  },
  (r): NeuronAnnotationRow => ({
    neuronId: r.neuron_id,
    instance: r.instance,
    type: r.type,
    class: r.class,
    superClass: r.super_class,
    subClass: r.sub_class,
    hemilineage: r.hemilineage,
    side: r.side,
    status: r.status,
    transmitter: r.transmitter,
    transmitterConfidence: r.confidence_out,
    soma: r.soma_x !== null && r.soma_y !== null && r.soma_z !== null ? [r.soma_x, r.soma_y, r.soma_z] : null,
    extra: parseExtra(r.extra),
  }),
);

/** A synapse as SYNAPSE_SELECT gives it: unknown sides, ROI and transmitter already null, scores as their Float32 text reads. */
const SYNAPSE = rowOf(
  {
    synapse_id: chCol.text,
    pre_out: chCol.text.nullable(),
    post_out: chCol.text.nullable(),
    x: chCol.float,
    y: chCol.float,
    z: chCol.float,
    roi_out: chCol.text.nullable(),
    confidence_out: chCol.float.nullable(),
    cleft_score_out: chCol.float.nullable(),
    connection_score_out: chCol.float.nullable(),
    size_out: chCol.float.nullable(),
    transmitter_out: chCol.text.nullable(),
    gaba_out: chCol.float.nullable(),
    ach_out: chCol.float.nullable(),
    glut_out: chCol.float.nullable(),
    oct_out: chCol.float.nullable(),
    ser_out: chCol.float.nullable(),
    da_out: chCol.float.nullable(),
  },
  (r): SynapseRow => ({
    synapseId: r.synapse_id,
    pre: r.pre_out,
    post: r.post_out,
    x: r.x,
    y: r.y,
    z: r.z,
    roi: r.roi_out,
    confidence: r.confidence_out,
    cleftScore: r.cleft_score_out,
    connectionScore: r.connection_score_out,
    size: r.size_out,
    transmitter: r.transmitter_out,
    // Every one of TRANSMITTER_COLUMNS: the type of `probabilities` names them all.
    probabilities: { gaba: r.gaba_out, ach: r.ach_out, glut: r.glut_out, oct: r.oct_out, ser: r.ser_out, da: r.da_out },
  }),
);

const ROI_CONNECTION = rowOf({ pre: chCol.text, post: chCol.text, roi: chCol.text, w: chCol.float }, (r): RoiConnectionRow => ({ pre: r.pre, post: r.post, roi: r.roi, weight: r.w }));
/** A row summed over the ROIs read: no ROI. */
const PAIR_CONNECTION = rowOf({ pre: chCol.text, post: chCol.text, w: chCol.float }, (r): RoiConnectionRow => ({ pre: r.pre, post: r.post, roi: null, weight: r.w }));
const COUNT = rowOf({ n: chCol.int }, (r) => r.n);
const ADJACENCY_COUNT = rowOf({ n: chCol.int, total: chCol.float }, (r) => ({ rows: r.n, weight: r.total }));
const COMMON_PARTNER = rowOf({ partner: chCol.text, w: chCol.float }, (r) => ({ partner: r.partner, weight: r.w }));
const BY_FIELD = rowOf({ pre_value: chCol.text, post_value: chCol.text, w: chCol.float, pairs: chCol.int }, (r): ByFieldRow => ({ preValue: r.pre_value, postValue: r.post_value, weight: r.w, pairs: r.pairs }));
const NEURON_ID = rowOf({ neuron_id: chCol.text }, (r) => r.neuron_id);
const EXTRA_KEY = rowOf({ key: chCol.text }, (r) => r.key);
const FIELD_COUNT = rowOf({ field: chCol.text, distinct_values: chCol.int, neurons: chCol.int }, (r) => ({ field: r.field, distinct: r.distinct_values, neurons: r.neurons }));
const FIELD_VALUE = rowOf({ field: chCol.text, value: chCol.text, n: chCol.int });

/**
 * Reads of the synapse-level tables of a dataset version (docs/neurodata-tables.md): synapse points by neuron,
 * ROI, box and score, the ROI hierarchy and its counts, per-neuron ROI counts and annotations, and per-ROI
 * connections. Written by DataStore; read only here. Within ClickHouse 18.16: no parameters in LIMIT, no window
 * functions, keyset conditions written out. Engine failures are rethrown naming the query
 * (`SynapseReadStore.<method> failed`); a query stopped because its request ended throws Timeout.
 */
export class SynapseReadStore {
  constructor(private readonly column: ColumnStore) {}

  /** The ROI hierarchy of a version, by name. */
  async readRois(at: VersionRef): Promise<RoiRow[]> {
    return this.query('readRois', ch`SELECT roi, parent, is_primary, description, term FROM rois WHERE ${version(at)} ORDER BY roi`, ROI);
  }

  /** Synapse counts per primary ROI and the '' bucket, summed over the version's per-neuron ROI counts. */
  async roiCounts(at: VersionRef): Promise<Map<string, RoiCount>> {
    const rows = await this.query('roiCounts', ch`SELECT roi, sum(pre) AS pre, sum(post) AS post FROM neuron_rois WHERE ${version(at)} GROUP BY roi`, ROI_COUNT);
    return new Map(rows.map((r) => [r.roi, { pre: r.pre, post: r.post }]));
  }

  /** The per-ROI counts of these neurons, by neuron and ROI. */
  async neuronRois(at: VersionRef, neuronIds: readonly string[]): Promise<NeuronRoiRow[]> {
    if (!neuronIds.length) return [];
    return this.query(
      'neuronRois',
      ch`SELECT neuron_id, roi, pre, post, upstream, downstream FROM neuron_rois WHERE ${version(at)} AND ${inList('neuron_id', neuronIds)}
         ORDER BY neuron_id, roi`,
      NEURON_ROI,
    );
  }

  /** The annotations of these neurons, by neuron id. */
  async neuronAnnotations(at: VersionRef, neuronIds: readonly string[]): Promise<NeuronAnnotationRow[]> {
    if (!neuronIds.length) return [];
    return this.query(
      'neuronAnnotations',
      ch`SELECT neuron_id, instance, type, class, super_class, sub_class, hemilineage, side, status, transmitter,
           toFloat64(toString(transmitter_confidence)) AS confidence_out, soma_x, soma_y, soma_z, extra
         FROM neuron_annotations WHERE ${version(at)} AND ${inList('neuron_id', neuronIds)} ORDER BY neuron_id`,
      NEURON_ANNOTATION,
    );
  }

  /** One page of the synapses that pass `filter`, ordered by (pre, post, synapse_id), after `after` when given. */
  async readSynapses(at: VersionRef, filter: SynapseFilter, page: { limit: number; after?: SynapseCursor }): Promise<SynapseRow[]> {
    if (!Number.isSafeInteger(page.limit) || page.limit < 0) throw new BadInput('limit: must be a non-negative integer');
    return this.query(
      'readSynapses',
      ch`SELECT ${raw(SYNAPSE_SELECT)} FROM (${synapseSource(at, filter, page.after)}) ORDER BY pre, post, synapse_id LIMIT ${raw(String(page.limit))}`,
      SYNAPSE,
    );
  }

  /** How many synapses pass `filter`. */
  async countSynapses(at: VersionRef, filter: SynapseFilter): Promise<number> {
    const [n] = await this.query('countSynapses', ch`SELECT count() AS n FROM (${synapseSource(at, filter)})`, COUNT);
    return n ?? 0;
  }

  /**
   * Every synapse that passes `filter`, in the pages' order, stored under `key` as an Arrow IPC stream of
   * SYNAPSE_EXPORT_COLUMNS (lib/column/arrow-export.ts: memory bounded, encoded off the request thread).
   */
  async exportSynapses(
    objects: ObjectStore,
    key: string,
    at: VersionRef,
    filter: SynapseFilter,
    metadata: Record<string, string>,
    opts: { signal?: AbortSignal; maxExecutionTime?: number } = {},
  ): Promise<ExportResult> {
    const q = ch`SELECT ${raw(SYNAPSE_SELECT)} FROM (${synapseSource(at, filter)}) ORDER BY pre, post, synapse_id`;
    return this.export('exportSynapses', objects, key, q, SYNAPSE_EXPORT_COLUMNS, metadata, opts);
  }

  /** Whether the version has any per-ROI connections. */
  async hasRoiConnections(at: VersionRef): Promise<boolean> {
    return this.exists('hasRoiConnections', ch`SELECT 1 AS one FROM roi_connections WHERE ${version(at)} LIMIT 1`);
  }

  /**
   * A page of per-ROI connections: with `groupByRoi` one row per (pre, post, ROI), ordered so; otherwise one row per
   * (pre, post) whose weight is the sum over the ROIs read. `minWeight` applies to the row's weight.
   */
  async readRoiConnections(at: VersionRef, filter: RoiConnectionFilter, groupByRoi: boolean, page: { limit: number; offset: number }): Promise<RoiConnectionRow[]> {
    for (const [k, v] of Object.entries(page)) if (!Number.isSafeInteger(v) || v < 0) throw new BadInput(`${k}: must be a non-negative integer`);
    return this.query(
      'readRoiConnections',
      ch`${roiConnectionSource(at, filter, groupByRoi)} ORDER BY ${raw(groupByRoi ? 'pre, post, roi' : 'pre, post')} LIMIT ${raw(`${page.offset}, ${page.limit}`)}`,
      groupByRoi ? ROI_CONNECTION : PAIR_CONNECTION,
    );
  }

  /** How many rows readRoiConnections would give without a page. */
  async countRoiConnections(at: VersionRef, filter: RoiConnectionFilter, groupByRoi: boolean): Promise<number> {
    const [n] = await this.query('countRoiConnections', ch`SELECT count() AS n FROM (${roiConnectionSource(at, filter, groupByRoi)})`, COUNT);
    return n ?? 0;
  }

  /**
   * Every row readRoiConnections would give, in its order, as an Arrow IPC stream: ROI_CONNECTION_EXPORT_COLUMNS
   * when grouped by ROI, else the columns of the connections route (pre, post, synapse_type, weight).
   */
  async exportRoiConnections(
    objects: ObjectStore,
    key: string,
    at: VersionRef,
    filter: RoiConnectionFilter,
    groupByRoi: boolean,
    metadata: Record<string, string>,
    opts: { signal?: AbortSignal; maxExecutionTime?: number } = {},
  ): Promise<ExportResult> {
    const q = groupByRoi
      ? ch`SELECT pre, post, roi, 'chemical' AS synapse_name, w FROM (${roiConnectionSource(at, filter, true)}) ORDER BY pre, post, roi`
      : ch`SELECT pre, post, 'chemical' AS synapse_name, w FROM (${roiConnectionSource(at, filter, false)}) ORDER BY pre, post`;
    const columns = groupByRoi ? ROI_CONNECTION_EXPORT_COLUMNS : ROI_CONNECTION_EXPORT_COLUMNS.filter((c) => c.name !== 'roi');
    return this.export('exportRoiConnections', objects, key, q, columns, metadata, opts);
  }

  /**
   * Whether the version has neuron annotations, and the keys of their `extra` objects, by name. Finding the keys
   * reads every annotation's `extra`: `withExtra: false` leaves them out when only typed fields are named.
   */
  async neuronFieldCatalogue(at: VersionRef, opts: { withExtra: boolean }): Promise<{ annotated: boolean; extra: string[] }> {
    const annotated = await this.exists('neuronFieldCatalogue', ch`SELECT 1 AS one FROM neuron_annotations WHERE ${version(at)} LIMIT 1`);
    if (!annotated || !opts.withExtra) return { annotated, extra: [] };
    const keys = await this.query(
      'neuronFieldCatalogue',
      ch`SELECT key FROM (SELECT arrayJoin(extractAll(extra, ${EXTRA_KEY_PATTERN})) AS key FROM neuron_annotations WHERE ${version(at)}) GROUP BY key ORDER BY key`,
      EXTRA_KEY,
    );
    return { annotated, extra: keys };
  }

  /**
   * For each field, how many neurons have a value and how many distinct values there are, and its `top` most
   * frequent values with their counts (most frequent first, then by value).
   */
  async neuronFieldValues(
    at: VersionRef,
    annotated: boolean,
    fields: readonly { name: string; source: FieldSource }[],
    top: number,
  ): Promise<{ counts: { field: string; distinct: number; neurons: number }[]; values: { field: string; value: string; n: number }[] }> {
    if (!fields.length) return { counts: [], values: [] };
    if (!Number.isSafeInteger(top) || top < 1) throw new BadInput('top: a positive integer');
    const grouped = ch`SELECT field, value, count() AS n FROM (${fieldValueRows(at, annotated, fields)}) WHERE value != '' GROUP BY field, value`;
    const [counts, values] = await Promise.all([
      this.query('neuronFieldValues', ch`SELECT field, count() AS distinct_values, sum(n) AS neurons FROM (${grouped}) GROUP BY field`, FIELD_COUNT),
      this.query('neuronFieldValues', ch`${grouped} ORDER BY field, n DESC, value LIMIT ${raw(String(top))} BY field`, FIELD_VALUE),
    ]);
    return { counts, values };
  }

  /** What the engine says of a regular expression it cannot compile; null when it can. */
  async regexProblem(pattern: string): Promise<string | null> {
    try {
      await this.column.query(ch`SELECT match('', ${pattern}) AS ok`, { name: 'SynapseReadStore.regexProblem', maxExecutionTime: READ_MAX_EXECUTION_S });
      return null;
    } catch (e) {
      if (e instanceof AppError) throw e;
      const message = e instanceof Error ? e.message : String(e);
      // The engine's words after its own prefixes: "missing ): ..." rather than the whole exception text.
      const m = /re2[^:]*:\s*(.*?)(?:\s*\(version|\s*$)/is.exec(message) ?? /error[:,]\s*(.*?)(?:\s*\(version|\s*$)/is.exec(message);
      return (m?.[1] ?? message.split('\n')[0]).slice(0, 300);
    }
  }

  /** Whether the version has per-neuron ROI counts. */
  async hasNeuronRois(at: VersionRef): Promise<boolean> {
    return this.exists('hasNeuronRois', ch`SELECT 1 AS one FROM neuron_rois WHERE ${version(at)} LIMIT 1`);
  }

  /** The ids of a page of the neurons `q` matches, in id order (as text), after `after` when given. */
  async searchNeuronIds(at: VersionRef, q: NeuronQuery, page: { limit: number; after?: string }): Promise<string[]> {
    if (!Number.isSafeInteger(page.limit) || page.limit < 0) throw new BadInput('limit: must be a non-negative integer');
    return this.query('searchNeuronIds', ch`${matchingIds(at, q, page.after)} ORDER BY neuron_id LIMIT ${raw(String(page.limit))}`, NEURON_ID);
  }

  /** How many neurons `q` matches. */
  async countNeurons(at: VersionRef, q: NeuronQuery): Promise<number> {
    const [n] = await this.query('countNeurons', ch`SELECT count() AS n FROM (${matchingIds(at, q)})`, COUNT);
    return n ?? 0;
  }

  /**
   * Every neuron `q` matches, in id order, as an Arrow IPC stream under `key`: the neurons with their synapse totals
   * (neuronExportColumns), or their per-ROI counts (ROI_COUNT_EXPORT_COLUMNS).
   */
  async exportNeurons(
    objects: ObjectStore,
    key: string,
    at: VersionRef,
    q: NeuronQuery,
    part: 'neurons' | 'roi_counts',
    metadata: Record<string, string>,
    opts: { signal?: AbortSignal; maxExecutionTime?: number } = {},
  ): Promise<ExportResult> {
    return part === 'neurons'
      ? this.export('exportNeurons', objects, key, neuronExportSql(at, q), neuronExportColumns(q.annotated), metadata, opts)
      : this.export('exportNeurons', objects, key, roiCountExportSql(at, q), ROI_COUNT_EXPORT_COLUMNS, metadata, opts);
  }

  /** A page of the adjacency `q` describes, ordered by (pre, post, roi), after `after` when given. */
  async readAdjacency(at: VersionRef, q: AdjacencyQuery, page: { limit: number; after?: AdjacencyAfter }): Promise<RoiConnectionRow[]> {
    if (!Number.isSafeInteger(page.limit) || page.limit < 0) throw new BadInput('limit: must be a non-negative integer');
    const cursor = page.after ? ch` WHERE ${adjacencyAfter(page.after)}` : raw('');
    return this.query(
      'readAdjacency',
      ch`SELECT pre, post, roi, w FROM (${adjacencyRows(at, q)})${cursor} ORDER BY pre, post, roi LIMIT ${raw(String(page.limit))}`,
      ROI_CONNECTION,
    );
  }

  /** How many rows the adjacency has, and its weight in all. */
  async countAdjacency(at: VersionRef, q: AdjacencyQuery): Promise<{ rows: number; weight: number }> {
    const [r] = await this.query('countAdjacency', ch`SELECT count() AS n, sum(w) AS total FROM (${adjacencyRows(at, q)})`, ADJACENCY_COUNT);
    return r ?? { rows: 0, weight: 0 };
  }

  /** Every row of the adjacency, in the pages' order, as an Arrow IPC stream of ADJACENCY_EXPORT_COLUMNS under `key`. */
  async exportAdjacency(
    objects: ObjectStore,
    key: string,
    at: VersionRef,
    q: AdjacencyQuery,
    metadata: Record<string, string>,
    opts: { signal?: AbortSignal; maxExecutionTime?: number } = {},
  ): Promise<ExportResult> {
    const sql = ch`SELECT pre, post, roi, w FROM (${adjacencyRows(at, q)}) ORDER BY pre, post, roi`;
    return this.export('exportAdjacency', objects, key, sql, ADJACENCY_EXPORT_COLUMNS, metadata, opts);
  }

  /** A page of the common partners of a set of `members` neurons, by partner id, after `after` when given; with their count. */
  async readCommonPartners(
    at: VersionRef,
    set: NeuronQuery,
    members: number,
    direction: 'upstream' | 'downstream',
    opts: { perRoi: boolean; rois?: readonly string[]; minWeight?: number },
    page: { limit: number; after?: string },
  ): Promise<{ rows: { partner: string; weight: number }[]; total: number }> {
    if (!Number.isSafeInteger(page.limit) || page.limit < 0) throw new BadInput('limit: must be a non-negative integer');
    const rows = commonPartnerRows(at, set, members, direction, opts);
    const cursor = page.after === undefined ? raw('') : ch` WHERE partner > ${page.after}`;
    const [items, [total]] = await Promise.all([
      this.query('readCommonPartners', ch`SELECT partner, w FROM (${rows})${cursor} ORDER BY partner LIMIT ${raw(String(page.limit))}`, COMMON_PARTNER),
      this.query('readCommonPartners', ch`SELECT count() AS n FROM (${rows})`, COUNT),
    ]);
    return { rows: items, total: total ?? 0 };
  }

  /** A page of connectivity grouped by a field on each side (byFieldRows), by the two values, after `after`; with the count. */
  async readByField(
    at: VersionRef,
    q: AdjacencyQuery,
    searched: string,
    fields: { row: FieldSource; column: FieldSource },
    page: { limit: number; after?: { preValue: string; postValue: string } },
  ): Promise<{ rows: ByFieldRow[]; total: number }> {
    if (!Number.isSafeInteger(page.limit) || page.limit < 0) throw new BadInput('limit: must be a non-negative integer');
    const rows = byFieldRows(at, q, searched, fields.row, fields.column);
    const a = page.after;
    const cursor = a ? ch` WHERE (pre_value > ${a.preValue} OR (pre_value = ${a.preValue} AND post_value > ${a.postValue}))` : raw('');
    const [items, [total]] = await Promise.all([
      this.query('readByField', ch`SELECT pre_value, post_value, w, pairs FROM (${rows})${cursor} ORDER BY pre_value, post_value LIMIT ${raw(String(page.limit))}`, BY_FIELD),
      this.query('readByField', ch`SELECT count() AS n FROM (${rows})`, COUNT),
    ]);
    return { rows: items, total: total ?? 0 };
  }

  private async export(
    method: string,
    objects: ObjectStore,
    key: string,
    q: ChQuery,
    columns: ArrowColumn[],
    metadata: Record<string, string>,
    opts: { signal?: AbortSignal; maxExecutionTime?: number },
  ): Promise<ExportResult> {
    try {
      return await exportArrow({ column: this.column, objects }, q, columns, key, metadata, {
        name: `SynapseReadStore.${method}`,
        signal: opts.signal,
        maxExecutionTime: opts.maxExecutionTime,
      });
    } catch (e) {
      throw this.failure(method, e, opts.signal);
    }
  }

  private async query<T>(method: string, q: ChQuery, shape: RowShape<T>): Promise<T[]> {
    return this.read(method, (opts) => columnRows(this.column, q, opts, shape));
  }

  /** Whether the query returns a row (its columns are not read). */
  private async exists(method: string, q: ChQuery): Promise<boolean> {
    return (await this.read(method, (opts) => this.column.query(q, opts))).length > 0;
  }

  private async read<T>(method: string, run: (opts: ColumnQueryOptions) => Promise<T>): Promise<T> {
    const opts: ColumnQueryOptions = { name: `SynapseReadStore.${method}`, maxExecutionTime: READ_MAX_EXECUTION_S };
    try {
      return await run(opts);
    } catch (e) {
      throw this.failure(method, e);
    }
  }

  private failure(method: string, e: unknown, signal?: AbortSignal): Error {
    if (e instanceof AppError) return e;
    const aborted = signal ?? currentRequestScope()?.signal;
    if (aborted?.aborted) return abortError(aborted);
    const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
    return new Error(`SynapseReadStore.${method} failed: ${message}`, { cause: e });
  }
}

function synapseConditions(f: SynapseFilter): ChQuery[] {
  const parts: ChQuery[] = [];
  if (f.pre) parts.push(inList('pre', f.pre));
  if (f.post) parts.push(inList('post', f.post));
  if (f.rois) parts.push(inList('roi', f.rois));
  if (f.transmitters) parts.push(inList('transmitter', f.transmitters));
  if (f.bbox) {
    (['x', 'y', 'z'] as const).forEach((axis, i) => {
      parts.push(ch`${ident(axis)} >= ${typed(finite('bbox', f.bbox!.min[i]), 'Float64')} AND ${ident(axis)} <= ${typed(finite('bbox', f.bbox!.max[i]), 'Float64')}`);
    });
  }
  const scores: Array<[string, number | undefined]> = [
    ['confidence', f.minConfidence],
    ['cleft_score', f.minCleftScore],
    ['connection_score', f.minConnectionScore],
  ];
  // The scores are stored as Float32: the threshold is compared as a Float32 too, so that 0.95 keeps the synapses
  // whose file says 0.95 (as a double, the stored 0.95 is 0.949999988...).
  for (const [column, min] of scores) if (min !== undefined) parts.push(ch`${ident(column)} >= toFloat32(${typed(finite(`min_${column}`, min), 'Float64')})`);
  return parts;
}

/** `(pre, post, synapse_id) > (a, b, c)` written out (no tuple comparison on 18.16). */
function after(c: SynapseCursor): ChQuery {
  return ch`(pre > ${c.pre} OR (pre = ${c.pre} AND (post > ${c.post} OR (post = ${c.post} AND synapse_id > ${c.synapseId}))))`;
}

/**
 * The rows a synapse read selects, as a subquery of SYNAPSE_COLUMNS. A filter on one side reads the table ordered by
 * that side; either side is the rows with a listed pre (by pre) and those with a listed post and another pre (by
 * post), so each row comes once.
 */
function synapseSource(at: VersionRef, f: SynapseFilter, cursor?: SynapseCursor): ChQuery {
  const base = [...synapseConditions(f), ...(cursor ? [after(cursor)] : [])];
  const select = (table: string, extra: ChQuery[]) => ch`SELECT ${raw(SYNAPSE_COLUMNS)} FROM ${ident(table)} WHERE ${version(at)}${and([...extra, ...base])}`;
  if (f.neurons) {
    return ch`${select('synapses', [inList('pre', f.neurons)])} UNION ALL ${select('synapses_by_post', [inList('post', f.neurons), ch`NOT ${inList('pre', f.neurons)}`])}`;
  }
  return select(f.post && !f.pre ? 'synapses_by_post' : 'synapses', []);
}

function roiConnectionSource(at: VersionRef, f: RoiConnectionFilter, groupByRoi: boolean): ChQuery {
  const parts: ChQuery[] = [];
  if (f.neurons) parts.push(ch`(${inList('pre', f.neurons)} OR ${inList('post', f.neurons)})`);
  if (f.pre) parts.push(inList('pre', f.pre));
  if (f.post) parts.push(inList('post', f.post));
  if (f.rois) parts.push(inList('roi', f.rois));
  const having = f.minWeight === undefined ? raw('') : ch` HAVING w >= ${typed(finite('min_weight', f.minWeight), 'Float64')}`;
  // ROIs without neurons: the copy in ROI order reads only those ROIs' key ranges.
  const table = f.rois && !f.neurons && !f.pre && !f.post ? 'roi_connections_by_roi' : 'roi_connections';
  return ch`SELECT pre, post${raw(groupByRoi ? ', roi' : '')}, sum(weight) AS w FROM ${ident(table)} WHERE ${version(at)}${and(parts)}
    GROUP BY pre, post${raw(groupByRoi ? ', roi' : '')}${having}`;
}

const EXTRA = z.record(z.string(), z.unknown());

/** The `extra` column: a JSON object of text values; anything else reads as empty rather than failing the read. */
function parseExtra(text: string): Record<string, string> {
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  const v = EXTRA.safeParse(parsed);
  if (!v.success) return {};
  return Object.fromEntries(Object.entries(v.data).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)]));
}
