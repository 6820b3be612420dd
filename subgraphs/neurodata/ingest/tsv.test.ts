import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadChdb } from '../../../lib/column/column.js';
import { CONNECTION_COLUMNS, MORPHOLOGY_COLUMNS, NEURON_COLUMNS } from '../store/clickhouse/columns.js';
import { parseConnectionsCsv, parseNeuronsCsv } from './connectome-csv.js';
import { encodeMorphologyRow, parseSwc } from './swc.js';
import { assertColumnOrder, TsvChunks, tsvNullableNumber, tsvNumber, tsvString } from './tsv.js';

/** ClickHouse's reading of a TabSeparated String field (the escapes it accepts). */
function readTsvString(field: string): string {
  return field.replace(/\\(.)/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\', '0': '\0', b: '\b', f: '\f', "'": "'" })[c] ?? c);
}

const AWKWARD = ['plain', 'tab\there', 'new\nline', 'cr\rlf\r\nend', 'back\\slash', '\\N', '\\t literally', 'ünïcødé 🧠', '', ' padded '];

describe('tsvString', () => {
  it('reads back as the same text, and never contains a raw tab, line break or lone \\N', () => {
    for (const s of AWKWARD) {
      const encoded = tsvString(s);
      expect(encoded).not.toMatch(/[\t\n\r]/);
      expect(readTsvString(encoded)).toBe(s);
    }
    expect(tsvString('\\N')).toBe('\\\\N');
  });
});

describe('tsvNumber', () => {
  it('writes doubles that read back exactly, and NULL as \\N', () => {
    for (const n of [0, 1, -2.5, 0.1, 1 / 3, 1e21, 5e-324, 123456789.123456789, Number.MAX_SAFE_INTEGER]) expect(Number(tsvNumber(n))).toBe(n);
    expect(tsvNullableNumber(null)).toBe('\\N');
    expect(tsvNullableNumber(2)).toBe('2');
  });
});

describe('assertColumnOrder', () => {
  it('throws when an encoder and a table disagree on the columns', () => {
    expect(() => assertColumnOrder('t', [['a', 'String'], ['b', 'String']], ['a', 'b'])).not.toThrow();
    expect(() => assertColumnOrder('t', [['a', 'String'], ['b', 'String']], ['b', 'a'])).toThrow(/the t encoder writes b,a but the table's columns are a,b/);
  });
});

describe('TsvChunks', () => {
  it('keeps chunks under the limit in UTF-8 bytes, whole lines each, a longer line alone', () => {
    const out = new TsvChunks(10);
    for (const line of ['aaaa\n', 'ééé\n', 'b\n', 'cccccccccccccccc\n', 'd\n']) out.add(line);
    const chunks = out.finish();
    expect(chunks).toEqual(['aaaa\n', 'ééé\nb\n', 'cccccccccccccccc\n', 'd\n']);
  });

  it('keeps lines whole across its buffer', () => {
    const out = new TsvChunks(1000);
    const lines = Array.from({ length: 5000 }, (_, i) => `${'x'.repeat(i % 97)}${i}\n`);
    for (const l of lines) out.add(l);
    const chunks = out.finish();
    expect(chunks.join('')).toBe(lines.join(''));
    for (const c of chunks) expect(Buffer.byteLength(c) <= 1000 && c.endsWith('\n')).toBe(true);
  });
});

describe('the encoders, read back by ClickHouse (chDB)', () => {
  let dir: string;
  let session: { query(sql: string, format?: string): string; close(): void };

  beforeAll(async () => {
    const { Session } = await loadChdb();
    dir = mkdtempSync(path.join(os.tmpdir(), 'ingest-tsv-'));
    session = new Session(dir);
    const ddl = (table: string, columns: readonly (readonly [string, string])[]) =>
      session.query(`CREATE TABLE ${table} (${columns.map(([n, t]) => `${n} ${t}`).join(', ')}) ENGINE = Memory`);
    ddl('neurons', NEURON_COLUMNS);
    ddl('connections', CONNECTION_COLUMNS);
    ddl('morphologies', MORPHOLOGY_COLUMNS);
  });

  afterAll(() => {
    session?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const insert = (table: string, chunks: string[]) => {
    for (const chunk of chunks) session.query(`INSERT INTO ${table} FORMAT TabSeparated\n${chunk}`);
  };
  const rows = (sql: string) => session.query(`${sql} FORMAT JSONEachRow`, 'JSONEachRow').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

  it('stores neuron rows with escaped text, booleans and NULL positions as they were written', () => {
    const csv = 'neuron_id,name,cell_type,neurotransmitter,is_neuron,region,x,y,z\n' +
      AWKWARD.slice(0, 9).map((s, i) => `"n${i}","${s.replace(/"/g, '""')}",t,Glutamate|Serotonin,${i % 2 ? 'false' : ''},MBA:382,${i ? 0.1 * i : ''},-1e-7,3\n`).join('');
    insert('neurons', parseNeuronsCsv({ text: csv, filename: 'neurons.csv', datasetId: 'ds\tweird', version: 7 }).chunks);
    const stored = rows('SELECT * FROM neurons ORDER BY neuron_id');
    expect(stored).toHaveLength(9);
    stored.forEach((r, i) => {
      expect(r).toEqual({
        dataset_id: 'ds\tweird',
        version: 7,
        neuron_id: `n${i}`,
        name: AWKWARD[i] || `n${i}`,
        cell_class: '',
        cell_type: 't',
        neurotransmitter: 'Glutamate|Serotonin',
        is_neuron: i % 2 ? 0 : 1,
        region_code: 'MBA:382',
        x: i ? 0.1 * i : null,
        y: -1e-7,
        z: 3,
      });
    });
  });

  it('stores connection rows with the synapse type as its Enum name and exact weights', () => {
    const csv = 'pre,post,synapse_type,weight\nb\\1,a,electrical,0.1\na,b\\1,chemical,2.5e-3\na,a,chemical,12\n';
    insert('connections', parseConnectionsCsv({ text: csv, filename: 'connections.csv', datasetId: 'ds', version: 1 }).chunks);
    expect(rows('SELECT pre, post, synapse_type, weight FROM connections ORDER BY synapse_type, pre, post')).toEqual([
      { pre: 'a', post: 'a', synapse_type: 'chemical', weight: 12 },
      { pre: 'a', post: 'b\\1', synapse_type: 'chemical', weight: 0.0025 },
      { pre: 'a', post: 'b\\1', synapse_type: 'electrical', weight: 0.1 },
    ]);
  });

  it('stores a morphology row', () => {
    const { summary } = parseSwc('1 1 0 0 0 1 -1\n2 3 1 1 1 1 1\n3 3 1 1 2 1 2\n', 'n.swc');
    insert('morphologies', [encodeMorphologyRow({ datasetId: 'ds', version: 1, neuron: 'AVAL', file: 'n.swc', objectKey: 'o/k', sha256: 'f'.repeat(64), ...summary })]);
    expect(rows('SELECT * FROM morphologies')).toEqual([
      {
        dataset_id: 'ds', version: 1, neuron: 'AVAL', file: 'n.swc', object_key: 'o/k', sha256: 'f'.repeat(64),
        n_points: 3, n_soma_points: 1, n_stems: 1, n_bifurcations: 0, n_tips: 1, total_length: 1,
        soma_x: 0, soma_y: 0, soma_z: 0, min_x: 0, min_y: 0, min_z: 0, max_x: 1, max_y: 1, max_z: 2,
      },
    ]);
  });
});
