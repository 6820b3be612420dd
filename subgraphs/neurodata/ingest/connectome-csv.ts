import { CONNECTION_COLUMNS, NEURON_COLUMNS } from '../store/clickhouse/columns.js';
import { readCsvRecords, type CsvSource } from './csv-records.js';
import { FileProblems } from './problems.js';
import { assertColumnOrder, TsvChunks, tsvNullableNumber, tsvNumber, tsvString } from './tsv.js';

/**
 * Parsing, validation and TabSeparated encoding of a dataset's neuron and connection tables (the layout of
 * data/connectomes/README.md). Pure functions, run on worker threads by ingest.task.ts; they throw BadInput naming
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
function readHeader(fields: string[], known: readonly string[], aliases: Record<string, string>, required: readonly string[], problems: FileProblems, layout: string): Header | null {
  const index = new Map<string, number>();
  const ignored: string[] = [];
  fields.forEach((raw, i) => {
    const written = raw.trim();
    const lower = written.toLowerCase();
    const name = aliases[lower] ?? lower;
    if (!known.includes(name)) {
      ignored.push(written || `(unnamed column ${i + 1})`);
      return;
    }
    if (index.has(name)) problems.add(1, `column ${name} appears twice in the header`);
    else index.set(name, i);
  });
  const missing = required.filter((c) => !index.has(c));
  if (missing.length) problems.add(1, `the header has no ${missing.join(' or ')} column (expected ${layout}; got ${fields.map((f) => f.trim()).join(',')})`);
  return problems.count ? null : { index, width: fields.length, ignored };
}

const widthProblem = (got: number, header: Header) =>
  `the row has ${got} field${got === 1 ? '' : 's'} but the header has ${header.width}; quote fields that contain commas`;

/** Reads the whole file, handing each data record to `onRow`; problems of the file's shape go to `problems`. */
function readTable(input: TableFileInput, problems: FileProblems, onHeader: (fields: string[]) => Header | null, onRow: (fields: string[], line: number, header: Header) => void): Header | null {
  let header: Header | null = null;
  let sawHeader = false;
  let rows = 0;
  readCsvRecords(
    input.text,
    (fields, line) => {
      if (!sawHeader) {
        sawHeader = true;
        header = onHeader(fields);
        return;
      }
      if (!header) return;
      rows++;
      if (fields.length !== header.width) {
        problems.add(line, widthProblem(fields.length, header));
        return;
      }
      onRow(fields, line, header);
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
    input,
    problems,
    (fields) => readHeader(fields, NEURON_KNOWN, { region_code: 'region' }, ['neuron_id'], problems, NEURON_LAYOUT),
    (fields, line, h) => {
      const cell = (name: (typeof NEURON_KNOWN)[number]) => {
        const i = h.index.get(name);
        return i === undefined ? '' : fields[i].trim();
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
const SYNAPSE_TYPES: Record<string, SynapseType> = {
  chemical: 'chemical',
  electrical: 'electrical',
  gap: 'electrical',
  gap_junction: 'electrical',
  gapjunction: 'electrical',
  'gap junction': 'electrical',
  'electrical synapse': 'electrical',
};

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

  const known = input.neuronIds !== undefined;
  const indexOf = new Map<string, number>();
  const ids: string[] = [];
  const encodedIds: string[] = [];
  const intern = (id: string): number => {
    ids.push(id);
    encodedIds.push(tsvString(id));
    indexOf.set(id, ids.length - 1);
    return ids.length - 1;
  };
  if (input.neuronIds) for (const id of input.neuronIds) if (!indexOf.has(id)) intern(id);
  const typeOf = new Map<string, SynapseType | null>();
  const keys = new KeyList();

  /** The row's validated content, or the list of what is wrong with it. */
  const readRow = (fields: string[], h: Header): { pre: number; post: number; type: SynapseType; weight: number } | string[] => {
    const wrong: string[] = [];
    const endpoint = (column: 'pre' | 'post'): number => {
      const id = fields[h.index.get(column)!].trim();
      if (!id) {
        wrong.push(`${column} is empty`);
        return -1;
      }
      const at = indexOf.get(id);
      if (at !== undefined) return at;
      if (known) {
        wrong.push(`${column} ${JSON.stringify(id)} is not a neuron of this dataset (upload it in neurons.csv first)`);
        return -1;
      }
      if (ids.length >= ID_INDEX_LIMIT) {
        wrong.push(`more than ${ID_INDEX_LIMIT} distinct cells`);
        return -1;
      }
      return intern(id);
    };
    const pre = endpoint('pre');
    const post = endpoint('post');
    let type: SynapseType | null = 'chemical';
    const typeColumn = h.index.get('synapse_type');
    if (typeColumn !== undefined) {
      const raw = fields[typeColumn];
      type = typeOf.get(raw) ?? null;
      if (type === null && !typeOf.has(raw)) {
        type = SYNAPSE_TYPES[raw.trim().toLowerCase().replace(/\s+/g, ' ')] ?? null;
        // Spellings are few in a good file; a bad one must not grow the cache by a row each.
        if (typeOf.size < 64) typeOf.set(raw, type);
      }
      if (type === null) wrong.push(`synapse_type ${JSON.stringify(raw.trim())} is not chemical or electrical`);
    }
    let weight = 1;
    const weightColumn = h.index.get('weight');
    if (weightColumn !== undefined) {
      const raw = fields[weightColumn].trim();
      const n = parseDecimal(raw);
      if (n === null || n <= 0) wrong.push(raw ? `weight ${JSON.stringify(raw)} is not a positive number` : 'weight is empty; give a positive number');
      else weight = n;
    }
    if (wrong.length) return wrong;
    return { pre, post, type: type!, weight };
  };

  const keyOf = (pre: number, post: number, type: SynapseType) => (pre * ID_INDEX_LIMIT + post) * 2 + (type === 'electrical' ? 1 : 0);
  const ordered = (row: { pre: number; post: number; type: SynapseType }) =>
    row.type === 'electrical' && row.pre !== row.post && isAfterByCodePoint(ids[row.pre], ids[row.post]) ? { pre: row.post, post: row.pre, swapped: true } : { pre: row.pre, post: row.post, swapped: false };

  const onHeader = (fields: string[]) => readHeader(fields, CONNECTION_KNOWN, { type: 'synapse_type' }, ['pre', 'post'], problems, CONNECTION_LAYOUT);
  const header = readTable(input, problems, onHeader, (fields, line, h) => {
    const row = readRow(fields, h);
    if (Array.isArray(row)) {
      problems.add(line, row.join(', '));
      return;
    }
    const { pre, post, swapped } = ordered(row);
    keys.push(keyOf(pre, post, row.type));
    if (problems.count) return;
    const s = stats[row.type];
    s.rows++;
    s.totalWeight += row.weight;
    if (pre === post) s.selfLoops++;
    if (swapped) electricalSwapped++;
    out.add(prefix + encodedIds[pre] + '\t' + encodedIds[post] + '\t' + row.type + '\t' + tsvNumber(row.weight) + '\n');
  });

  if (header) {
    const repeated = keys.repeated();
    if (repeated.size) reportDuplicates(input, problems, repeated, onHeader, readRow, (row) => {
      const { pre, post } = ordered(row);
      return keyOf(pre, post, row.type);
    });
  }
  problems.throwIfAny();
  return { rows: stats.chemical.rows + stats.electrical.rows, stats, ignoredColumns: header!.ignored, electricalSwapped, chunks: out.finish() };
}

/**
 * The error path of duplicate detection: the keys kept while reading have no line numbers (4 bytes a row saved on
 * files that have no duplicates), so the file is read a second time to name the lines of each repeated key.
 */
function reportDuplicates<R extends { pre: number; post: number; type: SynapseType }>(
  input: TableFileInput,
  problems: FileProblems,
  repeated: Set<number>,
  onHeader: (fields: string[]) => Header | null,
  readRow: (fields: string[], h: Header) => R | string[],
  keyOf: (row: R) => number,
): void {
  const seen = new Map<number, { line: number; pre: number; post: number }>();
  const scratch = new FileProblems(input.filename);
  let header: Header | null = null;
  let sawHeader = false;
  readCsvRecords(
    input.text,
    (fields, line) => {
      if (!sawHeader) {
        sawHeader = true;
        header = onHeader(fields);
        return;
      }
      if (!header || fields.length !== header.width) return;
      const row = readRow(fields, header);
      if (Array.isArray(row)) return;
      const key = keyOf(row);
      if (!repeated.has(key)) return;
      const first = seen.get(key);
      if (!first) {
        seen.set(key, { line, pre: row.pre, post: row.post });
        return;
      }
      if (row.type === 'chemical') {
        problems.add(line, `the same chemical connection as line ${first.line}; give one row per (pre, post, synapse_type)`);
      } else {
        const direction = first.pre === row.pre ? 'again' : 'in the other direction';
        problems.add(line, `the gap junction of line ${first.line} is given ${direction}; electrical rows are undirected: list each gap junction once`);
      }
    },
    (line, message) => scratch.add(line, message),
  );
}
