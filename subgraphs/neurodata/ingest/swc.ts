import { MORPHOLOGY_COLUMNS } from '../store/clickhouse/columns.js';
import { FileProblems } from './problems.js';
import { assertColumnOrder, tsvNullableNumber, tsvNumber, tsvString } from './tsv.js';

/**
 * SWC morphology files: parsing, validation and the one summary row each file gets in the column store.
 *
 * Format: one sample per line, `n type x y z radius parent`, separated by spaces or tabs; `#` starts a comment
 * (whole-line headers, and anything after a `#` on a sample line); blank lines, leading and trailing spaces and
 * CRLF line ends are accepted; fields after the seventh are ignored. Ids need not be sorted nor contiguous, and a
 * parent may come after its child.
 *
 * Conventions of the summary (those of NeuroM, https://github.com/BlueBrain/NeuroM, where it has one):
 * - **Soma**: the samples of type 1, however many (NeuroMorpho's 3-point soma, a single point, a chain of points as
 *   in l22 and dCH-cobalt, or a point inside a neurite as in the hemibrain skeleton). Every other type, 0
 *   (undefined) and custom labels included, is neurite. Coordinates are used as written: no unit conversion.
 * - **total_length**: the sum of the segments whose two ends are both neurite samples. The segment from the soma
 *   to a neurite's first sample is not neurite length, as in NeuroM, whose neurites start at their first sample.
 * - **n_stems**: the segments joining a soma sample to a neurite sample, in either direction (a soma inside a
 *   neurite has a stem on each side), plus one per tree that has no soma sample (a neurite given alone).
 * - **Branches** of a neurite sample: its neighbours (parent and children) other than the one towards the soma; in
 *   a tree without a soma, a sample's children (its root has no neighbour towards a soma). **n_tips**: neurite
 *   samples with no branch; **n_bifurcations**: neurite samples with two or more (a trifurcation counts once, as
 *   NeuroM's number_of_forking_points does).
 * - **Soma centre**: the mean of the soma samples, null without any. **Bounding box**: all samples, soma included.
 * - More than one root (parent -1) is allowed and reported as a warning: each tree is summarised.
 *
 * fixtures/swc_reference.py computes the same summary independently, and checks NeuroM's published values for its
 * test neuron (data/morphology/synthetic/NeuroM_Neuron.swc).
 */

assertColumnOrder('morphologies', MORPHOLOGY_COLUMNS, [
  'dataset_id', 'version', 'neuron', 'file', 'object_key', 'sha256',
  'n_points', 'n_soma_points', 'n_stems', 'n_bifurcations', 'n_tips', 'total_length',
  'soma_x', 'soma_y', 'soma_z', 'min_x', 'min_y', 'min_z', 'max_x', 'max_y', 'max_z',
]);

export const SOMA_TYPE = 1;

export interface MorphologySummary {
  nPoints: number;
  nSomaPoints: number;
  nStems: number;
  nBifurcations: number;
  nTips: number;
  totalLength: number;
  somaX: number | null;
  somaY: number | null;
  somaZ: number | null;
  minX: number;
  minY: number;
  minZ: number;
  maxX: number;
  maxY: number;
  maxZ: number;
}

export interface ParsedSwc {
  summary: MorphologySummary;
  /** Things worth telling the uploader that do not stop the file (several roots). */
  warnings: string[];
}

/** A row of the morphologies table: which file of which neuron, and its summary. */
export interface MorphologyRow extends MorphologySummary {
  datasetId: string;
  version: number;
  neuron: string;
  file: string;
  objectKey: string;
  sha256: string;
}

const INTEGER = /^[+-]?\d+(?:\.0*)?$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const FIELDS = ['n', 'type', 'x', 'y', 'z', 'radius', 'parent'] as const;

/**
 * Parses and summarises an SWC file. Throws BadInput naming the file and line of every problem: a line that is not
 * seven numbers, an id given twice, a parent that is not a sample of the file, parent links that form a cycle, no
 * root at all.
 */
export function parseSwc(text: string | Uint8Array, filename: string): ParsedSwc {
  const source = typeof text === 'string' ? text : new TextDecoder('utf-8').decode(text);
  const problems = new FileProblems(filename);

  const ids: number[] = [];
  const types: number[] = [];
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
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
    const [n, type, x, y, z, , parent] = values;
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
    parentIds.push(parent);
    lines.push(lineNo);
  }
  if (!ids.length && !problems.count) problems.add(0, 'has no sample lines ("n type x y z radius parent")');
  problems.throwIfAny();

  const count = ids.length;
  /** Index of each sample's parent; -1 for a root. */
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
  return { summary: summarise(count, types, xs, ys, zs, parent), warnings };
}

function summarise(count: number, types: number[], xs: number[], ys: number[], zs: number[], parent: Int32Array): MorphologySummary {
  const isSoma = (i: number) => types[i] === SOMA_TYPE;
  const degree = new Uint32Array(count);
  /** The root of each sample's tree, found walking up with the answers of earlier walks. */
  const root = new Int32Array(count).fill(-1);
  for (let i = 0; i < count; i++) {
    if (parent[i] >= 0) {
      degree[i]++;
      degree[parent[i]]++;
    }
    const walk: number[] = [];
    let cur = i;
    while (root[cur] < 0 && parent[cur] >= 0) {
      walk.push(cur);
      cur = parent[cur];
    }
    const r = root[cur] >= 0 ? root[cur] : cur;
    root[cur] = r;
    for (const k of walk) root[k] = r;
  }
  const treeHasSoma = new Uint8Array(count);
  for (let i = 0; i < count; i++) if (isSoma(i)) treeHasSoma[root[i]] = 1;

  let nSoma = 0;
  let nStems = 0;
  let nTips = 0;
  let nBifurcations = 0;
  let totalLength = 0;
  let sx = 0;
  let sy = 0;
  let sz = 0;
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let i = 0; i < count; i++) {
    const x = xs[i], y = ys[i], z = zs[i];
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (z < minZ) minZ = z;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
    if (z > maxZ) maxZ = z;
    const p = parent[i];
    if (p < 0 && !treeHasSoma[i]) nStems++;
    if (isSoma(i)) {
      nSoma++;
      sx += x;
      sy += y;
      sz += z;
      if (p >= 0 && !isSoma(p)) nStems++;
      continue;
    }
    if (p >= 0) {
      if (isSoma(p)) nStems++;
      else totalLength += Math.sqrt((x - xs[p]) ** 2 + (y - ys[p]) ** 2 + (z - zs[p]) ** 2);
    }
    const branches = p < 0 && !treeHasSoma[root[i]] ? degree[i] : degree[i] - 1;
    if (branches === 0) nTips++;
    else if (branches >= 2) nBifurcations++;
  }
  return {
    nPoints: count,
    nSomaPoints: nSoma,
    nStems,
    nBifurcations,
    nTips,
    totalLength,
    somaX: nSoma ? sx / nSoma : null,
    somaY: nSoma ? sy / nSoma : null,
    somaZ: nSoma ? sz / nSoma : null,
    minX,
    minY,
    minZ,
    maxX,
    maxY,
    maxZ,
  };
}

/** The row as one TabSeparated line (ending in '\n') in MORPHOLOGY_COLUMNS order. */
export function encodeMorphologyRow(row: MorphologyRow): string {
  return (
    [
      tsvString(row.datasetId),
      String(row.version),
      tsvString(row.neuron),
      tsvString(row.file),
      tsvString(row.objectKey),
      tsvString(row.sha256),
      String(row.nPoints),
      String(row.nSomaPoints),
      String(row.nStems),
      String(row.nBifurcations),
      String(row.nTips),
      tsvNumber(row.totalLength),
      tsvNullableNumber(row.somaX),
      tsvNullableNumber(row.somaY),
      tsvNullableNumber(row.somaZ),
      tsvNumber(row.minX),
      tsvNumber(row.minY),
      tsvNumber(row.minZ),
      tsvNumber(row.maxX),
      tsvNumber(row.maxY),
      tsvNumber(row.maxZ),
    ].join('\t') + '\n'
  );
}
