import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { packagePath } from '../../../lib/package-root.js';
import { detectAssetKind } from './asset-kind.js';

const firstLine = (...p: string[]) => readFileSync(packagePath('seed', ...p), 'utf8').split('\n')[0];

describe('detectAssetKind', () => {
  it('recognises the shipped neuron and connection tables by their header', () => {
    for (const d of readdirSync(packagePath('seed', 'connectomes'), { withFileTypes: true }).filter((e) => e.isDirectory())) {
      expect(detectAssetKind('neurons.csv', 'text/csv', firstLine('connectomes', d.name, 'neurons.csv'))).toBe('neurons');
      expect(detectAssetKind('connections.csv', 'text/csv', firstLine('connectomes', d.name, 'connections.csv'))).toBe('connections');
    }
  });

  it('reads the header case-insensitively, quoted, with a BOM and CRLF, whatever the file is called', () => {
    expect(detectAssetKind('cells.CSV', '', '\ufeff"Neuron_ID",name\r')).toBe('neurons');
    expect(detectAssetKind('edges', 'text/csv; charset=utf-8', ' PRE , Post ,type')).toBe('connections');
    expect(detectAssetKind('edges.txt', 'text/plain', 'pre,post,weight')).toBe('connections');
  });

  it('takes a CSV with another header, and files of other types, as other', () => {
    expect(detectAssetKind('stats.csv', 'text/csv', 'region,volume')).toBe('other');
    expect(detectAssetKind('pre.csv', 'text/csv', 'pre,weight')).toBe('other');
    expect(detectAssetKind('dataset.json', 'application/json', '{"pre": 1, "post": 2, "neuron_id": 3}')).toBe('other');
    expect(detectAssetKind('figure.png', 'image/png', '\x89PNG')).toBe('other');
  });

  it('recognises SWC by extension, and plain-text SWC by its first line', () => {
    for (const f of ['v_e_moto1.CNG.swc', 'l22.CNG.swc', 'hemibrain_DA1_lPN_1734350788.swc']) {
      expect(detectAssetKind(f, 'application/octet-stream', firstLine('morphology', f))).toBe('morphology');
      expect(detectAssetKind(f.replace(/\.swc$/, '.txt'), 'text/plain', firstLine('morphology', f))).toBe('morphology');
    }
    expect(detectAssetKind('AVAL.SWC', '', '')).toBe('morphology');
    expect(detectAssetKind('AVAL', 'text/plain', ' 1 1 0.5 -2 3e1 4 -1')).toBe('morphology');
    expect(detectAssetKind('notes.txt', 'text/plain', '# my notes')).toBe('other');
  });
});
