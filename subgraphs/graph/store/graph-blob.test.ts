import { describe, it, expect } from 'vitest';
import { decodeGraph, encodeGraph } from './graph-blob.js';
import type { GraphData } from '../graph.model.js';

describe('the stored form of a graph', () => {
  const graph: GraphData = {
    source: {
      n: 3,
      chemPre: Int32Array.from([0, 1, 2]),
      chemPost: Int32Array.from([1, 2, 2]),
      chemWeight: Float64Array.from([3, 0.5, 1e9]),
      elecA: Int32Array.from([0]),
      elecB: Int32Array.from([2]),
      elecWeight: Float64Array.from([7]),
    },
    ids: ['A1', 'B1', 'Ünïcode\tid'],
    names: ['A1', 'the B cell', 'Ünïcode\tid'],
    classes: ['A', '', 'U'],
    types: ['sensory', 'motor', ''],
  };

  it('reads back exactly what was written, its arrays in shared memory', () => {
    const back = decodeGraph(encodeGraph(graph))!;
    expect(back.ids).toEqual(graph.ids);
    expect(back.names).toEqual(graph.names);
    expect(back.classes).toEqual(graph.classes);
    expect(back.types).toEqual(graph.types);
    for (const k of ['chemPre', 'chemPost', 'chemWeight', 'elecA', 'elecB', 'elecWeight'] as const) {
      expect(Array.from(back.source[k]), k).toEqual(Array.from(graph.source[k]));
      expect(back.source[k].buffer).toBeInstanceOf(SharedArrayBuffer);
    }
  });

  it('refuses a blob of another format or a cut one, so the graph is rebuilt', () => {
    const blob = encodeGraph(graph);
    expect(decodeGraph(Buffer.from('NDGRAPH0 something else'))).toBeNull();
    expect(decodeGraph(blob.subarray(0, blob.length - 8))).toBeNull();
  });

  it('refuses a blob whose header is not one, so the graph is rebuilt rather than read from it', () => {
    const withHeader = (text: string) => {
      const json = Buffer.from(text, 'utf8');
      const out = Buffer.alloc(Math.ceil((12 + json.length) / 8) * 8);
      out.write('NDGRAPH2', 0, 'latin1');
      out.writeUInt32LE(json.length, 8);
      json.copy(out, 12);
      return out;
    };
    expect(decodeGraph(withHeader('{"n": 1, "chem": 0, "elec": 0, "ids": ["A"], "names": [""], "classes": [""], "types": [""]}'))).not.toBeNull();
    expect(decodeGraph(withHeader('{"n": 1, "chem": 0, "elec": 0, "ids": [1], "names": [""], "classes": [""], "types": [""]}'))).toBeNull();
    expect(decodeGraph(withHeader('{"n": 1, "chem": -1, "elec": 1, "ids": ["A"], "names": [""], "classes": [""], "types": [""]}'))).toBeNull();
    expect(decodeGraph(withHeader('{"n": 1, "chem"'))).toBeNull();
  });
});
