import { createWriteStream, copyFileSync, mkdirSync, readFileSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import {
  Dictionary,
  Field,
  Float32,
  Int32,
  Int64,
  RecordBatch,
  RecordBatchFileWriter,
  Schema,
  Struct,
  Utf8,
  makeData,
  vectorFromArray,
  type DataType,
  type Vector,
} from 'apache-arrow';
import { seededRandom } from '../lib/seeded-random.js';

/**
 * A synthetic release in the layout FlyWire v783 publishes (synapses as Feather part files, the per-neuropil
 * connections, the annotation tables, the neuropils), made from the real 139,255 root ids, annotations and 79
 * neuropils (seed/synapse-level/) with invented synapses: the synapse benchmark's data, FlyWire-sized without
 * downloading 10 GB. The same seed gives the same bytes; the part count only moves the file boundaries (the rows
 * and their order do not depend on it).
 *
 * The shape, so that the reads the benchmark times meet what real data would give them:
 * - outgoing synapses per neuron lognormal (sigma 1.3: a mean of ~390 and hubs of tens of thousands), scaled to
 *   exactly `--synapses` rows;
 * - each neuron arborises in 1 to 3 neuropils (optic neurons in the optic lobe of their side, the others in
 *   neuropils of their side or the midline), its synapses fall in those, and partners are drawn from the neurons of
 *   the same neuropil weighted by a lognormal in-degree propensity; connection weights are Pareto (alpha 1.5,
 *   at least 1), so most pairs have a few synapses and some hundreds; 1.5% of the synapses are `UNASGD`;
 * - positions (nm, int32) inside an invented box per neuropil within FAFB's extent (0..1,000,000 x 0..500,000 x
 *   0..300,000), around a per-neuron arbor centre; the presynaptic point lies within ~120 nm of the postsynaptic;
 * - per-synapse transmitter probabilities summing to 1 (within float32 rounding), around the neuron's published mean
 *   probabilities, with its published predicted transmitter (nt_type) the largest;
 * - rows ordered by pre_pt_root_id, post_pt_root_id (then neuropil), ids 1..N in that order.
 *
 * Run: npm run bench:generate-flywire -- --synapses 54500000 --out DIR [--seed N] [--parts K]
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The real FlyWire v783 annotation tables (classification.csv.gz, neurons.csv.gz) and neuropil table. */
export const FLYWIRE_SEED_DIR = path.join(ROOT, 'seed', 'synapse-level', 'flywire_783');
export const FLYWIRE_NEUROPILS = path.join(ROOT, 'seed', 'synapse-level', 'rois', 'flywire_783_neuropils.csv');
/** FAFB's extent in nm, as the boxes are laid out in it. */
export const EXTENT = { x: 1_000_000, y: 500_000, z: 300_000 } as const;
const BATCH_ROWS = 1 << 18;
const UNASSIGNED = 'UNASGD';
const UNASSIGNED_SHARE = 0.015;
/** The transmitters in the order of the synapse table's probability columns. */
const TRANSMITTERS = ['gaba', 'ach', 'glut', 'oct', 'ser', 'da'] as const;
const NT_TYPE_INDEX: Record<string, number> = { GABA: 0, ACH: 1, GLUT: 2, OCT: 3, SER: 4, DA: 5 };

export interface Box {
  min: [number, number, number];
  max: [number, number, number];
}
export interface Neuropil {
  name: string;
  side: string;
  category: string;
  box: Box;
}

/**
 * Invented boxes per neuropil (centre offset from the midline, centre y and z, half sizes, nm): left neuropils at
 * x < 500,000, mirrored on the right; plausible sizes and places (the optic lobes laterally and largest, the
 * gnathal ganglia ventral), not a registration of the real meshes.
 */
const LAYOUT: Record<string, [dx: number, y: number, z: number, hx: number, hy: number, hz: number]> = {
  LA: [430_000, 230_000, 150_000, 25_000, 110_000, 90_000],
  ME: [360_000, 230_000, 150_000, 55_000, 120_000, 100_000],
  AME: [310_000, 200_000, 110_000, 8_000, 10_000, 10_000],
  LO: [290_000, 250_000, 170_000, 35_000, 80_000, 70_000],
  LOP: [260_000, 240_000, 190_000, 20_000, 70_000, 60_000],
  AL: [70_000, 300_000, 60_000, 40_000, 40_000, 40_000],
  MB_CA: [110_000, 150_000, 240_000, 25_000, 25_000, 20_000],
  MB_PED: [90_000, 220_000, 150_000, 12_000, 30_000, 40_000],
  MB_VL: [80_000, 190_000, 70_000, 15_000, 40_000, 15_000],
  MB_ML: [30_000, 240_000, 80_000, 25_000, 12_000, 15_000],
  LH: [160_000, 200_000, 200_000, 35_000, 35_000, 35_000],
  SLP: [140_000, 150_000, 190_000, 40_000, 35_000, 40_000],
  SIP: [90_000, 150_000, 120_000, 30_000, 25_000, 35_000],
  SMP: [40_000, 140_000, 140_000, 35_000, 35_000, 60_000],
  CRE: [50_000, 210_000, 100_000, 20_000, 20_000, 25_000],
  LAL: [80_000, 300_000, 120_000, 30_000, 25_000, 30_000],
  BU: [70_000, 260_000, 130_000, 8_000, 8_000, 8_000],
  GA: [95_000, 280_000, 140_000, 8_000, 8_000, 10_000],
  AOTU: [150_000, 230_000, 90_000, 20_000, 20_000, 20_000],
  AVLP: [170_000, 300_000, 90_000, 45_000, 40_000, 50_000],
  PVLP: [200_000, 290_000, 150_000, 35_000, 35_000, 40_000],
  PLP: [190_000, 250_000, 220_000, 30_000, 40_000, 35_000],
  WED: [170_000, 340_000, 190_000, 30_000, 30_000, 35_000],
  SCL: [100_000, 230_000, 220_000, 25_000, 30_000, 30_000],
  ICL: [90_000, 290_000, 220_000, 25_000, 25_000, 30_000],
  IB: [40_000, 300_000, 240_000, 30_000, 25_000, 30_000],
  ATL: [30_000, 220_000, 270_000, 12_000, 12_000, 12_000],
  VES: [80_000, 360_000, 110_000, 30_000, 30_000, 40_000],
  EPA: [100_000, 340_000, 150_000, 20_000, 20_000, 20_000],
  GOR: [70_000, 330_000, 170_000, 15_000, 15_000, 20_000],
  SPS: [60_000, 360_000, 230_000, 30_000, 30_000, 35_000],
  IPS: [90_000, 390_000, 240_000, 25_000, 30_000, 30_000],
  AMMC: [120_000, 380_000, 90_000, 25_000, 25_000, 25_000],
  FLA: [40_000, 390_000, 100_000, 20_000, 20_000, 25_000],
  CAN: [60_000, 400_000, 160_000, 15_000, 15_000, 20_000],
  // Midline neuropils (side C): dx 0.
  PB: [0, 170_000, 270_000, 60_000, 10_000, 12_000],
  FB: [0, 220_000, 200_000, 50_000, 20_000, 25_000],
  EB: [0, 250_000, 150_000, 25_000, 15_000, 20_000],
  NO: [0, 240_000, 230_000, 15_000, 8_000, 8_000],
  SAD: [0, 420_000, 130_000, 40_000, 25_000, 35_000],
  GNG: [0, 450_000, 120_000, 70_000, 45_000, 70_000],
  PRW: [0, 430_000, 60_000, 20_000, 20_000, 20_000],
  OCG: [0, 60_000, 250_000, 15_000, 15_000, 15_000],
};

/** The neuropils of the seed table with their boxes; `UNASGD`'s box is the whole extent. */
export function readNeuropils(csvText: string): Neuropil[] {
  const rows = parse(csvText, { columns: true, skip_empty_lines: true }) as { neuropil: string; side: string; category: string }[];
  return rows.map((r) => {
    if (r.neuropil === UNASSIGNED) return { name: r.neuropil, side: r.side, category: r.category, box: { min: [0, 0, 0], max: [EXTENT.x - 1, EXTENT.y - 1, EXTENT.z - 1] } };
    const base = r.neuropil.replace(/_[LR]$/, '');
    const l = LAYOUT[base];
    if (!l) throw new Error(`no box for neuropil ${r.neuropil}`);
    const cx = r.side === 'L' ? 500_000 - l[0] : r.side === 'R' ? 500_000 + l[0] : 500_000;
    const box: Box = { min: [cx - l[3], l[1] - l[4], l[2] - l[5]], max: [cx + l[3], l[1] + l[4], l[2] + l[5]] };
    return { name: r.neuropil, side: r.side, category: r.category, box };
  });
}

interface Cell {
  id: bigint;
  superClass: string;
  side: string;
  /** index into TRANSMITTERS of the published nt_type, -1 when none */
  nt: number;
  /** published mean probabilities, TRANSMITTERS order */
  avg: Float64Array;
}

/**
 * The records of a small CSV file of single-line records (the annotation tables are; quoted fields with commas
 * occur), by header name. csv-parse takes seconds over the 139,255 rows; this takes a fraction of that.
 */
function csvRecords(text: string): Record<string, string>[] {
  const lines = text.split('\n').filter((l) => l.length > 0);
  const split = (line: string): string[] => {
    if (!line.includes('"')) return line.split(',');
    const out: string[] = [];
    let field = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') (field += '"'), i++;
        else if (ch === '"') quoted = false;
        else field += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') out.push(field), (field = '');
      else field += ch;
    }
    out.push(field);
    return out;
  };
  const header = split(lines[0].replace(/\r$/, ''));
  return lines.slice(1).map((l) => {
    const f = split(l.replace(/\r$/, ''));
    return Object.fromEntries(header.map((h, i) => [h, f[i] ?? '']));
  });
}

/** The real neurons, ordered by root id (as the synapse rows are). */
export function readCells(classificationGz: Buffer, neuronsGz: Buffer): Cell[] {
  const cls = csvRecords(gunzipSync(classificationGz).toString('utf8'));
  const nts = csvRecords(gunzipSync(neuronsGz).toString('utf8'));
  const byId = new Map(nts.map((r) => [r.root_id, r]));
  const cells = cls.map((r): Cell => {
    const n = byId.get(r.root_id);
    const avg = new Float64Array(TRANSMITTERS.map((t) => Number(n?.[`${t}_avg`] ?? 0) || 0));
    return { id: BigInt(r.root_id), superClass: r.super_class, side: r.side, nt: n ? (NT_TYPE_INDEX[n.nt_type] ?? -1) : -1, avg };
  });
  return cells.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Parsed once per process and folder: parsing the two tables takes seconds, generating a small release less. */
const parsedCells = new Map<string, Cell[]>();
function cellsOf(seedDir: string): Cell[] {
  let cells = parsedCells.get(seedDir);
  if (!cells) parsedCells.set(seedDir, (cells = readCells(readFileSync(path.join(seedDir, 'classification.csv.gz')), readFileSync(path.join(seedDir, 'neurons.csv.gz')))));
  return cells;
}

/** A standard normal deviate (Box-Muller) from the seeded stream. */
function gaussian(rnd: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
}

/** A 32-bit hash, for per-(neuron, neuropil) arbor centres that need no table and no draw from the stream. */
function hash32(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

export const SYNAPSE_SCHEMA_FIELDS = [
  ['id', new Int64()],
  ['pre_pt_root_id', new Int64()],
  ['post_pt_root_id', new Int64()],
  ['connection_score', new Float32()],
  ['cleft_score', new Float32()],
  ...TRANSMITTERS.map((t) => [t, new Float32()] as const),
  ['pre_x', new Int32()],
  ['pre_y', new Int32()],
  ['pre_z', new Int32()],
  ['post_x', new Int32()],
  ['post_y', new Int32()],
  ['post_z', new Int32()],
] as const;

/**
 * Column buffers of one record batch, filled row by row and handed to Arrow without copies. The writer keeps views
 * of them until its stream has sent them, so each batch gets new buffers (`renew`), never reused ones.
 */
class Columns {
  ints64!: BigInt64Array[];
  floats!: Float32Array[];
  ints32!: Int32Array[];
  dict!: Int32Array;
  n = 0;
  constructor(
    readonly capacity: number,
    private readonly counts: [int64s: number, floats: number, int32s: number],
  ) {
    this.renew();
  }
  renew(): void {
    const [int64s, floats, int32s] = this.counts;
    this.ints64 = Array.from({ length: int64s }, () => new BigInt64Array(this.capacity));
    this.floats = Array.from({ length: floats }, () => new Float32Array(this.capacity));
    this.ints32 = Array.from({ length: int32s }, () => new Int32Array(this.capacity));
    this.dict = new Int32Array(this.capacity);
    this.n = 0;
  }
}

/**
 * One Arrow IPC file written batch by batch. The writer queues each batch's bytes until read; a loop here moves them
 * to the file, and `write` waits until the queue is empty and the file has taken them (its buffer drained), so
 * at most about one batch is in memory whatever the row count (piping the writer to the file would let the queue
 * grow while the file stream is paused).
 */
class FeatherOut {
  private readonly writer = new RecordBatchFileWriter();
  private readonly out: WriteStream;
  private readonly pump: Promise<void>;
  /** Resolves when the file stream drains; set while the pump waits for it. */
  private blocked: Promise<unknown> | null = null;
  rows = 0;
  constructor(
    readonly file: string,
    readonly schema: Schema,
  ) {
    const out = (this.out = createWriteStream(file));
    this.pump = (async () => {
      for await (const chunk of this.writer as AsyncIterable<Uint8Array>) {
        if (!out.write(chunk)) {
          this.blocked = once(out, 'drain');
          await this.blocked;
          this.blocked = null;
        }
      }
      const closed = once(out, 'close');
      out.end();
      await closed;
    })();
  }
  async write(batch: RecordBatch): Promise<void> {
    this.writer.write(batch);
    this.rows += batch.numRows;
    // Lets the pump take what is queued, then waits while the file catches up.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.blocked) await this.blocked;
  }
  async close(): Promise<void> {
    this.writer.finish();
    await this.pump;
  }
}

function batchOf(schema: Schema, cols: Columns, order: ('i64' | 'f32' | 'i32' | 'dict')[], dictionary: Vector<Utf8>): RecordBatch {
  const n = cols.n;
  const counters = { i64: 0, f32: 0, i32: 0 };
  const children = schema.fields.map((f, i) => {
    const kind = order[i];
    const type = f.type as DataType;
    if (kind === 'dict') return makeData({ type: type as Dictionary<Utf8, Int32>, length: n, nullCount: 0, data: cols.dict.subarray(0, n), dictionary: dictionary as never });
    const source = kind === 'i64' ? cols.ints64[counters.i64++] : kind === 'f32' ? cols.floats[counters.f32++] : cols.ints32[counters.i32++];
    return makeData({ type: type as never, length: n, nullCount: 0, data: source.subarray(0, n) as never });
  });
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children }));
}

export interface GenerateOptions {
  synapses: number;
  out: string;
  seed?: number;
  /** Number of synapse part files; by default one per 10,000,000 rows. */
  parts?: number;
  /** The folder with classification.csv.gz and neurons.csv.gz (FLYWIRE_SEED_DIR). */
  seedDir?: string;
  /** The neuropil table (FLYWIRE_NEUROPILS). */
  neuropilsCsv?: string;
  log?: (line: string) => void;
}

export interface GenerateResult {
  synapses: number;
  connections: number;
  neurons: number;
  parts: string[];
  connectionsFile: string;
  /** Synapses per neuropil (the `neuropil` values). */
  perNeuropil: Record<string, number>;
  neuropils: Neuropil[];
}

/** Writes the release into `out` (created when missing). */
export async function generateSyntheticFlyWire(opts: GenerateOptions): Promise<GenerateResult> {
  const seedDir = opts.seedDir ?? FLYWIRE_SEED_DIR;
  const total = opts.synapses;
  if (!Number.isInteger(total) || total < 1) throw new Error(`--synapses must be a positive integer, got ${total}`);
  const parts = opts.parts ?? Math.max(1, Math.ceil(total / 10_000_000));
  const log = opts.log ?? (() => {});
  mkdirSync(opts.out, { recursive: true });
  copyFileSync(path.join(seedDir, 'classification.csv.gz'), path.join(opts.out, 'classification.csv.gz'));
  copyFileSync(path.join(seedDir, 'neurons.csv.gz'), path.join(opts.out, 'neurons.csv.gz'));
  const neuropilsCsv = opts.neuropilsCsv ?? FLYWIRE_NEUROPILS;
  const neuropilCsv = readFileSync(neuropilsCsv, 'utf8');
  // Named rois.csv so that an upload of the folder recognises it as the ROI table.
  copyFileSync(neuropilsCsv, path.join(opts.out, 'rois.csv'));

  const neuropils = readNeuropils(neuropilCsv);
  const unassigned = neuropils.findIndex((p) => p.name === UNASSIGNED);
  const cells = cellsOf(seedDir);
  const N = cells.length;
  const rnd = seededRandom(opts.seed ?? 783);

  // Where each neuron arborises: 1-3 neuropils of its side (optic neurons: the optic lobe's), the first drawn by
  // box volume so big neuropils hold many neurons.
  const volume = neuropils.map((p, i) => (i === unassigned ? 0 : (p.box.max[0] - p.box.min[0]) * (p.box.max[1] - p.box.min[1]) * (p.box.max[2] - p.box.min[2])));
  const pools = new Map<string, { idx: number[]; cum: Float64Array }>();
  const poolOf = (optic: boolean, side: string) => {
    const key = `${optic}:${side}`;
    let pool = pools.get(key);
    if (!pool) {
      const want = side === 'left' ? 'L' : side === 'right' ? 'R' : '';
      const idx = neuropils
        .map((p, i) => ({ p, i }))
        .filter(({ p, i }) => i !== unassigned && (p.category === 'optic lobe') === optic && (want === '' || p.side === want || p.side === 'C'))
        .map(({ i }) => i);
      const cum = new Float64Array(idx.length);
      let s = 0;
      idx.forEach((i, k) => (cum[k] = s += volume[i]));
      pools.set(key, (pool = { idx, cum }));
    }
    return pool;
  };
  const pick = (cum: Float64Array, u: number): number => {
    const target = u * cum[cum.length - 1];
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const arbors: Uint8Array[] = new Array(N);
  const outWeight = new Float64Array(N);
  const inWeight = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const c = cells[i];
    const optic = c.superClass === 'optic' || (c.superClass === 'visual_projection' && rnd() < 0.5);
    const pool = poolOf(optic, c.side);
    const k = 1 + Math.floor(rnd() * 3);
    const set = new Set<number>();
    for (let j = 0; j < k; j++) set.add(pool.idx[pick(pool.cum, rnd())]);
    arbors[i] = Uint8Array.from(set);
    outWeight[i] = Math.exp(1.3 * gaussian(rnd));
    inWeight[i] = Math.exp(1.3 * gaussian(rnd));
  }
  // Exactly `total` outgoing synapses: neuron i gets round(C_i) - round(C_{i-1}) of the scaled running sum C.
  const outCount = new Int32Array(N);
  {
    let sum = 0;
    for (let i = 0; i < N; i++) sum += outWeight[i];
    let cum = 0;
    let prev = 0;
    for (let i = 0; i < N; i++) {
      cum += outWeight[i];
      const r = i === N - 1 ? total : Math.round((cum / sum) * total);
      outCount[i] = r - prev;
      prev = r;
    }
  }
  // Partners by neuropil: the neurons arborising there, drawn by their in-degree propensity.
  const members = neuropils.map(() => [] as number[]);
  for (let i = 0; i < N; i++) for (const p of arbors[i]) members[p].push(i);
  const memberCum = members.map((m) => {
    const cum = new Float64Array(m.length);
    let s = 0;
    m.forEach((i, k) => (cum[k] = s += inWeight[i]));
    return cum;
  });
  const allCum = new Float64Array(N);
  {
    let s = 0;
    for (let i = 0; i < N; i++) allCum[i] = s += inWeight[i];
  }

  const dictionary = vectorFromArray(
    neuropils.map((p) => p.name),
    new Utf8(),
  );
  const dictType = () => new Dictionary(new Utf8(), new Int32(), 0, false);
  const synSchema = new Schema([
    ...SYNAPSE_SCHEMA_FIELDS.slice(0, 11).map(([n, t]) => new Field(n, t, false)),
    ...SYNAPSE_SCHEMA_FIELDS.slice(11).map(([n, t]) => new Field(n, t, false)),
    new Field('neuropil', dictType(), false),
  ]);
  const synOrder = [...Array(3).fill('i64'), ...Array(8).fill('f32'), ...Array(6).fill('i32'), 'dict'] as ('i64' | 'f32' | 'i32' | 'dict')[];
  const conSchema = new Schema([
    new Field('pre_pt_root_id', new Int64(), false),
    new Field('post_pt_root_id', new Int64(), false),
    new Field('neuropil', dictType(), false),
    new Field('syn_count', new Int32(), false),
    ...TRANSMITTERS.map((t) => new Field(`${t}_avg`, new Float32(), false)),
  ]);
  const conOrder = ['i64', 'i64', 'dict', 'i32', ...Array(6).fill('f32')] as ('i64' | 'f32' | 'i32' | 'dict')[];

  const partFiles: string[] = [];
  const partName = (k: number) => path.join(opts.out, `synapses_part_${String(k).padStart(2, '0')}.feather`);
  let part = 0;
  let synOut = new FeatherOut(partName(0), synSchema);
  partFiles.push(synOut.file);
  const connectionsFile = path.join(opts.out, 'proofread_connections_783.feather');
  const conOut = new FeatherOut(connectionsFile, conSchema);
  const syn = new Columns(BATCH_ROWS, [3, 8, 6]);
  const con = new Columns(BATCH_ROWS, [2, 6, 1]);
  const perNeuropil = new Float64Array(neuropils.length);
  let written = 0;
  let connections = 0;
  let nextId = 1n;
  const flushSyn = async () => {
    if (syn.n === 0) return;
    await synOut.write(batchOf(synSchema, syn, synOrder, dictionary));
    syn.renew();
  };
  const flushCon = async () => {
    if (con.n === 0) return;
    await conOut.write(batchOf(conSchema, con, conOrder, dictionary));
    con.renew();
  };

  const probs = new Float64Array(6);
  const sums = new Float64Array(6);
  const started = Date.now();
  let nextLog = total / 10;
  for (let i = 0; i < N; i++) {
    // Part boundaries fall between neurons, at even shares of the rows.
    const wantPart = Math.min(parts - 1, Math.floor((written * parts) / total));
    if (wantPart !== part) {
      await flushSyn();
      await synOut.close();
      part = wantPart;
      synOut = new FeatherOut(partName(part), synSchema);
      partFiles.push(synOut.file);
    }
    let budget = outCount[i];
    if (budget === 0) continue;
    const c = cells[i];
    // The neuron's connections: (post, neuropil) -> synapse count.
    const pairs = new Map<number, number>();
    while (budget > 0) {
      const w = Math.min(budget, Math.floor((1 - rnd()) ** (-1 / 1.5)));
      let np: number;
      let post: number;
      if (rnd() < UNASSIGNED_SHARE) {
        np = unassigned;
        post = pick(allCum, rnd());
      } else {
        const a = arbors[i];
        np = a[a.length === 1 ? 0 : Math.floor(rnd() ** 1.5 * a.length)];
        post = members[np][pick(memberCum[np], rnd())];
      }
      if (post === i) post = (i + 1) % N;
      const key = post * 128 + np;
      pairs.set(key, (pairs.get(key) ?? 0) + w);
      budget -= w;
    }
    const keys = [...pairs.keys()].sort((a, b) => a - b);
    for (const key of keys) {
      const post = Math.floor(key / 128);
      const np = key % 128;
      const count = pairs.get(key)!;
      const box = neuropils[np].box;
      // The arbor centre of this neuron in this neuropil, in the middle 60% of the box, and a spread of a fifth of
      // the box on either side: the points stay inside the box.
      const h = hash32(i, np);
      const spread = [0, 1, 2].map((d) => (box.max[d] - box.min[d]) / 5);
      const centre = [0, 1, 2].map((d) => box.min[d] + (0.2 + (0.6 * (((h >>> (d * 10)) & 1023) + 0.5)) / 1024) * (box.max[d] - box.min[d]));
      sums.fill(0);
      for (let s = 0; s < count; s++) {
        const r = syn.n;
        syn.ints64[0][r] = nextId++;
        syn.ints64[1][r] = c.id;
        syn.ints64[2][r] = cells[post].id;
        syn.floats[0][r] = Math.round(10 + 390 * rnd() ** 3);
        syn.floats[1][r] = 50 + Math.floor(150 * rnd() ** 2);
        let sum = 0;
        let best = 0;
        for (let t = 0; t < 6; t++) {
          probs[t] = (c.avg[t] + 0.01) * (0.5 + rnd());
          if (probs[t] > probs[best]) best = t;
        }
        if (c.nt >= 0 && best !== c.nt) [probs[best], probs[c.nt]] = [probs[c.nt], probs[best]];
        for (let t = 0; t < 6; t++) sum += probs[t];
        for (let t = 0; t < 6; t++) {
          const p = probs[t] / sum;
          syn.floats[2 + t][r] = p;
          sums[t] += p;
        }
        for (let d = 0; d < 3; d++) {
          // A triangular deviate around the centre, kept inside the box.
          const v = centre[d] + (rnd() + rnd() - 1) * spread[d];
          const postV = Math.round(Math.min(box.max[d], Math.max(box.min[d], v)));
          const preV = Math.min(box.max[d], Math.max(box.min[d], postV + Math.round((rnd() * 2 - 1) * 120)));
          syn.ints32[d][r] = preV;
          syn.ints32[3 + d][r] = postV;
        }
        syn.dict[r] = np;
        syn.n++;
        if (syn.n === BATCH_ROWS) await flushSyn();
      }
      const r = con.n;
      con.ints64[0][r] = c.id;
      con.ints64[1][r] = cells[post].id;
      con.dict[r] = np;
      con.ints32[0][r] = count;
      for (let t = 0; t < 6; t++) con.floats[t][r] = sums[t] / count;
      con.n++;
      connections++;
      if (con.n === BATCH_ROWS) await flushCon();
      perNeuropil[np] += count;
      written += count;
    }
    if (written >= nextLog) {
      log(`  ${written.toLocaleString('en')} synapses (${((written / total) * 100).toFixed(0)}%), ${((Date.now() - started) / 1000).toFixed(0)} s`);
      nextLog += total / 10;
    }
  }
  await flushSyn();
  await synOut.close();
  await flushCon();
  await conOut.close();
  return {
    synapses: written,
    connections,
    neurons: N,
    parts: partFiles,
    connectionsFile,
    perNeuropil: Object.fromEntries(neuropils.map((p, k) => [p.name, perNeuropil[k]])),
    neuropils,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { synapses: { type: 'string', default: '54500000' }, out: { type: 'string' }, seed: { type: 'string', default: '783' }, parts: { type: 'string' } },
  });
  if (!values.out) throw new Error('usage: npm run bench:generate-flywire -- --synapses N --out DIR [--seed N] [--parts K]');
  const t = Date.now();
  const result = await generateSyntheticFlyWire({
    synapses: Number(values.synapses),
    out: values.out,
    seed: Number(values.seed),
    parts: values.parts ? Number(values.parts) : undefined,
    log: (line) => console.log(line),
  });
  const { statSync, writeFileSync } = await import('node:fs');
  const files = [...result.parts, result.connectionsFile];
  const bytes = files.reduce((s, f) => s + statSync(f).size, 0);
  // What the benchmark needs to know of the release without scanning it.
  writeFileSync(
    path.join(values.out, 'generator.json'),
    JSON.stringify({ seed: Number(values.seed), synapses: result.synapses, connections: result.connections, neurons: result.neurons, parts: result.parts.map((p) => path.basename(p)), perNeuropil: result.perNeuropil, boxes: Object.fromEntries(result.neuropils.map((p) => [p.name, p.box])) }, null, 1),
  );
  const seconds = (Date.now() - t) / 1000;
  const rss = process.resourceUsage().maxRSS / 1024;
  console.log(
    `${result.synapses.toLocaleString('en')} synapses in ${result.parts.length} part(s), ${result.connections.toLocaleString('en')} per-neuropil connections, ` +
      `${(bytes / 1e9).toFixed(2)} GB of Feather, in ${seconds.toFixed(1)} s (peak RSS ${rss.toFixed(0)} MB)`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
