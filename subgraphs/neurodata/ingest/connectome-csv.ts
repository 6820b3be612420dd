import { CONNECTION_COLUMNS, NEURON_COLUMNS } from '../store/clickhouse/columns.js';
import { CsvRow, readCsvRecords, type CsvSource } from './csv-records.js';
import { FileProblems } from '../../../lib/file-problems.js';
import { assertColumnOrder, TsvChunks, tsvNullableNumber, tsvNumber, tsvString } from './tsv.js';

/**
 * Parsing, validation and TabSeparated encoding of a dataset's neuron and connection tables (the layout of
 * seed/connectomes/README.md). Pure functions, run on worker threads by ingest.task.ts; they throw BadInput naming
 * the file and line of each problem.
 */

assertColumnOrder('neurons', NEURON_COLUMNS, ['dataset_id', 'version', 'neuron_id', 'name', 'cell_class', 'cell_type', 'neurotransmitter', 'is_neuron', 'region_code', 'x', 'y', 'z']);
assertColumnOrder('connections', CONNECTION_COLUMNS, ['dataset_id', 'version', 'pre', 'post', 'synapse_type', 'weight']);

export const NEURON_ID_MAX = 256;

export interface TableFileInput {
  /** The file's content; bytes for files beyond V8's string limit (see CsvSource). */
  text: CsvSource;
  /** Named in every problem, e.g. `connections.csv line 17: ...`. */
  filename: string;
  datasetId: string;
  version: number;
}

export interface NeuronStats {
  /** Data rows: every cell, neuronal or not. */
  cells: number;
  /** Rows with is_neuron true. */
  neurons: number;
  /** Rows whose neurotransmitter is not empty. */
  withNeurotransmitter: number;
}

export interface ParsedNeurons {
  rows: number;
  stats: NeuronStats;
  /** Header columns this table does not store (as written in the header), e.g. source_name. */
  ignoredColumns: string[];
  /** The neuron_id of every row, in file order: the set a connection table of the dataset is checked against. */
  neuronIds: string[];
  /** The rows as TabSeparated text in NEURON_COLUMNS order, in chunks of at most TSV_CHUNK_BYTES ending in '\n'. */
  chunks: string[];
}

export type SynapseType = 'chemical' | 'electrical';

export interface SynapseTypeStats {
  rows: number;
  totalWeight: number;
  /** Rows whose pre and post are the same cell. */
  selfLoops: number;
}

export interface ConnectionStats {
  chemical: SynapseTypeStats;
  electrical: SynapseTypeStats;
}

export interface ParsedConnections {
  rows: number;
  stats: ConnectionStats;
  ignoredColumns: string[];
  /** Electrical rows given with pre after post, stored swapped (one row per unordered pair, pre <= post). */
  electricalSwapped: number;
  /** The rows as TabSeparated text in CONNECTION_COLUMNS order, in chunks of at most TSV_CHUNK_BYTES ending in '\n'. */
  chunks: string[];
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A decimal number as written in CSV (no hex, no Infinity, no empty string), or null when it is not one. */
function parseDecimal(text: string): number | null {
  if (!NUMBER.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function checkTarget(input: TableFileInput): void {
  if (typeof input.datasetId !== 'string' || !input.datasetId) throw new TypeError('datasetId is required');
  if (!Number.isInteger(input.version) || input.version < 0 || input.version > 0xffffffff) throw new TypeError(`version must be a UInt32, got ${input.version}`);
}

interface Header {
  /** Column index by canonical name. */
  index: Map<string, number>;
  width: number;
  ignored: string[];
}

/**
 * Reads the header record: names trimmed and compared case-insensitively, `aliases` mapped to their canonical name,
 * unknown names set aside as ignored. Returns null (with problems added) when it cannot be used.
 */
function readHeader(fields: string[], line: number, known: readonly string[], aliases: Record<string, string>, required: readonly string[], problems: FileProblems, layout: string): Header | null {
  const index = new Map<string, number>();
  const ignored: string[] = [];
  const before = problems.count;
  fields.forEach((raw, i) => {
    const written = raw.trim();
    const lower = written.toLowerCase();
    const name = Object.hasOwn(aliases, lower) ? aliases[lower] : lower;
    if (!known.includes(name)) {
      ignored.push(written || `(unnamed column ${i + 1})`);
      return;
    }
    if (index.has(name)) problems.add(line, `column ${name} appears twice in the header`);
    else index.set(name, i);
  });
  const missing = required.filter((c) => !index.has(c));
  if (missing.length) problems.add(line, `the header has no ${missing.join(' or ')} column (expected ${layout}; got ${fields.map((f) => f.trim()).join(',')})`);
  return problems.count > before ? null : { index, width: fields.length, ignored };
}

/**
 * Reads the whole file, handing each data record of the header's width to `onRow` (the row object is reused);
 * records of another width, syntax errors, an empty file and a file without rows become problems.
 */
function readTable(source: CsvSource, problems: FileProblems, onHeader: (fields: string[], line: number) => Header | null, onRow: (row: CsvRow, line: number, header: Header) => void): Header | null {
  let header: Header | null = null;
  let sawHeader = false;
  let rows = 0;
  readCsvRecords(
    source,
    (row, line) => {
      if (!sawHeader) {
        sawHeader = true;
        header = onHeader(row.toArray(), line);
        return;
      }
      if (!header) return;
      rows++;
      if (row.width !== header.width) {
        problems.add(line, `the row has ${row.width} field${row.width === 1 ? '' : 's'} but the header has ${header.width}; quote fields that contain commas`);
        return;
      }
      onRow(row, line, header);
    },
    (line, message) => problems.add(line, message),
  );
  if (!problems.count) {
    if (!sawHeader) problems.add(0, 'the file is empty; expected a header row and one row per line');
    else if (header && rows === 0) problems.add(0, 'the file has a header but no rows');
  }
  return header;
}

const NEURON_LAYOUT = 'neuron_id,cell_class,cell_type,neurotransmitter,is_neuron with optional name, region, x, y, z';
const NEURON_KNOWN = ['neuron_id', 'name', 'cell_class', 'cell_type', 'neurotransmitter', 'is_neuron', 'region', 'x', 'y', 'z'] as const;

/**
 * Parses a neuron table: `neuron_id` (required, unique, at most NEURON_ID_MAX characters) and the optional columns
 * name (defaults to the id), cell_class, cell_type, neurotransmitter (kept as written, e.g. `Glutamate|Serotonin`),
 * is_neuron (true/false/1/0, empty = true), region (a brain-region code such as WBbt:0006749 or MBA:382, kept as
 * written; `region_code` is read as region) and x, y, z (soma position, empty = unknown). Other columns are
 * ignored and listed in the result. Throws BadInput naming the file and line of each problem.
 */
export function parseNeuronsCsv(input: TableFileInput): ParsedNeurons {
  checkTarget(input);
  const problems = new FileProblems(input.filename);
  const out = new TsvChunks();
  const prefix = `${tsvString(input.datasetId)}\t${input.version}\t`;
  const firstLine = new Map<string, number>();
  const neuronIds: string[] = [];
  const stats: NeuronStats = { cells: 0, neurons: 0, withNeurotransmitter: 0 };

  const header = readTable(
    input.text,
    problems,
    (fields, line) => readHeader(fields, line, NEURON_KNOWN, { region_code: 'region' }, ['neuron_id'], problems, NEURON_LAYOUT),
    (row, line, h) => {
      const cell = (name: (typeof NEURON_KNOWN)[number]) => {
        const i = h.index.get(name);
        return i === undefined ? '' : row.field(i);
      };
      const wrong: string[] = [];
      const id = cell('neuron_id');
      if (!id) wrong.push('neuron_id is empty');
      else if (id.length > NEURON_ID_MAX) wrong.push(`neuron_id is longer than ${NEURON_ID_MAX} characters`);
      else if (CONTROL.test(id)) wrong.push('neuron_id contains a tab, line break or another control character');
      else {
        const first = firstLine.get(id);
        if (first !== undefined) wrong.push(`neuron_id ${JSON.stringify(id)} already appears on line ${first}`);
      }
      const isNeuronText = cell('is_neuron').toLowerCase();
      const isNeuron = isNeuronText === '' || isNeuronText === 'true' || isNeuronText === '1' ? true : isNeuronText === 'false' || isNeuronText === '0' ? false : null;
      if (isNeuron === null) wrong.push(`is_neuron ${JSON.stringify(cell('is_neuron'))} is not true, false, 1 or 0`);
      const position = (['x', 'y', 'z'] as const).map((axis) => {
        const text = cell(axis);
        if (!text) return null;
        const n = parseDecimal(text);
        if (n === null) wrong.push(`${axis} ${JSON.stringify(text)} is not a number`);
        return n;
      });
      if (wrong.length) {
        problems.add(line, wrong.join(', '));
        return;
      }
      firstLine.set(id, line);
      if (problems.count) return;
      neuronIds.push(id);
      const neurotransmitter = cell('neurotransmitter');
      stats.cells++;
      if (isNeuron) stats.neurons++;
      if (neurotransmitter) stats.withNeurotransmitter++;
      out.add(
        prefix +
          tsvString(id) + '\t' +
          tsvString(cell('name') || id) + '\t' +
          tsvString(cell('cell_class')) + '\t' +
          tsvString(cell('cell_type')) + '\t' +
          tsvString(neurotransmitter) + '\t' +
          (isNeuron ? '1' : '0') + '\t' +
          tsvString(cell('region')) + '\t' +
          tsvNullableNumber(position[0]) + '\t' +
          tsvNullableNumber(position[1]) + '\t' +
          tsvNullableNumber(position[2]) + '\n',
      );
    },
  );
  problems.throwIfAny();
  return { rows: stats.cells, stats, ignoredColumns: header!.ignored, neuronIds, chunks: out.finish() };
}

const CONNECTION_LAYOUT = 'pre,post,synapse_type,weight';
const CONNECTION_KNOWN = ['pre', 'post', 'synapse_type', 'weight'] as const;
const SYNAPSE_TYPES = new Map<string, SynapseType>([
  ['chemical', 'chemical'],
  ['electrical', 'electrical'],
  ['gap', 'electrical'],
  ['gap_junction', 'electrical'],
  ['gapjunction', 'electrical'],
  ['gap junction', 'electrical'],
  ['electrical synapse', 'electrical'],
]);
/** A weight written as a plain positive integer is already in the form String(number) gives. */
const PLAIN_INTEGER = /^[1-9]\d{0,14}$/;

/**
 * Whether `a` sorts after `b` by Unicode code point, the order of the stored electrical pairs (Python's string
 * order). JavaScript's `>` compares UTF-16 code units, which differs only where one side has a surrogate pair.
 */
export function isAfterByCodePoint(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length > b.length;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  const xSurrogate = x >= 0xd800 && x <= 0xdfff;
  const ySurrogate = y >= 0xd800 && y <= 0xdfff;
  if (xSurrogate !== ySurrogate && x >= 0xd800 && y >= 0xd800) return xSurrogate;
  return x > y;
}

/**
 * Duplicate detection packs (pre, post, type) into one double, exact below 2^53: each id gets an index below
 * 2^26, so the key is (pre * 2^26 + post) * 2 + type. 67 million distinct cells is far beyond any connectome.
 */
const ID_INDEX_LIMIT = 2 ** 26;

/** A growable list of doubles, 8 bytes a row, instead of a Set of 15 million strings. */
class KeyList {
  private data = new Float64Array(1 << 16);
  length = 0;
  push(key: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = key;
  }
  /** The keys that occur more than once (sorts the list in place). */
  repeated(): Set<number> {
    const sorted = this.data.subarray(0, this.length).sort();
    const out = new Set<number>();
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) out.add(sorted[i]);
    return out;
  }
}

/**
 * Reads connection rows one at a time into its fields (no object per row: a table may have 15 million). Cells get
 * small integer indices, so a row's identity is one number and its ids are escaped for TSV once per cell.
 */
class ConnectionReader {
  pre = -1;
  post = -1;
  type: SynapseType = 'chemical';
  weight = 1;
  /** The weight as TSV text. */
  weightText = '1';
  /** Whether pre and post were swapped to put an electrical pair in code-point order. */
  swapped = false;

  private readonly indexOf = new Map<string, number>();
  private readonly ids: string[] = [];
  readonly encodedIds: string[] = [];
  private readonly typeOf = new Map<string, SynapseType | null>();
  private readonly closed: boolean;
  private wrong = '';

  constructor(neuronIds: Iterable<string> | undefined) {
    this.closed = neuronIds !== undefined;
    if (neuronIds) for (const id of neuronIds) if (!this.indexOf.has(id)) this.intern(id);
  }

  private intern(id: string): number {
    this.ids.push(id);
    this.encodedIds.push(tsvString(id));
    this.indexOf.set(id, this.ids.length - 1);
    return this.ids.length - 1;
  }

  private problem(message: string): void {
    this.wrong = this.wrong ? `${this.wrong}, ${message}` : message;
  }

  /** The last id looked up per column: tables are usually sorted by pre, and a Map lookup costs far more. */
  private last = { pre: { id: '', at: -1 }, post: { id: '', at: -1 } };

  private endpoint(column: 'pre' | 'post', id: string): number {
    const last = this.last[column];
    if (id === last.id && last.at >= 0) return last.at;
    if (!id) {
      this.problem(`${column} is empty`);
      return -1;
    }
    const at = this.indexOf.get(id);
    if (at !== undefined) {
      last.id = id;
      last.at = at;
      return at;
    }
    if (this.closed) {
      this.problem(`${column} ${JSON.stringify(id)} is not a neuron of this dataset (upload it in neurons.csv first)`);
      return -1;
    }
    if (this.ids.length >= ID_INDEX_LIMIT) {
      this.problem(`more than ${ID_INDEX_LIMIT} distinct cells`);
      return -1;
    }
    return this.intern(id);
  }

  private synapseType(raw: string): SynapseType | null {
    const known = this.typeOf.get(raw);
    if (known !== undefined) return known;
    const type = SYNAPSE_TYPES.get(raw.toLowerCase().replace(/\s+/g, ' ')) ?? null;
    // Spellings are few in a good file; a bad one must not grow the cache by a row each.
    if (this.typeOf.size < 64) this.typeOf.set(raw, type);
    return type;
  }

  /**
   * Reads one row (fields trimmed; `typeText`/`weightText` null when the file has no such column). Returns what is
   * wrong with it, or '' when its fields now hold the row, electrical pairs already in code-point order.
   */
  read(preText: string, postText: string, typeText: string | null, weightText: string | null): string {
    this.wrong = '';
    let pre = this.endpoint('pre', preText);
    let post = this.endpoint('post', postText);
    let type: SynapseType | null = 'chemical';
    if (typeText !== null) {
      type = this.synapseType(typeText);
      if (type === null) this.problem(`synapse_type ${JSON.stringify(typeText)} is not chemical or electrical`);
    }
    this.weight = 1;
    this.weightText = '1';
    if (weightText !== null) {
      const n = parseDecimal(weightText);
      if (n === null || n <= 0) this.problem(weightText ? `weight ${JSON.stringify(weightText)} is not a positive number` : 'weight is empty; give a positive number');
      else {
        this.weight = n;
        this.weightText = PLAIN_INTEGER.test(weightText) ? weightText : tsvNumber(n);
      }
    }
    if (this.wrong) return this.wrong;
    this.swapped = type === 'electrical' && pre !== post && isAfterByCodePoint(this.ids[pre], this.ids[post]);
    if (this.swapped) [pre, post] = [post, pre];
    this.pre = pre;
    this.post = post;
    this.type = type!;
    return '';
  }

  /** The identity of the row just read: equal for two rows of the same (pre, post, synapse_type). */
  key(): number {
    return (this.pre * ID_INDEX_LIMIT + this.post) * 2 + (this.type === 'electrical' ? 1 : 0);
  }
}

/**
 * Parses a connection table: `pre`, `post` (required), `synapse_type` (or `type`: chemical, or electrical also
 * written gap, gap_junction, gapjunction, gap junction or electrical synapse; case-insensitive; all chemical when
 * the column is absent) and `weight` (a positive number; 1 when the column is absent). With `neuronIds`, every pre
 * and post must be one of them. One row per (pre, post, synapse_type); electrical rows are undirected and stored
 * once per unordered pair with pre <= post by code point (a row given the other way round is swapped), so the same
 * pair twice in either direction is refused. Self-connections are kept. Throws BadInput naming the file and line
 * of each problem.
 */
export function parseConnectionsCsv(input: TableFileInput & { neuronIds?: Iterable<string> }): ParsedConnections {
  checkTarget(input);
  const problems = new FileProblems(input.filename);
  const out = new TsvChunks();
  const prefix = `${tsvString(input.datasetId)}\t${input.version}\t`;
  const stats: ConnectionStats = { chemical: { rows: 0, totalWeight: 0, selfLoops: 0 }, electrical: { rows: 0, totalWeight: 0, selfLoops: 0 } };
  let electricalSwapped = 0;
  const reader = new ConnectionReader(input.neuronIds);
  const keys = new KeyList();

  const onHeader = (fields: string[], line: number) => readHeader(fields, line, CONNECTION_KNOWN, { type: 'synapse_type' }, ['pre', 'post'], problems, CONNECTION_LAYOUT);
  const header = readTable(input.text, problems, onHeader, (row, line, h) => {
    const wrong = readConnection(reader, row, h);
    if (wrong) {
      problems.add(line, wrong);
      return;
    }
    keys.push(reader.key());
    if (problems.count) return;
    const s = stats[reader.type];
    s.rows++;
    s.totalWeight += reader.weight;
    if (reader.pre === reader.post) s.selfLoops++;
    if (reader.swapped) electricalSwapped++;
    out.add(prefix + reader.encodedIds[reader.pre] + '\t' + reader.encodedIds[reader.post] + '\t' + reader.type + '\t' + reader.weightText + '\n');
  });

  if (header) {
    const repeated = keys.repeated();
    if (repeated.size) reportDuplicates(input.text, problems, repeated, onHeader, reader);
  }
  problems.throwIfAny();
  return { rows: stats.chemical.rows + stats.electrical.rows, stats, ignoredColumns: header!.ignored, electricalSwapped, chunks: out.finish() };
}

function readConnection(reader: ConnectionReader, row: CsvRow, h: Header): string {
  const typeColumn = h.index.get('synapse_type');
  const weightColumn = h.index.get('weight');
  return reader.read(
    row.field(h.index.get('pre')!),
    row.field(h.index.get('post')!),
    typeColumn === undefined ? null : row.field(typeColumn),
    weightColumn === undefined ? null : row.field(weightColumn),
  );
}

/**
 * The error path of duplicate detection: the keys kept while reading have no line numbers (4 bytes a row saved on
 * files that have none), so the file is read a second time to name the lines of each repeated key.
 */
function reportDuplicates(source: CsvSource, problems: FileProblems, repeated: Set<number>, onHeader: (fields: string[], line: number) => Header | null, reader: ConnectionReader): void {
  const seen = new Map<number, { line: number; swapped: boolean }>();
  readTable(source, new FileProblems(''), onHeader, (row, line, h) => {
    if (readConnection(reader, row, h)) return;
    const key = reader.key();
    if (!repeated.has(key)) return;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, { line, swapped: reader.swapped });
      return;
    }
    if (reader.type === 'chemical') {
      problems.add(line, `the same chemical connection as line ${first.line}; give one row per (pre, post, synapse_type)`);
    } else {
      const direction = first.swapped === reader.swapped ? 'again' : 'in the other direction';
      problems.add(line, `the gap junction of line ${first.line} is given ${direction}; electrical rows are undirected: list each gap junction once`);
    }
  });
}
