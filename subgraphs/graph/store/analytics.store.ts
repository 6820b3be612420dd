import type { ColumnStore } from '../../../lib/column/column.js';
import { ch, typed, type ChQuery } from '../../../lib/column/sql.js';

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

export interface ConnectionTotals {
  synapse_type: 'chemical' | 'electrical';
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
  synapse_type: 'chemical' | 'electrical';
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

const num = (v: unknown): number => Number(v);
const where = (v: Version): ChQuery => ch`dataset_id = ${v.datasetId} AND version = ${typed(v.version, 'UInt32')}`;
/** Column names travel as SQL text; only these two ever do. */
const classColumn = (field: ClassField): ChQuery => (field === 'cell_type' ? ch`cell_type` : ch`cell_class`);

export class AnalyticsStore {
  constructor(private readonly column: ColumnStore) {}

  private async rows<T>(name: string, q: ChQuery): Promise<T[]> {
    return this.column.query<T>(q, { name, maxExecutionTime: READ_SECONDS });
  }

  async neuronCounts(v: Version): Promise<{ cells: number; neurons: number; with_region: number; with_position: number }> {
    const [r] = await this.rows<Record<string, unknown>>(
      'AnalyticsStore.neuronCounts',
      ch`SELECT count() AS cells, countIf(is_neuron = 1) AS neurons, countIf(region_code != '') AS with_region, countIf(isNotNull(x)) AS with_position
         FROM neurons WHERE ${where(v)}`,
    );
    return { cells: num(r?.cells ?? 0), neurons: num(r?.neurons ?? 0), with_region: num(r?.with_region ?? 0), with_position: num(r?.with_position ?? 0) };
  }

  /** Cells per value of a neuron column, largest first; '' is the cells without a value. */
  async neuronsBy(v: Version, column: 'cell_class' | 'cell_type' | 'region_code'): Promise<ValueCount[]> {
    const col = column === 'cell_class' ? ch`cell_class` : column === 'cell_type' ? ch`cell_type` : ch`region_code`;
    const rows = await this.rows<{ value: string; n: unknown }>(
      `AnalyticsStore.neuronsBy.${column}`,
      ch`SELECT ${col} AS value, count() AS n FROM neurons WHERE ${where(v)} GROUP BY value ORDER BY n DESC, value`,
    );
    return rows.map((r) => ({ value: r.value, n: num(r.n) }));
  }

  /** Cells per transmitter: a cell with several (`Glutamate|Serotonin`) counts for each; '' is the cells with none. */
  async neuronsByTransmitter(v: Version): Promise<ValueCount[]> {
    const rows = await this.rows<{ value: string; n: unknown }>(
      'AnalyticsStore.neuronsByTransmitter',
      ch`SELECT arrayJoin(splitByChar('|', neurotransmitter)) AS value, count() AS n FROM neurons WHERE ${where(v)} GROUP BY value ORDER BY n DESC, value`,
    );
    return rows.map((r) => ({ value: r.value, n: num(r.n) }));
  }

  async connectionTotals(v: Version): Promise<ConnectionTotals[]> {
    const rows = await this.rows<Record<string, unknown>>(
      'AnalyticsStore.connectionTotals',
      ch`SELECT toString(synapse_type) AS type, count() AS n, sum(weight) AS w, min(weight) AS lo, max(weight) AS hi, countIf(pre = post) AS self,
                quantilesExact(0.25, 0.5, 0.75, 0.9, 0.99)(weight) AS q
         FROM connections WHERE ${where(v)} GROUP BY type ORDER BY type`,
    );
    return rows.map((r) => {
      const q = (r.q as unknown[]).map(num);
      return {
        synapse_type: r.type as 'chemical' | 'electrical',
        rows: num(r.n),
        weight: num(r.w),
        min_weight: num(r.lo),
        max_weight: num(r.hi),
        self_loops: num(r.self),
        q25: q[0],
        median: q[1],
        q75: q[2],
        q90: q[3],
        q99: q[4],
      };
    });
  }

  /** Connection rows per power-of-two weight bin and synapse type. */
  async weightBins(v: Version): Promise<WeightBin[]> {
    const rows = await this.rows<Record<string, unknown>>(
      'AnalyticsStore.weightBins',
      ch`SELECT toString(synapse_type) AS type, toInt32(floor(log2(weight))) AS e, count() AS n
         FROM connections WHERE ${where(v)} AND weight > 0 GROUP BY type, e ORDER BY type, e`,
    );
    return rows.map((r) => ({ synapse_type: r.type as 'chemical' | 'electrical', exponent: num(r.e), n: num(r.n) }));
  }

  async morphologyTotals(v: Version): Promise<MorphologyTotals> {
    const [r] = await this.rows<Record<string, unknown>>(
      'AnalyticsStore.morphologyTotals',
      ch`SELECT count() AS files, uniqExact(neuron) AS neurons, sum(n_points) AS points, sum(total_length) AS len,
                avg(total_length) AS mean_len, avg(n_tips) AS tips, avg(n_bifurcations) AS bif, avg(n_stems) AS stems
         FROM morphologies WHERE ${where(v)}`,
    );
    const files = num(r?.files ?? 0);
    const mean = (x: unknown) => (files > 0 ? num(x) : null);
    return {
      files,
      neurons: num(r?.neurons ?? 0),
      points: num(r?.points ?? 0),
      total_length: files > 0 ? num(r.len) : 0,
      mean_total_length: mean(r?.mean_len),
      mean_tips: mean(r?.tips),
      mean_bifurcations: mean(r?.bif),
      mean_stems: mean(r?.stems),
    };
  }

  /** The morphology files of a version (of one neuron when given), by neuron and file name; at most `limit`. */
  async morphologyFiles(v: Version, neuron: string | null, limit: number): Promise<{ files: MorphologyFile[]; total: number }> {
    const cond = neuron === null ? ch`` : ch` AND neuron = ${neuron}`;
    const [count] = await this.rows<{ n: unknown }>('AnalyticsStore.morphologyCount', ch`SELECT count() AS n FROM morphologies WHERE ${where(v)}${cond}`);
    const files = await this.rows<Record<string, unknown>>(
      'AnalyticsStore.morphologyFiles',
      ch`SELECT neuron, file, object_key, sha256, n_points FROM morphologies WHERE ${where(v)}${cond} ORDER BY neuron, file LIMIT ${checkedLimit(limit)}`,
    );
    return {
      total: num(count?.n ?? 0),
      files: files.map((r) => ({ neuron: r.neuron as string, file: r.file as string, object_key: r.object_key as string, sha256: r.sha256 as string, n_points: num(r.n_points) })),
    };
  }

  /** Whether the version has a cell with this id. */
  async hasNeuron(v: Version, neuron: string): Promise<boolean> {
    const [r] = await this.rows<{ n: unknown }>('AnalyticsStore.hasNeuron', ch`SELECT count() AS n FROM neurons WHERE ${where(v)} AND neuron_id = ${neuron}`);
    return num(r?.n ?? 0) > 0;
  }

  /**
   * Mutual and asymmetric dyads of the chemical graph without self-loops: a version has at most one chemical row
   * per ordered pair, so an unordered pair seen twice is mutual. (`if` rather than least/greatest, which take no
   * strings on ClickHouse 18.16.)
   */
  async chemicalDyads(v: Version): Promise<DyadCounts> {
    const [r] = await this.rows<Record<string, unknown>>(
      'AnalyticsStore.chemicalDyads',
      ch`SELECT countIf(c = 2) AS mutual, countIf(c = 1) AS asymmetric FROM (
           SELECT if(pre < post, pre, post) AS a, if(pre < post, post, pre) AS b, count() AS c
           FROM connections WHERE ${where(v)} AND synapse_type = 'chemical' AND pre != post GROUP BY a, b)`,
    );
    return { mutual: num(r?.mutual ?? 0), asymmetric: num(r?.asymmetric ?? 0) };
  }

  /** Cells of each class (or type) value among `values`. */
  async classSizes(v: Version, field: ClassField, values: string[]): Promise<Map<string, number>> {
    const rows = await this.rows<{ value: string; n: unknown }>(
      'AnalyticsStore.classSizes',
      ch`SELECT ${classColumn(field)} AS value, count() AS n FROM neurons WHERE ${where(v)} AND has(${typed(values, 'Array(String)')}, ${classColumn(field)}) GROUP BY value`,
    );
    return new Map(rows.map((r) => [r.value, num(r.n)]));
  }

  /** Chemical arcs (self-loops left out) from cells of class `pre` to cells of class `post`. */
  async arcsBetween(v: Version, field: ClassField, pre: string, post: string): Promise<number> {
    const members = (value: string) => ch`SELECT neuron_id FROM neurons WHERE ${where(v)} AND ${classColumn(field)} = ${value}`;
    const [r] = await this.rows<{ n: unknown }>(
      'AnalyticsStore.arcsBetween',
      ch`SELECT count() AS n FROM connections WHERE ${where(v)} AND synapse_type = 'chemical' AND pre != post
         AND pre IN (${members(pre)}) AND post IN (${members(post)})`,
    );
    return num(r?.n ?? 0);
  }

  /** In-degree (distinct chemical presynaptic partners, self-loops left out) of the cells of a class that have inputs. */
  async inDegrees(v: Version, field: ClassField, value: string): Promise<number[]> {
    const rows = await this.rows<{ d: unknown }>(
      'AnalyticsStore.inDegrees',
      ch`SELECT count() AS d FROM connections WHERE ${where(v)} AND synapse_type = 'chemical' AND pre != post
         AND post IN (SELECT neuron_id FROM neurons WHERE ${where(v)} AND ${classColumn(field)} = ${value}) GROUP BY post`,
    );
    return rows.map((r) => num(r.d));
  }

  /**
   * Chemical connection rows and weight between the regions of their cells (self-loops included, cells without a
   * region under ''): at most one row per pair of region codes, however large the connectome.
   */
  async regionPairs(v: Version): Promise<RegionPair[]> {
    const cells = (key: string, region: string) => ch`SELECT neuron_id AS ${raw(key)}, region_code AS ${raw(region)} FROM neurons WHERE ${where(v)}`;
    const rows = await this.rows<Record<string, unknown>>(
      'AnalyticsStore.regionPairs',
      ch`SELECT pre_region, post_region, count() AS n, sum(weight) AS w FROM (
           SELECT pre_region, post, weight FROM (SELECT pre, post, weight FROM connections WHERE ${where(v)} AND synapse_type = 'chemical') AS c
           ALL INNER JOIN (${cells('pre', 'pre_region')}) AS a USING (pre)
         ) AS d ALL INNER JOIN (${cells('post', 'post_region')}) AS b USING (post)
         GROUP BY pre_region, post_region`,
    );
    return rows.map((r) => ({ pre_region: r.pre_region as string, post_region: r.post_region as string, n: num(r.n), weight: num(r.w) }));
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
