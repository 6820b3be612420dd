import { describe, it, expect } from 'vitest';
import { mergeAnnotationRows } from './annotation-merge.js';

const D = '11111111-2222-3333-4444-555555555555';
// Columns of NEURON_ANNOTATION_COLUMNS: dataset_id, version, neuron_id, instance, type, class, super_class, sub_class,
// hemilineage, side, status, transmitter, transmitter_confidence, soma_x, soma_y, soma_z, extra.
const row = (id: string, f: Partial<Record<'instance' | 'type' | 'class' | 'super_class' | 'side' | 'transmitter' | 'conf' | 'x' | 'extra', string>>) =>
  [D, '1', id, f.instance ?? '', f.type ?? '', f.class ?? '', f.super_class ?? '', '', '', f.side ?? '', '', f.transmitter ?? '', f.conf ?? '\\N', f.x ?? '\\N', '\\N', '\\N', f.extra ?? '{}'].join('\t') + '\n';

describe('mergeAnnotationRows', () => {
  // FlyWire root ids are beyond 2^53: they travel as text and must come out as written.
  const big = '720575940614418897';

  it('merges the files of one neuron field by field, the first file with a value winning, and unions the other columns', () => {
    const classification = [row(big, { type: 'T4b', super_class: 'optic', side: 'left', extra: '{"flow":"intrinsic"}' }) + row('720575940627150778', { type: 'Dm14' })];
    const transmitters = [row(big, { transmitter: 'ACH', conf: '0.57', side: 'right', extra: '{"flow":"other","group":"LO.LOP"}' })];
    const merged = mergeAnnotationRows([classification, transmitters], { datasetId: D, version: 3 });
    expect(merged.neurons).toBe(2);
    const lines = merged.annotationChunks.join('').trim().split('\n').map((l) => l.split('\t'));
    const mine = lines.find((l) => l[2] === big)!;
    expect(mine.slice(0, 3)).toEqual([D, '3', big]);
    expect(mine[4]).toBe('T4b');
    expect(mine[9]).toBe('left');
    expect(mine[11]).toBe('ACH');
    expect(mine[12]).toBe('0.57');
    expect(JSON.parse(mine[16])).toEqual({ flow: 'intrinsic', group: 'LO.LOP' });
    const neurons = merged.neuronChunks.join('').trim().split('\n').map((l) => l.split('\t'));
    expect(neurons.find((l) => l[2] === big)).toEqual([D, '3', big, 'T4b', 'T4b', 'optic', 'ACH', '1', '', '\\N', '\\N', '\\N']);
  });

  it('names a neuron by its instance when it has one', () => {
    const merged = mergeAnnotationRows([[row('1', { instance: 'DA1_lPN_R', type: 'DA1_lPN', x: '5' })]], { datasetId: D, version: 1 });
    expect(merged.neuronChunks.join('').trim().split('\t').slice(3, 12)).toEqual(['DA1_lPN_R', 'DA1_lPN', '', '', '1', '', '5', '\\N', '\\N']);
  });
});
