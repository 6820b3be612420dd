import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { packagePath } from '../../../lib/package-root.js';
import { parseSwcTree } from '../../../domain/morphology/swc.js';
import { distribution, morphometrics, type NeuronMorphometrics } from './morphometrics.js';
import { MAX_DEFAULT_SHOLL_RADII } from './sholl.js';
import { expectAgrees } from './test/agreement.js';
import { finiteOrRefused } from './morphometrics.task.js';
import { badInputMessage } from '../../../test/kit/expect.js';

/** Computed by fixtures/morphometrics_reference.py, keyed by path under seed/morphology/. */
const REFERENCE = JSON.parse(readFileSync(new URL('./fixtures/morphometrics_reference.json', import.meta.url), 'utf8')) as {
  files: Record<string, Record<string, unknown> & { sholl_fixed: { radii: number[]; crossings: number[] } }>;
  distributions: Record<string, { values: number[] } & Record<string, number>>;
};
const FILES = Object.keys(REFERENCE.files);
const morphology = (file: string) => parseSwcTree(readFileSync(packagePath('seed', 'morphology', file)), file);
const swc = (text: string) => parseSwcTree(text, 't.swc');
/** The ingest's summary of the same files (its own independent reference), which shares these definitions. */
const SUMMARY = JSON.parse(readFileSync(packagePath('subgraphs', 'neurodata', 'ingest', 'fixtures', 'swc_reference.json'), 'utf8')) as Record<string, Record<string, number | null>>;

describe('morphometrics on the shipped morphologies', () => {
  it('has a reference for every shipped SWC file', () => {
    expect(FILES).toHaveLength(10);
    expect(FILES).toContain('synthetic/NeuroM_Neuron.swc');
    expect(REFERENCE.files['synthetic/NeuroM_Neuron.swc'].neurom_published).toBeDefined();
  });

  it.each(FILES)('%s: every measure equals the reference script', (file) => {
    const { sholl_fixed, neurom_published, ...expected } = REFERENCE.files[file];
    const tree = morphology(file);
    expectAgrees(morphometrics(tree), expected, file);
    const fixed = morphometrics(tree, { shollRadii: sholl_fixed.radii }).sholl;
    expect(fixed.radii).toEqual(sholl_fixed.radii);
    expect(fixed.crossings).toEqual(sholl_fixed.crossings);
  });

  it.each(FILES)('%s: counts, total length and soma centre agree with the ingest summary', (file) => {
    const m = morphometrics(morphology(file));
    const summary = SUMMARY[file];
    expect([m.n_points, m.n_soma_points, m.n_stems, m.n_bifurcations, m.n_tips]).toEqual([summary.n_points, summary.n_soma_points, summary.n_stems, summary.n_bifurcations, summary.n_tips]);
    expect(m.total_length).toBeCloseTo(summary.total_length as number, 9);
    if (summary.soma_x === null) expect(m.soma_center).toBeNull();
    else for (const k of ['x', 'y', 'z'] as const) expect(m.soma_center![k]).toBeCloseTo(summary[`soma_${k}`] as number, 9);
  });

  it("gives NeuroM's published figures for its test neuron", () => {
    const m = morphometrics(morphology('synthetic/NeuroM_Neuron.swc'));
    // BlueBrain/NeuroM tests/features/test_get_features.py (the reference script asserts the rest).
    expect([m.n_stems, m.n_sections, m.n_bifurcations, m.n_tips]).toEqual([4, 84, 40, 44]);
    expect(m.stems.map((s) => s.n_sections)).toEqual([21, 21, 21, 21]);
    expect(m.soma_radius).toBeCloseTo(0.13065629648763766, 12);
    expect(m.volume).toBeCloseTo(1104.907, 2);
    const byType = Object.fromEntries(m.length_by_type.map((t) => [t.name, t.length]));
    expect(byType.axon).toBeCloseTo(207.87975221, 7);
    expect(byType.basal_dendrite).toBeCloseTo(418.43241644, 7);
    expect(byType.apical_dendrite).toBeCloseTo(214.37304578, 7);
  });

  it('walks the hemibrain skeleton away from its mid-tree soma, with custom labels as neurite types', () => {
    const m = morphometrics(morphology('hemibrain_DA1_lPN_1734350788.swc'));
    expect(m.n_stems).toBe(3);
    expect(m.n_multifurcations).toBe(16);
    expect(m.length_by_type.map((t) => t.name)).toEqual(['undefined', 'custom_5', 'custom_6']);
    expect(m.soma_radius).toBe(375);
  });
});

describe('morphometrics on small trees', () => {
  it('measures a soma alone as nothing', () => {
    const m = morphometrics(swc('1 1 5 5 5 2 -1\n'));
    expect(m).toMatchObject({
      n_points: 1, n_soma_points: 1, n_trees: 1, n_stems: 0, n_bifurcations: 0, n_tips: 0, n_sections: 0, total_length: 0,
      max_path_distance: 0, max_branch_order: 0, max_euclidean_distance: 0, strahler_order: 0, surface_area: 0, volume: 0,
      surface_area_cylinder: 0, volume_cylinder: 0, soma_center: { x: 5, y: 5, z: 5 }, soma_radius: 2, length_by_type: [], stems: [],
    });
    expect(m.soma_surface_area).toBeCloseTo(16 * Math.PI, 12);
    expect(m.sholl).toEqual({ center: { x: 5, y: 5, z: 5 }, radii: [], crossings: [] });
  });

  it('measures a lone neurite sample from itself', () => {
    const m = morphometrics(swc('7 3 1 2 3 0.5 -1\n'));
    expect(m).toMatchObject({ n_stems: 1, n_tips: 1, n_sections: 1, strahler_order: 1, total_length: 0, soma_center: null, soma_radius: null, soma_surface_area: null });
    expect(m.sholl.center).toEqual({ x: 1, y: 2, z: 3 });
    expect(m.stems).toEqual([expect.objectContaining({ first_id: 7, type: 3, type_name: 'basal_dendrite', n_points: 1, length: 0 })]);
  });

  it('survives zero-length segments and zero radii', () => {
    const m = morphometrics(swc('1 1 0 0 0 0 -1\n2 3 0 0 0 0 1\n3 3 0 0 0 0 2\n4 3 0 0 0 0 3\n'));
    const numbers = JSON.stringify(m).match(/-?[\d.e+-]+|null|NaN|Infinity/g) ?? [];
    expect(numbers).not.toContain('NaN');
    expect(m).toMatchObject({ total_length: 0, surface_area: 0, volume: 0, surface_area_cylinder: 0, n_tips: 1, max_euclidean_distance: 0 });
  });

  it('keeps the soma segment out of neurite length, and counts the cylinder compartment L-Measure counts', () => {
    // soma at the origin, r 1; neurite 2 -> 3 along x with radii 1 then 0.5.
    const m = morphometrics(swc('1 1 0 0 0 1 -1\n2 3 3 0 0 1 1\n3 3 7 0 0 0.5 2\n'));
    expect(m.total_length).toBe(4);
    expect(m.max_path_distance).toBe(4);
    expect(m.max_euclidean_distance).toBe(7);
    expect(m.surface_area).toBeCloseTo(Math.PI * 1.5 * Math.sqrt(0.25 + 16), 12);
    expect(m.volume).toBeCloseTo((Math.PI * 4 * (1 + 0.5 + 0.25)) / 3, 12);
    expect(m.surface_area_cylinder).toBeCloseTo(2 * Math.PI * (1 * 3 + 0.5 * 4), 12);
    expect(m.volume_cylinder).toBeCloseTo(Math.PI * (1 * 3 + 0.25 * 4), 12);
  });

  it('counts a trifurcation once as a bifurcation and as a multifurcation, with three sections', () => {
    const m = morphometrics(swc('1 1 0 0 0 1 -1\n2 3 1 0 0 1 1\n3 3 2 0 0 1 2\n4 3 2 1 0 1 2\n5 3 2 -1 0 1 2\n'));
    expect(m).toMatchObject({ n_bifurcations: 1, n_multifurcations: 1, n_tips: 3, n_sections: 4, max_branch_order: 1, strahler_order: 2 });
  });

  it("gives NeuroM's Strahler and branch orders", () => {
    // 2 forks into (3, 4); 3 forks into tips 5, 6; 4 forks into 7 (which forks into tips 9, 10) and tip 8.
    const m = morphometrics(swc('1 1 0 0 0 1 -1\n2 3 1 0 0 1 1\n3 3 2 1 0 1 2\n4 3 2 -1 0 1 2\n5 3 3 2 0 1 3\n6 3 3 1 0 1 3\n7 3 3 -2 0 1 4\n8 3 3 -1 0 1 4\n9 3 4 -3 0 1 7\n10 3 4 -2 0 1 7\n'));
    expect(m).toMatchObject({ strahler_order: 3, max_branch_order: 3, n_sections: 9, n_bifurcations: 4, n_tips: 5 });
  });

  it('re-roots a tree whose soma sits inside a neurite, with a stem on each side', () => {
    // file root 1 (neurite) -> 2 -> soma 3 -> 4 -> 5
    const m = morphometrics(swc('1 3 0 0 0 1 -1\n2 3 1 0 0 1 1\n3 1 2 0 0 1 2\n4 3 3 0 0 1 3\n5 3 5 0 0 1 4\n'));
    expect(m.n_stems).toBe(2);
    expect(m.stems.map((s) => [s.first_id, s.length, s.n_tips])).toEqual([[2, 1, 1], [4, 2, 1]]);
    expect(m.max_path_distance).toBe(2);
    expect(m.n_tips).toBe(2);
  });

  it('measures a tree without soma from its root, and reports each tree', () => {
    const m = morphometrics(swc('1 1 0 0 0 1 -1\n2 2 0 1 0 1 1\n10 3 50 0 0 1 -1\n11 3 50 3 4 1 10\n'));
    expect(m.n_trees).toBe(2);
    expect(m.trees).toEqual([
      { root_id: 1, n_points: 2, n_soma_points: 1, n_stems: 1, total_length: 0 },
      { root_id: 10, n_points: 2, n_soma_points: 0, n_stems: 1, total_length: 5 },
    ]);
    expect(m.max_path_distance).toBe(5);
    expect(m.max_euclidean_distance).toBeCloseTo(Math.sqrt(50 * 50 + 9 + 16), 12);
  });

  it('takes the soma radius from its drawing: one point, three points, a chain, unlinked points', () => {
    expect(morphometrics(swc('1 1 0 0 0 4 -1\n')).soma_radius).toBe(4);
    expect(morphometrics(swc('1 1 0 0 0 3 -1\n2 1 0 -2.9 0 3 1\n3 1 0 3.1 0 3 1\n')).soma_radius).toBe(3);
    // Three cylinders of radius 1 and length 2: lateral area 12π, that of a sphere of radius √3.
    expect(morphometrics(swc('1 1 0 0 0 1 -1\n2 1 0 2 0 1 1\n3 1 0 4 0 1 2\n4 1 0 6 0 1 3\n')).soma_radius).toBeCloseTo(Math.sqrt(3), 12);
    expect(morphometrics(swc('1 1 0 0 0 1 -1\n2 3 0 1 0 1 1\n3 1 0 2 0 3 2\n')).soma_radius).toBe(2);
  });

  it("counts Sholl crossings as NeuroM does, keeping the caller's order of radii", () => {
    // A chord from (-10, 5) to (10, 5) passes inside the sphere of radius 8 without an end inside it.
    const chord = morphometrics(swc('1 1 0 0 0 1 -1\n2 3 -10 5 0 1 1\n3 3 10 5 0 1 2\n'), { shollRadii: [8, 12, 5, 11.18034] });
    expect(chord.sholl.crossings).toEqual([0, 0, 0, 0]);
    // Sample 3 lies on the sphere of radius 5: both of its segments count.
    const on = morphometrics(swc('1 1 0 0 0 1 -1\n2 3 1 0 0 1 1\n3 3 5 0 0 1 2\n4 3 9 0 0 1 3\n'), { shollRadii: [7, 5, 0.5] });
    expect(on.sholl.crossings).toEqual([1, 2, 0]);
  });

  it('spaces the default Sholl spheres by the step, up to the farthest neurite sample', () => {
    const text = '1 1 0 0 0 1 -1\n2 3 0 0 0 1 1\n3 3 35 0 0 1 2\n';
    expect(morphometrics(swc(text)).sholl.radii).toEqual([10, 20, 30]);
    expect(morphometrics(swc(text), { shollStep: 15 }).sholl).toMatchObject({ radii: [15, 30], crossings: [1, 1] });
    const far = morphometrics(swc('1 1 0 0 0 1 -1\n2 3 0 0 0 1 1\n3 3 1e7 0 0 1 2\n'));
    expect(far.sholl.radii.length).toBeLessThanOrEqual(MAX_DEFAULT_SHOLL_RADII);
    expect(far.sholl.radii[0] % 10).toBe(0);
    expect(() => morphometrics(swc(text), { shollStep: 0 })).toThrow(RangeError);
    expect(() => morphometrics(swc(text), { shollRadii: [-1] })).toThrow(RangeError);
  });

  it('handles a 200,000-sample chain and a 131,071-sample binary neurite without recursion', () => {
    const chain = ['1 1 0 0 0 1 -1'];
    for (let i = 2; i <= 200_000; i++) chain.push(`${i} 3 ${i} 0 0 0.5 ${i - 1}`);
    const deep = morphometrics(swc(chain.join('\n')));
    expect(deep).toMatchObject({ n_points: 200_000, n_tips: 1, n_sections: 1, total_length: 199_998, max_path_distance: 199_998 });

    const binary = ['1 1 0 0 0 1 -1'];
    // Heap numbering: neurite sample k has children 2k and 2k + 1, and id k + 1 after the soma.
    for (let k = 1; k < 2 ** 17; k++) binary.push(`${k + 1} 3 ${k % 97} ${k % 89} ${k} 0.5 ${k === 1 ? 1 : Math.floor(k / 2) + 1}`);
    const wide: NeuronMorphometrics = morphometrics(swc(binary.join('\n')));
    expect(wide).toMatchObject({ n_points: 2 ** 17, n_stems: 1, n_tips: 2 ** 16, n_bifurcations: 2 ** 16 - 1, strahler_order: 17, max_branch_order: 16 });
  });
});

describe('distribution', () => {
  it.each(Object.keys(REFERENCE.distributions))('%s over the shipped files equals numpy', (key) => {
    const { values, ...expected } = REFERENCE.distributions[key];
    const d = distribution(values);
    for (const [stat, value] of Object.entries(expected)) expect(Math.abs((d as unknown as Record<string, number>)[stat] - value), stat).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(value)));
  });

  it('interpolates quartiles as quantile type 7, and handles empty and single sets', () => {
    expect(distribution([4, 1, 3, 2])).toEqual({ n: 4, mean: 2.5, sd: Math.sqrt(5 / 3), min: 1, q1: 1.75, median: 2.5, q3: 3.25, max: 4 });
    expect(distribution([7])).toEqual({ n: 1, mean: 7, sd: null, min: 7, q1: 7, median: 7, q3: 7, max: 7 });
    expect(distribution([])).toEqual({ n: 0, mean: null, sd: null, min: null, q1: null, median: null, q3: null, max: null });
  });
});

describe('finiteOrRefused', () => {
  it('passes finite measures and refuses any that are not, naming the measure', () => {
    const m = morphometrics(swc('1 1 0 0 0 1 -1\n2 3 0 5 0 0.5 1\n3 3 0 9 0 0.5 2\n'));
    expect(finiteOrRefused(m, 'ok.swc')).toBe(m);
    expect(badInputMessage(() => finiteOrRefused({ ...m, volume: Infinity }, 'v.swc'))).toMatch(/^v\.swc: volume is not a finite number; coordinates must lie within ±1e\+7/);
    const sholl = { ...m.sholl, radii: [1, NaN] };
    expect(badInputMessage(() => finiteOrRefused({ ...m, sholl }, 's.swc'))).toMatch(/^s\.swc: sholl\.radii\[1\] is not a finite number/);
  });
});
