import { unescapeTsv } from '../../../lib/column/tsv.js';
import { NEURON_ANNOTATION_COLUMNS, NEURON_COLUMNS } from '../store/clickhouse/columns.js';
import { assertColumnOrder, TsvChunks, tsvString } from './tsv.js';

/**
 * Several annotation files describe the same neurons (FlyWire publishes the classification and the transmitter
 * predictions as two tables): their rows are merged into one row per neuron. For each column the first file (in
 * the order given) with a value for the neuron wins; `extra` is the union of the files' other columns, the first
 * file again winning a key both have. Each merged row also gives the neuron's `neurons` row (name = instance, else
 * type; cell_class = type; cell_type = super_class; neurotransmitter = transmitter; soma as its position), so the
 * routes and analyses that read `neurons` see every annotated neuron.
 *
 * Pure: runs on a worker thread (ingest.task.ts). The input is each file's encoded `neuron_annotations` rows.
 */

assertColumnOrder('neuron_annotations', NEURON_ANNOTATION_COLUMNS, [
  'dataset_id', 'version', 'neuron_id', 'instance', 'type', 'class', 'super_class', 'sub_class', 'hemilineage', 'side', 'status',
  'transmitter', 'transmitter_confidence', 'soma_x', 'soma_y', 'soma_z', 'extra',
]);
assertColumnOrder('neurons', NEURON_COLUMNS, ['dataset_id', 'version', 'neuron_id', 'name', 'cell_class', 'cell_type', 'neurotransmitter', 'is_neuron', 'region_code', 'x', 'y', 'z']);

const FIELDS = NEURON_ANNOTATION_COLUMNS.length;
const ID = 2;
const EXTRA = FIELDS - 1;
const NULL = '\\N';

export interface MergedAnnotations {
  /** Distinct neurons annotated. */
  neurons: number;
  annotationChunks: string[];
  neuronChunks: string[];
}

const isEmpty = (field: string) => field === '' || field === NULL;

/** Merges the encoded annotation rows of several files (each a list of TSV chunks), the first file first. */
export function mergeAnnotationRows(files: readonly (readonly string[])[], at: { datasetId: string; version: number }): MergedAnnotations {
  const byId = new Map<string, string[]>();
  const extras = new Map<string, Record<string, string>>();
  for (const chunks of files) {
    for (const chunk of chunks) {
      let start = 0;
      while (start < chunk.length) {
        let end = chunk.indexOf('\n', start);
        if (end < 0) end = chunk.length;
        const fields = chunk.slice(start, end).split('\t');
        start = end + 1;
        if (fields.length !== FIELDS) throw new Error(`an encoded annotation row has ${fields.length} fields, not ${FIELDS}`);
        const id = fields[ID];
        const have = byId.get(id);
        if (!have) {
          byId.set(id, fields);
          continue;
        }
        for (let i = ID + 1; i < EXTRA; i++) if (isEmpty(have[i]) && !isEmpty(fields[i])) have[i] = fields[i];
        if (fields[EXTRA] !== '' && fields[EXTRA] !== '{}') {
          const merged = extras.get(id) ?? parseExtra(have[EXTRA]);
          for (const [k, v] of Object.entries(parseExtra(fields[EXTRA]))) if (!(k in merged)) merged[k] = v;
          extras.set(id, merged);
        }
      }
    }
  }
  const annotations = new TsvChunks();
  const neurons = new TsvChunks();
  const ids = [...byId.keys()].sort();
  const prefix = `${tsvString(at.datasetId)}\t${at.version}\t`;
  for (const id of ids) {
    const f = byId.get(id)!;
    const extra = extras.get(id);
    if (extra) f[EXTRA] = tsvString(JSON.stringify(sortedKeys(extra)));
    f[0] = tsvString(at.datasetId);
    f[1] = String(at.version);
    annotations.add(`${f.join('\t')}\n`);
    const [instance, type, , superClass] = [f[3], f[4], f[5], f[6]];
    const name = instance !== '' ? instance : type;
    // soma_x..z are columns 13..15 of the annotation row; the neurons row takes them as its x, y, z.
    neurons.add(`${prefix}${id}\t${name}\t${type}\t${superClass}\t${f[11]}\t1\t\t${f[13]}\t${f[14]}\t${f[15]}\n`);
  }
  return { neurons: ids.length, annotationChunks: annotations.finish(), neuronChunks: neurons.finish() };
}

function parseExtra(field: string): Record<string, string> {
  if (field === '' || field === '{}') return {};
  return JSON.parse(unescapeTsv(field)) as Record<string, string>;
}

function sortedKeys(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}
