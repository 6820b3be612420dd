import { BadInput } from '../../../../lib/errors.js';
import { MAX_LISTED_PROBLEMS } from '../../../../lib/file-problems.js';
import {
  NEURON_ANNOTATION_COLUMNS,
  NEURON_COLUMNS,
  NEURON_ROI_COLUMNS,
  ROI_COLUMNS,
  ROI_CONNECTION_COLUMNS,
  SYNAPSE_COLUMNS,
  TRANSMITTER_COLUMNS,
  type DataTable,
} from '../../store/clickhouse/columns.js';
import { assertColumnOrder, TsvChunks, tsvNullableNumber, tsvNumber, tsvString } from '../tsv.js';
import type { Layout } from './layouts.js';
import { argmaxTransmitter, CellProblem, finiteNumber, idBefore, integerId, isEmpty, optionalNumber, point, text, textId, transmitter } from './values.js';

/**
 * Validation and TabSeparated encoding of one batch of a synapse-level table, row by row, in the column orders of
 * columns.ts. Pure and synchronous: the worker tasks (table.task.ts) run it on each CSV chunk, Arrow record batch
 * or Parquet row group.
 */

assertColumnOrder('synapses', SYNAPSE_COLUMNS, ['dataset_id', 'version', 'pre', 'post', 'synapse_id', 'x', 'y', 'z', 'roi', 'confidence', 'cleft_score', 'connection_score', 'size', 'transmitter', 'gaba', 'ach', 'glut', 'oct', 'ser', 'da']);
assertColumnOrder('roi_connections', ROI_CONNECTION_COLUMNS, ['dataset_id', 'version', 'pre', 'post', 'roi', 'weight', 'transmitter']);
assertColumnOrder('neuron_annotations', NEURON_ANNOTATION_COLUMNS, ['dataset_id', 'version', 'neuron_id', 'instance', 'type', 'class', 'super_class', 'sub_class', 'hemilineage', 'side', 'status', 'transmitter', 'transmitter_confidence', 'soma_x', 'soma_y', 'soma_z', 'extra']);
assertColumnOrder('neuron_rois', NEURON_ROI_COLUMNS, ['dataset_id', 'version', 'neuron_id', 'roi', 'pre', 'post', 'upstream', 'downstream']);
assertColumnOrder('rois', ROI_COLUMNS, ['dataset_id', 'version', 'roi', 'parent', 'is_primary', 'description', 'term']);
assertColumnOrder('neurons', NEURON_COLUMNS, ['dataset_id', 'version', 'neuron_id', 'name', 'cell_class', 'cell_type', 'neurotransmitter', 'is_neuron', 'region_code', 'x', 'y', 'z']);

/** An axis-aligned box in the dataset's coordinate unit, inclusive. */
export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

/** What a batch is encoded against: the target version, the checks, and where the batch starts in the file. */
export interface EncodeContext {
  filename: string;
  datasetId: string;
  version: number;
  layout: Layout;
  /** The version's ROI names: a synapse or connection in another ROI is refused. Null or absent: not checked. */
  knownRois?: readonly string[] | null;
  /** The version's primary ROIs: a neuPrint roiInfo keeps only these. Null or absent: every ROI it lists. */
  primaryRois?: readonly string[] | null;
  bounds?: Bounds | null;
  /** Data rows of the file before this batch (row numbers in messages are 1-based over data rows). */
  rowOffset: number;
}

/** One table's encoded rows of a batch: TabSeparated text in the table's column order, lines ending in '\n'. */
export interface TableChunk {
  table: DataTable;
  tsv: string;
  rows: number;
}

export interface EncodedBatch {
  /** Data rows read (every one of them valid: a batch with a problem throws). */
  rows: number;
  chunks: TableChunk[];
  /** Synapse ids, for the check across batches: the first and last, and whether they ascend through the batch. */
  ids?: { first: string; last: string; ascending: boolean; integer: boolean };
}

/** A batch's rows as the encoder reads them: `cell(column)` of the current row. */
export type Cell = (column: number) => unknown;

/**
 * The problems of a batch: each `<file> row <n> column <c>: ...`, the first MAX_LISTED_PROBLEMS listed and the rest
 * counted, thrown together as one BadInput.
 */
export class RowProblems {
  private readonly kept: string[] = [];
  count = 0;
  constructor(private readonly filename: string) {}

  add(row: number, column: string | null, message: string): void {
    this.count++;
    if (this.kept.length < MAX_LISTED_PROBLEMS) this.kept.push(`${this.filename}${row > 0 ? ` row ${row}` : ''}${column ? ` column ${column}` : ''}: ${message}`);
  }

  throwIfAny(): void {
    if (!this.count) return;
    if (this.count === 1) throw new BadInput(this.kept[0]);
    const more = this.count > this.kept.length ? `; and ${this.count - this.kept.length} more` : '';
    throw new BadInput(`${this.filename}: ${this.count} problems, nothing was ingested: ${this.kept.join('; ')}${more}`);
  }
}

/** Encodes rows of one kind into its tables; `add` each row, then `finish`. */
export interface RowEncoder {
  add(cell: Cell, row: number): void;
  finish(): EncodedBatch;
}

const PROBABILITY_FIELDS = TRANSMITTER_COLUMNS;

/** Reads the fields of a row through the layout, turning a CellProblem into a problem naming the column. */
class Fields {
  cell: Cell = () => null;
  row = 0;
  failed = false;
  constructor(
    private readonly layout: Layout,
    private readonly problems: RowProblems,
  ) {}

  has(field: string): boolean {
    return this.layout.columns[field] !== undefined;
  }
  columnName(field: string): string {
    const at = this.layout.columns[field];
    return at === undefined ? field : this.layout.names[at];
  }
  raw(field: string): unknown {
    const at = this.layout.columns[field];
    return at === undefined ? null : this.cell(at);
  }
  fail(field: string | null, message: string): void {
    this.failed = true;
    this.problems.add(this.row, field === null ? null : this.columnName(field), message);
  }
  /** Runs a conversion of `field`'s cell; on a problem, records it and returns `fallback`. */
  get<T>(field: string, convert: (v: unknown) => T, fallback: T): T {
    try {
      return convert(this.raw(field));
    } catch (e) {
      if (!(e instanceof CellProblem)) throw e;
      this.fail(field, e.message);
      return fallback;
    }
  }
  id(field: string): string {
    return this.get(field, this.layout.integerIds ? integerId : textId, '');
  }
  text(field: string): string {
    return this.get(field, text, '');
  }
  number(field: string): number | null {
    return this.get(field, optionalNumber, null);
  }
}

const prefixOf = (ctx: EncodeContext) => `${tsvString(ctx.datasetId)}\t${ctx.version}\t`;
const nullable = (n: number | null) => (n === null ? '\\N' : tsvNumber(n));

function checkRoi(f: Fields, field: string, roi: string, known: Set<string> | null): void {
  if (roi && known && !known.has(roi)) f.fail(field, `unknown ROI ${JSON.stringify(roi)}; the version's ROIs are uploaded in its rois file`);
}

/** Tracks synapse ids through a batch: duplicates within it, and order for the check across batches. */
class IdTracker {
  private readonly seen = new Map<string, number>();
  first = '';
  last = '';
  ascending = true;
  integer = true;
  constructor(private readonly integerIds: boolean) {}
  /** Returns the row the id was seen on before, or 0. */
  add(id: string, row: number): number {
    const before = this.seen.get(id);
    if (before !== undefined) return before;
    this.seen.set(id, row);
    if (!this.first) this.first = id;
    else if (this.ascending && !(this.integerIds ? idBefore(this.last, id) : this.last < id)) this.ascending = false;
    this.last = id;
    return 0;
  }
}

function synapseEncoder(ctx: EncodeContext, problems: RowProblems): RowEncoder {
  const { layout } = ctx;
  const f = new Fields(layout, problems);
  const out = new TsvChunks();
  const prefix = prefixOf(ctx);
  const known = ctx.knownRois ? new Set(ctx.knownRois) : null;
  const bounds = ctx.bounds ?? null;
  const generatedIds = !f.has('synapse_id');
  const ids = new IdTracker(layout.integerIds);
  const fileTag = tsvString(ctx.filename);
  const neuprint = f.has('type') && (f.has('body') || layout.bodyId !== undefined);
  const body = layout.bodyId ?? '';
  const probabilities: (number | null)[] = new Array(6).fill(null);
  let rows = 0;

  return {
    add(cell, row) {
      f.cell = cell;
      f.row = row;
      f.failed = false;
      rows++;
      let pre = '';
      let post = '';
      if (neuprint) {
        const neuron = f.has('body') ? f.id('body') : body;
        const partner = f.has('partner') ? f.id('partner') : '';
        const side = f.text('type').toLowerCase();
        if (side === 'pre') [pre, post] = [neuron, partner];
        else if (side === 'post') [pre, post] = [partner, neuron];
        else f.fail('type', `${JSON.stringify(side)} is not pre or post`);
        if (!neuron && !f.failed) f.fail('body', 'the neuron id is empty');
      } else {
        pre = f.has('pre') ? f.id('pre') : '';
        post = f.has('post') ? f.id('post') : '';
        // CAVE and FlyWire write root id 0 for a side that is no segment.
        if (layout.integerIds) {
          if (pre === '0') pre = '';
          if (post === '0') post = '';
        }
        if (!pre && !post && !f.failed) f.fail(f.has('pre') ? 'pre' : 'post', 'neither side of the synapse is given (pre and post are both empty)');
      }
      let x = 0;
      let y = 0;
      let z = 0;
      if (f.has('x') && f.has('y') && f.has('z')) {
        x = f.get('x', finiteNumber, 0);
        y = f.get('y', finiteNumber, 0);
        z = f.get('z', finiteNumber, 0);
      } else {
        const p = f.get('position', point, null);
        if (p) [x, y, z] = p;
        else if (!f.failed) f.fail('position', 'the position is missing');
      }
      if (bounds && !f.failed) {
        const p = [x, y, z];
        const axis = [0, 1, 2].find((i) => p[i] < bounds.min[i] || p[i] > bounds.max[i]);
        if (axis !== undefined) {
          const field = f.has('x') ? 'xyz'[axis] : 'position';
          f.fail(field, `position (${x}, ${y}, ${z}) lies outside the dataset's bounds [${bounds.min.join(', ')}] to [${bounds.max.join(', ')}]`);
        }
      }
      const roi = f.text('roi');
      checkRoi(f, 'roi', roi, known);
      let synapseId: string;
      if (generatedIds) synapseId = `${fileTag}:${row}`;
      else {
        synapseId = f.id('synapse_id');
        if (!synapseId && !f.failed) f.fail('synapse_id', 'the synapse id is empty');
        else if (synapseId) {
          const before = ids.add(synapseId, row);
          if (before) f.fail('synapse_id', `synapse id ${synapseId} already appears in row ${before}`);
        }
      }
      const confidence = f.number('confidence');
      const cleft = f.number('cleft_score');
      const connection = f.number('connection_score');
      const size = f.number('size');
      let anyProbability = false;
      for (let i = 0; i < 6; i++) {
        probabilities[i] = f.has(PROBABILITY_FIELDS[i]) ? f.number(PROBABILITY_FIELDS[i]) : null;
        if (probabilities[i] !== null) anyProbability = true;
      }
      const nt = f.has('transmitter') ? transmitter(f.raw('transmitter')) : anyProbability ? argmaxTransmitter(probabilities) : '';
      if (f.failed || problems.count) return;
      out.add(
        prefix +
          tsvString(pre) + '\t' +
          tsvString(post) + '\t' +
          (generatedIds ? synapseId : tsvString(synapseId)) + '\t' +
          tsvNumber(x) + '\t' + tsvNumber(y) + '\t' + tsvNumber(z) + '\t' +
          tsvString(roi) + '\t' +
          nullable(confidence) + '\t' + nullable(cleft) + '\t' + nullable(connection) + '\t' + nullable(size) + '\t' +
          tsvString(nt) + '\t' +
          probabilities.map(nullable).join('\t') + '\n',
      );
    },
    finish() {
      problems.throwIfAny();
      const tsv = out.finish().join('');
      const result: EncodedBatch = { rows, chunks: rows ? [{ table: 'synapses', tsv, rows }] : [] };
      if (!generatedIds && ids.first) result.ids = { first: ids.first, last: ids.last, ascending: ids.ascending, integer: layout.integerIds };
      return result;
    },
  };
}

function roiConnectionEncoder(ctx: EncodeContext, problems: RowProblems): RowEncoder {
  const f = new Fields(ctx.layout, problems);
  const out = new TsvChunks();
  const prefix = prefixOf(ctx);
  const known = ctx.knownRois ? new Set(ctx.knownRois) : null;
  const probabilities: (number | null)[] = new Array(6).fill(null);
  let rows = 0;
  return {
    add(cell, row) {
      f.cell = cell;
      f.row = row;
      f.failed = false;
      rows++;
      const pre = f.id('pre');
      const post = f.id('post');
      if (!pre && !f.failed) f.fail('pre', 'the presynaptic neuron is empty');
      if (!post && !f.failed) f.fail('post', 'the postsynaptic neuron is empty');
      const roi = f.text('roi');
      checkRoi(f, 'roi', roi, known);
      const weight = f.number('weight');
      if (!f.failed && (weight === null || !Number.isFinite(weight) || weight <= 0)) f.fail('weight', `${JSON.stringify(text(f.raw('weight')))} is not a positive number`);
      let any = false;
      for (let i = 0; i < 6; i++) {
        probabilities[i] = f.has(PROBABILITY_FIELDS[i]) ? f.number(PROBABILITY_FIELDS[i]) : null;
        if (probabilities[i] !== null) any = true;
      }
      const nt = f.has('transmitter') && !isEmpty(f.raw('transmitter')) ? transmitter(f.raw('transmitter')) : any ? argmaxTransmitter(probabilities) : '';
      if (f.failed || problems.count) return;
      out.add(prefix + tsvString(pre) + '\t' + tsvString(post) + '\t' + tsvString(roi) + '\t' + tsvNumber(weight!) + '\t' + tsvString(nt) + '\n');
    },
    finish() {
      problems.throwIfAny();
      return { rows, chunks: rows ? [{ table: 'roi_connections', tsv: out.finish().join(''), rows }] : [] };
    },
  };
}

const ANNOTATION_TEXT = ['instance', 'type', 'class', 'super_class', 'sub_class', 'hemilineage', 'side', 'status'] as const;

interface RoiInfoEntry {
  pre?: unknown;
  post?: unknown;
  upstream?: unknown;
  downstream?: unknown;
}

const count = (v: unknown): number | null => {
  if (v === undefined || v === null) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : NaN;
};

function annotationEncoder(ctx: EncodeContext, problems: RowProblems): RowEncoder {
  const { layout } = ctx;
  const f = new Fields(layout, problems);
  const annotations = new TsvChunks();
  const neurons = new TsvChunks();
  const neuronRois = new TsvChunks();
  const prefix = prefixOf(ctx);
  const known = ctx.knownRois ? new Set(ctx.knownRois) : null;
  const primary = ctx.primaryRois ? new Set(ctx.primaryRois) : null;
  const seen = new Map<string, number>();
  const extraColumns = layout.ignored.map((i) => ({ at: i, name: layout.names[i] })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let rows = 0;
  let roiRows = 0;
  return {
    add(cell, row) {
      f.cell = cell;
      f.row = row;
      f.failed = false;
      rows++;
      const id = f.id('neuron_id');
      if (!id && !f.failed) f.fail('neuron_id', 'the neuron id is empty');
      const before = id ? seen.get(id) : undefined;
      if (before !== undefined) f.fail('neuron_id', `neuron ${id} already appears in row ${before}`);
      else if (id) seen.set(id, row);
      const values = ANNOTATION_TEXT.map((name) => f.text(name));
      const nt = f.has('transmitter') ? transmitter(f.raw('transmitter')) : '';
      const confidence = f.number('transmitter_confidence');
      let soma: (number | null)[] = [null, null, null];
      if (f.has('soma_x')) soma = ['soma_x', 'soma_y', 'soma_z'].map((a) => (f.has(a) ? f.number(a) : null));
      else if (f.has('soma')) soma = f.get('soma', point, null) ?? soma;
      const extra: Record<string, string> = {};
      for (const c of extraColumns) {
        const v = text(cell(c.at));
        if (v !== '') extra[c.name] = v;
      }
      let roiLines = '';
      if (f.has('roi_info') && !isEmpty(f.raw('roi_info'))) {
        const raw = f.raw('roi_info');
        let info: Record<string, RoiInfoEntry> | null = null;
        try {
          info = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, RoiInfoEntry>;
          if (!info || typeof info !== 'object' || Array.isArray(info)) throw new Error();
        } catch {
          f.fail('roi_info', 'roiInfo is not a JSON object of per-ROI counts');
        }
        for (const roi of Object.keys(info ?? {}).sort()) {
          if (primary && !primary.has(roi)) continue;
          if (known && !known.has(roi)) {
            f.fail('roi_info', `unknown ROI ${JSON.stringify(roi)}; the version's ROIs are uploaded in its rois file`);
            break;
          }
          const e = info![roi] ?? {};
          const c = [count(e.pre), count(e.post), count(e.upstream), count(e.downstream)];
          if (c.some((n) => Number.isNaN(n))) {
            f.fail('roi_info', `the counts of ROI ${JSON.stringify(roi)} are not non-negative integers`);
            break;
          }
          roiRows++;
          roiLines += `${prefix}${tsvString(id)}\t${tsvString(roi)}\t${c[0] ?? 0}\t${c[1] ?? 0}\t${c[2] ?? c[1] ?? 0}\t${c[3] === null ? '\\N' : c[3]}\n`;
        }
      }
      if (soma.some((s) => s !== null && !Number.isFinite(s))) f.fail(f.has('soma_x') ? 'soma_x' : 'soma', 'the soma position is not finite');
      if (f.failed || problems.count) return;
      const [instance, type, , superClass] = values;
      annotations.add(
        prefix + tsvString(id) + '\t' + values.map(tsvString).join('\t') + '\t' + tsvString(nt) + '\t' + nullable(confidence) + '\t' +
          soma.map(tsvNullableNumber).join('\t') + '\t' + tsvString(JSON.stringify(extra)) + '\n',
      );
      neurons.add(
        prefix + tsvString(id) + '\t' + tsvString(instance || type) + '\t' + tsvString(type) + '\t' + tsvString(superClass) + '\t' + tsvString(nt) + '\t1\t\t' +
          soma.map(tsvNullableNumber).join('\t') + '\n',
      );
      if (roiLines) neuronRois.add(roiLines);
    },
    finish() {
      problems.throwIfAny();
      if (!rows) return { rows, chunks: [] };
      const chunks: TableChunk[] = [
        { table: 'neuron_annotations', tsv: annotations.finish().join(''), rows },
        { table: 'neurons', tsv: neurons.finish().join(''), rows },
      ];
      if (roiRows) chunks.push({ table: 'neuron_rois', tsv: neuronRois.finish().join(''), rows: roiRows });
      return { rows, chunks };
    },
  };
}

/** The encoder of a batch of `ctx.layout.kind` rows (ROI tables are whole files: see encodeRois). */
export function rowEncoder(ctx: EncodeContext): RowEncoder {
  const problems = new RowProblems(ctx.filename);
  switch (ctx.layout.kind) {
    case 'synapses':
      return synapseEncoder(ctx, problems);
    case 'roi_connections':
      return roiConnectionEncoder(ctx, problems);
    case 'annotations':
      return annotationEncoder(ctx, problems);
    default:
      throw new Error(`no row encoder for ${ctx.layout.kind}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// ROI hierarchies: small whole files, validated as a whole (parents must exist, names unique).

export interface RoiRow {
  roi: string;
  parent: string;
  primary: boolean;
  description: string;
  term: string;
}

const TRUE = new Set(['1', 'true', 't', 'yes', 'y']);
const FALSE = new Set(['0', 'false', 'f', 'no', 'n', '']);

/** ROI rows from a CSV-shaped ROI table (roi_table or flywire_neuropils layout), given row by row. */
export function roiRowsFromTable(ctx: EncodeContext, rowsOf: (visit: (cell: Cell, row: number) => void) => void): RoiRow[] {
  const problems = new RowProblems(ctx.filename);
  const f = new Fields(ctx.layout, problems);
  const out: RoiRow[] = [];
  const categories: string[] = [];
  rowsOf((cell, row) => {
    f.cell = cell;
    f.row = row;
    f.failed = false;
    const roi = f.text('roi');
    if (!roi) f.fail('roi', 'the ROI name is empty');
    if (ctx.layout.name === 'flywire_neuropils') {
      const category = f.text('category');
      if (category && !categories.includes(category)) categories.push(category);
      out.push({ roi, parent: category, primary: true, description: f.text('description'), term: f.text('term') });
      return;
    }
    let primary = false;
    if (f.has('primary')) {
      const p = f.text('primary').toLowerCase();
      if (TRUE.has(p)) primary = true;
      else if (!FALSE.has(p)) f.fail('primary', `${JSON.stringify(p)} is not true or false`);
    }
    out.push({ roi, parent: f.text('parent'), primary, description: f.text('description'), term: f.text('term') });
  });
  problems.throwIfAny();
  // FlyWire's neuropil categories are the non-primary roots of its neuropils.
  for (const c of categories) if (!out.some((r) => r.roi === c)) out.push({ roi: c, parent: '', primary: false, description: c, term: '' });
  return out;
}

interface RoiTreeNode {
  name?: unknown;
  children?: unknown;
}

/**
 * ROI rows from neuPrint JSON: the hierarchy tree `{name, children}` (its leaves taken as primary, since the tree
 * does not say: the roiInfo map does) or the roiInfo map `{name: {parent, isPrimary, description}}`.
 */
export function roiRowsFromJson(filename: string, json: unknown): RoiRow[] {
  const bad = (message: string) => new BadInput(`${filename}: ${message}`);
  if (json && typeof json === 'object' && !Array.isArray(json) && 'name' in json) {
    const out: RoiRow[] = [];
    const walk = (node: RoiTreeNode, parent: string, path: string) => {
      if (typeof node?.name !== 'string' || !node.name.trim()) throw bad(`the ROI at ${path} has no name`);
      const children = node.children === undefined ? [] : node.children;
      if (!Array.isArray(children)) throw bad(`the children of ROI ${JSON.stringify(node.name)} are not a list`);
      out.push({ roi: node.name.trim(), parent, primary: children.length === 0, description: '', term: '' });
      children.forEach((c: RoiTreeNode, i) => walk(c, node.name as string, `${path}.children[${i}]`));
    };
    walk(json as RoiTreeNode, '', 'the root');
    return out;
  }
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    return Object.entries(json as Record<string, Record<string, unknown>>).map(([roi, v]) => {
      if (!v || typeof v !== 'object') throw bad(`the entry of ROI ${JSON.stringify(roi)} is not an object`);
      return { roi, parent: text(v.parent), primary: v.isPrimary === true || v.isPrimary === 'true', description: text(v.description), term: text(v.term) };
    });
  }
  throw bad('not a neuPrint ROI hierarchy ({"name", "children"}) or roiInfo map ({name: {parent, isPrimary, description}})');
}

/** Checks ROI rows (unique names, parents among them, no control characters) and encodes them in ROI_COLUMNS order. */
export function encodeRois(ctx: Pick<EncodeContext, 'filename' | 'datasetId' | 'version'>, rows: readonly RoiRow[]): EncodedBatch {
  const problems = new RowProblems(ctx.filename);
  const names = new Map<string, number>();
  rows.forEach((r, i) => {
    if (/[\u0000-\u001f\u007f]/.test(r.roi)) problems.add(i + 1, 'roi', 'the ROI name contains a tab, line break or another control character');
    const before = names.get(r.roi);
    if (before !== undefined) problems.add(i + 1, 'roi', `ROI ${JSON.stringify(r.roi)} already appears in row ${before}`);
    else names.set(r.roi, i + 1);
  });
  rows.forEach((r, i) => {
    if (r.parent && !names.has(r.parent)) problems.add(i + 1, 'parent', `parent ${JSON.stringify(r.parent)} of ROI ${JSON.stringify(r.roi)} is not an ROI of the file`);
  });
  if (!rows.length) problems.add(0, null, 'the file has no ROIs');
  problems.throwIfAny();
  const prefix = prefixOf(ctx as EncodeContext);
  const tsv = rows.map((r) => `${prefix}${tsvString(r.roi)}\t${tsvString(r.parent)}\t${r.primary ? 1 : 0}\t${tsvString(r.description)}\t${tsvString(r.term)}\n`).join('');
  return { rows: rows.length, chunks: [{ table: 'rois', tsv, rows: rows.length }] };
}
