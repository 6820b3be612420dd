import { describe, expect, it } from 'vitest';
import { badInputMessage } from '../../test/kit/expect.js';
import { connectionFilter, neuronFilter, rowsPage } from './data-read.rules.js';

describe('the filters of the neurons and connections routes', () => {
  it('reads lists given as commas or repeated values, without duplicates, and leaves absent ones absent', () => {
    expect(neuronFilter({ neuron_ids: ['AVAL,AVAR', 'AVAL'], is_neuron: false })).toEqual({ neuronIds: ['AVAL', 'AVAR'], isNeuron: false });
    expect(neuronFilter({})).toEqual({});
    expect(connectionFilter({ synapse_type: 'electrical', min_weight: 0 })).toEqual({ synapseType: 'electrical', minWeight: 0 });
  });

  it('refuses an unknown synapse type, a negative weight, too many or too long values, naming the field', () => {
    expect(badInputMessage(() => connectionFilter({ synapse_type: 'gap' }))).toMatch(/^synapse_type: "gap" is not one of chemical, electrical/);
    expect(badInputMessage(() => connectionFilter({ min_weight: -1 }))).toMatch(/^min_weight: a number of at least 0/);
    expect(badInputMessage(() => connectionFilter({ pre: [Array.from({ length: 1001 }, (_, i) => `n${i}`).join(',')] }))).toMatch(/^pre: at most 1000 values \(got 1001\)/);
    expect(badInputMessage(() => neuronFilter({ names: ['x'.repeat(201)] }))).toMatch(/^names: each value is 1\.\.200 characters/);
    expect(badInputMessage(() => neuronFilter({ cell_class: [''] }))).toMatch(/^cell_class/);
  });

  it('pages 1..1000 rows from offsets 0..10,000,000, 100 by default', () => {
    expect(rowsPage()).toEqual({ limit: 100, offset: 0 });
    expect(badInputMessage(() => rowsPage(1001))).toMatch(/^limit: 1\.\.1000/);
    expect(badInputMessage(() => rowsPage(10, -1))).toMatch(/^offset/);
  });
});
