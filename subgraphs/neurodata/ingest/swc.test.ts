import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { packagePath } from '../../../lib/package-root.js';
import { MORPHOLOGY_COLUMNS } from '../store/clickhouse/columns.js';
import { encodeMorphologyRow, parseSwc, type MorphologySummary } from './swc.js';
import { badInputMessage } from '../../../test/kit/expect.js';

/** Summaries computed by fixtures/swc_reference.py, keyed by path under seed/morphology/. */
const REFERENCE = JSON.parse(readFileSync(new URL('./fixtures/swc_reference.json', import.meta.url), 'utf8')) as Record<string, Record<string, number | null>>;
const FILES = Object.keys(REFERENCE);
const morphology = (file: string) => readFileSync(packagePath('seed', 'morphology', file));


/** The summary under the column names of MORPHOLOGY_COLUMNS. */
const asColumns = (s: MorphologySummary) => ({
  n_points: s.nPoints,
  n_soma_points: s.nSomaPoints,
  n_stems: s.nStems,
  n_bifurcations: s.nBifurcations,
  n_tips: s.nTips,
  total_length: s.totalLength,
  soma_x: s.somaX,
  soma_y: s.somaY,
  soma_z: s.somaZ,
  min_x: s.minX,
  min_y: s.minY,
  min_z: s.minZ,
  max_x: s.maxX,
  max_y: s.maxY,
  max_z: s.maxZ,
});

describe('parseSwc on the shipped morphologies', () => {
  it('has a reference summary for every shipped SWC file', () => {
    expect(FILES).toHaveLength(10);
    expect(FILES).toContain('synthetic/NeuroM_Neuron.swc');
  });

  it.each(FILES)('%s: the summary equals the reference script', (file) => {
    const { summary, warnings } = parseSwc(morphology(file), file);
    const expected = REFERENCE[file];
    for (const [column, value] of Object.entries(asColumns(summary))) {
      if (expected[column] === null || Number.isInteger(expected[column])) expect(value, column).toBe(expected[column]);
      else expect(value, column).toBeCloseTo(expected[column] as number, 9);
    }
    expect(warnings).toEqual([]);
  });

  it("matches NeuroM's published values for its test neuron", () => {
    const { summary } = parseSwc(morphology('synthetic/NeuroM_Neuron.swc'), 'NeuroM_Neuron.swc');
    // BlueBrain/NeuroM tests/features/test_get_features.py: number_of_neurites 4, number_of_bifurcations 40,
    // number_of_leaves 44, total_length 207.87975221 (axon) + 418.43241644 (basal) + 214.37304578 (apical).
    expect(summary.nStems).toBe(4);
    expect(summary.nBifurcations).toBe(40);
    expect(summary.nTips).toBe(44);
    expect(summary.totalLength).toBeCloseTo(207.87975221 + 418.43241644 + 214.37304578, 6);
    expect(summary.nSomaPoints).toBe(3);
  });

  it('gives the node counts the morphology README lists', () => {
    const nodes: Record<string, number> = {
      'v_e_moto1.CNG.swc': 562,
      'v_e_purk2.CNG.swc': 1521,
      'l22.CNG.swc': 1602,
      '1220882a.CNG.swc': 459,
      'CTh5080306F.CNG.swc': 14681,
      '04a_pyramidal4aACC.CNG.swc': 2281,
      'Cux2-CreERT2_Ai14-205530-06-02-01_496085272_m.CNG.swc': 2961,
      'dCH-cobalt.CNG.swc': 6248,
      'hemibrain_DA1_lPN_1734350788.swc': 4465,
      'synthetic/NeuroM_Neuron.swc': 847,
    };
    for (const [file, n] of Object.entries(nodes)) expect(parseSwc(morphology(file), file).summary.nPoints, file).toBe(n);
  });

  it('counts the stems on both sides of a soma that sits inside a neurite (hemibrain)', () => {
    const { summary } = parseSwc(morphology('hemibrain_DA1_lPN_1734350788.swc'), 'hemibrain.swc');
    expect(summary.nSomaPoints).toBe(1);
    expect(summary.nStems).toBe(3);
    expect([summary.somaX, summary.somaY, summary.somaZ]).toEqual([14957.1, 36540.7, 28432.4]);
  });
});

describe('parseSwc', () => {
  it('reads comments, blank lines, tabs, CRLF, unsorted ids and a parent listed after its child', () => {
    const text = '# header\r\n\r\n  3 3 2 0 0 0.5 2 # tip\r\n1\t1\t0\t0\t0\t1\t-1\r\n2 3 1 0 0 0.5 1\r\n4 3 1 1 0 0.5 2\r\n';
    const { summary } = parseSwc(text, 'a.swc');
    expect(summary).toEqual({
      nPoints: 4,
      nSomaPoints: 1,
      nStems: 1,
      nBifurcations: 1,
      nTips: 2,
      totalLength: 2,
      somaX: 0,
      somaY: 0,
      somaZ: 0,
      minX: 0,
      minY: 0,
      minZ: 0,
      maxX: 2,
      maxY: 1,
      maxZ: 0,
    });
  });

  it('summarises a neurite without a soma, counting its root as its stem', () => {
    const { summary } = parseSwc('1 3 0 0 0 1 -1\n2 3 0 3 4 1 1\n3 3 0 6 8 1 2\n', 'n.swc');
    expect(summary).toMatchObject({ nSomaPoints: 0, nStems: 1, nTips: 1, nBifurcations: 0, totalLength: 10, somaX: null, somaY: null, somaZ: null });
  });

  it('allows several roots, with a warning', () => {
    const { summary, warnings } = parseSwc('1 1 0 0 0 1 -1\n2 3 1 0 0 1 1\n10 2 5 5 5 1 -1\n11 2 6 5 5 1 10\n', 'two.swc');
    expect(summary.nStems).toBe(2);
    expect(warnings).toEqual(['two.swc: 2 root samples (parent -1), on lines 1, 3: the trees are not connected; each is summarised']);
  });

  it('names the line of a non-numeric field, a short line and a duplicate id', () => {
    expect(badInputMessage(() => parseSwc('1 1 0 0 0 1 -1\n2 3 x 0 0 1 1\n3 3 0 0 0 1\n1 3 0 0 0 1 -1\n4 3.5 0 0 0 1 1\n', 'bad.swc'))).toBe(
      'bad.swc: 4 problems, nothing was ingested: bad.swc line 2: x "x" is not a number; ' +
        'bad.swc line 3: has 6 fields; a sample line is "n type x y z radius parent"; bad.swc line 4: sample id 1 already appears on line 1; ' +
        'bad.swc line 5: type "3.5" is not an integer',
    );
  });

  it('refuses coordinates and radii outside the documented range, naming the line, the field and the range', () => {
    expect(badInputMessage(() => parseSwc('1 1 0 0 0 1 -1\n2 3 1e308 0 -1e308 1 1\n', 'huge.swc'))).toBe(
      'huge.swc line 2: x 1e308 (field 3) is out of range: coordinates must lie within -1e+7 and 1e+7, ' +
        'z -1e308 (field 5) is out of range: coordinates must lie within -1e+7 and 1e+7',
    );
    expect(badInputMessage(() => parseSwc('1 1 0 0 0 -1 -1\n2 3 1 0 0 100001 1\n', 'r.swc'))).toBe(
      'r.swc: 2 problems, nothing was ingested: r.swc line 1: radius -1 (field 6) is out of range: a radius must lie within 0 and 1e+5; ' +
        'r.swc line 2: radius 100001 (field 6) is out of range: a radius must lie within 0 and 1e+5',
    );
    expect(parseSwc('1 1 -1e7 1e7 0 1e5 -1\n2 3 1e7 0 -1e7 0 1\n', 'edge.swc').summary.nPoints).toBe(2);
  });

  it('names the line of a missing parent', () => {
    expect(badInputMessage(() => parseSwc('1 1 0 0 0 1 -1\n2 3 1 0 0 1 1\n3 3 2 0 0 1 7\n', 'm.swc'))).toBe('m.swc line 3: parent 7 of sample 3 is not a sample of this file');
  });

  it('names the samples of a cycle, and a file without a root', () => {
    expect(badInputMessage(() => parseSwc('1 1 0 0 0 1 -1\n2 3 1 0 0 1 4\n3 3 2 0 0 1 2\n4 3 3 0 0 1 3\n', 'c.swc'))).toBe('c.swc line 2: the parent links 2 -> 4 -> 3 -> 2 form a cycle');
    expect(badInputMessage(() => parseSwc('1 1 0 0 0 1 2\n2 3 1 0 0 1 1\n', 'r.swc'))).toBe(
      'r.swc: 2 problems, nothing was ingested: r.swc: has no root sample (one whose parent is -1); r.swc line 1: the parent links 1 -> 2 -> 1 form a cycle',
    );
    expect(badInputMessage(() => parseSwc('1 1 0 0 0 1 1\n', 's.swc'))).toBe('s.swc line 1: sample 1 is its own parent');
  });

  it('refuses a file without samples', () => {
    expect(badInputMessage(() => parseSwc('# only a header\n\n', 'e.swc'))).toBe('e.swc: has no sample lines ("n type x y z radius parent")');
  });
});

describe('encodeMorphologyRow', () => {
  it('writes the row in the column order of MORPHOLOGY_COLUMNS, soma centre \\N when there is none', () => {
    const { summary } = parseSwc('1 3 0 0 0 1 -1\n2 3 0 3 4 1 1\n', 'n.swc');
    const line = encodeMorphologyRow({ datasetId: 'ds', version: 2, neuron: 'AVAL', file: 'dir\\n.swc', objectKey: 'k/1', sha256: 'ab', ...summary });
    expect(line.endsWith('\n')).toBe(true);
    const fields = line.slice(0, -1).split('\t');
    expect(Object.fromEntries(MORPHOLOGY_COLUMNS.map(([name], i) => [name, fields[i]]))).toEqual({
      dataset_id: 'ds',
      version: '2',
      neuron: 'AVAL',
      file: 'dir\\\\n.swc',
      object_key: 'k/1',
      sha256: 'ab',
      n_points: '2',
      n_soma_points: '0',
      n_stems: '1',
      n_bifurcations: '0',
      n_tips: '1',
      total_length: '5',
      soma_x: '\\N',
      soma_y: '\\N',
      soma_z: '\\N',
      min_x: '0',
      min_y: '0',
      min_z: '0',
      max_x: '0',
      max_y: '3',
      max_z: '4',
    });
    expect(fields).toHaveLength(MORPHOLOGY_COLUMNS.length);
  });
});
