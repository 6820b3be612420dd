import { FileProblems } from '../../lib/file-problems.js';

/**
 * SWC morphology files read into arrays, one entry per sample, validated line by line. Shared by the ingest (which
 * stores a summary per file) and the morphometrics of the graph subgraph.
 *
 * Format: one sample per line, `n type x y z radius parent`, separated by spaces or tabs; `#` starts a comment
 * (whole-line headers, and anything after a `#` on a sample line); blank lines, leading and trailing spaces and
 * CRLF line ends are accepted; fields after the seventh are ignored. Ids need not be sorted nor contiguous, and a
 * parent may come after its child. Coordinates and radii are kept as written: no unit conversion.
 */

/**
 * The accepted ranges, in the file's units: wide enough for any neuron in µm or nm (a 1 cm arbor in nm is 1e7),
 * narrow enough that every length, area and volume computed from them stays a finite number. A value outside them
 * (1e308) is refused, naming its line and field, rather than turned into Infinity by the morphometrics.
 */
export const SWC_RANGES = {
  /** |x|, |y|, |z| at most this. */
  coordinate: 1e7,
  /** radius from 0 to this. */
  radius: 1e5,
} as const;

/** The SWC type of soma samples; every other type (0 and custom labels included) is neurite. */
export const SOMA_TYPE = 1;

/** One SWC file as parallel arrays indexed by sample, in file order. */
export interface SwcTree {
  /** Number of samples. */
  count: number;
  /** Sample ids as written (64-bit floats hold any integer id a file is likely to use exactly). */
  ids: Float64Array;
  types: Float64Array;
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  radius: Float64Array;
  /** Index (not id) of each sample's parent; -1 for a root. */
  parent: Int32Array;
  /** 1-based line of each sample in the file. */
  lines: Int32Array;
  /** Indices of the samples whose parent is -1, in file order; at least one. */
  roots: number[];
  /** Things worth telling the uploader that do not stop the file (several roots). */
  warnings: string[];
}

const INTEGER = /^[+-]?\d+(?:\.0*)?$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const FIELDS = ['n', 'type', 'x', 'y', 'z', 'radius', 'parent'] as const;

/**
 * Reads an SWC file. Throws BadInput naming the file and line of every problem: a line that is not seven numbers,
 * a coordinate or radius outside SWC_RANGES, an id given twice, a parent that is not a sample of the file, parent
 * links that form a cycle, no root at all. The parent links of a file that passes form a forest.
 */
export function parseSwcTree(text: string | Uint8Array, filename: string): SwcTree {
  const source = typeof text === 'string' ? text : new TextDecoder('utf-8').decode(text);
  const problems = new FileProblems(filename);

  const ids: number[] = [];
  const types: number[] = [];
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  const radii: number[] = [];
  const parentIds: number[] = [];
  const lines: number[] = [];
  const indexById = new Map<number, number>();

  let lineNo = 0;
  let pos = 0;
  while (pos <= source.length) {
    let nl = source.indexOf('\n', pos);
    if (nl < 0) nl = source.length;
    let raw = source.slice(pos, nl);
    pos = nl + 1;
    lineNo++;
    if (lineNo === 1 && raw.charCodeAt(0) === 0xfeff) raw = raw.slice(1);
    const hash = raw.indexOf('#');
    const content = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (!content) continue;
    const fields = content.split(/\s+/);
    if (fields.length < 7) {
      problems.add(lineNo, `has ${fields.length} field${fields.length === 1 ? '' : 's'}; a sample line is "n type x y z radius parent"`);
      continue;
    }
    const wrong: string[] = [];
    const values = FIELDS.map((name, i) => {
      const f = fields[i];
      const integral = name === 'n' || name === 'type' || name === 'parent';
      if (!(integral ? INTEGER : NUMBER).test(f) || !Number.isFinite(Number(f))) {
        wrong.push(`${name} ${JSON.stringify(f)} is not ${integral ? 'an integer' : 'a number'}`);
        return NaN;
      }
      return Number(f);
    });
    const [n, type, x, y, z, radius, parent] = values;
    if (!wrong.length) {
      for (const k of [2, 3, 4] as const) {
        if (Math.abs(values[k]) > SWC_RANGES.coordinate) wrong.push(`${FIELDS[k]} ${fields[k]} (field ${k + 1}) is out of range: coordinates must lie within -${SWC_RANGES.coordinate.toExponential()} and ${SWC_RANGES.coordinate.toExponential()}`);
      }
      if (radius < 0 || radius > SWC_RANGES.radius) wrong.push(`radius ${fields[5]} (field 6) is out of range: a radius must lie within 0 and ${SWC_RANGES.radius.toExponential()}`);
    }
    if (!wrong.length) {
      if (n < 0) wrong.push(`n ${n} is negative`);
      if (type < 0) wrong.push(`type ${type} is negative`);
      if (parent < -1) wrong.push(`parent ${parent} is neither -1 (a root) nor a sample id`);
      else if (parent === n) wrong.push(`sample ${n} is its own parent`);
    }
    if (!wrong.length) {
      const first = indexById.get(n);
      if (first !== undefined) wrong.push(`sample id ${n} already appears on line ${lines[first]}`);
    }
    if (wrong.length) {
      problems.add(lineNo, wrong.join(', '));
      continue;
    }
    indexById.set(n, ids.length);
    ids.push(n);
    types.push(type);
    xs.push(x);
    ys.push(y);
    zs.push(z);
    radii.push(radius);
    parentIds.push(parent);
    lines.push(lineNo);
  }
  if (!ids.length && !problems.count) problems.add(0, 'has no sample lines ("n type x y z radius parent")');
  problems.throwIfAny();

  const count = ids.length;
  const parent = new Int32Array(count);
  const roots: number[] = [];
  for (let i = 0; i < count; i++) {
    if (parentIds[i] === -1) {
      parent[i] = -1;
      roots.push(i);
      continue;
    }
    const p = indexById.get(parentIds[i]);
    if (p === undefined) {
      problems.add(lines[i], `parent ${parentIds[i]} of sample ${ids[i]} is not a sample of this file`);
      parent[i] = -1;
    } else {
      parent[i] = p;
    }
  }
  if (roots.length === 0) problems.add(0, 'has no root sample (one whose parent is -1)');

  // Parent links form a forest unless some walk up returns to a sample it has passed: 0 unvisited, 1 on the
  // current walk, 2 known to reach a root.
  const state = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    if (state[i]) continue;
    const walk: number[] = [];
    let cur = i;
    while (cur >= 0 && state[cur] === 0) {
      state[cur] = 1;
      walk.push(cur);
      cur = parent[cur];
    }
    if (cur >= 0 && state[cur] === 1) {
      const loop = walk.slice(walk.indexOf(cur)).map((k) => ids[k]);
      const first = walk.slice(walk.indexOf(cur)).reduce((a, b) => (lines[a] <= lines[b] ? a : b));
      problems.add(lines[first], `the parent links ${[...loop, loop[0]].join(' -> ')} form a cycle`);
    }
    for (const k of walk) state[k] = 2;
  }
  problems.throwIfAny();

  const warnings: string[] = [];
  if (roots.length > 1) {
    const shown = roots.slice(0, 10).map((r) => lines[r]);
    warnings.push(`${filename}: ${roots.length} root samples (parent -1), on line${shown.length > 1 ? 's' : ''} ${shown.join(', ')}${roots.length > shown.length ? ', ...' : ''}: the trees are not connected; each is summarised`);
  }
  return {
    count,
    ids: Float64Array.from(ids),
    types: Float64Array.from(types),
    x: Float64Array.from(xs),
    y: Float64Array.from(ys),
    z: Float64Array.from(zs),
    radius: Float64Array.from(radii),
    parent,
    lines: Int32Array.from(lines),
    roots,
    warnings,
  };
}
