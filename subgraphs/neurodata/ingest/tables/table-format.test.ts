import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { packagePath } from '../../../../lib/package-root.js';
import { detectFormat, detectTableKind } from './table-format.js';
import { recognizeLayout, tableKindOf } from './layouts.js';

const head = (...p: string[]) => readFileSync(packagePath(...p)).subarray(0, 4096);
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url)).subarray(0, 4096);

describe('detectTableKind', () => {
  it('tells each shipped synapse-level file by its name and first bytes', () => {
    const seed = (...p: string[]) => head('seed', 'synapse-level', ...p);
    expect(detectTableKind('1734350788.csv', seed('hemibrain_da1_lpn', '1734350788.csv'))).toBe('synapses');
    expect(detectTableKind('classification.csv.gz', seed('flywire_783', 'classification.csv.gz'))).toBe('annotations');
    expect(detectTableKind('neurons.csv.gz', seed('flywire_783', 'neurons.csv.gz'))).toBe('annotations');
    expect(detectTableKind('consolidated_cell_types.csv.gz', seed('flywire_783', 'consolidated_cell_types.csv.gz'))).toBe('annotations');
    expect(detectTableKind('annotations.tsv', seed('flywire_783', 'Supplemental_file2_non_neuron_annotations.tsv'))).toBe('annotations');
    expect(detectTableKind('codex.csv', seed('flywire_783', 'codex_connections_GNG_sample.csv'))).toBe('roi_connections');
    expect(detectTableKind('hemibrain_roi_hierarchy.json', seed('rois', 'hemibrain_roi_hierarchy.json'))).toBe('rois');
    expect(detectTableKind('roi_info.json', seed('rois', 'hemibrain_roi_info.json'))).toBe('rois');
    expect(detectTableKind('neuropils.csv', seed('rois', 'flywire_783_neuropils.csv'))).toBe('rois');
    expect(detectTableKind('x.feather', fixture('synapses_flywire.feather'))).toBe('synapses');
    expect(detectTableKind('x.arrows', fixture('synapses_flywire.arrows'))).toBe('synapses');
    expect(detectTableKind('x.parquet', fixture('synapses_cave.parquet'), ['id', 'pre_pt_root_id', 'post_pt_root_id', 'size', 'ctr_pt_position'])).toBe('synapses');
  });

  it('leaves the C. elegans neuron and connection tables, and other files, to the existing code', () => {
    for (const d of ['celegans_cook_2019_hermaphrodite', 'celegans_varshney_2011']) {
      expect(detectTableKind('neurons.csv', head('seed', 'connectomes', d, 'neurons.csv'))).toBeNull();
      expect(detectTableKind('connections.csv', head('seed', 'connectomes', d, 'connections.csv'))).toBeNull();
    }
    expect(detectTableKind('stats.csv', Buffer.from('region,volume\nAL,3\n'))).toBeNull();
    expect(detectTableKind('dataset.json', Buffer.from('{"title": "x"}'))).toBeNull();
  });
});

describe('detectFormat', () => {
  it('reads the format from magic bytes before the name', () => {
    expect(detectFormat('a.csv', Buffer.from('PAR1....'))).toEqual({ format: 'parquet', gzip: false });
    expect(detectFormat('a.bin', Buffer.from('ARROW1\0\0'))).toEqual({ format: 'arrow_file', gzip: false });
    expect(detectFormat('a', Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0]))).toEqual({ format: 'arrow_stream', gzip: false });
    expect(detectFormat('a.csv', Buffer.from([0x1f, 0x8b, 8, 0]))).toEqual({ format: 'csv', gzip: true });
    expect(detectFormat('a.tsv.gz', Buffer.from([0x1f, 0x8b, 8, 0]))).toEqual({ format: 'tsv', gzip: true });
    expect(detectFormat('rois', Buffer.from(' {"name": "hemibrain"}'))).toEqual({ format: 'json', gzip: false });
  });
});

describe('recognizeLayout', () => {
  it('recognises each published layout from its columns', () => {
    const layout = (names: string, filename = 'x.csv') => {
      const cols = names.split(',');
      return recognizeLayout(tableKindOf(filename, cols)!, filename, cols).name;
    };
    expect(layout('id,pre_pt_root_id,post_pt_root_id,connection_score,cleft_score,gaba,ach,glut,oct,ser,da,pre_x,pre_y,pre_z,post_x,post_y,post_z,neuropil')).toBe('flywire_synapses');
    expect(layout('id,pre_pt_root_id,post_pt_root_id,size,ctr_pt_position')).toBe('cave_synapses');
    expect(layout('bodyId_pre,bodyId_post,roi_pre,roi_post,x_pre,y_pre,z_pre,x_post,y_post,z_post,confidence_pre,confidence_post')).toBe('neuprint_synapse_connections');
    expect(layout('bodyId,type,roi,x,y,z,confidence')).toBe('neuprint_synapses');
    expect(layout('pre_pt_root_id,post_pt_root_id,neuropil,syn_count,gaba_avg,ach_avg,glut_avg,oct_avg,ser_avg,da_avg')).toBe('flywire_connections');
    expect(layout('pre_root_id,post_root_id,neuropil,syn_count,nt_type')).toBe('codex_connections');
    expect(layout('From,To,Neuropil,Synapses,Neuro Transmitter')).toBe('codex_connections_export');
    expect(layout('bodyId,instance,type,status,roiInfo,somaLocation,cellBodyFiber,pre,post')).toBe('neuprint_neurons');
    expect(layout('roi,parent,primary,description')).toBe('roi_table');
  });

  it('takes a neuPrint per-neuron file\'s bodyId from its name', () => {
    const l = recognizeLayout('synapses', '1734350788.csv', ['connector_id', 'node_id', 'type', 'x', 'y', 'z', 'roi', 'confidence']);
    expect(l).toMatchObject({ name: 'neuprint_synapses', bodyId: '1734350788' });
  });
});
