import { describe, expect, it } from 'vitest';
import { bboxInStoredUnit, decodeCursor, encodeCursor, expandRoi, parseBbox, roiTreeCounts, synapseFilterBase } from './synapse-read.rules.js';
import type { RoiRow } from './store/synapse-read.store.js';

const roi = (name: string, parent: string | null, primary: boolean): RoiRow => ({ roi: name, parent, primary, description: '', term: null });
// A piece of the hemibrain tree: MB(R) is a union of primary compartments, AL(R) primary with non-primary glomeruli.
const TREE = [roi('hemibrain', null, false), roi('MB(R)', 'hemibrain', false), roi('CA(R)', 'MB(R)', true), roi('PED(R)', 'MB(R)', true), roi('AL(R)', 'hemibrain', true), roi('AL-DA1(R)', 'AL(R)', false)];

describe('synapse read rules', () => {
  it('expands an ROI to the primary ROIs among it and its descendants; none is the outside bucket', () => {
    expect(expandRoi('MB(R)', TREE)).toEqual(['CA(R)', 'PED(R)']);
    expect(expandRoi('hemibrain', TREE)).toEqual(['AL(R)', 'CA(R)', 'PED(R)']);
    expect(expandRoi('AL(R)', TREE)).toEqual(['AL(R)']);
    expect(() => expandRoi('AL-DA1(R)', TREE)).toThrow(/"AL-DA1\(R\)" has no primary ROI .* inside the primary ROI AL\(R\)/);
    expect(expandRoi('none', TREE)).toEqual(['']);
    expect(() => expandRoi('ALX', TREE)).toThrow(/"ALX" is not an ROI of this version; known ROIs include AL\(R\), AL-DA1\(R\)/);
  });

  it('counts a non-primary ROI as the sum of its primary descendants, never twice', () => {
    const counts = new Map([['CA(R)', { pre: 3, post: 1 }], ['PED(R)', { pre: 2, post: 0 }], ['AL(R)', { pre: 10, post: 20 }], ['', { pre: 1, post: 2 }]]);
    const { items, outside } = roiTreeCounts(TREE, counts);
    const by = Object.fromEntries(items.map((i) => [i.roi, [i.pre, i.post]]));
    expect(by).toEqual({ hemibrain: [15, 21], 'MB(R)': [5, 1], 'CA(R)': [3, 1], 'PED(R)': [2, 0], 'AL(R)': [10, 20], 'AL-DA1(R)': [null, null] });
    expect(outside).toEqual({ pre: 1, post: 2 });
  });

  it('places a box given in voxels, nm or um in the stored unit', () => {
    const box = parseBbox('10,20,30,0,0,0');
    expect(box).toEqual({ min: [0, 0, 0], max: [10, 20, 30] });
    const voxels = { coordinateUnit: 'voxel' as const, voxelSize: [8, 8, 40] as [number, number, number], bounds: null };
    expect(bboxInStoredUnit(box, 'nm', voxels).max).toEqual([10 / 8, 20 / 8, 30 / 40]);
    expect(bboxInStoredUnit(box, 'um', { coordinateUnit: 'nm', voxelSize: null, bounds: null }).max).toEqual([10000, 20000, 30000]);
    expect(bboxInStoredUnit(box, 'voxel', voxels)).toBe(box);
    expect(() => bboxInStoredUnit(box, 'voxel', { coordinateUnit: 'nm', voxelSize: null, bounds: null })).toThrow(/voxel_size/);
    expect(() => bboxInStoredUnit(box, 'nm', { coordinateUnit: null, voxelSize: null, bounds: null })).toThrow(/declares no coordinate_unit/);
    expect(() => parseBbox('1,2,3,4,5')).toThrow(/six numbers/);
    expect(() => synapseFilterBase({ bbox: '0,0,0,1,1,1' })).toThrow(/unit: required with bbox/);
  });

  it('round-trips a cursor and refuses anything else', () => {
    const c = { pre: '720575940621039145', post: '', synapseId: 'synapses.csv:12\tx' };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
    for (const bad of ['', 'x y', Buffer.from('[1,2,3]').toString('base64url'), Buffer.from('{').toString('base64url')]) expect(() => decodeCursor(bad)).toThrow(/after: not a cursor/);
  });
});
