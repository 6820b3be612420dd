import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openColumn, type ColumnStore } from '../../../../lib/column/column.js';
import { ch, ident, type ChQuery } from '../../../../lib/column/sql.js';
import { configFrom } from '../../../../lib/config.js';
import { engineEnvFromProcess } from '../../../../test/kit/settings.js';
import { BadInput, NotFound } from '../../../../lib/errors.js';
import { migrateColumnTables } from '../../../neurodata/index.js';
import { compileCount, compileQuery } from '../compile.js';
import type { Expr, Query } from '../ast.js';
import { parseSyql } from '../parser.js';
import type { Parameters, PlannerEnv, ResolvedDataset, ResultColumn } from '../plan.js';
import { datasetRefText, planQuery } from '../planner.js';

/**
 * Compiled SyQL run on a real engine (chDB by default; the ClickHouse server of CLICKHOUSE_URL, e.g. Debian's 18.16),
 * compared with the same query evaluated in plain JavaScript over the same rows: two shipped connectomes (with
 * made-up regions and positions, so that every property has something to filter) and a tiny hand-made dataset for
 * the edge cases (self-connections of both kinds, a pair joined by both kinds, nulls, morphologies, isolated cells).
 */

const env = engineEnvFromProcess();
const engine = env.CLICKHOUSE_URL ? 'a ClickHouse server' : 'chDB';

interface Neuron {
  neuron_id: string;
  name: string;
  cell_class: string;
  cell_type: string;
  neurotransmitter: string;
  is_neuron: number;
  region_code: string;
  x: number | null;
  y: number | null;
  z: number | null;
}
interface Conn {
  pre: string;
  post: string;
  synapse_type: 'chemical' | 'electrical';
  weight: number;
}
interface Morph {
  neuron: string;
  file: string;
  n_points: number;
  n_soma_points: number;
  n_stems: number;
  n_bifurcations: number;
  n_tips: number;
  total_length: number;
  soma_x: number | null;
  soma_y: number | null;
  soma_z: number | null;
}
interface Data {
  ds: ResolvedDataset;
  neurons: Neuron[];
  conns: Conn[];
  morphs: Morph[];
}

/** The made-up region hierarchy: R above R:S (above R:S1, R:S2), R:I and R:M. */
const REGIONS: Record<string, string[]> = {
  R: ['R', 'R:S', 'R:S1', 'R:S2', 'R:I', 'R:M'],
  'R:S': ['R:S', 'R:S1', 'R:S2'],
  'R:M': ['R:M'],
};

function connectome(folder: string, slug: string, version: number): Data {
  const dir = path.join('seed/connectomes', folder);
  const rows = parse(readFileSync(path.join(dir, 'neurons.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
  const neurons = rows.map((r, i): Neuron => {
    const region =
      r.cell_type === 'sensory' ? (r.neuron_id.endsWith('L') ? 'R:S1' : 'R:S2') : r.cell_type === 'interneuron' ? 'R:I' : r.cell_type === 'motor' ? 'R:M' : '';
    return {
      neuron_id: r.neuron_id,
      name: r.source_name,
      cell_class: r.cell_class,
      cell_type: r.cell_type,
      neurotransmitter: r.neurotransmitter,
      is_neuron: r.is_neuron === 'true' ? 1 : 0,
      region_code: region,
      x: i % 3 === 0 ? null : i * 0.5,
      y: i % 5 === 0 ? null : (i * 7) % 100,
      z: i % 2 === 0 ? null : -i,
    };
  });
  const conns = (parse(readFileSync(path.join(dir, 'connections.csv'), 'utf8'), { columns: true }) as Record<string, string>[]).map(
    (r): Conn => ({ pre: r.pre, post: r.post, synapse_type: r.synapse_type as Conn['synapse_type'], weight: Number(r.weight) }),
  );
  return { ds: dataset(slug, version, neurons.length, conns.length, 0), neurons, conns, morphs: [] };
}

function dataset(slug: string, version: number, neurons: number, connections: number, morphologies: number): ResolvedDataset {
  return {
    ref: `"${slug}"@v${version}`,
    datasetId: randomUUID(),
    slug,
    version,
    isDraft: false,
    label: `${slug}@v${version}`,
    rowCounts: { neurons, connections, morphologies },
  };
}

const n = (neuron_id: string, more: Partial<Neuron> = {}): Neuron => ({
  neuron_id,
  name: neuron_id,
  cell_class: neuron_id.slice(0, 1),
  cell_type: 'interneuron',
  neurotransmitter: '',
  is_neuron: 1,
  region_code: '',
  x: null,
  y: null,
  z: null,
  ...more,
});
const chem = (pre: string, post: string, weight: number): Conn => ({ pre, post, synapse_type: 'chemical', weight });
const elec = (pre: string, post: string, weight: number): Conn => ({ pre, post, synapse_type: 'electrical', weight });
const morph = (neuron: string, file: string, n_points: number, soma: number | null): Morph => ({
  neuron,
  file,
  n_points,
  n_soma_points: soma === null ? 0 : 1,
  n_stems: 2,
  n_bifurcations: n_points > 10 ? 3 : 0,
  n_tips: 4,
  total_length: n_points * 1.5,
  soma_x: soma,
  soma_y: soma === null ? null : soma + 1,
  soma_z: soma === null ? null : soma + 2,
});

function tiny(): Data {
  const neurons = [
    n('A', { name: 'alpha', cell_type: 'sensory', neurotransmitter: 'Glutamate', region_code: 'R:S1', x: 1, y: 2, z: 3 }),
    n('B', { name: 'beta', cell_type: 'motor', region_code: 'R:M', x: 20, y: null }),
    n('C', { name: 'gamma', neurotransmitter: 'GABA|Serotonin', region_code: 'R:I', x: null, y: 5 }),
    n('D', { name: 'delta', is_neuron: 0, cell_type: 'muscle', x: 11 }),
    n('E', { name: 'eps', x: 50 }),
  ];
  const conns = [
    chem('A', 'A', 5),
    chem('A', 'B', 3),
    elec('A', 'B', 2),
    chem('B', 'C', 2),
    chem('C', 'A', 1),
    chem('B', 'D', 4),
    elec('B', 'D', 7),
    elec('C', 'C', 1),
    chem('D', 'B', 6),
  ];
  const morphs = [morph('A', 'a1.swc', 12, 0.5), morph('A', 'a2.swc', 8, null), morph('B', 'b1.swc', 30, 2)];
  return { ds: dataset('tiny', 1, neurons.length, conns.length, morphs.length), neurons, conns, morphs };
}

const DATA: Record<string, Data> = {
  male: connectome('celegans_cook_2019_male', 'male', 1),
  varshney: connectome('celegans_varshney_2011', 'varshney', 2),
  w1: connectome('celegans_witvliet_2021_1', 'w1', 1),
  tiny: tiny(),
};
// A few morphologies for the small connectome too.
DATA.w1.morphs = DATA.w1.neurons.filter((_, i) => i % 7 === 0).flatMap((x, i) => [morph(x.neuron_id, `${x.neuron_id}.swc`, 5 + i, i % 2 ? null : i), ...(i % 3 ? [] : [morph(x.neuron_id, `${x.neuron_id}-b.swc`, 20 + i, 1)])]);
DATA.w1.ds.rowCounts.morphologies = DATA.w1.morphs.length;

const plannerEnv: PlannerEnv = {
  async resolveDataset(ref) {
    const d = DATA[ref.dataset];
    if (!d) throw new NotFound(`dataset ${ref.dataset} not found`);
    return { ...d.ds, ref: datasetRefText(ref) };
  },
  async regionCodesWithin(code) {
    return REGIONS[code] ?? null;
  },
};

let column: ColumnStore;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'syql-test-'));
  const database = `syql_test_${process.pid}_${Date.now().toString(36)}`;
  column = await openColumn(configFrom({ LOG_LEVEL: 'silent', ...env, DATA_DIR: dataDir, CLICKHOUSE_DATABASE: database }).column);
  await migrateColumnTables(column);
  for (const d of Object.values(DATA)) {
    const key = { dataset_id: d.ds.datasetId, version: d.ds.version };
    await column.insert('neurons', d.neurons.map((r) => ({ ...key, ...r })), { name: 'test.neurons' });
    await column.insert('connections', d.conns.map((r) => ({ ...key, ...r })), { name: 'test.connections' });
    const extra = { object_key: 'k', sha256: '0', min_x: 0, min_y: 0, min_z: 0, max_x: 1, max_y: 1, max_z: 1 };
    await column.insert('morphologies', d.morphs.map((r) => ({ ...key, ...extra, ...r })), { name: 'test.morphologies' });
  }
});

afterAll(async () => {
  if (column?.kind === 'clickhouse') {
    await column.command(ch`DROP DATABASE IF EXISTS ${ident(column.database)}`, { name: 'test.drop' });
  }
  await column?.close();
  await rm(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------------------------
// Running a query, and the values it gives

type Value = string | number | boolean | null;
type Row = Value[];

/** Floats to 12 significant digits: sums in another order differ in the last bits. */
const round = (x: number) => Number(x.toPrecision(12));

function normalise(v: unknown, c: ResultColumn): Value {
  if (v === null || v === undefined) return null;
  switch (c.type) {
    case 'integer':
      return Number(v);
    case 'float':
      return round(Number(v));
    case 'boolean':
      return Number(v) === 1;
    default:
      return String(v);
  }
}

function fix(row: Row): Row {
  return row.map((v) => (typeof v === 'number' && !Number.isInteger(v) ? round(v) : v));
}

async function rowsOf(q: ChQuery, columns: ResultColumn[]): Promise<Row[]> {
  const raw = await column.query<Record<string, unknown>>(q, { name: 'syql.test' });
  return raw.map((r) => columns.map((c, i) => normalise(r[`c${i}`], c)));
}

/** Runs a query; checks that every result column has the ClickHouse type the plan declares. */
async function run(text: string, parameters?: Parameters, opts: { maxRows?: number } = {}) {
  const plan = await planQuery(parseSyql(text), parameters, plannerEnv);
  const q = compileQuery(plan, opts);
  const rows = await rowsOf(q, plan.columns);
  const typeNames = plan.columns.map((_, i) => `toTypeName(c${i}) AS c${i}`).join(', ');
  const types = await column.query<Record<string, string>>({ sql: `SELECT ${typeNames} FROM (${q.sql}) LIMIT 1`, params: q.params }, { name: 'syql.test.types' });
  if (types.length) expect(plan.columns.map((_, i) => types[0][`c${i}`])).toEqual(plan.columns.map((c) => c.chType));
  return { plan, rows, sql: q.sql };
}

async function count(text: string, parameters?: Parameters): Promise<number> {
  const plan = await planQuery(parseSyql(text), parameters, plannerEnv);
  const rows = await column.query<{ count: unknown }>(compileCount(plan), { name: 'syql.test.count' });
  expect(rows).toHaveLength(1);
  return Number(rows[0].count);
}

const key = (r: Row) => JSON.stringify(r);
const sorted = (rows: Row[]) => rows.map(fix).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

function sameRows(actual: Row[], expected: Row[]): void {
  expect(sorted(actual)).toEqual(sorted(expected));
}

// ---------------------------------------------------------------------------------------------------------------
// The reference: the semantics of docs/syql.md in plain JavaScript

interface Edge {
  from: string;
  to: string;
  weight: number;
  type: string;
}

/**
 * The reference's answers are pure functions of the immutable test data, asked again for every binding the naive
 * evaluator tries: computed once per dataset and arguments (the callers only read them).
 */
const memo = new WeakMap<Data, Map<string, unknown>>();
function once<T>(d: Data, key: string, compute: () => T): T {
  let m = memo.get(d);
  if (!m) memo.set(d, (m = new Map()));
  if (!m.has(key)) m.set(key, compute());
  return m.get(key) as T;
}

/** The relationships a single hop matches, as (left node, right node). */
function hop(d: Data, kinds: ('chemical' | 'electrical')[], direction: 'right' | 'left' | 'both'): Edge[] {
  return once(d, `hop ${kinds.join(',')} ${direction}`, () => hopOnce(d, kinds, direction));
}

function hopOnce(d: Data, kinds: ('chemical' | 'electrical')[], direction: 'right' | 'left' | 'both'): Edge[] {
  const out: Edge[] = [];
  for (const c of d.conns) {
    if (!kinds.includes(c.synapse_type)) continue;
    const e = { weight: c.weight, type: c.synapse_type };
    if (c.synapse_type === 'electrical' || direction === 'both') {
      out.push({ from: c.pre, to: c.post, ...e });
      if (c.pre !== c.post) out.push({ from: c.post, to: c.pre, ...e });
    } else if (direction === 'right') out.push({ from: c.pre, to: c.post, ...e });
    else out.push({ from: c.post, to: c.pre, ...e });
  }
  return out;
}

/** Each (start, end) pair joined by a walk of min..max hops, with the fewest such hops. */
function paths(d: Data, kinds: ('chemical' | 'electrical')[], direction: 'right' | 'left' | 'both', min: number, max: number) {
  return once(d, `paths ${kinds.join(',')} ${direction} ${min} ${max}`, () => pathsOnce(d, kinds, direction, min, max));
}

function pathsOnce(d: Data, kinds: ('chemical' | 'electrical')[], direction: 'right' | 'left' | 'both', min: number, max: number) {
  const next = new Map<string, Set<string>>();
  for (const e of hop(d, kinds, direction)) {
    if (!next.has(e.from)) next.set(e.from, new Set());
    next.get(e.from)!.add(e.to);
  }
  const out: { from: string; to: string; hops: number }[] = [];
  for (const start of d.neurons.map((x) => x.neuron_id)) {
    let frontier = new Set([start]);
    const best = new Map<string, number>();
    for (let k = 1; k <= max; k++) {
      const grown = new Set<string>();
      for (const x of frontier) for (const y of next.get(x) ?? []) grown.add(y);
      if (k >= min) for (const y of grown) if (!best.has(y)) best.set(y, k);
      frontier = grown;
    }
    for (const [to, hops] of best) out.push({ from: start, to, hops });
  }
  return out;
}

const byId = (d: Data) => new Map(d.neurons.map((x) => [x.neuron_id, x]));

/** SQL's comparison with null: unknown (null). */
const gt = (a: number | null, b: number) => (a === null ? null : a > b);
const sqlNot = (a: boolean | null) => (a === null ? null : !a);
const sqlOr = (a: boolean | null, b: boolean | null) => (a === true || b === true ? true : a === null || b === null ? null : false);
const sqlAnd = (a: boolean | null, b: boolean | null) => (a === false || b === false ? false : a === null || b === null ? null : true);

// ---------------------------------------------------------------------------------------------------------------
// A naive evaluator of whole queries (non-aggregating): every binding of the pattern by nested loops, WHERE in SQL's
// three-valued logic, RETURN expressions per binding.

type Bound = { kind: 'neuron'; row: Neuron } | { kind: 'morph'; row: Morph } | { kind: 'edge'; row: Edge } | { kind: 'path'; hops: number };

const NEURON_COLUMN: Record<string, keyof Neuron> = { id: 'neuron_id', class: 'cell_class', type: 'cell_type', region: 'region_code' };

function propertyValue(b: Bound, key: string): Value {
  switch (b.kind) {
    case 'neuron': {
      const v = b.row[NEURON_COLUMN[key] ?? (key as keyof Neuron)];
      return key === 'is_neuron' ? v === 1 : v;
    }
    case 'morph':
      return b.row[key as keyof Morph];
    case 'edge':
      return b.row[key as 'weight' | 'type'];
    case 'path':
      return b.hops;
  }
}

function evaluate(e: Expr, env: Map<string, Bound>, params: Parameters): Value {
  const v = (x: Expr) => evaluate(x, env, params);
  switch (e.kind) {
    case 'literal':
      return e.value;
    case 'param':
      return params[e.name] as Value;
    case 'property':
      return propertyValue(env.get(e.variable)!, e.key);
    case 'comparison': {
      const [l, r] = [v(e.left), v(e.right)];
      if (l === null || r === null) return null;
      const c = l < r ? -1 : l > r ? 1 : 0;
      return { '=': c === 0, '<>': c !== 0, '<': c < 0, '<=': c <= 0, '>': c > 0, '>=': c >= 0 }[e.op];
    }
    case 'string-match': {
      const [l, r] = [v(e.left), v(e.right)] as (string | null)[];
      if (l === null || r === null) return null;
      return e.op === 'starts-with' ? l.startsWith(r) : e.op === 'ends-with' ? l.endsWith(r) : l.includes(r);
    }
    case 'in': {
      const l = v(e.left);
      const items = (e.right.kind === 'param' ? params[e.right.name] : e.right.items.map(v)) as Value[];
      const r = l === null ? null : items.includes(l) ? true : items.includes(null) ? null : false;
      return e.negated ? sqlNot(r) : r;
    }
    case 'within': {
      const l = v(e.left);
      return l === null ? null : REGIONS[v(e.region) as string].includes(l as string);
    }
    case 'is-null':
      return (v(e.operand) === null) !== e.negated;
    case 'logical':
      return e.op === 'and' ? sqlAnd(v(e.left) as boolean | null, v(e.right) as boolean | null) : sqlOr(v(e.left) as boolean | null, v(e.right) as boolean | null);
    case 'not':
      return sqlNot(v(e.operand) as boolean | null);
    default:
      throw new Error(`the reference evaluator does not take ${e.kind}`);
  }
}

const KINDS = { Chemical: ['chemical'], Electrical: ['electrical'], Synapse: ['chemical', 'electrical'] } as const;

/** Every row of a non-aggregating query, by brute force. */
function reference(d: Data, q: Query, params: Parameters = {}): Row[] {
  const nodes = q.match.nodes;
  const rows: Row[] = [];
  const labelOf = (i: number): 'Neuron' | 'Morphology' => {
    const v = nodes[i].variable;
    const all = nodes.map((n, j) => [n, j] as const).filter(([n, j]) => j === i || (v !== null && n.variable === v));
    for (const [n, j] of all) {
      if (n.label) return n.label as 'Neuron' | 'Morphology';
      const before = q.match.rels[j - 1];
      const after = q.match.rels[j];
      if (before?.types[0]?.name === 'HAS_MORPHOLOGY' && before.direction === 'right') return 'Morphology';
      if (after?.types[0]?.name === 'HAS_MORPHOLOGY' && after.direction === 'left') return 'Morphology';
    }
    return 'Neuron';
  };
  const candidates = (i: number): Bound[] =>
    labelOf(i) === 'Neuron' ? d.neurons.map((row) => ({ kind: 'neuron', row })) : d.morphs.map((row) => ({ kind: 'morph', row }));
  const idOf = (b: Bound) => (b.kind === 'neuron' ? b.row.neuron_id : b.kind === 'morph' ? b.row.neuron : '');
  const bind = (env: Map<string, Bound>, name: string | null, b: Bound): Map<string, Bound> | null => {
    if (name === null) return env;
    const had = env.get(name);
    if (had) return had.kind === b.kind && (had as { row: unknown }).row === (b as { row: unknown }).row ? env : null;
    return new Map(env).set(name, b);
  };
  const nodeOk = (i: number, b: Bound, env: Map<string, Bound>) =>
    nodes[i].properties.every((p) => evaluate({ kind: 'comparison', op: '=', left: { kind: 'property', variable: '_', key: p.key, pos: p.pos }, right: p.value, pos: p.pos }, new Map(env).set('_', b), params) === true);
  const step = (i: number, env: Map<string, Bound>, current: Bound): void => {
    if (i === q.match.rels.length) {
      if (q.where && evaluate(q.where, env, params) !== true) return;
      rows.push(q.returns.map((r) => evaluate(r.expr, env, params)));
      return;
    }
    const rel = q.match.rels[i];
    const next = (b: Bound, relBound: Bound | null) => {
      if (!nodeOk(i + 1, b, env)) return;
      let e = bind(env, nodes[i + 1].variable, b);
      if (e && relBound) e = bind(e, rel.variable, relBound);
      if (e) step(i + 1, e, b);
    };
    const type = rel.types[0]?.name;
    if (type === 'HAS_MORPHOLOGY') {
      for (const b of candidates(i + 1)) if (idOf(b) === idOf(current)) next(b, null);
      return;
    }
    const kinds = [...new Set(rel.types.length ? rel.types.flatMap((t) => KINDS[t.name as keyof typeof KINDS]) : KINDS.Synapse)];
    const byNeuron = new Map(d.neurons.map((row) => [row.neuron_id, { kind: 'neuron', row } as Bound]));
    if (rel.hops) {
      for (const p of paths(d, kinds, rel.direction, rel.hops.min, rel.hops.max)) if (p.from === idOf(current)) next(byNeuron.get(p.to)!, { kind: 'path', hops: p.hops });
    } else {
      for (const edge of hop(d, kinds, rel.direction)) if (edge.from === idOf(current)) next(byNeuron.get(edge.to)!, { kind: 'edge', row: edge });
    }
  };
  for (const b of candidates(0)) {
    if (!nodeOk(0, b, new Map())) continue;
    const env = bind(new Map(), nodes[0].variable, b);
    if (env) step(0, env, b);
  }
  return rows;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------------------------

describe(`SyQL compiled and run on ${engine}`, () => {
  const male = DATA.male;
  const MALE = `IN "male"@v1`;
  const TINY = `IN "tiny"@v1`;

  it('runs the documented example: STARTS WITH, a weight filter, ORDER BY ... DESC and LIMIT', async () => {
    const { rows, sql } = await run(`MATCH (a:Neuron)-[c:Chemical]->(b:Neuron)
IN "male"@v1
WHERE a.name STARTS WITH 'AVA' AND c.weight >= 5
RETURN a.name AS pre, b.name AS post, c.weight
ORDER BY c.weight DESC
LIMIT 100`);
    const ids = byId(male);
    const all = hop(male, ['chemical'], 'right')
      .filter((e) => ids.get(e.from)!.name.startsWith('AVA') && e.weight >= 5)
      .map((e) => [ids.get(e.from)!.name, ids.get(e.to)!.name, e.weight] as Row);
    expect(all.length).toBeGreaterThan(20);
    expect(all.length).toBeLessThan(100);
    sameRows(rows, all);
    const weights = all.map((r) => r[2] as number).sort((a, b) => b - a);
    expect(rows.map((r) => r[2])).toEqual(weights);
    // A cut among ties leaves the rows themselves open; the weights and the rows' membership are not.
    const cut = await run(`MATCH (a:Neuron)-[c:Chemical]->(b:Neuron) IN "male"@v1 WHERE a.name STARTS WITH 'AVA' AND c.weight >= 5
RETURN a.name AS pre, b.name AS post, c.weight ORDER BY c.weight DESC LIMIT 20`);
    expect(cut.rows.map((r) => r[2])).toEqual(weights.slice(0, 20));
    const known = new Set(all.map(key));
    for (const r of cut.rows) expect(known.has(key(r))).toBe(true);
    // The neuron filter narrows the scan of connections before the join.
    expect(sql).toMatch(/pre IN \(SELECT neuron_id FROM neurons WHERE/);
  });

  describe('filters on every Neuron property', () => {
    const ids = byId(male);
    const cases: [string, Parameters | undefined, (x: Neuron) => boolean | null][] = [
      [`a.id = 'AVAL'`, undefined, (x) => x.neuron_id === 'AVAL'],
      [`a.name IN ['AVAL', 'AVAR', 'nobody']`, undefined, (x) => ['AVAL', 'AVAR'].includes(x.name)],
      [`a.class = $c`, { c: 'AVA' }, (x) => x.cell_class === 'AVA'],
      [`a.type <> 'sensory'`, undefined, (x) => x.cell_type !== 'sensory'],
      [`a.neurotransmitter CONTAINS 'Serotonin'`, undefined, (x) => x.neurotransmitter.includes('Serotonin')],
      [`a.neurotransmitter ENDS WITH 'ine'`, undefined, (x) => x.neurotransmitter.endsWith('ine')],
      [`a.region = 'R:M'`, undefined, (x) => x.region_code === 'R:M'],
      [`a.region WITHIN 'R:S'`, undefined, (x) => ['R:S', 'R:S1', 'R:S2'].includes(x.region_code)],
      [`a.region WITHIN $r AND NOT a.region WITHIN 'R:S'`, { r: 'R' }, (x) => ['R:I', 'R:M'].includes(x.region_code)],
      [`a.is_neuron = false`, undefined, (x) => x.is_neuron === 0],
      [`a.is_neuron`, undefined, (x) => x.is_neuron === 1],
      [`a.x > 100.5`, undefined, (x) => gt(x.x, 100.5)],
      [`a.y <= 5`, undefined, (x) => (x.y === null ? null : x.y <= 5)],
      [`a.z IS NULL`, undefined, (x) => x.z === null],
      [`a.x IS NOT NULL AND a.z < -500`, undefined, (x) => x.x !== null && x.z !== null && x.z < -500],
      // Three-valued logic: null OR true is true, NOT null is null (and filtered out).
      [`a.x > 100 OR a.name STARTS WITH 'AV'`, undefined, (x) => sqlOr(gt(x.x, 100), x.name.startsWith('AV'))],
      [`NOT (a.x > 100)`, undefined, (x) => sqlNot(gt(x.x, 100))],
      [`NOT (a.x > 100 AND a.y > 50)`, undefined, (x) => sqlNot(sqlAnd(gt(x.x, 100), gt(x.y, 50)))],
      [`a.x IN [1.0, 2.5, 4] OR a.y IN $ys`, { ys: [7, 14, null] }, (x) => sqlOr([1, 2.5, 4].includes(x.x!), [7, 14].includes(x.y!) ? true : null)],
      [`a.y IN [7, null]`, undefined, (x) => (x.y === 7 ? true : null)],
      [`(NOT a.y IN [7, null]) IS NULL`, undefined, (x) => x.y !== 7],
      [`a.y NOT IN [7, 14]`, undefined, (x) => (x.y === null ? null : ![7, 14].includes(x.y))],
      [`a.name >= 'V' AND a.name < 'W'`, undefined, (x) => x.name >= 'V' && x.name < 'W'],
    ];
    it.each(cases)('WHERE %s', async (where, params, predicate) => {
      const { rows } = await run(`MATCH (a:Neuron) ${MALE} WHERE ${where} RETURN a.id`, params);
      const expected = male.neurons.filter((x) => predicate(x) === true).map((x) => [x.neuron_id]);
      expect(expected.length).toBeGreaterThan(0);
      sameRows(rows, expected);
      for (const [id] of rows) expect(ids.has(id as string)).toBe(true);
    });

    it('returns every property of a node with RETURN a, nulls included, in their declared types', async () => {
      const { plan, rows } = await run(`MATCH (a {class: 'AVA'}) ${MALE} RETURN a ORDER BY a.id`);
      expect(plan.columns.map((c) => `${c.name}:${c.chType}`)).toEqual([
        'a.id:String',
        'a.name:String',
        'a.class:String',
        'a.type:String',
        'a.neurotransmitter:String',
        'a.region:String',
        'a.is_neuron:UInt8',
        'a.x:Nullable(Float64)',
        'a.y:Nullable(Float64)',
        'a.z:Nullable(Float64)',
      ]);
      const expected = male.neurons
        .filter((x) => x.cell_class === 'AVA')
        .sort((p, q) => (p.neuron_id < q.neuron_id ? -1 : 1))
        .map((x) => [x.neuron_id, x.name, x.cell_class, x.cell_type, x.neurotransmitter, x.region_code, x.is_neuron === 1, x.x, x.y, x.z]);
      expect(rows).toEqual(expected);
    });

    it('returns a condition as a nullable boolean column', async () => {
      const { plan, rows } = await run(`MATCH (a) ${TINY} RETURN a.id, a.x > 10 AS far, a.x IS NULL AS unknown`);
      expect(plan.columns[1]).toMatchObject({ type: 'boolean', nullable: true, chType: 'Nullable(UInt8)' });
      sameRows(
        rows,
        DATA.tiny.neurons.map((x) => [x.neuron_id, gt(x.x, 10), x.x === null]),
      );
    });
  });

  it('aggregates with grouping keys: count(*), count(DISTINCT node), sum, avg, min, max', async () => {
    const { rows } = await run(`MATCH (a:Neuron)-[c:Chemical]->(b:Neuron) ${MALE}
RETURN a.type, count(*) AS n, count(DISTINCT b) AS targets, count(DISTINCT b.class) AS classes, sum(c.weight) AS total,
       avg(c.weight) AS mean, min(b.name) AS first, max(c.weight) AS top, count(b.x) AS placed, avg(b.x) AS ax`);
    const ids = byId(male);
    const groups = new Map<string, Edge[]>();
    for (const e of hop(male, ['chemical'], 'right')) {
      const t = ids.get(e.from)!.cell_type;
      groups.set(t, [...(groups.get(t) ?? []), e]);
    }
    const expected = [...groups].map(([type, es]): Row => {
      const xs = es.map((e) => ids.get(e.to)!.x).filter((x): x is number => x !== null);
      return [
        type,
        es.length,
        new Set(es.map((e) => e.to)).size,
        new Set(es.map((e) => ids.get(e.to)!.cell_class)).size,
        es.reduce((s, e) => s + e.weight, 0),
        es.reduce((s, e) => s + e.weight, 0) / es.length,
        es.map((e) => ids.get(e.to)!.name).sort()[0],
        Math.max(...es.map((e) => e.weight)),
        xs.length,
        xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null,
      ];
    });
    sameRows(rows, expected);
  });

  it('aggregates without grouping keys: one row, null for avg/min/max of nothing, 0 for count and sum', async () => {
    const none = await run(`MATCH (a)-[c:Chemical]->(b) ${MALE} WHERE a.name = 'nobody'
RETURN count(*) AS n, sum(c.weight) AS s, avg(c.weight) AS m, min(b.name) AS lo, max(a.x) AS hi, count(DISTINCT b) AS d`);
    expect(none.plan.columns.map((c) => c.chType)).toEqual(['Int64', 'Float64', 'Nullable(Float64)', 'Nullable(String)', 'Nullable(Float64)', 'Int64']);
    expect(none.rows).toEqual([[0, 0, null, null, null, 0]]);
    const some = await run(`MATCH (a)-[c:Chemical]->(b) ${TINY} RETURN count(*), sum(c.weight), min(b.name), sum(DISTINCT c.weight), avg(DISTINCT c.weight)`);
    const ws = DATA.tiny.conns.filter((c) => c.synapse_type === 'chemical').map((c) => c.weight);
    const distinct = [...new Set(ws)];
    expect(some.rows).toEqual([[ws.length, ws.reduce((s, w) => s + w, 0), 'alpha', distinct.reduce((s, w) => s + w, 0), round(distinct.reduce((s, w) => s + w, 0) / distinct.length)]]);
  });

  it('groups by a node as by its key, whatever of its properties are returned', async () => {
    const { rows, sql } = await run(`MATCH (a)-[c:Chemical]->(b) ${MALE} WHERE b.class = 'AVA' RETURN a, count(*) AS n, sum(c.weight) AS w`);
    expect(sql).toMatch(/GROUP BY c0$/);
    const ids = byId(male);
    const groups = new Map<string, Edge[]>();
    for (const e of hop(male, ['chemical'], 'right')) if (ids.get(e.to)!.cell_class === 'AVA') groups.set(e.from, [...(groups.get(e.from) ?? []), e]);
    sameRows(
      rows,
      [...groups].map(([id, es]) => {
        const x = ids.get(id)!;
        return [x.neuron_id, x.name, x.cell_class, x.cell_type, x.neurotransmitter, x.region_code, x.is_neuron === 1, x.x, x.y, x.z, es.length, es.reduce((t, e) => t + e.weight, 0)];
      }),
    );
    const m = await run(`MATCH (n)-[:HAS_MORPHOLOGY]->(m) ${TINY} RETURN n.name, count(DISTINCT m) AS files, count(m.soma_x) AS somas, avg(m.soma_x) AS soma`);
    sameRows(m.rows, [
      ['alpha', 2, 1, 0.5],
      ['beta', 1, 1, 2],
    ]);
  });

  it('DISTINCT', async () => {
    const { rows } = await run(`MATCH (a)-[:Chemical]->(b {type: 'motor'}) ${MALE} RETURN DISTINCT a.class, b.type`);
    const ids = byId(male);
    const expected = new Set(
      hop(male, ['chemical'], 'right')
        .filter((e) => ids.get(e.to)!.cell_type === 'motor')
        .map((e) => key([ids.get(e.from)!.cell_class, 'motor'])),
    );
    sameRows(rows, [...expected].map((k) => JSON.parse(k) as Row));
  });

  it('ORDER BY with SKIP and LIMIT, by name or expression, ascending and descending, nulls as the largest value', async () => {
    const ordered = [...male.neurons].sort((p, q) => (p.neuron_id < q.neuron_id ? -1 : 1));
    const a = await run(`MATCH (a) ${MALE} RETURN a.id ORDER BY a.id SKIP 5 LIMIT 10`);
    expect(a.rows).toEqual(ordered.slice(5, 15).map((x) => [x.neuron_id]));
    const b = await run(`MATCH (a) ${MALE} RETURN a.id AS id ORDER BY id DESC SKIP $s LIMIT $l`, { s: 3, l: 4 });
    expect(b.rows).toEqual([...ordered].reverse().slice(3, 7).map((x) => [x.neuron_id]));
    const c = await run(`MATCH (a) ${MALE} RETURN a.id ORDER BY a.id SKIP 590`);
    expect(c.rows).toEqual(ordered.slice(590).map((x) => [x.neuron_id]));
    const tinyById = [...DATA.tiny.neurons];
    const asc = await run(`MATCH (a) ${TINY} RETURN a.id, a.x ORDER BY a.x, a.id`);
    const ascExpected = tinyById.sort((p, q) => (p.x ?? Infinity) - (q.x ?? Infinity) || (p.neuron_id < q.neuron_id ? -1 : 1)).map((x) => [x.neuron_id, x.x]);
    expect(asc.rows).toEqual(ascExpected);
    const desc = await run(`MATCH (a) ${TINY} RETURN a.id, a.x ORDER BY a.x DESC, a.id`);
    expect(desc.rows.map((r) => r[1])).toEqual([null, 50, 20, 11, 1]);
    const byCount = await run(`MATCH (a)-[:Chemical]->(b) ${MALE} RETURN a.id, count(*) AS n ORDER BY n DESC, a.id LIMIT 5`);
    const counts = new Map<string, number>();
    for (const e of hop(male, ['chemical'], 'right')) counts.set(e.from, (counts.get(e.from) ?? 0) + 1);
    const top = [...counts].sort((p, q) => q[1] - p[1] || (p[0] < q[0] ? -1 : 1)).slice(0, 5);
    expect(byCount.rows).toEqual(top);
  });

  it('looks up unfiltered neurons after ORDER BY, SKIP and LIMIT, with the rows of the full order', async () => {
    const byte = (x: Value, y: Value) => (String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0);
    const cmp = (p: Row, q: Row) => (q[4] as number) - (p[4] as number) || byte(p[0], q[0]) || byte(p[1], q[1]) || byte(p[5], q[5]);
    for (const [pattern, ds] of [
      ['(a)-[c:Chemical]->(b)', 'w1'],
      ['(a)-[c:Electrical]-(b)', 'w1'],
      ['(a)-[c]-(b)', 'male'],
    ] as const) {
      const base = `MATCH ${pattern} IN "${ds}"@v1 WHERE c.weight > 1 RETURN a.id, b.id, a.name, b.name, c.weight, c.type`;
      const all = reference(DATA[ds], parseSyql(base)).sort(cmp);
      expect(all.length, pattern).toBeGreaterThan(12);
      // A total order (one row per pair and kind of synapse, ids unique): exactly the rows of the full sort.
      const total = await run(`${base} ORDER BY c.weight DESC, a.id, b.id, c.type SKIP 3 LIMIT 7`);
      expect(total.sql, pattern).toMatch(/ LIMIT 10\) AS t\d+ USING/);
      expect(total.rows.map(fix), pattern).toEqual(all.slice(3, 10).map(fix));
      // Ties at the cut: the weights of the full order, and only rows of the pattern.
      const ties = await run(`${base} ORDER BY c.weight DESC SKIP 2 LIMIT 9`);
      expect(ties.sql, pattern).toMatch(/ LIMIT 11\) AS t\d+ USING/);
      expect(ties.rows.map((r) => r[4]), pattern).toEqual(all.slice(2, 11).map((r) => r[4]));
      const known = new Set(all.map((r) => key(fix(r))));
      for (const r of ties.rows) expect(known.has(key(fix(r))), pattern).toBe(true);
    }
  });

  it('caps the rows with maxRows, and compileCount gives the true number with SKIP and LIMIT', async () => {
    const total = male.neurons.length;
    const capped = await run(`MATCH (a) ${MALE} RETURN a.id`, undefined, { maxRows: 11 });
    expect(capped.rows).toHaveLength(11);
    expect(await count(`MATCH (a) ${MALE} RETURN a.id`)).toBe(total);
    expect(await count(`MATCH (a) ${MALE} RETURN a.id SKIP 10`)).toBe(total - 10);
    expect(await count(`MATCH (a) ${MALE} RETURN a.id SKIP 10 LIMIT 50`)).toBe(50);
    expect(await count(`MATCH (a) ${MALE} RETURN a.id SKIP ${total - 3} LIMIT 50`)).toBe(3);
    expect(await count(`MATCH (a) ${MALE} RETURN a.id SKIP ${total + 3}`)).toBe(0);
    const limited = await run(`MATCH (a) ${MALE} RETURN a.id ORDER BY a.id LIMIT 50`, undefined, { maxRows: 7 });
    expect(limited.rows).toHaveLength(7);
    const few = await run(`MATCH (a) ${MALE} RETURN a.id ORDER BY a.id LIMIT 5`, undefined, { maxRows: 7 });
    expect(few.rows).toHaveLength(5);
    expect(await count(`MATCH (a) ${MALE} RETURN DISTINCT a.type`)).toBe(new Set(male.neurons.map((x) => x.cell_type)).size);
    expect(await count(`MATCH (a) ${MALE} RETURN count(*)`)).toBe(1);
  });

  describe('relationships', () => {
    const shapes: [string, ('chemical' | 'electrical')[], 'right' | 'left' | 'both'][] = [
      ['-[c:Electrical]->', ['electrical'], 'right'],
      ['<-[c:Electrical]-', ['electrical'], 'left'],
      ['-[c:Electrical]-', ['electrical'], 'both'],
      ['-[c:Chemical]->', ['chemical'], 'right'],
      ['<-[c:Chemical]-', ['chemical'], 'left'],
      ['-[c:Chemical]-', ['chemical'], 'both'],
      ['-[c]->', ['chemical', 'electrical'], 'right'],
      ['<-[c:Synapse]-', ['chemical', 'electrical'], 'left'],
      ['-[c:Chemical|Electrical]-', ['chemical', 'electrical'], 'both'],
    ];
    for (const name of ['tiny', 'male']) {
      it.each(shapes)(`${name}: (a)%s(b) matches the rows of docs/syql.md`, async (arrow, kinds, direction) => {
        const d = DATA[name];
        const { rows } = await run(`MATCH (a)${arrow}(b) IN "${name}"@v${d.ds.version} RETURN a.id, b.id, c.weight, c.type`);
        sameRows(
          rows,
          hop(d, kinds, direction).map((e) => [e.from, e.to, e.weight, e.type]),
        );
      });
    }

    it('matches a gap junction both ways and a self-pair once', async () => {
      const { rows } = await run(`MATCH (a)-[e:Electrical]->(b) ${TINY} RETURN a.id, b.id, e.weight`);
      sameRows(rows, [
        ['A', 'B', 2],
        ['B', 'A', 2],
        ['B', 'D', 7],
        ['D', 'B', 7],
        ['C', 'C', 1],
      ]);
      expect((await run(`MATCH (a)-[:Electrical]-(b) ${TINY} RETURN count(*)`)).rows).toEqual([[5]]);
      expect((await run(`MATCH ()-[:Electrical]->() ${MALE} RETURN count(*)`)).rows).toEqual([[hop(male, ['electrical'], 'right').length]]);
      const loops = await run(`MATCH (a)-[e]-(a) ${TINY} RETURN a.id, e.type`);
      sameRows(loops.rows, [
        ['A', 'chemical'],
        ['C', 'electrical'],
      ]);
    });

    it('filters relationship properties and both ends, the ends by semijoin when they are not returned', async () => {
      const { rows, sql } = await run(`MATCH (a {type: 'sensory'})-[c:Chemical]->(b) ${MALE} WHERE c.weight > 3 AND b.class STARTS WITH 'AV' AND c.type = 'chemical' RETURN c.weight`);
      const ids = byId(male);
      sameRows(
        rows,
        hop(male, ['chemical'], 'right')
          .filter((e) => ids.get(e.from)!.cell_type === 'sensory' && e.weight > 3 && ids.get(e.to)!.cell_class.startsWith('AV'))
          .map((e) => [e.weight]),
      );
      expect(sql).not.toMatch(/JOIN/);
    });

    it('chains two relationships, and a variable used twice is one node (cycles)', async () => {
      const d = DATA.male;
      const ids = byId(d);
      const chemical = hop(d, ['chemical'], 'right');
      const out = new Map<string, Edge[]>();
      for (const e of chemical) out.set(e.from, [...(out.get(e.from) ?? []), e]);
      const two = await run(`MATCH (a {name: 'AVAL'})-[:Chemical]->(b)-[c2:Chemical]->(c) ${MALE} RETURN b.name, c.id, c2.weight`);
      sameRows(
        two.rows,
        (out.get('AVAL') ?? []).flatMap((e1) => (out.get(e1.to) ?? []).map((e2) => [ids.get(e1.to)!.name, e2.to, e2.weight])),
      );
      const cycles = await run(`MATCH (a)-[:Chemical]->(b)-[:Chemical]->(a) ${MALE} WHERE a.class = 'AVA' RETURN a.id, b.id`);
      sameRows(
        cycles.rows,
        chemical
          .filter((e1) => ids.get(e1.from)!.cell_class === 'AVA')
          .flatMap((e1) => (out.get(e1.to) ?? []).filter((e2) => e2.to === e1.from).map(() => [e1.from, e1.to])),
      );
      const triangle = await run(`MATCH (a)-->(b)-->(c)-->(a) ${TINY} RETURN a.id, b.id, c.id`);
      const any = hop(DATA.tiny, ['chemical', 'electrical'], 'right');
      const expected: Row[] = [];
      for (const e1 of any) for (const e2 of any) for (const e3 of any) if (e1.to === e2.from && e2.to === e3.from && e3.to === e1.from) expected.push([e1.from, e2.from, e3.from]);
      sameRows(triangle.rows, expected);
    });

    it('HAS_MORPHOLOGY joins a neuron to its morphologies', async () => {
      const t = DATA.tiny;
      const ids = byId(t);
      const a = await run(`MATCH (n:Neuron)-[:HAS_MORPHOLOGY]->(m:Morphology) ${TINY} RETURN n.name, m.file, m.n_points, m.soma_x`);
      sameRows(
        a.rows,
        t.morphs.map((m) => [ids.get(m.neuron)!.name, m.file, m.n_points, m.soma_x]),
      );
      const b = await run(`MATCH (m)<-[:HAS_MORPHOLOGY]-(n) ${TINY} WHERE m.n_points > 10 RETURN m`);
      expect(b.plan.columns.map((c) => `${c.name}:${c.chType}`)).toEqual([
        'm.neuron:String',
        'm.file:String',
        'm.n_points:Int64',
        'm.n_soma_points:Int64',
        'm.n_stems:Int64',
        'm.n_bifurcations:Int64',
        'm.n_tips:Int64',
        'm.total_length:Float64',
        'm.soma_x:Nullable(Float64)',
        'm.soma_y:Nullable(Float64)',
        'm.soma_z:Nullable(Float64)',
      ]);
      sameRows(
        b.rows,
        t.morphs
          .filter((m) => m.n_points > 10)
          .map((m) => [m.neuron, m.file, m.n_points, m.n_soma_points, m.n_stems, m.n_bifurcations, m.n_tips, m.total_length, m.soma_x, m.soma_y, m.soma_z]),
      );
      const c = await run(`MATCH (a)-[:Chemical]->(n)-[:HAS_MORPHOLOGY]->(m) ${TINY} RETURN a.id, n.id, count(*) AS files, max(m.total_length)`);
      const rows: Row[] = [];
      for (const e of hop(t, ['chemical'], 'right')) {
        const ms = t.morphs.filter((m) => m.neuron === e.to);
        if (ms.length) rows.push([e.from, e.to, ms.length, Math.max(...ms.map((m) => m.total_length))]);
      }
      sameRows(c.rows, rows);
      const named = await run(`MATCH (n {name: 'alpha'})-[:HAS_MORPHOLOGY]->(m) ${TINY} RETURN m.file ORDER BY m.file`);
      expect(named.rows).toEqual([['a1.swc'], ['a2.swc']]);
      expect(named.sql).toMatch(/FROM morphologies WHERE .* AND neuron IN \(SELECT neuron_id FROM neurons WHERE/);
      const d = await run(`MATCH (m:Morphology) ${TINY} RETURN count(*), sum(m.n_points), min(m.soma_x)`);
      expect(d.rows).toEqual([[3, 50, 0.5]]);
    });
  });

  describe('variable-length paths', () => {
    const ids = byId(male);
    const cases: [string, string, Parameters | undefined, ('chemical' | 'electrical')[], 'right' | 'left' | 'both', number, number, (from: string, to: string) => boolean][] = [
      ['from a filtered start, 1..3 hops', `(a {name: 'AVAL'})-[p:Chemical*1..3]->(b)`, undefined, ['chemical'], 'right', 1, 3, (f) => f === 'AVAL'],
      ['2..3 hops to a filtered end (walked backwards)', `(a)-[p:Chemical*2..3]->(b)`, undefined, ['chemical'], 'right', 2, 3, (_f, t) => ids.get(t)!.cell_class === 'DA'],
      ['exactly 2 hops, both ends filtered', `(a)-[p:Chemical*2]->(b)`, undefined, ['chemical'], 'right', 2, 2, (f, t) => f.startsWith('AS') && ids.get(t)!.cell_type === 'motor'],
      ['against the arrow', `(a)<-[p:Chemical*..2]-(b)`, undefined, ['chemical'], 'left', 1, 2, (f) => ids.get(f)!.cell_class === 'RIA'],
      ['over gap junctions', `(a)-[p:Electrical*1..3]-(b)`, { c: 'AVB' }, ['electrical'], 'both', 1, 3, (f) => ids.get(f)!.cell_class === 'AVB'],
      ['over any synapse, undirected', `(a)-[p*1..2]-(b)`, undefined, ['chemical', 'electrical'], 'both', 1, 2, (f) => f === 'PVCL'],
    ];
    const wheres: Record<string, string> = {
      'from a filtered start, 1..3 hops': '',
      '2..3 hops to a filtered end (walked backwards)': `WHERE b.class = 'DA'`,
      'exactly 2 hops, both ends filtered': `WHERE a.id STARTS WITH 'AS' AND b.type = 'motor'`,
      'against the arrow': `WHERE a.class = 'RIA'`,
      'over gap junctions': `WHERE a.class = $c`,
      'over any synapse, undirected': `WHERE a.id = 'PVCL'`,
    };
    it.each(cases)('%s', async (label, pattern, params, kinds, direction, min, max, keep) => {
      const { rows } = await run(`MATCH ${pattern} ${MALE} ${wheres[label]} RETURN a.id, b.name, p.hops`, params);
      const expected = paths(male, kinds, direction, min, max)
        .filter((p) => keep(p.from, p.to))
        .map((p) => [p.from, ids.get(p.to)!.name, p.hops]);
      expect(expected.length).toBeGreaterThan(0);
      sameRows(rows, expected);
    });

    it('counts pairs, filters on hops, returns the path variable, and closes cycles', async () => {
      const t = DATA.tiny;
      const all = await run(`MATCH (a)-[p:Chemical*1..3]->(b) ${TINY} RETURN a.id, b.id, p`);
      expect(all.plan.columns.map((c) => `${c.name}:${c.chType}`)).toEqual(['a.id:String', 'b.id:String', 'p.hops:Int64']);
      sameRows(
        all.rows,
        paths(t, ['chemical'], 'right', 1, 3).map((p) => [p.from, p.to, p.hops]),
      );
      const far = await run(`MATCH (a)-[p:Chemical*1..3]->(b) ${TINY} WHERE p.hops >= 2 RETURN a.id, b.id`);
      sameRows(
        far.rows,
        paths(t, ['chemical'], 'right', 1, 3)
          .filter((p) => p.hops >= 2)
          .map((p) => [p.from, p.to]),
      );
      const cycles = await run(`MATCH (a)-[p:Chemical*1..3]->(a) ${TINY} RETURN a.id, p.hops`);
      sameRows(
        cycles.rows,
        paths(t, ['chemical'], 'right', 1, 3)
          .filter((p) => p.from === p.to)
          .map((p) => [p.from, p.hops]),
      );
      const pairs = await run(`MATCH (a {class: 'AVA'})-[:Chemical*1..2]->(b) ${MALE} RETURN count(*) AS pairs, count(DISTINCT b) AS targets`);
      const expected = paths(male, ['chemical'], 'right', 1, 2).filter((p) => ids.get(p.from)!.cell_class === 'AVA');
      expect(pairs.rows).toEqual([[expected.length, new Set(expected.map((p) => p.to)).size]]);
    });
  });

  describe('several datasets', () => {
    it('matches in each dataset and names it in a first column', async () => {
      const { plan, rows } = await run(`MATCH (a {name: 'AVAL'})-[c:Chemical]->(b) IN "male"@v1, "varshney"@v2 RETURN b.name, c.weight ORDER BY c.weight DESC`);
      expect(plan.columns[0]).toEqual({ name: 'dataset', type: 'string', nullable: false, chType: 'String' });
      const expected: Row[] = [];
      for (const name of ['male', 'varshney']) {
        const d = DATA[name];
        const ids = byId(d);
        for (const e of hop(d, ['chemical'], 'right')) if (ids.get(e.from)!.name === 'AVAL') expected.push([d.ds.label, ids.get(e.to)!.name, e.weight]);
      }
      sameRows(rows, expected);
      expect(rows.map((r) => r[2])).toEqual(expected.map((r) => r[2]).sort((p, q) => (q as number) - (p as number)));
      const limited = await run(`MATCH (a {name: 'AVAL'})-[c:Chemical]->(b) IN "male"@v1, "varshney"@v2 RETURN b.name, c.weight ORDER BY c.weight DESC, b.name SKIP 2 LIMIT 3`);
      expect(limited.rows.map((r) => r[2])).toEqual(rows.slice(2, 5).map((r) => r[2]));
    });

    it('aggregates per dataset, a dataset without matches giving its own row', async () => {
      const { rows } = await run(`MATCH (a)-[c:Electrical]->(b) IN "male"@v1, "tiny"@v1, "varshney"@v2 WHERE a.class = 'AVA' RETURN count(*) AS n, sum(c.weight) AS w ORDER BY dataset`);
      const expected = ['male', 'tiny', 'varshney'].map((name) => {
        const d = DATA[name];
        const ids = byId(d);
        const es = hop(d, ['electrical'], 'right').filter((e) => ids.get(e.from)!.cell_class === 'AVA');
        return [d.ds.label, es.length, es.reduce((s, e) => s + e.weight, 0)];
      });
      expect(rows).toEqual(expected);
      expect(rows[1]).toEqual(['tiny@v1', 0, 0]);
      expect(await count(`MATCH (a) IN "male"@v1, "tiny"@v1 RETURN a.id`)).toBe(male.neurons.length + DATA.tiny.neurons.length);
    });
  });

  it('binds parameters: IN $list, strings, numbers, booleans, SKIP and LIMIT', async () => {
    const { rows } = await run(
      `MATCH (a)-[c:Chemical]->(b) ${MALE} WHERE a.name IN $names AND c.weight >= $w AND b.is_neuron = $neuron AND b.type <> $t RETURN a.name, b.name, c.weight ORDER BY c.weight DESC, b.name LIMIT $n`,
      { names: ['AVAL', 'AVAR'], w: 2.5, neuron: true, t: "it's \\ odd", n: 1000 },
    );
    const ids = byId(male);
    const expected = hop(male, ['chemical'], 'right')
      .filter((e) => ['AVAL', 'AVAR'].includes(ids.get(e.from)!.name) && e.weight >= 2.5 && ids.get(e.to)!.is_neuron === 1)
      .map((e) => [ids.get(e.from)!.name, ids.get(e.to)!.name, e.weight]);
    sameRows(rows, expected);
    const empty = await run(`MATCH (a) ${MALE} WHERE a.name IN $names RETURN a.id`, { names: [] });
    expect(empty.rows).toEqual([]);
    const negated = await run(`MATCH (a) ${TINY} WHERE a.name NOT IN $names RETURN a.id`, { names: [] });
    expect(negated.rows).toHaveLength(5);
  });

  describe('random queries against the naive evaluator', () => {
    type Var = { name: string; kind: 'neuron' | 'morph' | 'synapse' | 'path' };
    const patterns: [string, Var[]][] = [
      ['(a)', [{ name: 'a', kind: 'neuron' }]],
      ['(a)-[r:Chemical]->(b)', [{ name: 'a', kind: 'neuron' }, { name: 'b', kind: 'neuron' }, { name: 'r', kind: 'synapse' }]],
      ['(a)<-[r:Electrical]-(b)', [{ name: 'a', kind: 'neuron' }, { name: 'b', kind: 'neuron' }, { name: 'r', kind: 'synapse' }]],
      ['(a)-[r]-(b)', [{ name: 'a', kind: 'neuron' }, { name: 'b', kind: 'neuron' }, { name: 'r', kind: 'synapse' }]],
      ['(a)-[r:Chemical]->(b)<-[s:Synapse]-(c)', [{ name: 'a', kind: 'neuron' }, { name: 'b', kind: 'neuron' }, { name: 'c', kind: 'neuron' }, { name: 'r', kind: 'synapse' }, { name: 's', kind: 'synapse' }]],
      ['(a)-[r:Chemical]->(b)-[s:Chemical]->(a)', [{ name: 'a', kind: 'neuron' }, { name: 'b', kind: 'neuron' }, { name: 'r', kind: 'synapse' }, { name: 's', kind: 'synapse' }]],
      ['(a)-[r:Chemical*1..2]->(b)', [{ name: 'a', kind: 'neuron' }, { name: 'b', kind: 'neuron' }, { name: 'r', kind: 'path' }]],
      ['(a)-[r:Synapse*2..3]-(b)', [{ name: 'a', kind: 'neuron' }, { name: 'b', kind: 'neuron' }, { name: 'r', kind: 'path' }]],
      ['(a)-[r:Chemical]->(b)-[p:Electrical*1..2]-(c)', [{ name: 'a', kind: 'neuron' }, { name: 'b', kind: 'neuron' }, { name: 'c', kind: 'neuron' }, { name: 'r', kind: 'synapse' }, { name: 'p', kind: 'path' }]],
      ['(n)-[:HAS_MORPHOLOGY]->(m)', [{ name: 'n', kind: 'neuron' }, { name: 'm', kind: 'morph' }]],
      ['(a)-[r:Chemical]->(n)-[:HAS_MORPHOLOGY]->(m)', [{ name: 'a', kind: 'neuron' }, { name: 'n', kind: 'neuron' }, { name: 'm', kind: 'morph' }, { name: 'r', kind: 'synapse' }]],
    ];
    const conditions: Record<Var['kind'], ((v: string) => string)[]> = {
      neuron: [
        (v) => `${v}.id = 'AVAL'`,
        (v) => `${v}.id IN ['AVAL', 'AVAR', 'RIML', 'SMDVR']`,
        (v) => `${v}.class IN ['AVA', 'AVB', 'RIM', 'SMD', 'AIB']`,
        (v) => `${v}.type = 'motor'`,
        (v) => `${v}.name STARTS WITH 'A'`,
        (v) => `${v}.neurotransmitter CONTAINS 'Glu'`,
        (v) => `${v}.region WITHIN 'R:S'`,
        (v) => `${v}.x > 30`,
        (v) => `NOT ${v}.y < 50`,
        (v) => `${v}.z IS NULL`,
        (v) => `(${v}.x > 60 OR ${v}.class = 'AVA')`,
        (v) => `NOT ${v}.is_neuron OR ${v}.type = 'sensory'`,
      ],
      morph: [(v) => `${v}.n_points > 8`, (v) => `${v}.soma_x IS NOT NULL`, (v) => `${v}.file ENDS WITH '-b.swc'`],
      synapse: [(v) => `${v}.weight > 2`, (v) => `${v}.type = 'electrical'`, (v) => `${v}.weight <= 1`],
      path: [(v) => `${v}.hops = 2`, (v) => `${v}.hops < 2`],
    };
    const cross = [(a: string, b: string) => `${a}.class = ${b}.class`, (a: string, b: string) => `(${a}.x > ${b}.y OR ${a}.name < ${b}.name)`];
    const props: Record<Var['kind'], string[]> = {
      neuron: ['id', 'name', 'class', 'is_neuron', 'x', 'region'],
      morph: ['file', 'n_points', 'soma_x'],
      synapse: ['weight', 'type'],
      path: ['hops'],
    };
    const next = random(20261124);
    const pick = <T,>(xs: T[]) => xs[Math.floor(next() * xs.length)];
    const queries: { name: string; text: string }[] = [];
    for (let i = 0; i < 80; i++) {
      const [pattern, vars] = patterns[i % patterns.length];
      const name = pick(['w1', 'w1', 'tiny']);
      const where: string[] = [];
      for (const v of vars) if (next() < 0.45) where.push(pick(conditions[v.kind])(v.name));
      const nodes = vars.filter((v) => v.kind === 'neuron');
      if (nodes.length > 1 && next() < 0.25) where.push(pick(cross)(nodes[0].name, nodes[nodes.length - 1].name));
      if (vars[0].kind === 'neuron' && !where.length && vars.length > 3) where.push(`a.class IN ['AVA', 'AIB', 'RIM']`);
      const returned = vars.flatMap((v) => (next() < 0.6 ? [`${v.name}.${pick(props[v.kind])}`] : []));
      const items = [...new Set(returned.length ? returned : [`${vars[0].name}.${props[vars[0].kind][0]}`])];
      const text = `MATCH ${pattern} IN "${name}"@v1${where.length ? ` WHERE ${where.join(' AND ')}` : ''} RETURN ${items.join(', ')}`;
      queries.push({ name, text });
    }
    it.each(queries)('$text', async ({ name, text }) => {
      const { rows } = await run(text);
      sameRows(rows, reference(DATA[name], parseSyql(text)));
    });
  });

  it('refuses an unknown region, naming it', async () => {
    await expect(run(`MATCH (a) ${MALE} WHERE a.region WITHIN 'R:X' RETURN a.id`)).rejects.toThrow(BadInput);
    await expect(run(`MATCH (a) ${MALE} WHERE a.region WITHIN 'R:X' RETURN a.id`)).rejects.toThrow(/unknown region 'R:X'/);
  });
});
