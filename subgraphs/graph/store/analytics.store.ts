import type { ColumnStore } from '../../../lib/column/column.js';
import { chCol, columnRows } from '../../../lib/column/rows.js';
import { ch, typed, type ChQuery } from '../../../lib/column/sql.js';
import { rowOf, type RowShape } from '../../../lib/db/rows.js';

/**
 * The analytics' reads of the neurodata column tables (docs/neurodata-tables.md): every figure is aggregated by
 * ClickHouse, so what comes back is a handful of rows however large the connectome. The caller got (datasetId,
 * version) from the neurodata access function.
 */

/** Seconds an aggregate over a whole connectome may take (FlyWire's 15 million rows take about one). */
const READ_SECONDS = 300;

export interface Version {
  datasetId: string;
  version: number;
}

export interface ValueCount {
  value: string;
  n: number;
}

const SYNAPSE_TYPES = ['chemical', 'electrical'] as const;
export type SynapseType = (typeof SYNAPSE_TYPES)[number];

export interface ConnectionTotals {
  synapse_type: SynapseType;
  rows: number;
  weight: number;
  min_weight: number;
  max_weight: number;
  self_loops: number;
  q25: number;
  median: number;
  q75: number;
  q90: number;
  q99: number;
}

export interface WeightBin {
  synapse_type: SynapseType;
  /** The bin holds weights in [2^exponent, 2^(exponent+1)). */
  exponent: number;
  n: number;
}

export interface MorphologyTotals {
  files: number;
  neurons: number;
  points: number;
  total_length: number;
  mean_total_length: number | null;
  mean_tips: number | null;
  mean_bifurcations: number | null;
  mean_stems: number | null;
}

export interface MorphologyFile {
  neuron: string;
  file: string;
  object_key: string;
  sha256: string;
  n_points: number;
}

/** Mutual and one-way dyads of the chemical graph, self-loops left out. */
export interface DyadCounts {
  mutual: number;
  asymmetric: number;
}

export type ClassField = 'cell_class' | 'cell_type';

export interface RegionPair {
  pre_region: string;
  post_region: string;
  n: number;
  weight: number;
}

const COUNT = rowOf({ n: chCol.int }, (r) => r.n);
const VALUE_COUNT = rowOf({ value: chCol.text, n: chCol.int });
const NEURON_COUNTS = rowOf({ cells: chCol.int, neurons: chCol.int, with_region: chCol.int, with_position: chCol.int });

const CONNECTION_TOTALS = rowOf(
  {
    type: chCol.oneOf(SYNAPSE_TYPES),
    n: chCol.int,
    w: chCol.float,
    lo: chCol.float,
    hi: chCol.float,
    self: chCol.int,
    q: chCol.float.array().length(5),
  },
  (r): ConnectionTotals => ({
    synapse_type: r.type,
    rows: r.n,
    weight: r.w,
    min_weight: r.lo,
    max_weight: r.hi,
    self_loops: r.self,
    q25: r.q[0],
    median: r.q[1],
    q75: r.q[2],
    q90: r.q[3],
    q99: r.q[4],
  }),
);

const WEIGHT_BIN = rowOf({ type: chCol.oneOf(SYNAPSE_TYPES), e: chCol.int, n: chCol.int }, (r): WeightBin => ({ synapse_type: r.type, exponent: r.e, n: r.n }));

/** Averages of no rows are null. */
const MORPHOLOGY_TOTALS = rowOf({
  files: chCol.int,
  neurons: chCol.int,
  points: chCol.int,
  len: chCol.float,
  mean_len: chCol.float.nullable(),
  tips: chCol.float.nullable(),
  bif: chCol.float.nullable(),
  stems: chCol.float.nullable(),
});

const MORPHOLOGY_FILE = rowOf({ neuron: chCol.text, file: chCol.text, object_key: chCol.text, sha256: chCol.text, n_points: chCol.int });
const DYADS = rowOf({ mutual: chCol.int, asymmetric: chCol.int });
const DEGREE = rowOf({ d: chCol.int }, (r) => r.d);
const REGION_PAIR = rowOf(
  { pre_region: chCol.text, post_region: chCol.text, n: chCol.int, w: chCol.float },
  (r): RegionPair => ({ pre_region: r.pre_region, post_region: r.post_region, n: r.n, weight: r.w }),
);

const where = (v: Version): ChQuery => ch`dataset_id = ${v.datasetId} AND version = ${typed(v.version, 'UInt32')}`;
/** Column names travel as SQL text; only these two ever do. */
const classColumn = (field: ClassField): ChQuery => (field === 'cell_type' ? ch`cell_type` : ch`cell_class`);

export class AnalyticsStore {
  constructor(private readonly column: ColumnStore) {}

  private async rows<T>(name: string, q: ChQuery, shape: RowShape<T>): Promise<T[]> {
    return columnRows(this.column, q, { name, maxExecutionTime: READ_SECONDS }, shape);
  }

  async neuronCounts(v: Version): Promise<{ cells: number; neurons: number; with_region: number; with_position: number }> {
    const [r] = await this.rows(
      'AnalyticsStore.neuronCounts',
      ch`SELECT count() AS cells, countIf(is_neuron = 1) AS neurons, countIf(region_code != '') AS with_region, countIf(isNotNull(x)) AS with_position
         FROM neurons WHERE ${where(v)}`,
      NEURON_COUNTS,
    );
    return r ?? { cells: 0, neurons: 0, with_region: 0, with_position: 0 };
  }

  /** Cells per value of a neuron column, largest first; '' is the cells without a value. */
  async neuronsBy(v: Version, column: 'cell_class' | 'cell_type' | 'region_code'): Promise<ValueCount[]> {
    const col = column === 'cell_class' ? ch`cell_class` : column === 'cell_type' ? ch`cell_type` : ch`region_code`;
    return this.rows(
      `AnalyticsStore.neuronsBy.${column}`,
      ch`SELECT ${col} AS value, count() AS n FROM neurons WHERE ${where(v)} GROUP BY value ORDER BY n DESC, value`,
      VALUE_COUNT,
    );
  }

  /** Cells per transmitter: a cell with several (`Glutamate|Serotonin`) counts for each; '' is the cells with none. */
  async neuronsByTransmitter(v: Version): Promise<ValueCount[]> {
    return this.rows(
      'AnalyticsStore.neuronsByTransmitter',
      ch`SELECT arrayJoin(splitByChar('|', neurotransmitter)) AS value, count() AS n FROM neurons WHERE ${where(v)} GROUP BY value ORDER BY n DESC, value`,
      VALUE_COUNT,
    );
  }

  async connectionTotals(v: Version): Promise<ConnectionTotals[]> {
    return this.rows(
      'AnalyticsStore.connectionTotals',
      ch`SELECT toString(synapse_type) AS type, count() AS n, sum(weight) AS w, min(weight) AS lo, max(weight) AS hi, countIf(pre = post) AS self,
                quantilesExact(0.25, 0.5, 0.75, 0.9, 0.99)(weight) AS q
         FROM connections WHERE ${where(v)} GROUP BY type ORDER BY type`,
      CONNECTION_TOTALS,
    );
  }

  /** Connection rows per power-of-two weight bin and synapse type. */
  async weightBins(v: Version): Promise<WeightBin[]> {
    return this.rows(
      'AnalyticsStore.weightBins',
      ch`SELECT toString(synapse_type) AS type, toInt32(floor(log2(weight))) AS e, count() AS n
         FROM connections WHERE ${where(v)} AND weight > 0 GROUP BY type, e ORDER BY type, e`,
      WEIGHT_BIN,
    );
  }

  async morphologyTotals(v: Version): Promise<MorphologyTotals> {
    const [r] = await this.rows(
      'AnalyticsStore.morphologyTotals',
      ch`SELECT count() AS files, uniqExact(neuron) AS neurons, sum(n_points) AS points, sum(total_length) AS len,
                avg(total_length) AS mean_len, avg(n_tips) AS tips, avg(n_bifurcations) AS bif, avg(n_stems) AS stems
         FROM morphologies WHERE ${where(v)}`,
      MORPHOLOGY_TOTALS,
    );
    const files = r?.files ?? 0;
    const mean = (x: number | null | undefined) => (files > 0 ? (x ?? null) : null);
    return {
      files,
      neurons: r?.neurons ?? 0,
      points: r?.points ?? 0,
      total_length: files > 0 ? r.len : 0,
      mean_total_length: mean(r?.mean_len),
      mean_tips: mean(r?.tips),
      mean_bifurcations: mean(r?.bif),
      mean_stems: mean(r?.stems),
    };
  }

  /** The morphology files of a version (of one neuron when given), by neuron and file name; at most `limit`. */
  async morphologyFiles(v: Version, neuron: string | null, limit: number): Promise<{ files: MorphologyFile[]; total: number }> {
    const cond = neuron === null ? ch`` : ch` AND neuron = ${neuron}`;
    const [total] = await this.rows('AnalyticsStore.morphologyCount', ch`SELECT count() AS n FROM morphologies WHERE ${where(v)}${cond}`, COUNT);
    const files = await this.rows(
      'AnalyticsStore.morphologyFiles',
      ch`SELECT neuron, file, object_key, sha256, n_points FROM morphologies WHERE ${where(v)}${cond} ORDER BY neuron, file LIMIT ${checkedLimit(limit)}`,
      MORPHOLOGY_FILE,
    );
    return { total: total ?? 0, files };
  }

  /** Whether the version has a cell with this id. */
  async hasNeuron(v: Version, neuron: string): Promise<boolean> {
    const [n] = await this.rows('AnalyticsStore.hasNeuron', ch`SELECT count() AS n FROM neurons WHERE ${where(v)} AND neuron_id = ${neuron}`, COUNT);
    return (n ?? 0) > 0;
  }

  /**
   * Mutual and asymmetric dyads of the chemical graph without self-loops: a version has at most one chemical row
   * per ordered pair, so an unordered pair seen twice is mutual. (`if` rather than least/greatest, which take no
   * strings on ClickHouse 18.16.)
   */
  async chemicalDyads(v: Version): Promise<DyadCounts> {
    const [r] = await this.rows(
      'AnalyticsStore.chemicalDyads',
      ch`SELECT countIf(c = 2) AS mutual, countIf(c = 1) AS asymmetric FROM (
           SELECT if(pre < post, pre, post) AS a, if(pre < post, post, pre) AS b, count() AS c
           FROM connections WHERE ${where(v)} AND synapse_type = 'chemical' AND pre != post GROUP BY a, b)`,
      DYADS,
    );
    return r ?? { mutual: 0, asymmetric: 0 };
  }

  /** Cells of each class (or type) value among `values`. */
  async classSizes(v: Version, field: ClassField, values: string[]): Promise<Map<string, number>> {
    const rows = await this.rows(
      'AnalyticsStore.classSizes',
      ch`SELECT ${classColumn(field)} AS value, count() AS n FROM neurons WHERE ${where(v)} AND has(${typed(values, 'Array(String)')}, ${classColumn(field)}) GROUP BY value`,
      VALUE_COUNT,
    );
    return new Map(rows.map((r) => [r.value, r.n]));
  }

  /** Chemical arcs (self-loops left out) from cells of class `pre` to cells of class `post`. */
  async arcsBetween(v: Version, field: ClassField, pre: string, post: string): Promise<number> {
    const members = (value: string) => ch`SELECT neuron_id FROM neurons WHERE ${where(v)} AND ${classColumn(field)} = ${value}`;
    const [n] = await this.rows(
      'AnalyticsStore.arcsBetween',
      ch`SELECT count() AS n FROM connections WHERE ${where(v)} AND synapse_type = 'chemical' AND pre != post
         AND pre IN (${members(pre)}) AND post IN (${members(post)})`,
      COUNT,
    );
    return n ?? 0;
  }

  /** In-degree (distinct chemical presynaptic partners, self-loops left out) of the cells of a class that have inputs. */
  async inDegrees(v: Version, field: ClassField, value: string): Promise<number[]> {
    return this.rows(
      'AnalyticsStore.inDegrees',
      ch`SELECT count() AS d FROM connections WHERE ${where(v)} AND synapse_type = 'chemical' AND pre != post
         AND post IN (SELECT neuron_id FROM neurons WHERE ${where(v)} AND ${classColumn(field)} = ${value}) GROUP BY post`,
      DEGREE,
    );
  }

  /**
   * Chemical connection rows and weight between the regions of their cells (self-loops included, cells without a
   * region under ''): at most one row per pair of region codes, however large the connectome.
   */
  async regionPairs(v: Version): Promise<RegionPair[]> {
    const cells = (key: string, region: string) => ch`SELECT neuron_id AS ${raw(key)}, region_code AS ${raw(region)} FROM neurons WHERE ${where(v)}`;
    return this.rows(
      'AnalyticsStore.regionPairs',
      ch`SELECT pre_region, post_region, count() AS n, sum(weight) AS w FROM (
           SELECT pre_region, post, weight FROM (SELECT pre, post, weight FROM connections WHERE ${where(v)} AND synapse_type = 'chemical') AS c
           ALL INNER JOIN (${cells('pre', 'pre_region')}) AS a USING (pre)
         ) AS d ALL INNER JOIN (${cells('post', 'post_region')}) AS b USING (post)
         GROUP BY pre_region, post_region`,
      REGION_PAIR,
    );
  }
}

/** LIMIT takes no query parameter on ClickHouse 18.16: a checked integer is written into the SQL. */
function checkedLimit(n: number): ChQuery {
  if (!Number.isInteger(n) || n < 0 || n > 1e7) throw new Error(`bad limit ${n}`);
  return raw(String(n));
}

function raw(text: string): ChQuery {
  return { sql: text, params: {} };
}
