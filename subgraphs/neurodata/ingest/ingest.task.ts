import { badInputAsValue, type TaskOutcome } from '../../../lib/workers/outcome.js';
import { parseConnectionsCsv, parseNeuronsCsv, type ParsedConnections, type ParsedNeurons, type TableFileInput } from './connectome-csv.js';
import { mergeAnnotationRows, type MergedAnnotations } from './annotation-merge.js';
import { encodeMorphologyRow, parseSwc, type MorphologyRow, type MorphologySummary } from './swc.js';

/**
 * Worker-thread entry points of dataset file ingestion (lib/workers/pool.ts): parsing, validating and encoding a
 * table of millions of rows is CPU work that must not hold up the request thread. A problem with the file comes
 * back as a value, since an error's class does not survive the trip between threads; anything else is a fault and
 * is thrown.
 */
export type IngestTaskResult<T> = TaskOutcome<T>;

export type NeuronsTaskInput = TableFileInput;
export type ConnectionsTaskInput = TableFileInput & { neuronIds?: string[] };
export type SwcTaskInput = TableFileInput & { neuron: string; objectKey: string; sha256: string };

export interface ParsedMorphology {
  summary: MorphologySummary;
  warnings: string[];
  row: MorphologyRow;
  /** The row as one TabSeparated line in MORPHOLOGY_COLUMNS order, ending in '\n'. */
  tsv: string;
}


export async function parseNeuronsTask(input: NeuronsTaskInput): Promise<IngestTaskResult<ParsedNeurons>> {
  return badInputAsValue(() => parseNeuronsCsv(input));
}

export async function parseConnectionsTask(input: ConnectionsTaskInput): Promise<IngestTaskResult<ParsedConnections>> {
  return badInputAsValue(() => parseConnectionsCsv(input));
}

export async function parseSwcTask(input: SwcTaskInput): Promise<IngestTaskResult<ParsedMorphology>> {
  return badInputAsValue(() => {
    const { summary, warnings } = parseSwc(input.text, input.filename);
    const row: MorphologyRow = {
      datasetId: input.datasetId,
      version: input.version,
      neuron: input.neuron,
      file: input.filename,
      objectKey: input.objectKey,
      sha256: input.sha256,
      ...summary,
    };
    return { summary, warnings, row, tsv: encodeMorphologyRow(row) };
  });
}

/** Merges the encoded annotation rows of a draft's annotation files into one row per neuron (annotation-merge.ts). */
export async function mergeAnnotationsTask(input: { files: string[][]; datasetId: string; version: number }): Promise<IngestTaskResult<MergedAnnotations>> {
  return badInputAsValue(() => mergeAnnotationRows(input.files, input));
}
