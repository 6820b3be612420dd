import { exportArrow, type ExportResult } from '../../../lib/column/arrow-export.js';
import type { ArrowColumn } from '../../../lib/column/arrow.task.js';
import { engineCodeOf, type ColumnQueryOptions, type ColumnStore } from '../../../lib/column/column.js';
import { chCol, columnRows } from '../../../lib/column/rows.js';
import { rowOf, type RowShape } from '../../../lib/db/rows.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ObjectStore } from '../../../lib/objects/objects.js';
import { ch, ident, join, quoteString, typed, type ChQuery } from '../../../lib/column/sql.js';
import { AppError, BadInput } from '../../../lib/errors.js';
import { abortError, currentRequestScope } from '../../../lib/request-scope.js';
import type { RowCounts } from '../dataset.model.js';
import { DATA_TABLES, type DataTable } from './clickhouse/columns.js';
import { partitionTarget } from './clickhouse/migrations.js';
import { unescapeTsv } from '../../../lib/column/tsv.js';
import type { MorphologySummary } from '../../../domain/morphology/summary.js';
import * as derive from './synapse-derive.js';

const SYNAPSE_TYPES = ['chemical', 'electrical'] as const;
export type SynapseType = (typeof SYNAPSE_TYPES)[number];

/** Connection counts of one dataset version; weights in the dataset's weight unit (its `weight_unit`). */
export interface ConnectionStats {
  chemicalConnections: number;
  electricalConnections: number;
  totalWeightChemical: number;
  totalWeightElectrical: number;
  /** Rows whose pre and post are the same cell. */
  chemicalSelfLoops: number;
  electricalSelfLoops: number;
}

export interface NeuronRow {
  neuronId: string;
  name: string;
  cellClass: string;
  cellType: string;
  /** Several transmitters are joined with '|'; empty when none is known. */
  neurotransmitter: string;
  /** False for the non-neuronal cells that are connection targets (muscles, glia, ...). */
  isNeuron: boolean;
  regionCode: string;
  /** Soma position in the dataset's own coordinate space and unit; null where the dataset gives none. */
  x: number | null;
  y: number | null;
  z: number | null;
}

/**
 * One connection. Chemical rows are directed; an electrical row stands for its unordered pair, stored once with
 * pre <= post. `weight` is in the dataset's weight unit (synapse count, contact sections, ...).
 */
export interface ConnectionRow {
  pre: string;
  post: string;
  synapseType: SynapseType;
  weight: number;
}

/** A slice of a version's connections as columns. */
export interface ConnectionBatch {
  pre: string[];
  post: string[];
  /** 1 chemical, 2 electrical (the stored enum's codes). */
  synapseType: Uint8Array;
  weight: Float64Array;
}

/** A morphology summary row as read back: soma and bounding box as coordinates (ingest/swc.ts has the flat form it is written in). */
export interface StoredMorphology extends Pick<MorphologySummary, 'nPoints' | 'nSomaPoints' | 'nStems' | 'nBifurcations' | 'nTips' | 'totalLength'> {
  neuron: string;
  file: string;
  /** Where the morphology file is kept in object storage. */
  objectKey: string;
  sha256: string;
  /** Soma centre, null when the file has no soma point. */
  soma: [number, number, number] | null;
  boundingBox: { min: [number, number, number]; max: [number, number, number] };
}

export interface ReadOptions {
  /** At most this many rows (a non-negative integer); all when absent. */
  limit?: number;
  /** Rows skipped before the first one returned (a non-negative integer); default 0. */
  offset?: number;
}

/** Which neurons a read keeps; every condition given must hold. Lists are checked and bounded by the caller. */
export interface NeuronFilter {
  neuronIds?: readonly string[];
  names?: readonly string[];
  cellClasses?: readonly string[];
  cellTypes?: readonly string[];
  isNeuron?: boolean;
}

/** Which connections a read keeps; every condition given must hold. */
export interface ConnectionFilter {
  /** Rows whose pre or post is one of these cells. */
  neuronIds?: readonly string[];
  pre?: readonly string[];
  post?: readonly string[];
  synapseType?: SynapseType;
  /** Rows of at least this weight. */
  minWeight?: number;
}

/** Options of a read of a whole version streamed in batches. */
interface ScanOptions {
  signal?: AbortSignal;
  /** Seconds the statement may run, the caller's time on each batch included (default 600). */
  maxExecutionTime?: number;
}

export type RowsTable = 'neurons' | 'connections';

/** One dataset version. */
export interface VersionRef {
  datasetId: string;
  version: number;
}

/** Rows of a version's tables after a derive step. */
export interface DerivedCounts {
  synapses: number;
  roiConnections: number;
  connections: number;
  neuronRois: number;
}

/** What a version's synapses hold (the checks of an upload, before it is published). */
export interface SynapseSummary {
  synapses: number;
  /** Rows with both pre and post known. */
  withBothPartners: number;
  /** Rows with one side unknown (a per-neuron T-bar or postsynaptic density). */
  pointsOnly: number;
  /** Distinct ids on either side of a synapse that have no row in the version's `neurons`. */
  partnersNotNeurons: number;
  /** Distinct non-empty ids on either side. */
  neurons: number;
  /** Distinct non-empty ROIs. */
  rois: number;
}

/** The columns of the Arrow answers of the neurons and connections routes, in the order of their SQL. */
export const ROW_EXPORT_COLUMNS: Record<RowsTable, ArrowColumn[]> = {
  neurons: [
    ...['neuron_id', 'name', 'cell_class', 'cell_type', 'neurotransmitter'].map((name) => ({ name, type: 'string' as const, nullable: false, chType: 'String' })),
    { name: 'is_neuron', type: 'boolean', nullable: false, chType: 'UInt8' },
    { name: 'region', type: 'string', nullable: false, chType: 'String' },
    ...['x', 'y', 'z'].map((name) => ({ name, type: 'float' as const, nullable: true, chType: 'Nullable(Float64)' })),
  ],
  connections: [
    { name: 'pre', type: 'string', nullable: false, chType: 'String' },
    { name: 'post', type: 'string', nullable: false, chType: 'String' },
    { name: 'synapse_type', type: 'string', nullable: false, chType: 'String' },
    { name: 'weight', type: 'float', nullable: false, chType: 'Float64' },
  ],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_VERSION = 0xffffffff;
const TABLES = Object.keys(DATA_TABLES) as DataTable[];
/** The tables rowCounts counts plainly (neurons and connections have their own branches). */
const COUNTED_TABLES: DataTable[] = ['morphologies', 'synapses', 'roi_connections', 'neuron_annotations', 'rois', 'neuron_rois'];
const columnNames = (table: DataTable) => DATA_TABLES[table].map(([name]) => name);

/** Rows of at most this many are read as JSON; full reads of a version's connections go through scanConnections. */
const BATCH_ROWS = 65_536;
/** ClickHouse's code for a merge cancelled from outside (ABORTED: "Cancelled merging parts"). */
const MERGE_CANCELLED = 236;
/** Attempts of one table's compaction when its merge is cancelled, and the wait before the next (times the attempt). */
const COMPACT_ATTEMPTS = 5;
const COMPACT_RETRY_MS = 200;

const NEURON = rowOf(
  {
    neuron_id: chCol.text,
    name: chCol.text,
    cell_class: chCol.text,
    cell_type: chCol.text,
    neurotransmitter: chCol.text,
    is_neuron: chCol.flag,
    region_code: chCol.text,
    x: chCol.float.nullable(),
    y: chCol.float.nullable(),
    z: chCol.float.nullable(),
  },
  (r): NeuronRow => ({
    neuronId: r.neuron_id,
    name: r.name,
    cellClass: r.cell_class,
    cellType: r.cell_type,
    neurotransmitter: r.neurotransmitter,
    isNeuron: r.is_neuron,
    regionCode: r.region_code,
    x: r.x,
    y: r.y,
    z: r.z,
  }),
);
/** The neurons' columns in the order of their pages and of their Arrow answer (ROW_EXPORT_COLUMNS.neurons). */
const NEURON_SELECT = NEURON.names.join(', ');

const CONNECTION = rowOf(
  { pre: chCol.text, post: chCol.text, synapse_type: chCol.oneOf(SYNAPSE_TYPES), weight: chCol.float },
  (r): ConnectionRow => ({ pre: r.pre, post: r.post, synapseType: r.synapse_type, weight: r.weight }),
);

const MORPHOLOGY = rowOf(
  {
    neuron: chCol.text,
    file: chCol.text,
    object_key: chCol.text,
    sha256: chCol.text,
    n_points: chCol.int,
    n_soma_points: chCol.int,
    n_stems: chCol.int,
    n_bifurcations: chCol.int,
    n_tips: chCol.int,
    total_length: chCol.float,
    soma_x: chCol.float.nullable(),
    soma_y: chCol.float.nullable(),
    soma_z: chCol.float.nullable(),
    min_x: chCol.float,
    min_y: chCol.float,
    min_z: chCol.float,
    max_x: chCol.float,
    max_y: chCol.float,
    max_z: chCol.float,
  },
  (r): StoredMorphology => ({
    neuron: r.neuron,
    file: r.file,
    objectKey: r.object_key,
    sha256: r.sha256,
    nPoints: r.n_points,
    nSomaPoints: r.n_soma_points,
    nStems: r.n_stems,
    nBifurcations: r.n_bifurcations,
    nTips: r.n_tips,
    totalLength: r.total_length,
    soma: r.soma_x !== null && r.soma_y !== null && r.soma_z !== null ? [r.soma_x, r.soma_y, r.soma_z] : null,
    boundingBox: { min: [r.min_x, r.min_y, r.min_z], max: [r.max_x, r.max_y, r.max_z] },
  }),
);

const CONNECTION_STATS = rowOf(
  {
    chemical: chCol.int,
    electrical: chCol.int,
    weight_chemical: chCol.float,
    weight_electrical: chCol.float,
    loops_chemical: chCol.int,
    loops_electrical: chCol.int,
  },
  (r): ConnectionStats => ({
    chemicalConnections: r.chemical,
    electricalConnections: r.electrical,
    totalWeightChemical: r.weight_chemical,
    totalWeightElectrical: r.weight_electrical,
    chemicalSelfLoops: r.loops_chemical,
    electricalSelfLoops: r.loops_electrical,
  }),
);

/** Rows of one table (`t`) of a version; rowCounts also splits the connections by synapse type. */
const TABLE_COUNT = rowOf({ t: chCol.text, n: chCol.int });
const TABLE_ROWS = rowOf({ t: chCol.text, n: chCol.int, chemical: chCol.int, electrical: chCol.int });
const COUNT = rowOf({ n: chCol.int }, (r) => r.n);
const NEURON_ID = rowOf({ neuron_id: chCol.text }, (r) => r.neuron_id);
const ROI_NAME = rowOf({ roi: chCol.text }, (r) => r.roi);
const SYNAPSE_ID = rowOf({ synapse_id: chCol.text }, (r) => r.synapse_id);
const SYNAPSE_ROWS = rowOf({ synapses: chCol.int, pairs: chCol.int, points: chCol.int, rois: chCol.int });
const SYNAPSE_NEURONS = rowOf({ neurons: chCol.int, strangers: chCol.int });

/**
 * The neurodata subgraph's column-store data: the neurons, connections and morphology summaries of every dataset
 * version (docs/neurodata-tables.md). Every row carries (dataset_id, version), and one (dataset_id, version) is a
 * partition of each table: written whole, dropped whole, never changed once published.
 *
 * Dataset ids are UUIDs and versions integers in [0, 2^32): anything else is a BadInput before any SQL is built.
 * Engine failures are rethrown as an Error naming the query (`DataStore.<method> failed`) with the driver's error
 * as `cause`; a query stopped because its request was aborted throws Timeout.
 */
export class DataStore {
  constructor(private readonly column: ColumnStore) {}

  /**
   * Inserts TabSeparated text into one table: each chunk whole lines ending in '\n', with the columns of
   * `store/clickhouse/columns.ts` in their order. Nothing is parsed here. Rows of a version should be written
   * into a version nobody reads yet (a draft), since a failed insert may leave some of them behind: drop the
   * version (or the table's rows of it) and write again.
   */
  async insertTsv(table: DataTable, chunks: Iterable<string> | AsyncIterable<string>, opts: { signal?: AbortSignal } = {}): Promise<void> {
    checkTable(table);
    await this.run('insertTsv', (o) => this.column.insertTsv(table, chunks, { ...o, columns: columnNames(table) }), opts.signal);
  }

  /** Removes every row of one dataset version from every data table. Dropping a version that has no rows is no error. */
  async dropVersion(datasetId: string, version: number): Promise<void> {
    for (const table of TABLES) await this.dropTableVersion(table, datasetId, version);
  }

  /** Removes one table's rows of a dataset version (to replace them in a draft). */
  async dropTableVersion(table: DataTable, datasetId: string, version: number): Promise<void> {
    checkTable(table);
    await this.command('dropTableVersion', ch`ALTER TABLE ${partitionTarget(this.column, table)} DROP PARTITION ${partitionOf(datasetId, version)}`);
  }

  /**
   * Makes version `to` a copy of version `from`, in every table (a new draft starting from the last published
   * version). Whatever `to` held is dropped first, so a copy that failed can simply be run again.
   */
  async copyVersion(datasetId: string, from: number, to: number): Promise<void> {
    checkDatasetId(datasetId);
    checkVersion(from, 'from');
    checkVersion(to, 'to');
    if (from === to) throw new BadInput('to: must differ from the version copied');
    await this.dropVersion(datasetId, to);
    for (const table of TABLES) {
      const names = columnNames(table);
      // The version column takes the new number; no alias, since an alias named `version` would shadow the column in WHERE.
      const select = join(names.map((name) => (name === 'version' ? ch`${typed(to, 'UInt32')}` : ch`${ident(name)}`)));
      await this.command(
        'copyVersion',
        ch`INSERT INTO ${ident(table)} (${raw(names.join(', '))}) SELECT ${select} FROM ${ident(table)} WHERE ${this.version(datasetId, from)}`,
      );
    }
  }

  /** The primary ROIs of a version's hierarchy (those synapses carry), by name. */
  async primaryRois(at: VersionRef): Promise<string[]> {
    return this.query('primaryRois', ch`SELECT roi FROM rois WHERE ${this.version(at.datasetId, at.version)} AND is_primary = 1 ORDER BY roi`, ROI_NAME);
  }

  /** Rows of each table for one dataset version (zeros for a version without data). */
  async rowCounts(datasetId: string, version: number): Promise<RowCounts> {
    const where = this.version(datasetId, version);
    const counted = (table: DataTable) => ch`UNION ALL SELECT ${table} AS t, count() AS n, toUInt64(0) AS chemical, toUInt64(0) AS electrical FROM ${ident(table)} WHERE ${where}`;
    const rows = await this.query(
      'rowCounts',
      ch`SELECT 'neurons' AS t, count() AS n, toUInt64(0) AS chemical, toUInt64(0) AS electrical FROM neurons WHERE ${where}
         UNION ALL SELECT 'connections' AS t, count() AS n, countIf(synapse_type = 'chemical') AS chemical, countIf(synapse_type = 'electrical') AS electrical FROM connections WHERE ${where}
         ${join(COUNTED_TABLES.map(counted), '\n         ')}`,
      TABLE_ROWS,
    );
    const by = new Map(rows.map((r) => [r.t, r]));
    const n = (table: DataTable) => by.get(table)?.n ?? 0;
    const connections = by.get('connections');
    return {
      neurons: n('neurons'),
      connections: n('connections'),
      chemicalConnections: connections?.chemical ?? 0,
      electricalConnections: connections?.electrical ?? 0,
      morphologies: n('morphologies'),
      synapses: n('synapses'),
      roiConnections: n('roi_connections'),
      neuronAnnotations: n('neuron_annotations'),
      rois: n('rois'),
      neuronRois: n('neuron_rois'),
    };
  }

  /**
   * Derives a synapse-level version's summary tables from its `synapses`, in the engine (docs/neurodata-tables.md,
   * "The derive step"): `synapses_by_post` always; `roi_connections` when some synapse has both partners (otherwise
   * the version's roi_connections, from a per-neuropil connection file say, are kept); `neuron_rois` always (replacing
   * any from a neuron table's roiInfo); `connections` from roi_connections when the version has any, and their copy
   * in ROI order (`roi_connections_by_roi`). Each table's
   * rows of the version are dropped before they are written again, so a derive that failed is simply run again.
   * Meant for a draft; a long statement (minutes for 54.5 M synapses), on the column store's background lane.
   */
  async deriveSynapseTables(at: VersionRef, opts: { signal?: AbortSignal } = {}): Promise<DerivedCounts> {
    const where = this.version(at.datasetId, at.version);
    await this.rederive('deriveSynapseTables', 'synapses_by_post', at, derive.synapsesByPostSql(where), opts.signal);
    if (await this.exists('deriveSynapseTables', derive.hasPairsSql(where))) {
      await this.rederive('deriveSynapseTables', 'roi_connections', at, derive.roiConnectionsSql(at, where), opts.signal);
    }
    await this.rederive('deriveSynapseTables', 'neuron_rois', at, derive.neuronRoisFromSynapsesSql(at, where), opts.signal);
    if (await this.exists('deriveSynapseTables', derive.hasRoiConnectionsSql(where))) {
      await this.rederive('deriveSynapseTables', 'connections', at, derive.connectionsFromRoiConnectionsSql(at, where), opts.signal);
    }
    await this.rederive('deriveSynapseTables', 'roi_connections_by_roi', at, derive.roiConnectionsByRoiSql(where), opts.signal);
    await this.compactVersion(at, opts);
    return this.derivedCounts('deriveSynapseTables', where);
  }

  /**
   * For a version with `roi_connections` but no synapses (a per-neuropil connection file): rewrites its `connections`
   * (one chemical row per pair, weight = the sum over ROIs) and `neuron_rois` (pre = downstream = outgoing weight in
   * the ROI, post = upstream = incoming weight, rounded to whole synapses) from them, in the engine.
   */
  async deriveFromRoiConnections(at: VersionRef, opts: { signal?: AbortSignal } = {}): Promise<DerivedCounts> {
    const where = this.version(at.datasetId, at.version);
    await this.rederive('deriveFromRoiConnections', 'connections', at, derive.connectionsFromRoiConnectionsSql(at, where), opts.signal);
    await this.rederive('deriveFromRoiConnections', 'neuron_rois', at, derive.neuronRoisFromRoiConnectionsSql(at, where), opts.signal);
    await this.rederive('deriveFromRoiConnections', 'roi_connections_by_roi', at, derive.roiConnectionsByRoiSql(where), opts.signal);
    await this.compactVersion(at, opts);
    return this.derivedCounts('deriveFromRoiConnections', where);
  }

  /**
   * Merges each synapse-level table's rows of a version into one part (one per shard on a cluster). An upload
   * writes a table in blocks of about a million rows, and every read of one neuron's synapses pays for each part
   * the version is spread over (at 54.5 M synapses, about 50 parts per table made one neuron's read take 40 ms
   * instead of a few). A version is compacted once, when its derived tables are built for publication: after that
   * its rows never change, which is the case ClickHouse's docs keep OPTIMIZE ... FINAL for.
   */
  async compactVersion(at: VersionRef, opts: { signal?: AbortSignal } = {}): Promise<void> {
    const partition = partitionOf(at.datasetId, at.version);
    for (const table of derive.COMPACTED_TABLES) {
      for (let attempt = 1; ; attempt++) {
        throwIfAborted(opts.signal);
        try {
          await this.run(
            'compactVersion',
            (o) => this.column.command(ch`OPTIMIZE TABLE ${partitionTarget(this.column, table)} PARTITION ${partition} FINAL`, { ...o, lane: 'background', maxExecutionTime: derive.DERIVE_SETTINGS.max_execution_time }),
            opts.signal,
          );
          break;
        } catch (e) {
          // ClickHouse 18.16 cancels every merge of a table while any of its partitions is dropped (another version
          // discarded or re-derived at that moment): the merge is only interrupted, so it is started again.
          if (engineCodeOf(e) !== MERGE_CANCELLED || attempt >= COMPACT_ATTEMPTS) throw e;
          // An abort ends the wait; the loop's check then answers it as every other step does.
          await sleep(COMPACT_RETRY_MS * attempt, undefined, { signal: opts.signal }).catch(() => undefined);
        }
      }
    }
  }

  /**
   * The first (in byte order) non-empty synapse id that occurs more than once in a version, or null: ids must be
   * unique in a version, and an upload in several part files can repeat one across them.
   */
  async checkSynapseIds(at: VersionRef, opts: { signal?: AbortSignal } = {}): Promise<string | null> {
    const [id] = await this.check('checkSynapseIds', derive.duplicateSynapseIdSql(this.version(at.datasetId, at.version)), SYNAPSE_ID, opts.signal);
    return id ?? null;
  }

  /** What a version's synapses hold: row counts, distinct neurons and ROIs, and the partner ids that are not neurons. */
  async synapseSummary(at: VersionRef, opts: { signal?: AbortSignal } = {}): Promise<SynapseSummary> {
    const where = this.version(at.datasetId, at.version);
    const [rows] = await this.check('synapseSummary', derive.synapseRowSummarySql(where), SYNAPSE_ROWS, opts.signal);
    const [ids] = await this.check('synapseSummary', derive.synapseNeuronSummarySql(where), SYNAPSE_NEURONS, opts.signal);
    return {
      synapses: rows?.synapses ?? 0,
      withBothPartners: rows?.pairs ?? 0,
      pointsOnly: rows?.points ?? 0,
      partnersNotNeurons: ids?.strangers ?? 0,
      neurons: ids?.neurons ?? 0,
      rois: rows?.rois ?? 0,
    };
  }

  /** Drops one table's rows of a version and writes them again with `insert` (an INSERT ... SELECT). */
  private async rederive(method: string, table: DataTable, at: VersionRef, insert: ChQuery, signal?: AbortSignal): Promise<void> {
    throwIfAborted(signal);
    await this.dropTableVersion(table, at.datasetId, at.version);
    // The background lane: minutes of work that must not hold up requests' statements, and a server HTTP time limit
    // of its own (the statement's max_execution_time bounds it).
    await this.run(method, (o) => this.column.command(insert, { ...o, lane: 'background', maxExecutionTime: derive.DERIVE_SETTINGS.max_execution_time, limits: derive.DERIVE_LIMITS }), signal);
  }

  private async derivedCounts(method: string, where: ChQuery): Promise<DerivedCounts> {
    const rows = await this.query(method, derive.derivedCountsSql(where), TABLE_COUNT);
    const n = (table: DataTable) => rows.find((r) => r.t === table)?.n ?? 0;
    return { synapses: n('synapses'), roiConnections: n('roi_connections'), connections: n('connections'), neuronRois: n('neuron_rois') };
  }

  /** A read over a whole version's synapses: background lane, memory bounded (GROUP BY spills to disk). */
  private check<T>(method: string, q: ChQuery, shape: RowShape<T>, signal?: AbortSignal): Promise<T[]> {
    return this.run(
      method,
      (o) => columnRows(this.column, q, { ...o, lane: 'background', maxExecutionTime: derive.DERIVE_SETTINGS.max_execution_time, limits: derive.DERIVE_LIMITS }, shape),
      signal,
    );
  }

  /** Chemical and electrical row counts, total weights and self-loops of one dataset version. */
  async connectionStats(datasetId: string, version: number): Promise<ConnectionStats> {
    const [r] = await this.query(
      'connectionStats',
      ch`SELECT countIf(synapse_type = 'chemical') AS chemical, countIf(synapse_type = 'electrical') AS electrical,
           sumIf(weight, synapse_type = 'chemical') AS weight_chemical, sumIf(weight, synapse_type = 'electrical') AS weight_electrical,
           countIf(synapse_type = 'chemical' AND pre = post) AS loops_chemical, countIf(synapse_type = 'electrical' AND pre = post) AS loops_electrical
         FROM connections WHERE ${this.version(datasetId, version)}`,
      CONNECTION_STATS,
    );
    return (
      r ?? { chemicalConnections: 0, electricalConnections: 0, totalWeightChemical: 0, totalWeightElectrical: 0, chemicalSelfLoops: 0, electricalSelfLoops: 0 }
    );
  }

  /** The neuron ids of one dataset version, sorted by code point. */
  async neuronIds(datasetId: string, version: number): Promise<string[]> {
    return this.query('neuronIds', ch`SELECT neuron_id FROM neurons WHERE ${this.version(datasetId, version)} ORDER BY neuron_id`, NEURON_ID);
  }

  /** The neurons (and other cells) of one dataset version that pass `filter`, ordered by neuron id. */
  async readNeurons(datasetId: string, version: number, opts: ReadOptions & { filter?: NeuronFilter } = {}): Promise<NeuronRow[]> {
    return this.query(
      'readNeurons',
      ch`SELECT ${raw(NEURON_SELECT)} FROM neurons WHERE ${this.version(datasetId, version)}${neuronConditions(opts.filter)} ORDER BY neuron_id${limit(opts)}`,
      NEURON,
    );
  }

  /** How many neurons of one dataset version pass `filter`. */
  async countNeurons(datasetId: string, version: number, filter?: NeuronFilter): Promise<number> {
    const [n] = await this.query('countNeurons', ch`SELECT count() AS n FROM neurons WHERE ${this.version(datasetId, version)}${neuronConditions(filter)}`, COUNT);
    return n ?? 0;
  }

  /**
   * The connections of one dataset version that pass `filter`, ordered by (pre, post, synapse type), as rows: meant
   * for bounded reads (pass `limit`). A whole large connectome (millions of rows) is read with scanConnections instead.
   */
  async readConnections(datasetId: string, version: number, opts: ReadOptions & { filter?: ConnectionFilter } = {}): Promise<ConnectionRow[]> {
    return this.query(
      'readConnections',
      ch`SELECT pre, post, synapse_type, weight FROM connections WHERE ${this.version(datasetId, version)}${connectionConditions(opts.filter)}
         ORDER BY pre, post, synapse_type${limit(opts)}`,
      CONNECTION,
    );
  }

  /** How many connections of one dataset version pass `filter`. */
  async countConnections(datasetId: string, version: number, filter?: ConnectionFilter): Promise<number> {
    const [n] = await this.query(
      'countConnections',
      ch`SELECT count() AS n FROM connections WHERE ${this.version(datasetId, version)}${connectionConditions(filter)}`,
      COUNT,
    );
    return n ?? 0;
  }

  /**
   * Every row of one dataset version's neurons or connections that passes `filter`, in the pages' order, stored
   * under `key` as an Arrow IPC stream of ROW_EXPORT_COLUMNS[table] with `metadata` as the schema's metadata. The
   * column store's export does the work (lib/column/arrow-export.ts): memory bounded by a few batches on both engines,
   * batches encoded off the request thread, the statement on the background lane so it holds up no interactive one.
   */
  async exportRows(
    objects: ObjectStore,
    key: string,
    table: RowsTable,
    at: { datasetId: string; version: number },
    filter: NeuronFilter & ConnectionFilter,
    metadata: Record<string, string>,
    opts: { signal?: AbortSignal; maxExecutionTime?: number } = {},
  ): Promise<ExportResult> {
    const where = this.version(at.datasetId, at.version);
    // The synapse type leaves the engine as its name; the sort is on the stored Enum8, whose order is the names' too.
    const q =
      table === 'neurons'
        ? ch`SELECT ${raw(NEURON_SELECT)} FROM neurons WHERE ${where}${neuronConditions(filter)} ORDER BY neuron_id`
        : ch`SELECT pre, post, toString(synapse_type) AS synapse_name, weight FROM connections WHERE ${where}${connectionConditions(filter)}
             ORDER BY pre, post, synapse_type`;
    const method = table === 'neurons' ? 'exportNeurons' : 'exportConnections';
    try {
      return await exportArrow({ column: this.column, objects }, q, ROW_EXPORT_COLUMNS[table], key, metadata, {
        name: `DataStore.${method}`,
        signal: opts.signal,
        maxExecutionTime: opts.maxExecutionTime,
      });
    } catch (e) {
      throw this.failure(method, e, opts.signal);
    }
  }

  /**
   * Every connection of one dataset version, in batches of 65,536 rows held as columns, in no particular order
   * (sorting millions of rows would cost more than any reader of a whole connectome gains from it).
   * The rows travel as TabSeparated text and are parsed batch by batch, so a 15-million-row connectome never
   * exists as one string or as millions of objects. Leave the loop to stop the read. The query may run for
   * `maxExecutionTime` seconds (default 600), the time the caller spends on each batch included.
   */
  async *scanConnections(datasetId: string, version: number, opts: ScanOptions = {}): AsyncGenerator<ConnectionBatch> {
    const q = ch`SELECT pre, post, toUInt8(synapse_type), weight FROM connections WHERE ${this.version(datasetId, version)}`;
    yield* this.connectionBatches('scanConnections', q, opts);
  }

  /** Rows of (pre, post, synapse type code, weight) as TabSeparated text, parsed into column batches. */
  private async *connectionBatches(method: string, q: ChQuery, opts: ScanOptions): AsyncGenerator<ConnectionBatch> {
    const options = { ...this.options(method, opts.signal), maxExecutionTime: opts.maxExecutionTime ?? 600 };
    const size = BATCH_ROWS;
    let batch = emptyBatch(size);
    let n = 0;
    try {
      for await (const text of this.column.queryTsv(q, options)) {
        // Fields are found with indexOf rather than by splitting each line: this loop runs once per row.
        let start = 0;
        while (start < text.length) {
          let end = text.indexOf('\n', start);
          if (end < 0) end = text.length;
          const t1 = text.indexOf('\t', start);
          const t2 = text.indexOf('\t', t1 + 1);
          const t3 = text.indexOf('\t', t2 + 1);
          const type = t3 === t2 + 2 ? text.charCodeAt(t2 + 1) - 48 : 0;
          const weight = t3 > 0 && t3 < end ? Number(text.slice(t3 + 1, end)) : Number.NaN;
          // A server that fails mid-stream appends its error text to the body: it never parses as a row.
          if (t1 < start || t1 > end || (type !== 1 && type !== 2) || Number.isNaN(weight)) {
            throw new Error(`unexpected line in the result: ${text.slice(start, Math.min(end, start + 200))}`);
          }
          batch.pre.push(unescapeTsv(text.slice(start, t1)));
          batch.post.push(unescapeTsv(text.slice(t1 + 1, t2)));
          batch.synapseType[n] = type;
          batch.weight[n] = weight;
          start = end + 1;
          if (++n === size) {
            yield batch;
            batch = emptyBatch(size);
            n = 0;
          }
        }
      }
    } catch (e) {
      throw this.failure(method, e, options.signal);
    }
    if (n > 0) yield { pre: batch.pre, post: batch.post, synapseType: batch.synapseType.subarray(0, n), weight: batch.weight.subarray(0, n) };
  }

  /** The morphology summaries of one dataset version, by neuron and file. */
  async morphologies(datasetId: string, version: number): Promise<StoredMorphology[]> {
    return this.query(
      'morphologies',
      ch`SELECT neuron, file, object_key, sha256, n_points, n_soma_points, n_stems, n_bifurcations, n_tips, total_length,
           soma_x, soma_y, soma_z, min_x, min_y, min_z, max_x, max_y, max_z
         FROM morphologies WHERE ${this.version(datasetId, version)} ORDER BY neuron, file`,
      MORPHOLOGY,
    );
  }

  /** The condition selecting one dataset version (the leading columns of every table's key). */
  private version(datasetId: string, version: number): ChQuery {
    checkDatasetId(datasetId);
    checkVersion(version, 'version');
    return ch`dataset_id = ${datasetId} AND version = ${typed(version, 'UInt32')}`;
  }

  private options(method: string, signal?: AbortSignal): ColumnQueryOptions {
    return { name: `DataStore.${method}`, signal };
  }

  private query<T>(method: string, q: ChQuery, shape: RowShape<T>): Promise<T[]> {
    return this.run(method, (o) => columnRows(this.column, q, o, shape));
  }

  /** Whether the query returns a row (its columns are not read). */
  private async exists(method: string, q: ChQuery): Promise<boolean> {
    return (await this.run(method, (o) => this.column.query(q, o))).length > 0;
  }

  private command(method: string, q: ChQuery): Promise<void> {
    return this.run(method, (o) => this.column.command(q, o));
  }

  private async run<T>(method: string, fn: (opts: ColumnQueryOptions) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const opts = this.options(method, signal);
    try {
      return await fn(opts);
    } catch (e) {
      throw this.failure(method, e, opts.signal);
    }
  }

  private failure(method: string, e: unknown, signal?: AbortSignal): Error {
    if (e instanceof AppError) return e;
    const aborted = signal ?? currentRequestScope()?.signal;
    if (aborted?.aborted) return abortError(aborted);
    const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
    return new Error(`DataStore.${method} failed: ${message}`, { cause: e });
  }
}

const raw = (text: string): ChQuery => ({ sql: text, params: {} });
/** A version's partition, `(dataset_id, version)`: named by literals (no query parameters there), so only checked values. */
const partitionOf = (datasetId: string, version: number): ChQuery => raw(`(${quoteString(checkDatasetId(datasetId))}, ${checkVersion(version, 'version')})`);

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw abortError(signal);
}

function checkDatasetId(datasetId: string): string {
  if (typeof datasetId !== 'string' || !UUID.test(datasetId)) throw new BadInput('dataset_id: must be a UUID');
  return datasetId;
}

function checkTable(table: DataTable): void {
  if (!Object.hasOwn(DATA_TABLES, table)) throw new BadInput(`table: must be one of ${TABLES.join(', ')}`);
}

function checkVersion(version: number, field: string): number {
  if (!Number.isSafeInteger(version) || version < 0 || version > MAX_VERSION) throw new BadInput(`${field}: must be an integer from 0 to ${MAX_VERSION}`);
  return version;
}

/** LIMIT takes literals only on ClickHouse 18.16, so the counts are checked and written out. */
function limit(opts: ReadOptions): ChQuery {
  if (opts.limit === undefined && !opts.offset) return raw('');
  if (opts.limit !== undefined && (!Number.isSafeInteger(opts.limit) || opts.limit < 0)) throw new BadInput('limit: must be a non-negative integer');
  if (opts.offset !== undefined && (!Number.isSafeInteger(opts.offset) || opts.offset < 0)) throw new BadInput('offset: must be a non-negative integer');
  if (!opts.offset) return raw(` LIMIT ${opts.limit}`);
  // LIMIT offset, n (both engines); an offset alone reads to the end.
  return raw(` LIMIT ${opts.offset}, ${opts.limit ?? Number.MAX_SAFE_INTEGER}`);
}


/** `col IN (v1, v2, ...)`, every value a bound parameter; an empty list matches nothing. */
function inList(column: string, values: readonly string[]): ChQuery {
  if (!values.length) return raw('0');
  return ch`${ident(column)} IN (${join(values.map((v) => ch`${String(v)}`))})`;
}

const and = (parts: ChQuery[]): ChQuery => (parts.length ? ch` AND ${join(parts, ' AND ')}` : raw(''));

function neuronConditions(f: NeuronFilter = {}): ChQuery {
  const parts: ChQuery[] = [];
  if (f.neuronIds) parts.push(inList('neuron_id', f.neuronIds));
  if (f.names) parts.push(inList('name', f.names));
  if (f.cellClasses) parts.push(inList('cell_class', f.cellClasses));
  if (f.cellTypes) parts.push(inList('cell_type', f.cellTypes));
  if (f.isNeuron !== undefined) parts.push(ch`is_neuron = ${typed(f.isNeuron ? 1 : 0, 'UInt8')}`);
  return and(parts);
}

function connectionConditions(f: ConnectionFilter = {}): ChQuery {
  const parts: ChQuery[] = [];
  if (f.neuronIds) parts.push(ch`(${inList('pre', f.neuronIds)} OR ${inList('post', f.neuronIds)})`);
  if (f.pre) parts.push(inList('pre', f.pre));
  if (f.post) parts.push(inList('post', f.post));
  if (f.synapseType !== undefined) {
    if (f.synapseType !== 'chemical' && f.synapseType !== 'electrical') throw new BadInput('synapse_type: must be chemical or electrical');
    parts.push(ch`synapse_type = ${f.synapseType}`);
  }
  if (f.minWeight !== undefined) {
    if (!Number.isFinite(f.minWeight)) throw new BadInput('min_weight: must be a finite number');
    parts.push(ch`weight >= ${typed(f.minWeight, 'Float64')}`);
  }
  return and(parts);
}

function emptyBatch(size: number): ConnectionBatch {
  return { pre: [], post: [], synapseType: new Uint8Array(size), weight: new Float64Array(size) };
}
