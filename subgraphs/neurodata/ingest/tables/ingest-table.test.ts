import { describe, it, expect } from 'vitest';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { Dictionary, Float32, Int32, Message, Table, Utf8, tableFromArrays, tableToIPC, vectorFromArray } from 'apache-arrow';
import { footerOnlyArrowSynapses } from '../../../../test/kit/arrow-files.js';
import { packagePath } from '../../../../lib/package-root.js';
import { NEURON_ANNOTATION_COLUMNS, NEURON_COLUMNS, NEURON_ROI_COLUMNS, ROI_COLUMNS, ROI_CONNECTION_COLUMNS, SYNAPSE_COLUMNS, type DataTable } from '../../store/clickhouse/columns.js';
import { detectTableKind } from './table-format.js';
import { drainTable, ingestTable, inspectTable, type IngestTableOptions, type TableSource } from './ingest-table.js';

const SEED = (...p: string[]) => packagePath('seed', 'synapse-level', ...p);
const FIXTURE = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;
const COLUMNS: Partial<Record<DataTable, readonly (readonly [string, string])[]>> = {
  synapses: SYNAPSE_COLUMNS,
  roi_connections: ROI_CONNECTION_COLUMNS,
  neuron_annotations: NEURON_ANNOTATION_COLUMNS,
  neurons: NEURON_COLUMNS,
  neuron_rois: NEURON_ROI_COLUMNS,
  rois: ROI_COLUMNS,
};

function fileSource(path: string): TableSource {
  return {
    open: async () => createReadStream(path, { highWaterMark: 64 * 1024 }),
    size: statSync(path).size,
    async readRange(start, end) {
      const h = await open(path, 'r');
      try {
        const buf = Buffer.alloc(end - start);
        await h.read(buf, 0, end - start, start);
        return buf;
      } finally {
        await h.close();
      }
    },
  };
}

function bytesSource(bytes: Uint8Array | string, piece = 1 << 16): TableSource {
  const all = typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes);
  return {
    async open() {
      return (async function* () {
        for (let i = 0; i < all.length; i += piece) yield all.subarray(i, i + piece);
      })();
    },
    size: all.length,
    readRange: async (s, e) => all.subarray(s, e),
  };
}

const base = { datasetId: 'ds1', version: 2 };

/** A TabSeparated field's text (`\\N`, NULL, is kept as it is). */
const unescapeTsv = (field: string) => field.replace(/\\([\\tnr])/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[c]!);

/** Every chunk's rows as objects keyed by column name, per table, and the summary. */
async function ingest(source: TableSource, opts: Partial<IngestTableOptions> & { filename: string }) {
  const rows: Partial<Record<DataTable, Record<string, string>[]>> = {};
  const summary = await drainTable(ingestTable(source, { ...base, ...opts }), (c) => {
    const cols = COLUMNS[c.table]!;
    const lines = c.tsv.split('\n').slice(0, -1);
    expect(lines).toHaveLength(c.rows);
    const out = (rows[c.table] ??= []);
    let wrongWidth = 0;
    for (const l of lines) {
      const fields = l.split('\t');
      if (fields.length !== cols.length) wrongWidth++;
      const row: Record<string, string> = {};
      for (let i = 0; i < cols.length; i++) row[cols[i][0]] = fields[i]?.includes('\\') ? unescapeTsv(fields[i]) : fields[i];
      out.push(row);
    }
    expect(wrongWidth).toBe(0);
  });
  return { rows, summary };
}

/** The message of the BadInput that `p` rejects with. */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect((e as { extensions?: { code?: string } }).extensions?.code, String(e)).toBe('BAD_USER_INPUT');
    return (e as Error).message;
  }
  throw new Error('expected a BadInput');
}

describe('ingestTable on the hemibrain per-neuron synapse files (neuPrint layout, bodyId from the file name)', () => {
  it('reads every synapse of 1734350788.csv as T-bars and PSDs of that neuron', async () => {
    const { rows, summary } = await ingest(fileSource(SEED('hemibrain_da1_lpn', '1734350788.csv')), { filename: '1734350788.csv' });
    expect(summary).toMatchObject({ kind: 'synapses', layout: 'neuprint_synapses', format: 'csv', rows: 2705, tables: { synapses: 2705 }, synapseIdCheck: 'generated' });
    const s = rows.synapses!;
    expect(s[0]).toMatchObject({ dataset_id: 'ds1', version: '2', pre: '1734350788', post: '', synapse_id: '1734350788.csv:1', x: '6444', y: '21608', z: '14516', roi: 'LH(R)', confidence: '0.959', size: '\\N', transmitter: '' });
    const psd = s.find((r) => r.post === '1734350788')!;
    expect(psd.pre).toBe('');
    const csv = readFileSync(SEED('hemibrain_da1_lpn', '1734350788.csv'), 'utf8').trim().split('\n').slice(1);
    expect(s.filter((r) => r.pre).length).toBe(csv.filter((l) => l.split(',')[2] === 'pre').length);
    expect(s.filter((r) => r.roi === '').length).toBe(csv.filter((l) => l.split(',')[6] === '').length);
  });

  it('reads all four neurons against the hemibrain ROIs: every synapse ROI is one of them, and primary', async () => {
    const info = JSON.parse(readFileSync(SEED('rois', 'hemibrain_roi_info.json'), 'utf8')) as Record<string, { isPrimary: boolean }>;
    const knownRois = new Set(Object.keys(info));
    const primary = new Set(Object.keys(info).filter((r) => info[r].isPrimary));
    const counts: Record<string, number> = { '1734350788': 2705, '1734350908': 3042, '722817260': 3136, '754534424': 3010 };
    for (const [body, n] of Object.entries(counts)) {
      const { rows, summary } = await ingest(fileSource(SEED('hemibrain_da1_lpn', `${body}.csv`)), { filename: `${body}.csv`, knownRois });
      expect(summary.rows).toBe(n);
      expect(rows.synapses!.every((r) => (r.pre === body) !== (r.post === body))).toBe(true);
      expect(rows.synapses!.every((r) => r.roi === '' || primary.has(r.roi))).toBe(true);
    }
  });

  it('stops when the signal aborts, with a Timeout', async () => {
    const controller = new AbortController();
    const ingest = ingestTable(fileSource(SEED('flywire_783', 'classification.csv.gz')), { ...base, filename: 'classification.csv.gz', signal: controller.signal });
    await ingest.next();
    controller.abort(new Error('the client went away'));
    await expect(drainTable(ingest, () => undefined)).rejects.toMatchObject({ extensions: { code: 'TIMEOUT' } });
  });

  it('checks ROIs against the known set, naming file, row and column', async () => {
    const known = new Set(['AL(R)', 'LH(R)', 'CA(R)']);
    const message = await failure(ingest(fileSource(SEED('hemibrain_da1_lpn', '1734350788.csv')), { filename: '1734350788.csv', knownRois: known }));
    expect(message).toMatch(/^1734350788\.csv: \d+ problems, nothing was ingested: 1734350788\.csv row \d+ column roi: unknown ROI "SCL\(R\)"/);
  });

  it('refuses a position outside the bounds and one that is not finite', async () => {
    const bounds = { min: [0, 0, 0] as [number, number, number], max: [40000, 40000, 40000] as [number, number, number] };
    await expect(ingest(fileSource(SEED('hemibrain_da1_lpn', '722817260.csv')), { filename: '722817260.csv', bounds })).resolves.toBeTruthy();
    const tight = { min: [0, 0, 0] as [number, number, number], max: [6000, 40000, 40000] as [number, number, number] };
    expect(await failure(ingest(fileSource(SEED('hemibrain_da1_lpn', '1734350788.csv')), { filename: '1734350788.csv', bounds: tight }))).toMatch(
      /1734350788\.csv row 1 column x: position \(6444, 21608, 14516\) lies outside/,
    );
    const csv = 'bodyId,type,x,y,z,roi,confidence\n5813,pre,1,2,3,AL(R),0.9\n5813,post,1,inf,3,AL(R),0.9\n';
    expect(await failure(ingest(bytesSource(csv), { filename: 'synapses.csv' }))).toBe('synapses.csv row 2 column y: "inf" is not a finite number');
  });
});

// The FlyWire tables are whole releases (139,255 neurons): seconds alone, a minute or more beside the rest of the suite.
describe('ingestTable on FlyWire and Codex tables (real)', { timeout: 240_000 }, () => {
  it('reads the Codex per-neuropil connection export as roi_connections', async () => {
    const { rows, summary } = await ingest(fileSource(SEED('flywire_783', 'codex_connections_GNG_sample.csv')), { filename: 'codex_connections_GNG_sample.csv', kind: 'roi_connections' });
    expect(summary).toMatchObject({ kind: 'roi_connections', layout: 'codex_connections_export', rows: 65 });
    expect(rows.roi_connections![0]).toEqual({ dataset_id: 'ds1', version: '2', pre: '720575940610788069', post: '720575940632425919', roi: 'GNG', weight: '5', transmitter: 'ach' });
  });

  it('reads the gzip classification table: 139,255 neurons with exact 18-digit ids, each also a neurons row', async () => {
    const { rows, summary } = await ingest(fileSource(SEED('flywire_783', 'classification.csv.gz')), { filename: 'classification.csv.gz' });
    expect(summary).toMatchObject({ kind: 'annotations', layout: 'flywire_classification', gzip: true, rows: 139255, tables: { neuron_annotations: 139255, neurons: 139255 } });
    expect(summary.ignoredColumns).toEqual(['flow', 'hemibrain_type', 'nerve']);
    expect(rows.neuron_annotations![0]).toMatchObject({ neuron_id: '720575940614418897', type: 'T4b', super_class: 'optic', side: 'left', extra: '{"flow":"intrinsic"}' });
    expect(rows.neurons![0]).toMatchObject({ neuron_id: '720575940614418897', name: 'T4b', cell_class: 'T4b', cell_type: 'optic', is_neuron: '1', x: '\\N' });
    expect(new Set(rows.neurons!.map((r) => r.neuron_id)).size).toBe(139255);
  });

  it('reads the FlyWire neurons table: transmitter and its score', async () => {
    const { rows, summary } = await ingest(fileSource(SEED('flywire_783', 'neurons.csv.gz')), { filename: 'neurons.csv.gz' });
    expect(summary).toMatchObject({ layout: 'flywire_neurons', rows: 139255 });
    expect(rows.neuron_annotations![0]).toMatchObject({ neuron_id: '720575940596125868', transmitter: 'ach', transmitter_confidence: '0.57' });
    expect(JSON.parse(rows.neuron_annotations![0].extra)).toEqual({ group: 'LO.LOP', ach_avg: '0.57', da_avg: '0.03', gaba_avg: '0.05', glut_avg: '0.28', oct_avg: '0.07', ser_avg: '0.0' });
  });

  it('reads consolidated cell types and the paper annotation table (tab-separated, soma positions)', async () => {
    const types = await ingest(fileSource(SEED('flywire_783', 'consolidated_cell_types.csv.gz')), { filename: 'consolidated_cell_types.csv.gz', kind: 'annotations' });
    expect(types.summary).toMatchObject({ layout: 'consolidated_cell_types', rows: 137677 });
    expect(types.rows.neuron_annotations![0]).toMatchObject({ neuron_id: '720575940596125868', type: 'T5c' });
    const paper = await ingest(fileSource(SEED('flywire_783', 'Supplemental_file2_non_neuron_annotations.tsv')), { filename: 'Supplemental_file2_non_neuron_annotations.tsv', kind: 'annotations' });
    expect(paper.summary).toMatchObject({ layout: 'flywire_annotations', format: 'tsv', rows: 841 });
    expect(paper.rows.neuron_annotations![0]).toMatchObject({ neuron_id: '720575940621522189', super_class: 'not_a_neuron', class: 'glia', transmitter: 'ach', soma_x: '140648', soma_y: '49064', soma_z: '2262' });
    expect(paper.rows.neurons![0]).toMatchObject({ x: '140648', y: '49064', z: '2262' });
  });
});

describe('ingestTable on a neuPrint neuron table (the real optic-lobe answer, as CSV)', () => {
  const answer = JSON.parse(readFileSync(SEED('rois', 'neuprint_optic_lobe_neurons_response.json'), 'utf8')) as { data: [Record<string, unknown>][] };
  const neurons = answer.data.map((d) => d[0]);
  const quote = (v: unknown) => `"${(typeof v === 'string' ? v : JSON.stringify(v)).replace(/"/g, '""')}"`;
  const csv =
    'bodyId,instance,type,status,predictedNt,roiInfo,somaLocation,pre,post\n' +
    neurons.map((n) => [n.bodyId, quote(n.instance), quote(n.type), n.status, n.predictedNt, quote(n.roiInfo), n.somaLocation ? quote(n.somaLocation) : '', n.pre, n.post].join(',')).join('\n') + '\n';

  it('reads roiInfo into neuron_rois and somaLocation into the soma position', async () => {
    const { rows, summary } = await ingest(bytesSource(csv), { filename: 'neurons.csv' });
    expect(summary).toMatchObject({ kind: 'annotations', layout: 'neuprint_neurons', rows: neurons.length });
    const first = neurons[0] as { bodyId: number; roiInfo: string; somaLocation: { coordinates: number[] } };
    expect(rows.neuron_annotations![0]).toMatchObject({ neuron_id: String(first.bodyId), instance: '5-HTPMPV03_R', status: 'Traced', transmitter: 'ser', soma_x: String(first.somaLocation.coordinates[0]) });
    const info = JSON.parse(first.roiInfo) as Record<string, { pre: number; post: number; downstream: number; upstream: number }>;
    const mine = rows.neuron_rois!.filter((r) => r.neuron_id === String(first.bodyId));
    expect(mine).toHaveLength(Object.keys(info).length);
    expect(mine.find((r) => r.roi === 'AMMC(L)')).toEqual({ dataset_id: 'ds1', version: '2', neuron_id: '10050', roi: 'AMMC(L)', pre: '189', post: '274', upstream: '274', downstream: '608' });
    const primary = await ingest(bytesSource(csv), { filename: 'neurons.csv', primaryRois: new Set(['AMMC(L)', 'GNG']) });
    expect(new Set(primary.rows.neuron_rois!.map((r) => r.roi))).toEqual(new Set(['AMMC(L)', 'GNG']));
  });

  it('reads the neuPrint answer itself (JSON): one annotation per neuron, its roiInfo as neuron_rois', async () => {
    const file = SEED('rois', 'neuprint_optic_lobe_neurons_response.json');
    expect(detectTableKind('neurons.json', readFileSync(file).subarray(0, 4096))).toBe('annotations');
    const { rows, summary } = await ingest(fileSource(file), { filename: 'neurons.json' });
    expect(summary).toMatchObject({ kind: 'annotations', layout: 'neuprint_neurons', format: 'json', rows: neurons.length });
    expect(rows.neuron_annotations!.map((r) => r.neuron_id)).toEqual(neurons.map((n) => String(n.bodyId)));
    expect(rows.neuron_annotations![0]).toMatchObject({ instance: '5-HTPMPV03_R', type: '5-HTPMPV03', class: 'visual_centrifugal', transmitter: 'ser', soma_x: '43121' });
    expect(rows.neuron_annotations![1].type).toBe('{"label": "DNp27", "href": "http://foobar.com"}');
    expect(rows.neuron_rois!.find((r) => r.neuron_id === '10050' && r.roi === 'AMMC(L)')).toMatchObject({ pre: '189', post: '274', downstream: '608' });
  });
});

describe('ingestTable on ROI hierarchies (real)', () => {
  it('reads the neuPrint roiInfo map with its primary flags', async () => {
    const { rows, summary } = await ingest(fileSource(SEED('rois', 'hemibrain_roi_info.json')), { filename: 'rois.json' });
    expect(summary).toMatchObject({ kind: 'rois', format: 'json', rows: 230 });
    expect(rows.rois!.filter((r) => r.is_primary === '1')).toHaveLength(66);
    expect(rows.rois!.find((r) => r.roi === 'LAL(L)')).toEqual({ dataset_id: 'ds1', version: '2', roi: 'LAL(L)', parent: 'LX(L)', is_primary: '1', description: 'lateral accessory lobe(left)', term: '' });
  });

  it('reads the neuPrint hierarchy tree, its leaves taken as primary', async () => {
    const { rows } = await ingest(fileSource(SEED('rois', 'hemibrain_roi_hierarchy.json')), { filename: 'hemibrain_roi_hierarchy.json' });
    expect(rows.rois!.length).toBe(229);
    expect(rows.rois![0]).toMatchObject({ roi: 'hemibrain', parent: '', is_primary: '0' });
    expect(rows.rois!.find((r) => r.roi === 'ME(R)')).toMatchObject({ parent: 'OL(R)', is_primary: '1' });
  });

  it('reads the FlyWire neuropil table: each neuropil primary under its category, the categories roots', async () => {
    const { rows } = await ingest(fileSource(SEED('rois', 'flywire_783_neuropils.csv')), { filename: 'flywire_783_neuropils.csv', kind: 'rois' });
    const r = rows.rois!;
    expect(r.filter((x) => x.is_primary === '1')).toHaveLength(79);
    expect(r.find((x) => x.roi === 'AME_L')).toMatchObject({ parent: 'optic lobe', is_primary: '1', description: 'accessory medulla' });
    expect(r.find((x) => x.roi === 'optic lobe')).toMatchObject({ parent: '', is_primary: '0' });
  });

  it('reads an roi,parent,primary,description CSV and refuses an unknown parent', async () => {
    const { rows } = await ingest(bytesSource('roi,parent,primary,description\nbrain,,false,whole\nAL(R),brain,true,antennal lobe\n'), { filename: 'rois.csv' });
    expect(rows.rois!.map((r) => [r.roi, r.parent, r.is_primary])).toEqual([['brain', '', '0'], ['AL(R)', 'brain', '1']]);
    expect(await failure(ingest(bytesSource('roi,parent,primary\nAL(R),brain,true\n'), { filename: 'rois.csv' }))).toBe('rois.csv row 1 column parent: parent "brain" of ROI "AL(R)" is not an ROI of the file');
  });
});

describe('ingestTable on Arrow and Parquet (fixtures written by pyarrow: make_fixtures.py)', () => {
  const BIG_FIRST = '9223372036854774990';
  for (const name of ['synapses_flywire.feather', 'synapses_flywire_zstd.feather', 'synapses_flywire.arrows', 'synapses_flywire_snappy.parquet', 'synapses_flywire_zstd.parquet']) {
    it(`${name}: FlyWire synapses with 64-bit ids above 2^53 exactly, the postsynaptic point, argmax transmitter`, async () => {
      const { rows, summary } = await ingest(fileSource(FIXTURE(name)), { filename: name });
      expect(summary).toMatchObject({ kind: 'synapses', layout: 'flywire_synapses', rows: 10, synapseIdCheck: 'file' });
      const s = rows.synapses!;
      expect(s.map((r) => r.synapse_id)).toEqual(Array.from({ length: 10 }, (_, i) => (BigInt(BIG_FIRST) + BigInt(i)).toString()));
      expect(s[0]).toMatchObject({ pre: '720575940614418897', post: '720575940597856265', x: '400004', y: '200004', z: '80040', roi: 'GNG', cleft_score: '50', connection_score: '100.5' });
      // probabilities of row 0: gaba 0, ach .3, glut .6, oct .9, ser .2, da .5
      expect(s[0].transmitter).toBe('oct');
      expect(s[3].roi).toBe('AL_R');
    });
  }

  it('reads numbers, 64-bit ids and dictionary text from the buffers, and nulls and other types cell by cell', async () => {
    // Root ids above 2^53 as Int64, a size column with a null, an Int32 position, a dictionary-encoded ROI, and a
    // batch that is a slice of a longer one (its values start past the buffer's beginning).
    const n = 6;
    const columns = {
      id: BigInt64Array.from({ length: n + 2 }, (_, i) => BigInt(100 + i)),
      pre_pt_root_id: BigInt64Array.from({ length: n + 2 }, (_, i) => 720575940614418897n + BigInt(i)),
      post_pt_root_id: BigInt64Array.from({ length: n + 2 }, () => 720575940597856265n),
      ctr_pt_position_x: Int32Array.from({ length: n + 2 }, (_, i) => 1000 + i),
      ctr_pt_position_y: Float32Array.from({ length: n + 2 }, (_, i) => 2000.5 + i),
      ctr_pt_position_z: Float64Array.from({ length: n + 2 }, (_, i) => 300 + i),
    };
    const numbers = tableFromArrays(columns);
    const whole = Object.fromEntries(Object.keys(columns).map((name) => [name, numbers.getChild(name as keyof typeof columns)!]));
    const neuropil = vectorFromArray(['GNG', 'AL_R', 'GNG', 'PRW', 'AL_R', 'GNG', 'PRW', 'GNG'], new Dictionary(new Utf8(), new Int32()));
    const size = vectorFromArray([10, null, 30, 40, 50, 60, 70, 80], new Float32());
    const table = new Table({ ...whole, neuropil, size }).slice(2);
    const bytes = tableToIPC(table, 'stream');
    const { rows, summary } = await ingest(bytesSource(bytes), { filename: 'synapses.arrows' });
    expect(summary).toMatchObject({ layout: 'cave_synapses', rows: n });
    expect(rows.synapses!.map((r) => [r.synapse_id, r.pre, r.x, r.y, r.z, r.roi, r.size])).toEqual(
      Array.from({ length: n }, (_, k) => {
        const i = k + 2;
        return [String(100 + i), String(720575940614418897n + BigInt(i)), String(1000 + i), String(2000.5 + i), String(300 + i), ['GNG', 'AL_R', 'GNG', 'PRW', 'AL_R', 'GNG', 'PRW', 'GNG'][i], String([10, null, 30, 40, 50, 60, 70, 80][i])];
      }),
    );
    const withNull = tableToIPC(new Table({ ...whole, neuropil, size }), 'stream');
    const again = await ingest(bytesSource(withNull), { filename: 'synapses.arrows' });
    expect(again.rows.synapses!.map((r) => r.size)).toEqual(['10', '\\N', '30', '40', '50', '60', '70', '80']);
  });

  it('reads an Arrow file whose schema is in its footer only, as apache-arrow writes them', async () => {
    const bytes = footerOnlyArrowSynapses();
    // What makes this file different: after the magic, its first message is the dictionary, not the schema.
    expect(Message.decode(bytes.subarray(16, 16 + new DataView(bytes.buffer, bytes.byteOffset).getInt32(12, true))).isSchema()).toBe(false);
    expect(await inspectTable(bytesSource(bytes), 'synapses.arrow')).toMatchObject({ format: 'arrow_file', kind: 'synapses' });
    const { rows, summary } = await ingest(bytesSource(bytes), { filename: 'synapses.arrow' });
    expect(summary).toMatchObject({ layout: 'cave_synapses', rows: 3 });
    expect(rows.synapses!.map((r) => [r.synapse_id, r.pre, r.post, r.x, r.roi])).toEqual([
      ['1', '720575940614418897', '720575940597856265', '1', 'GNG'],
      ['2', '720575940614418897', '720575940597856266', '2', 'AL_R'],
      ['3', '720575940614418898', '720575940597856265', '3', 'GNG'],
    ]);
  });

  for (const name of ['synapses_cave.parquet', 'synapses_cave.feather']) {
    it(`${name}: CAVE synapses with a list-column position and unsigned 64-bit root ids`, async () => {
      const { rows, summary } = await ingest(fileSource(FIXTURE(name)), { filename: name });
      expect(summary).toMatchObject({ layout: 'cave_synapses', rows: 6 });
      expect(rows.synapses![1]).toMatchObject({ synapse_id: '158000001', pre: '720575940627150778', post: '720575940610788069', x: '1001', y: '2001', z: '301', size: '110' });
    });
  }

  it('inspectTable tells format, columns and kind from the start of a file or a Parquet footer', async () => {
    expect(await inspectTable(fileSource(FIXTURE('synapses_cave.parquet')), 'synapses_cave.parquet')).toEqual({
      format: 'parquet',
      gzip: false,
      columns: ['id', 'pre_pt_root_id', 'post_pt_root_id', 'size', 'ctr_pt_position'],
      kind: 'synapses',
    });
    expect(await inspectTable(fileSource(SEED('flywire_783', 'classification.csv.gz')), 'classification.csv.gz')).toMatchObject({ format: 'csv', gzip: true, kind: 'annotations' });
    expect(await inspectTable(fileSource(FIXTURE('synapses_flywire.feather')), 'x.feather')).toMatchObject({ format: 'arrow_file', kind: 'synapses' });
    expect(await inspectTable(fileSource(packagePath('seed', 'connectomes', 'celegans_varshney_2011', 'connections.csv')), 'connections.csv')).toMatchObject({ kind: null, columns: ['pre', 'post', 'synapse_type', 'weight'] });
  });

  it('refuses a truncated Arrow stream and a file that is no table', async () => {
    const bytes = readFileSync(FIXTURE('synapses_flywire.arrows'));
    expect(await failure(ingest(bytesSource(bytes.subarray(0, bytes.length - 100)), { filename: 'synapses.arrows' }))).toMatch(/^synapses\.arrows: unreadable Arrow data/);
    expect(await failure(ingest(bytesSource('colour,size\nred,3\n'), { filename: 'synapses.csv' }))).toMatch(/^synapses\.csv: not a synapse-level table/);
  });
});

describe('ingestTable on CAVE and FlyWire CSV exports', () => {
  it('reads "[x y z]" positions, split _x/_y/_z columns, and a mapping of another layout', async () => {
    const text = await ingest(bytesSource('id,pre_pt_root_id,post_pt_root_id,size,ctr_pt_position\n1,720575940614418897,720575940597856265,10,"[1 2 3]"\n2,720575940614418897,0,11,[4 5 6]\n'), { filename: 'synapses.csv' });
    expect(text.rows.synapses!.map((r) => [r.pre, r.post, r.x, r.y, r.z])).toEqual([['720575940614418897', '720575940597856265', '1', '2', '3'], ['720575940614418897', '', '4', '5', '6']]);
    const split = await ingest(bytesSource('id,pre_pt_root_id,post_pt_root_id,ctr_pt_position_x,ctr_pt_position_y,ctr_pt_position_z\n7,1,2,1.5,2.5,3.5\n'), { filename: 'synapses.csv' });
    expect(split.rows.synapses![0]).toMatchObject({ synapse_id: '7', x: '1.5', y: '2.5', z: '3.5' });
    const mapped = await ingest(bytesSource('a,b,px,py,pz,where\nn1,n2,1,2,3,AL\n'), { filename: 'my.csv', kind: 'synapses', mapping: { pre: 'a', post: 'b', x: 'px', y: 'py', z: 'pz', roi: 'where' } });
    expect(mapped.summary.layout).toBe('mapping');
    expect(mapped.rows.synapses![0]).toMatchObject({ pre: 'n1', post: 'n2', synapse_id: 'my.csv:1', roi: 'AL' });
  });

  it('names file, row and column for a non-integer id, a duplicate synapse id and missing columns', async () => {
    const head = 'id,pre_pt_root_id,post_pt_root_id,post_x,post_y,post_z\n';
    expect(await failure(ingest(bytesSource(`${head}1,7205759406144188.5,2,1,2,3\n`), { filename: 'synapses.csv' }))).toBe('synapses.csv row 1 column pre_pt_root_id: id "7205759406144188.5" is not an integer');
    expect(await failure(ingest(bytesSource(`${head}1,3,2,1,2,3\n1,3,2,1,2,3\n`), { filename: 'synapses.csv' }))).toBe('synapses.csv row 2 column id: synapse id 1 already appears in row 1');
    expect(await failure(ingest(bytesSource('id,pre_pt_root_id,post_pt_root_id\n1,2,3\n'), { filename: 'synapses.csv', kind: 'synapses' }))).toMatch(/^synapses\.csv: missing required columns/);
    expect(await failure(ingest(bytesSource('a,b\n1,2\n'), { filename: 'x.csv', kind: 'synapses', mapping: { pre: 'nope' } }))).toMatch(/column mapping maps pre to column "nope"/);
  });

  // About 9 s on an idle machine, several times that while the full suite runs its engine sets side by side.
  it('streams a generated million-row CSV in many batches, ids checked across batches by their order', async () => {
    const rows = 1_000_000;
    async function* generate() {
      yield Buffer.from('id,pre_pt_root_id,post_pt_root_id,post_x,post_y,post_z,neuropil\n');
      for (let start = 0; start < rows; start += 10_000) {
        let s = '';
        for (let i = start; i < start + 10_000; i++) s += `72057594${String(i).padStart(10, '0')},720575940614418897,720575940597856265,${i},2,3,GNG\n`;
        yield Buffer.from(s);
      }
    }
    let chunks = 0;
    let total = 0;
    let largest = 0;
    let last = '';
    const summary = await drainTable(ingestTable({ open: async () => generate() }, { ...base, filename: 'synapses.csv' }), (c) => {
      chunks++;
      total += c.rows;
      largest = Math.max(largest, c.tsv.length);
      last = c.tsv.slice(c.tsv.lastIndexOf('\n', c.tsv.length - 2) + 1);
    });
    expect(total).toBe(rows);
    expect(chunks).toBeGreaterThan(10);
    // Each chunk is one batch's rows: a few MB, not the file.
    expect(largest).toBeLessThan(16 * 1024 * 1024);
    expect(summary).toMatchObject({ rows, synapseIdCheck: 'file' });
    expect(last.split('\t').slice(2, 6)).toEqual(['720575940614418897', '720575940597856265', `72057594${String(rows - 1).padStart(10, '0')}`, String(rows - 1)]);
  }, 240_000);

  it('cuts chunks only between records: quoted fields with line breaks and commas survive chunk boundaries', async () => {
    const n = 200_000;
    const id = (i: number) => `7205759406${String(i).padStart(8, '0')}`;
    let csv = 'root_id,cell_type,notes\n';
    for (let i = 0; i < n; i++) csv += `${id(i)},T4,"seen twice,\nonce ""here"""\n`;
    expect(csv.length).toBeGreaterThan(2 * 4 * 1024 * 1024);
    const { rows, summary } = await ingest(bytesSource(csv, 100_000), { filename: 'classification.csv' });
    expect(summary.rows).toBe(n);
    expect(JSON.parse(rows.neuron_annotations![n - 1].extra)).toEqual({ notes: 'seen twice,\nonce "here"' });
    expect(rows.neuron_annotations![n - 1].neuron_id).toBe(id(n - 1));
  });

  it('checks synapse ids only within batches when they do not ascend through the file', async () => {
    let csv = 'id,pre_pt_root_id,post_pt_root_id,post_x,post_y,post_z\n';
    for (let i = 200_000; i > 0; i--) csv += `${i},720575940614418897,720575940597856265,1,2,3\n`;
    const { summary } = await ingest(bytesSource(csv), { filename: 'synapses.csv' });
    expect(summary).toMatchObject({ rows: 200_000, synapseIdCheck: 'batch' });
  });

  it('reads gzip by its magic bytes whatever the name', async () => {
    const gz = gzipSync('pre_root_id,post_root_id,neuropil,syn_count,nt_type\n1,2,GNG,5,GABA\n');
    const { rows } = await ingest(bytesSource(gz), { filename: 'connections.csv' });
    expect(rows.roi_connections![0]).toMatchObject({ pre: '1', post: '2', roi: 'GNG', weight: '5', transmitter: 'gaba' });
  });
});
