import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { packagePath } from '../../../lib/package-root.js';
import { CONNECTION_COLUMNS, NEURON_COLUMNS } from '../store/clickhouse/columns.js';
import { isAfterByCodePoint, parseConnectionsCsv, parseNeuronsCsv, type ParsedConnections, type ParsedNeurons } from './connectome-csv.js';
import { MAX_LISTED_PROBLEMS } from '../../../lib/file-problems.js';
import { CSV_CELL_MAX_CHARS } from './csv-records.js';
import { badInputMessage } from '../../../test/kit/expect.js';

const CONNECTOMES = packagePath('seed', 'connectomes');
const DATASETS = readdirSync(CONNECTOMES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

const target = { datasetId: 'ds1', version: 3 };
const neurons = (text: string | Uint8Array, filename = 'neurons.csv'): ParsedNeurons => parseNeuronsCsv({ text, filename, ...target });
const connections = (text: string | Uint8Array, neuronIds?: string[], filename = 'connections.csv'): ParsedConnections =>
  parseConnectionsCsv({ text, filename, ...target, neuronIds });


const lines = (chunks: string[]) => chunks.join('').split('\n').slice(0, -1);
const IDS = ['ADAL', 'ADAR', 'AVAL', 'AVAR', 'DA1'];

describe('parseNeuronsCsv and parseConnectionsCsv on the shipped connectomes', () => {
  it('ships all eleven connectomes', () => {
    expect(DATASETS).toHaveLength(11);
  });

  it.each(DATASETS)('%s: the statistics equal the counts of its dataset.json', (name) => {
    const counts = JSON.parse(readFileSync(`${CONNECTOMES}/${name}/dataset.json`, 'utf8')).counts;
    const n = neurons(readFileSync(`${CONNECTOMES}/${name}/neurons.csv`, 'utf8'));
    // As bytes, the form a large upload takes.
    const c = connections(readFileSync(`${CONNECTOMES}/${name}/connections.csv`), n.neuronIds);
    expect(n.stats).toEqual({ cells: counts.cells, neurons: counts.neurons, withNeurotransmitter: counts.neurons_with_neurotransmitter });
    expect(n.rows).toBe(counts.cells);
    expect(n.ignoredColumns).toEqual(['source_name', 'source_group']);
    expect(c.stats).toEqual({
      chemical: { rows: counts.chemical_connections, totalWeight: counts.total_weight_chemical, selfLoops: counts.chemical_self_loops },
      electrical: { rows: counts.electrical_connections, totalWeight: counts.total_weight_electrical, selfLoops: counts.electrical_self_loops },
    });
    expect(c.rows).toBe(counts.connections);
    expect(c.electricalSwapped).toBe(0);
    expect(lines(n.chunks)).toHaveLength(counts.cells);
    expect(lines(c.chunks)).toHaveLength(counts.connections);
  });

  it('encodes a neuron row in the column order of NEURON_COLUMNS', () => {
    const n = neurons(readFileSync(`${CONNECTOMES}/celegans_cook_2019_hermaphrodite/neurons.csv`, 'utf8'));
    const first = lines(n.chunks)[0].split('\t');
    expect(first).toHaveLength(NEURON_COLUMNS.length);
    expect(Object.fromEntries(NEURON_COLUMNS.map(([name], i) => [name, first[i]]))).toEqual({
      dataset_id: 'ds1',
      version: '3',
      neuron_id: 'ADAL',
      name: 'ADAL',
      cell_class: 'ADA',
      cell_type: 'interneuron',
      neurotransmitter: 'Glutamate',
      is_neuron: '1',
      region_code: '',
      x: '\\N',
      y: '\\N',
      z: '\\N',
    });
  });

  it('encodes a connection row in the column order of CONNECTION_COLUMNS', () => {
    const n = neurons(readFileSync(`${CONNECTOMES}/celegans_cook_2019_hermaphrodite/neurons.csv`, 'utf8'));
    const c = connections(readFileSync(`${CONNECTOMES}/celegans_cook_2019_hermaphrodite/connections.csv`, 'utf8'), n.neuronIds);
    expect(lines(c.chunks).slice(0, 2).map((l) => l.split('\t'))).toEqual([
      ['ds1', '3', 'ADAL', 'ADAL', 'chemical', '6'],
      ['ds1', '3', 'ADAL', 'ADAR', 'electrical', '3'],
    ]);
    expect(CONNECTION_COLUMNS.map(([name]) => name)).toEqual(['dataset_id', 'version', 'pre', 'post', 'synapse_type', 'weight']);
  });
});

describe('parseNeuronsCsv', () => {
  it('reads optional columns, case-insensitive trimmed headers, a BOM and CRLF, and reports the columns it ignores', () => {
    const csv =
      '\uFEFF Neuron_ID ,NAME,Region,x,y,z,Is_Neuron,neurotransmitter,colour\r\n' +
      'AVAL,AVA left,WBbt:0006749,1.5,-2,3e2,1,Glutamate|Serotonin,red\r\n' +
      'm1,,MBA:382,,,,false,,blue\r\n';
    const n = neurons(csv);
    expect(n.ignoredColumns).toEqual(['colour']);
    expect(n.neuronIds).toEqual(['AVAL', 'm1']);
    expect(n.stats).toEqual({ cells: 2, neurons: 1, withNeurotransmitter: 1 });
    expect(lines(n.chunks)).toEqual([
      'ds1\t3\tAVAL\tAVA left\t\t\tGlutamate|Serotonin\t1\tWBbt:0006749\t1.5\t-2\t300',
      'ds1\t3\tm1\tm1\t\t\t\t0\tMBA:382\t\\N\t\\N\t\\N',
    ]);
  });

  it('reads bytes with a BOM', () => {
    expect(neurons(Buffer.from('\uFEFFneuron_id,name\r\nA,x\r\n')).neuronIds).toEqual(['A']);
  });

  it('takes is_neuron as true when it is empty or absent', () => {
    expect(neurons('neuron_id,is_neuron\nA,\nB,TRUE\nC,0\n').stats.neurons).toBe(2);
    expect(neurons('neuron_id\nA\nB\n').stats).toEqual({ cells: 2, neurons: 2, withNeurotransmitter: 0 });
  });

  it('reads quoted fields with commas, doubled quotes and line breaks, and escapes them for TSV', () => {
    const n = neurons('neuron_id,name,cell_type\n"A,1","say ""hi""","two\nlines"\nB,plain,back\\slash\tand tab\n');
    expect(n.neuronIds).toEqual(['A,1', 'B']);
    expect(n.chunks.join('')).toBe('ds1\t3\tA,1\tsay "hi"\t\ttwo\\nlines\t\t1\t\t\\N\t\\N\t\\N\n' + 'ds1\t3\tB\tplain\t\tback\\\\slash\\tand tab\t\t1\t\t\\N\t\\N\t\\N\n');
  });

  it('refuses a duplicate neuron_id naming both lines', () => {
    expect(badInputMessage(() => neurons('neuron_id\nA\nB\n\nA\n'))).toBe('neurons.csv line 5: neuron_id "A" already appears on line 2');
  });

  it('refuses an empty, too long or control-character neuron_id, a bad is_neuron and a non-numeric position', () => {
    const message = badInputMessage(() => neurons(`neuron_id,is_neuron,x\n,1,\n${'n'.repeat(257)},1,\nB,maybe,\nC,1,12abc\nD,1,0x10\n`));
    expect(message).toBe(
      'neurons.csv: 5 problems, nothing was ingested: neurons.csv line 2: neuron_id is empty; ' +
        'neurons.csv line 3: neuron_id is longer than 256 characters; neurons.csv line 4: is_neuron "maybe" is not true, false, 1 or 0; ' +
        'neurons.csv line 5: x "12abc" is not a number; neurons.csv line 6: x "0x10" is not a number',
    );
    expect(badInputMessage(() => neurons('neuron_id,name\n"A\tB",x\n'))).toBe('neurons.csv line 2: neuron_id contains a tab, line break or another control character');
  });

  it('refuses a header without neuron_id, or with a column twice', () => {
    expect(badInputMessage(() => neurons('id,name\nA,B\n'))).toMatch(/^neurons\.csv line 1: the header has no neuron_id column \(expected .*; got id,name\)$/);
    expect(badInputMessage(() => neurons('neuron_id,x,X\nA,1,2\n'))).toBe('neurons.csv line 1: column x appears twice in the header');
    expect(badInputMessage(() => neurons('\n\nname\nA\n'))).toMatch(/^neurons\.csv line 3: the header has no neuron_id column/);
  });

  it('refuses an empty file and a file with a header only', () => {
    expect(badInputMessage(() => neurons(''))).toBe('neurons.csv: the file is empty; expected a header row and one row per line');
    expect(badInputMessage(() => neurons(new Uint8Array(0)))).toBe('neurons.csv: the file is empty; expected a header row and one row per line');
    expect(badInputMessage(() => neurons('\n\r\n  \n'))).toBe('neurons.csv: the file is empty; expected a header row and one row per line');
    expect(badInputMessage(() => neurons('neuron_id,name\r\n'))).toBe('neurons.csv: the file has a header but no rows');
  });

  it('refuses a row with another number of fields than the header', () => {
    expect(badInputMessage(() => neurons('neuron_id,name\nA,x\nB,x,y\n'))).toBe('neurons.csv line 3: the row has 3 fields but the header has 2; quote fields that contain commas');
  });

  it('refuses bytes that are not UTF-8, naming the line', () => {
    const bytes = Buffer.concat([Buffer.from('neuron_id,name\nA,ok\nB,caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    expect(badInputMessage(() => neurons(bytes))).toBe('neurons.csv line 3: the file is not UTF-8 text; save it as UTF-8 (CSV UTF-8 in a spreadsheet program)');
  });
});

describe('one CSV cell', () => {
  it(`is at most ${CSV_CELL_MAX_CHARS} characters, quoted or not, in any column, ignored ones too`, () => {
    const atLimit = 'x'.repeat(CSV_CELL_MAX_CHARS);
    expect(neurons(`neuron_id,name\nA,${atLimit}\n`).rows).toBe(1);
    const over = 'x'.repeat(CSV_CELL_MAX_CHARS + 1);
    const message = `line 3: a cell is ${CSV_CELL_MAX_CHARS + 1} characters long, over the limit of ${CSV_CELL_MAX_CHARS} characters per cell`;
    expect(badInputMessage(() => neurons(`neuron_id,name\nA,a\nB,${over}\n`))).toBe(`neurons.csv ${message}`);
    expect(badInputMessage(() => neurons(Buffer.from(`neuron_id,name,notes\nA,a,x\nB,b,"${over}"\n`)))).toBe(`neurons.csv ${message}`);
    expect(badInputMessage(() => connections(`pre,post,comment\nA,B,x\nA,C,${over}\n`))).toBe(`connections.csv ${message}`);
  });

  it('refuses a 50 MB cell without reading it as a neuron name', () => {
    const huge = Buffer.concat([Buffer.from('neuron_id,name\nA,'), Buffer.alloc(50 * 1024 * 1024, 0x61), Buffer.from('\n')]);
    expect(badInputMessage(() => neurons(huge))).toBe(`neurons.csv line 2: a cell is ${50 * 1024 * 1024} characters long, over the limit of ${CSV_CELL_MAX_CHARS} characters per cell`);
  });
});

describe('parseConnectionsCsv', () => {
  it('accepts type for synapse_type and the spellings of a gap junction, case-insensitive', () => {
    const c = connections('pre,post,Type,weight\nADAL,AVAL,Chemical,2\nADAL,ADAR,GAP,1\nAVAL,AVAR,gap_junction,1\nADAL,DA1,GapJunction,1\nADAR,AVAL,Electrical Synapse,1.5\n', IDS);
    expect(c.stats.chemical).toEqual({ rows: 1, totalWeight: 2, selfLoops: 0 });
    expect(c.stats.electrical).toEqual({ rows: 4, totalWeight: 4.5, selfLoops: 0 });
  });

  it('takes every row as chemical of weight 1 when those columns are absent, and reports ignored columns', () => {
    const c = connections('pre,post,nt\nADAL,AVAL,ACh\nAVAL,ADAL,ACh\nAVAL,AVAL,ACh\n', IDS);
    expect(c.stats).toEqual({ chemical: { rows: 3, totalWeight: 3, selfLoops: 1 }, electrical: { rows: 0, totalWeight: 0, selfLoops: 0 } });
    expect(c.ignoredColumns).toEqual(['nt']);
    expect(lines(c.chunks)[0]).toBe('ds1\t3\tADAL\tAVAL\tchemical\t1');
  });

  it('stores an electrical row given with pre after post swapped, and keeps self-loops', () => {
    const c = connections('pre,post,synapse_type,weight\nAVAL,ADAL,electrical,2\nDA1,DA1,electrical,1\nAVAL,ADAL,chemical,4\n', IDS);
    expect(c.electricalSwapped).toBe(1);
    expect(lines(c.chunks)).toEqual(['ds1\t3\tADAL\tAVAL\telectrical\t2', 'ds1\t3\tDA1\tDA1\telectrical\t1', 'ds1\t3\tAVAL\tADAL\tchemical\t4']);
    expect(c.stats.electrical.selfLoops).toBe(1);
  });

  it('orders electrical pairs by code point, not by UTF-16 unit', () => {
    // U+FF61 sorts before U+1F600 by code point, after its surrogate pair by UTF-16 unit.
    expect(isAfterByCodePoint('\u{1F600}', '\uFF61')).toBe(true);
    expect(isAfterByCodePoint('\uFF61', '\u{1F600}')).toBe(false);
    expect(isAfterByCodePoint('AB', 'A')).toBe(true);
    expect(isAfterByCodePoint('A', 'A')).toBe(false);
    const c = connections('pre,post,synapse_type\n\u{1F600},\uFF61,electrical\n');
    expect(lines(c.chunks)).toEqual(['ds1\t3\t\uFF61\t\u{1F600}\telectrical\t1']);
  });

  it('names the file, the line and the cell that is not a neuron of the dataset', () => {
    const pairs = IDS.flatMap((a) => IDS.map((b) => `${a},${b},chemical,1`)).slice(0, 15);
    const csv = `pre,post,synapse_type,weight\n${pairs.join('\n')}\nADAL,AVAX,chemical,1\n`;
    expect(badInputMessage(() => connections(csv, IDS))).toBe('connections.csv line 17: post "AVAX" is not a neuron of this dataset (upload it in neurons.csv first)');
  });

  it('refuses a synapse type that only looks like a known name', () => {
    expect(badInputMessage(() => connections('pre,post,synapse_type\nADAL,AVAL,constructor\n', IDS))).toBe('connections.csv line 2: synapse_type "constructor" is not chemical or electrical');
  });

  it('accepts any cell when no neuron set is given', () => {
    expect(connections('pre,post\nX,Y\nY,X\n').rows).toBe(2);
  });

  it('refuses a repeated (pre, post, synapse_type) naming both lines', () => {
    expect(badInputMessage(() => connections('pre,post,synapse_type,weight\nADAL,AVAL,chemical,1\nADAL,AVAR,chemical,1\nADAL,AVAL,chemical,3\n', IDS))).toBe(
      'connections.csv line 4: the same chemical connection as line 2; give one row per (pre, post, synapse_type)',
    );
  });

  it('refuses a gap junction listed in both directions, or twice, naming both lines', () => {
    expect(badInputMessage(() => connections('pre,post,synapse_type,weight\nADAL,AVAL,electrical,1\nAVAL,ADAL,chemical,1\nAVAL,ADAL,electrical,1\n', IDS))).toBe(
      'connections.csv line 4: the gap junction of line 2 is given in the other direction; electrical rows are undirected: list each gap junction once',
    );
    expect(badInputMessage(() => connections('pre,post,synapse_type\nAVAL,ADAL,gap\nAVAL,ADAL,electrical\n', IDS))).toBe(
      'connections.csv line 3: the gap junction of line 2 is given again; electrical rows are undirected: list each gap junction once',
    );
  });

  it('refuses weights that are not positive finite numbers, and an unknown synapse type', () => {
    const message = badInputMessage(() => connections('pre,post,synapse_type,weight\nADAL,AVAL,chemical,0\nADAL,AVAR,chemical,-1\nADAL,DA1,chemical,abc\nADAR,AVAL,chemical,\nADAR,AVAR,chemical,1e999\nADAR,DA1,inhibitory,2\n', IDS));
    expect(message).toBe(
      'connections.csv: 6 problems, nothing was ingested: connections.csv line 2: weight "0" is not a positive number; ' +
        'connections.csv line 3: weight "-1" is not a positive number; connections.csv line 4: weight "abc" is not a positive number; ' +
        'connections.csv line 5: weight is empty; give a positive number; connections.csv line 6: weight "1e999" is not a positive number; ' +
        'connections.csv line 7: synapse_type "inhibitory" is not chemical or electrical',
    );
  });

  it('writes weights so that they read back as the same number', () => {
    const c = connections('pre,post,weight\nADAL,AVAL,0.1\nADAL,AVAR,007\nADAL,DA1,1.50\nADAR,AVAL,2.5e-3\nADAR,AVAR,12\n', IDS);
    expect(lines(c.chunks).map((l) => l.split('\t')[5])).toEqual(['0.1', '7', '1.5', '0.0025', '12']);
    expect(c.stats.chemical.totalWeight).toBe(0.1 + 7 + 1.5 + 0.0025 + 12);
  });

  it('names the line of an unbalanced quote', () => {
    expect(badInputMessage(() => connections('pre,post\nADAL,AVAL\n"ADAL,AVAR\nADAR,AVAL\n', IDS))).toBe(
      'connections.csv line 3: malformed CSV: a quoted field opened on this line is not closed',
    );
    expect(badInputMessage(() => connections('pre,post\nADAL,AVAL\nAD"AL,AVAR\nADAR,"AVAL"\n', IDS))).toBe(
      'connections.csv line 3: malformed CSV: a double quote inside an unquoted field; quote the whole field and double the quotes inside it ("")',
    );
    expect(badInputMessage(() => connections('pre,post\nADAL,AVAL\n"ADAL"x,AVAR\n', IDS))).toBe(
      'connections.csv line 3: malformed CSV: text follows the closing quote of a field; double the quotes inside a quoted field ("")',
    );
  });

  it('reads a file that quotes every field', () => {
    const quoted = 'pre,post,synapse_type,weight\n' + ['ADAL', 'ADAR', 'AVAL'].flatMap((a) => ['AVAR', 'DA1'].map((b) => `"${a}","${b}","chemical","2"\n`)).join('');
    expect(connections(quoted, IDS).stats.chemical).toEqual({ rows: 6, totalWeight: 12, selfLoops: 0 });
  });

  it('lists the first 20 problems and counts the rest', () => {
    const csv = 'pre,post\n' + Array.from({ length: 25 }, (_, i) => `N${i},ADAL\n`).join('');
    const message = badInputMessage(() => connections(csv, IDS));
    expect(message.startsWith('connections.csv: 25 problems, nothing was ingested: connections.csv line 2: pre "N0" is not a neuron')).toBe(true);
    expect(message.match(/connections\.csv line \d+:/g)).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(message).toContain('connections.csv line 21: pre "N19"');
    expect(message).not.toContain('line 22:');
    expect(message.endsWith('; and 5 more')).toBe(true);
  });

  it('lists duplicates found after reading among the earliest problems by line', () => {
    const rows = ['ADAL,AVAL', 'ADAL,AVAL', ...Array.from({ length: 30 }, (_, i) => `X${i},ADAL`)];
    const message = badInputMessage(() => connections(`pre,post\n${rows.join('\n')}\n`, IDS));
    expect(message).toContain('31 problems');
    expect(message).toContain('connections.csv line 3: the same chemical connection as line 2');
  });

  it('splits the encoded rows into chunks of at most 8 MB, each ending in a line break', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `neuron_with_a_long_name_${i}`);
    const rows: string[] = [];
    for (let i = 0; i < 2000; i++) for (let k = 1; k <= 80; k++) rows.push(`${ids[i]},${ids[(i + k) % 2000]},chemical,${k}`);
    const c = connections(`pre,post,synapse_type,weight\n${rows.join('\n')}\n`, ids);
    expect(c.rows).toBe(160_000);
    expect(c.chunks.length).toBeGreaterThan(1);
    for (const chunk of c.chunks) {
      expect(Buffer.byteLength(chunk)).toBeLessThanOrEqual(8 * 1024 * 1024);
      expect(chunk.endsWith('\n')).toBe(true);
    }
    expect(lines(c.chunks)).toHaveLength(160_000);
  });
});
